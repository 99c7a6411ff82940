// The one way to watch a run: before and after each node the executor runs, every registered
// observer sees the node, its tensors and the wall time. The profiler, the debug log, the fp16
// check, the backend comparison and GUI overlays are observers.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "graph/ir.h"
#include "runtime/tensor.h"

namespace tfjsi::runtime {

class Engine;

struct KernelEvent {
  Engine& engine;
  const graph::Node& node;
  std::string_view backend;  // the backend that ran it, or "executor" for ops the executor runs
  // Tensor inputs in order; a non-tensor input (TensorArray, TensorList) is a default handle.
  std::span<const Tensor> inputs;
  // after_kernel only (empty before): one per output, a default handle for a dead or non-tensor
  // output. An observer may replace an entry (it then disposes the tensor it replaced); the
  // replacement is what consumers see.
  std::vector<Tensor>& outputs;
  double ms = 0;  // after_kernel only: the node's wall time
  // after_kernel only, backend "fused": the node whose kernel computed this one (PlanNode::fused).
  const graph::Node* fused_into = nullptr;
  // Where some of the node's values are no tensors to look at (the nodes of a partition a backend
  // ran as one: their values inside it stay there), the graph whose shape inference gave them
  // their static shapes (graph::TensorInfo of each node's outputs; PartitionRunner::
  // partition_shapes) and the node's index there. Null elsewhere.
  const graph::Graph* graph = nullptr;
  int index = -1;
};

class Observer {
 public:
  virtual ~Observer() = default;
  // Whether it looks at the value of every node's own output. Then the executor runs each node as
  // its own kernel; an observer that only times, counts or logs says no, and leaves the backend
  // free to run a node inside the kernel before it (a bias add, an activation; it then forwards).
  virtual bool needs_every_output() const { return true; }
  // Whether it reads KernelEvent::ms as the node's own time. The executor then waits for each
  // node's work to be done (Backend::finish) before it stops the clock: a backend that queues work
  // (gl on a real GPU) would otherwise report the time to submit it.
  virtual bool times_kernels() const { return false; }
  virtual void run_started() {}
  virtual void before_kernel(const KernelEvent& /*event*/) {}
  virtual void after_kernel(KernelEvent& /*event*/) {}
  virtual void run_finished() {}
  // Work a backend does before a node can run, which can take seconds (gl building its programs:
  // stage "compiling"): `done` steps of `total`, total 0 when not known. On the running thread.
  virtual void on_progress(std::string_view /*stage*/, std::int64_t /*done*/,
                           std::int64_t /*total*/) {}
};

}  // namespace tfjsi::runtime
