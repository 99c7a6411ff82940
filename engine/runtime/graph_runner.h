// The part of the executor that runs one graph: GraphRunner holds a graph's weights, plans and
// the runners of the functions it calls; graph_runner.cpp runs a plan (control flow, fallbacks,
// partitions). Executor (executor.cpp) is its public face. Internal to runtime/.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "graph/ir.h"
#include "runtime/engine.h"
#include "runtime/executor.h"
#include "runtime/plan.h"
#include "runtime/value.h"

namespace tfjsi::runtime {

// Runs one graph (the model, or a function body of it): its weights, its plans, and the runners
// of the functions its nodes call.
class GraphRunner {
 public:
  using Library = std::map<std::string, std::shared_ptr<const graph::Graph>, std::less<>>;
  // `library`: the model's functions (function bodies call them too); `calls`: the functions
  // whose bodies lead here, outermost first; `resources`: the model's (hash tables), which must
  // outlive the runner.
  // `donor`: a runner of another form of the same model (graph::sink_transposes) whose weights
  // this one shares where a Const of the same name holds the same data; it must outlive this one.
  GraphRunner(Engine& engine, const graph::Graph& graph, const Library& library,
              std::vector<std::string> calls, Resources& resources,
              const GraphRunner* donor = nullptr);
  ~GraphRunner();

  // Takes ownership of `feeds` (one per graph input, in order) and returns the values of
  // `outputs`, owned by the caller. Everything else the run made is disposed.
  std::vector<Value> run(std::vector<Value> feeds, const std::vector<graph::TensorRef>& outputs);
  const Plan& plan(const std::vector<graph::TensorRef>& outputs);

  Engine& engine;
  const graph::Graph& graph;
  Resources& resources;
  std::vector<Tensor> weights;  // by node index; alive for Const nodes
  std::vector<char> borrowed;   // by node index: the weight is the donor's, not disposed here
  std::map<std::string, std::unique_ptr<GraphRunner>, std::less<>> functions;
  // (backend, node) pairs whose kernel failed on that backend (a shader that does not compile, a
  // texture that cannot be allocated): those nodes run on cpu from then on, warned about once.
  std::set<std::pair<std::string, int>> faulted;
  RunStats last_stats;

 private:
  void dispose_weights();

  std::map<std::string, Plan> plans_;
};

}  // namespace tfjsi::runtime
