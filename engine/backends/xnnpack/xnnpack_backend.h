// The `xnnpack` backend: tensors in host memory, ops as XNNPACK operators (Debian's 2022 snapshot)
// on the Engine's thread pool. Operators and their packed weights are made once per node and kept
// in a cache the backend owns. Ops the snapshot lacks (and int32/bool/string nodes) run through the
// cpu kernels on the same host buffers, without a copy; native() and last_path() say which is
// which.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/xnnpack/operator_cache.h"
#include "backends/xnnpack/pool_choice.h"
#include "backends/xnnpack/subgraph_runtime.h"
#include "backends/xnnpack/worker_spin.h"
#include "runtime/backend.h"
#include "runtime/host_data.h"
#include "runtime/partition.h"

namespace tfjsi::xnnpack {

// A host buffer (or string list) as this backend holds it; the tensor gives dtype and shape.
class XnnData final : public runtime::HostData {
 public:
  using HostData::HostData;
  // The buffer with XNN_EXTRA_BYTES readable past its end. Owned buffers have that slack
  // (Buffer::kSlack); borrowed ones (a memory-mapped weight shard) are copied once, here.
  const std::shared_ptr<Buffer>& padded();
};

// How a node ran the last time this backend ran it.
enum class Path {
  NotRun,
  Xnnpack,    // through XNNPACK operators (or the backend's own depthwise kernel)
  View,       // no work: the output shares the input's buffer (Reshape, Squeeze, ExpandDims)
  CpuKernel,  // through a cpu kernel on the same host buffers
  Subgraph,   // inside a partition's XNNPACK subgraph runtime
};
std::string_view to_string(Path p);  // "not_run", "xnnpack", "view", "cpu_kernel", "subgraph"

struct XnnStats {
  std::int64_t native_runs = 0, view_runs = 0, cpu_kernel_runs = 0;
  std::int64_t setups = 0;  // xnn_setup_* calls (one per operator per run)
  std::int64_t pads = 0;    // borrowed buffers copied to get XNN_EXTRA_BYTES of slack
  // Nodes outside partitions run on the thread pool, and timed both ways (pool_choice.h).
  std::int64_t pooled_node_runs = 0, node_trials = 0;
};

class XnnpackBackend final : public runtime::Backend, public runtime::PartitionRunner {
 public:
  XnnpackBackend() = default;
  ~XnnpackBackend() override;
  XnnpackBackend(const XnnpackBackend&) = delete;
  XnnpackBackend& operator=(const XnnpackBackend&) = delete;

  std::string_view name() const override { return "xnnpack"; }
  int priority() const override { return 200; }
  runtime::Availability availability() override;
  // xnnpack.subgraph: partitions run as XNNPACK subgraph runtimes (else operator by operator).
  void declare_flags(runtime::Flags& flags) override;

  // Every node a cpu kernel exists for: what XNNPACK lacks runs through that kernel here.
  bool supports(const graph::Node& node) const override;
  // XNNPACK operators, subgraph nodes, and the view ops it reshapes in place; not the cpu
  // kernels it runs for the rest.
  std::vector<std::string_view> native_ops() const override;
  std::shared_ptr<runtime::BackendData> upload(const HostTensor& host) override;
  HostTensor download(const runtime::TensorView& tensor) override;
  std::vector<runtime::TensorView> run(const graph::Node& node,
                                       std::span<const runtime::TensorView> inputs,
                                       const runtime::RunContext& ctx) override;
  runtime::BackendMemory memory() const override;
  // Runs of nodes a subgraph takes (subgraph_runtime.h), each run as one XNNPACK runtime.
  std::vector<std::vector<int>> partition(const graph::Graph& graph,
                                          const runtime::Plan& plan) const override;
  const graph::Graph& partition_shapes(const graph::Graph& graph) const override;
  std::optional<std::vector<runtime::TensorView>> run_partition(
      const graph::Graph& graph, const runtime::Partition& partition,
      std::span<const runtime::TensorView> inputs, const runtime::RunContext& ctx) override;
  void end_run() override;
  void trim_caches() override { runtimes_.clear(); }

  // Whether the node is expected to run through an XNNPACK operator (or as a view): its op has
  // one and its attributes and known dtypes fit it. Shapes and input values decide at run time;
  // last_path() tells what happened.
  bool native(const graph::Node& node) const;
  // What the last run of `node` (this Node object) did here.
  Path last_path(const graph::Node& node) const;

  // The engine's common counters: the subgraph runtimes' (runtimes().stats()).
  runtime::BackendStats stats() override;
  void reset_stats() override;
  // This backend's own counters (operator paths, setups, padded copies).
  const XnnStats& xnn_stats() const { return stats_; }
  OperatorCache& cache() { return cache_; }
  const OperatorCache& cache() const { return cache_; }
  // Whether the pool's workers spin between the pieces of a run (worker_spin.h).
  const WorkerSpin& worker_spin() const { return spin_; }
  SubgraphRuntimes& runtimes() { return runtimes_; }
  const SubgraphRuntimes& runtimes() const { return runtimes_; }

 private:
  void start();

  bool started_ = false;
  bool initialized_ = false;
  runtime::Availability availability_;
  OperatorCache cache_;
  SubgraphRuntimes runtimes_;
  WorkerSpin spin_;
  // Per graph with inputs of unknown dims: a copy with them static, for partitions' shapes.
  mutable std::map<const graph::Graph*, std::unique_ptr<graph::Graph>> shaped_;
  XnnStats stats_;
  std::unordered_map<const graph::Node*, Path> paths_;
  // Per node outside partitions whose work needed a trial: that work, and whether the pool won.
  struct NodePool {
    double work = 0;
    bool pool = false;
    PoolGuard guard;  // while on the pool
  };
  std::unordered_map<const graph::Node*, NodePool> node_pools_;
};

std::unique_ptr<runtime::Backend> make_xnnpack_backend();

}  // namespace tfjsi::xnnpack
