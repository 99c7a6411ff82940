// A plan: how one graph runs on one active backend at one precision, worked out once before the
// first run. Per node: who runs it (the executor itself, the active backend, or cpu as a fallback
// with a TFLite-style warning); per node output: how many consumers it has and where it dies;
// the segments of consecutive work on one backend and the sync points between them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "graph/ir.h"
#include "runtime/engine.h"
#include "runtime/partition.h"

namespace tfjsi::runtime {

struct PlanNode {
  bool needed = false;         // on a path to a requested output
  bool executor_op = false;    // run by the executor (control flow, TensorArray, Identity, ...)
  Backend* backend = nullptr;  // kernels: the backend that runs it
  bool fallback = false;       // the active backend cannot run it; cpu does
  // Needed nodes that consume this one (by a data or a control edge), each once.
  std::vector<int> consumers;
  // Per output: data edges from needed nodes plus one per time it is a requested output.
  std::vector<int> uses;
  // Per output: position in `order` of the last consumer; -1 when nothing reads it (it is freed
  // as soon as it is made). Requested outputs are never freed during a run.
  std::vector<int> last_use;
  // Fusion, offered by the backend (Backend::fuse): a chain of nodes, each the only reader of
  // the one before, on one backend, runs as the single kernel `fused` in the first node's place
  // (a convolution taking in the bias add and the activation after it). Every later node of the
  // chain has `fused_into` naming the first and forwards its input `fused_through`, which carries
  // the chain. The executor takes the offer when no observer needs every node's own output.
  std::optional<graph::Node> fused;
  int fused_into = -1;
  int fused_through = -1;
  // Index in Plan::partitions of the partition this node runs in (Backend::partition), or -1.
  int partition = -1;
  // Runs exactly once a run, in the root context: not inside a TF1 loop frame and not on a cond
  // branch a Switch may leave dead. Every node of a plan without TF1 control flow is; only such
  // nodes may be in a partition.
  bool straight = true;
};

struct Fallback {
  std::string node, op;
  std::string message;  // "op X (node Y) cannot be handled by backend B; it runs on cpu"
};

struct Segment {
  std::string backend;
  int first = 0, last = 0;  // positions in `order`
};

struct Plan {
  // The graph the plan's node indices refer to: the model's, or its form with the Transposes
  // sunk (Executor::sink_report) that runs take when no observer reads every node's output.
  const graph::Graph* graph = nullptr;
  std::string backend;
  Precision precision = Precision::Fp32;
  std::vector<graph::TensorRef> outputs;
  std::vector<PlanNode> nodes;  // by node index
  std::vector<int> order;       // needed nodes in topological order
  // TF1 control flow present: nodes run when their inputs are live, in frames and iterations,
  // instead of straight down `order`.
  bool dynamic = false;
  std::vector<Fallback> fallbacks;
  std::vector<Segment> segments;
  int sync_points = 0;  // kernel inputs that come from another backend
  int fusions = 0;      // nodes that may run inside the kernel of a node before them
  // Runs of nodes the backend takes as one unit (XNNPACK subgraph runtimes), when no observer
  // needs every node's output and the backend does not decline at run time.
  std::vector<Partition> partitions;
};

// Throws ModelError listing every op that no backend (not even cpu) can run.
Plan make_plan(const graph::Graph& graph, Engine& engine, Backend& active, Precision precision,
               std::vector<graph::TensorRef> outputs);

}  // namespace tfjsi::runtime
