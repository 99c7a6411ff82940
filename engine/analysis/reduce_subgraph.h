// One candidate of `tfjsi reduce` as a graph-model bundle: a set of the model's nodes, all of them
// needed by the culprit (so the culprit is the one node nothing reads: the model's output), and
// every tensor those nodes read from a node left out turned into a Placeholder fed with the value
// recorded for it. Graph models keep their nodes as
// model.json writes them (attributes untouched, weights stored as they were, quantized or not);
// layers models are written from their lowered graph (graph/graphdef_export.h). The same model is
// what each reduction step runs (built in memory, as our loader reads it) and what is written.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "graph/ir.h"
#include "model/bundle.h"
#include "runtime/executor.h"

namespace tfjsi::analysis {

// Per node of the main graph: its outputs' recorded values (nullopt: none).
using RecordedValues = std::vector<std::vector<std::optional<HostTensor>>>;

struct Subgraph {
  struct Input {
    std::string name;  // the Placeholder's
    HostTensor value;
  };
  struct WeightRef {
    std::string name;
    const model::Weight* stored = nullptr;  // written as the model stores it
    HostTensor value;                       // what it decodes to
  };
  nlohmann::ordered_json model_json;  // without weightsManifest
  std::vector<WeightRef> weights;
  std::vector<Input> inputs;
  int nodes = 0;  // in modelTopology (functions' bodies not counted)

  runtime::NamedTensors feeds() const;
  // The graph our loader makes of it. Throws ModelError as build_graph does.
  graph::Graph build() const;
};

class SubgraphMaker {
 public:
  // Both must outlive the maker. Throws ModelError when model.json cannot be read again.
  SubgraphMaker(const model::Bundle& bundle, const graph::Graph& graph);
  SubgraphMaker(const SubgraphMaker&) = delete;
  SubgraphMaker& operator=(const SubgraphMaker&) = delete;

  // `keep`: indices in graph.nodes, ascending: the culprit and nodes it needs. Throws ModelError
  // when a tensor to cut at has no recorded value.
  Subgraph make(const std::vector<int>& keep, const RecordedValues& values) const;

  // Writes `dir`/model.json and its shards (only the weights `s` uses). Returns the shard bytes.
  std::uint64_t write(const Subgraph& s, const std::filesystem::path& dir) const;

 private:
  nlohmann::ordered_json node_json(const graph::Node& n) const;
  const model::Weight* stored_weight(const graph::Node& n) const;

  const model::Bundle& bundle_;
  const graph::Graph& graph_;
  nlohmann::ordered_json model_json_;                                         // as written
  std::unordered_map<std::string, const nlohmann::ordered_json*> node_json_;  // graph models
};

}  // namespace tfjsi::analysis
