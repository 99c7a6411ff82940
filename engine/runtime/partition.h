// Partitions: runs of consecutive nodes (in plan order, with only weights between them) that one
// backend runs as one unit, as TFLite's delegates take partitions (XNNPACK's subgraph runtimes).
// A backend that does so implements PartitionRunner beside Backend; the plan asks it for its
// partitions once, and the executor runs each where its last node stands, so everything the
// partition reads from outside is made by then (in a plan with TF1 control flow, which runs by
// readiness, once all of that is live; such a partition holds only straight nodes). Observers
// hear of every node of it: the first with the partition's time, the others as backend "fused"
// with fused_into naming the first.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "graph/ir.h"
#include "runtime/backend.h"

namespace tfjsi::runtime {

struct Plan;

struct Partition {
  std::vector<int> nodes;                 // node indices, in plan order
  std::vector<graph::TensorRef> inputs;   // values it reads from outside (weights too), each once
  std::vector<graph::TensorRef> outputs;  // values of its nodes read outside it or requested
  // Lives as long as the plan holding the partition. A backend keys what it caches for the
  // partition by this token's address and keeps a weak_ptr to it: the allocation cannot be reused
  // while the weak_ptr lives, so a key never meets another graph's partition, and an expired
  // token says the cache entry can go.
  std::shared_ptr<const bool> token = std::make_shared<const bool>(true);
};

class PartitionRunner {
 public:
  virtual ~PartitionRunner() = default;
  // Runs of consecutive nodes of `plan` (each a list of node indices in plan order) this backend
  // runs as one unit. Asked once per plan, after fusion; only nodes the plan gives this backend
  // (not fused, not fallbacks) may be in one.
  virtual std::vector<std::vector<int>> partition(const graph::Graph& graph,
                                                  const Plan& plan) const = 0;
  // Runs a partition: `inputs` in Partition::inputs order, one view per Partition::outputs back.
  // nullopt declines this time (a flag, shapes other than planned, a refusal of the library):
  // the executor then runs its nodes one by one. Throws like Backend::run().
  virtual std::optional<std::vector<TensorView>> run_partition(const graph::Graph& graph,
                                                               const Partition& partition,
                                                               std::span<const TensorView> inputs,
                                                               const RunContext& ctx) = 0;
  // The graph (`graph` itself, or a copy with the same nodes) whose shape inference gave the
  // static shapes a partition of `graph` ran with: what observers read for its values inside.
  virtual const graph::Graph& partition_shapes(const graph::Graph& graph) const { return graph; }
};

}  // namespace tfjsi::runtime
