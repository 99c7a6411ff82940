// Runs a graph on the Engine's active backend: checks the inputs against the graph's, makes (and
// caches) a plan per (active backend, precision, requested outputs), runs it node by node with
// TF1 frames and iterations when the graph has loops, frees each intermediate after its last
// consumer, keeps weights resident between runs, and tells the Engine's observers about every node.
// The model's resources (hash tables) live here, from the model initializer's one run (before the
// first run of the graph) until the executor dies, as TF.js keeps them in its GraphModel's
// ResourceManager.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/host_tensor.h"
#include "graph/ir.h"
#include "graph/transpose_sinking.h"
#include "runtime/engine.h"
#include "runtime/plan.h"
#include "runtime/value.h"

namespace tfjsi::runtime {

// Model inputs by name: an input endpoint's name (the signature key) or its Placeholder's name.
using NamedTensors = std::map<std::string, HostTensor, std::less<>>;

class GraphRunner;

// What a run of the model's graph held at most at once (function bodies not counted): the
// contexts of TF1 frames and iterations, and the node outputs stored in them. Both stay flat
// however many iterations a loop runs.
struct RunStats {
  std::size_t peak_contexts = 0;
  std::size_t peak_slots = 0;
};

class Executor {
 public:
  // `graph` must outlive the executor. Weights (Const values) become resident tensors now, made
  // once and shared by every run (they move to another backend lazily, the first time it needs
  // them). Throws ModelError for a Const without a value or a missing function body.
  Executor(Engine& engine, const graph::Graph& graph);
  ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  // Runs the graph. `outputs` names output endpoints (graph.outputs' names) or node outputs
  // ("node" or "node:1"); empty means graph.outputs in order. Throws ModelError naming the input
  // for a missing, unknown, wrongly typed or shaped input (or one holding NaN, unless `prod`),
  // and naming the node for a failing kernel. Every tensor the run made is disposed on return,
  // whether it succeeds or throws.
  std::vector<HostTensor> run(const NamedTensors& inputs,
                              std::span<const std::string> outputs = {});

  // The plan the next run with these outputs uses (active backend, current precision).
  const Plan& plan(std::span<const std::string> outputs = {});
  const graph::Graph& graph() const { return graph_; }
  // What graph::sink_transposes made of the graph (nullopt while flag sink_transposes has been
  // off since the executor was made); runs without an observer of every node output use the sunk
  // graph when it moves fewer elements through Transposes.
  const std::optional<graph::SinkReport>& sink_report() const { return sink_report_; }
  // Of the last run that succeeded; filled for graphs with TF1 control flow only.
  const RunStats& last_run_stats() const;

 private:
  std::vector<graph::TensorRef> resolve_outputs(std::span<const std::string> names) const;
  // The runner of this run and the outputs' refs in its graph.
  GraphRunner& runner();
  // Makes the sunk graph and its runner, once.
  void prepare_sunk();
  std::vector<graph::TensorRef> refs_in(const GraphRunner& r,
                                        std::vector<graph::TensorRef> refs) const;
  std::vector<Value> feeds_from(const NamedTensors& inputs);
  void run_initializer();

  Engine& engine_;
  const graph::Graph& graph_;
  std::unique_ptr<Resources> resources_;
  std::unique_ptr<graph::Graph> initializer_;  // graph_.initializer as a graph; null once it ran
  std::unique_ptr<GraphRunner> runner_;
  // The graph with its Transposes sunk, and its runner (sharing runner_'s weights): made with the
  // executor when flag sink_transposes is on, else on the first run after it is turned on.
  bool sink_tried_ = false;
  std::optional<graph::SinkReport> sink_report_;
  std::optional<graph::Graph> sunk_graph_;
  std::unique_ptr<GraphRunner> sunk_runner_;
  const GraphRunner* last_runner_ = nullptr;
};

}  // namespace tfjsi::runtime
