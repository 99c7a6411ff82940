// XNNPACK runtimes for a plan's partitions: which runs of nodes become one (partition_plan), and
// the runtimes themselves, made once per (partition, input shapes, weights, pool) and reused.
#pragma once

#include <xnnpack.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/partition.h"

namespace tfjsi::xnnpack {

// Runs of consecutive nodes of `plan` on `self` that a subgraph takes with the static shapes
// `shapes` gives them (`graph`, or a copy of it with static input shapes:
// graph::with_static_inputs); runs made only of views (Reshape...) are left to the operator path,
// where they cost nothing.
std::vector<std::vector<int>> partition_plan(const graph::Graph& graph, const graph::Graph& shapes,
                                             const runtime::Plan& plan,
                                             const runtime::Backend& self);

struct SubgraphStats {
  std::int64_t runs = 0;      // partitions run through a runtime
  std::int64_t created = 0;   // runtimes made (each packs its weights)
  std::int64_t refused = 0;   // partitions XNNPACK would not take: they run node by node
  std::int64_t declined = 0;  // runs left to the operator path (flag off, other shapes)
  std::int64_t pooled = 0;    // runtimes made on the thread pool
  std::int64_t single = 0;    // runtimes made on the calling thread alone (little work)
};

// A partition's work below this (multiply-adds, or elements for memory-bound ops) runs on the
// calling thread: waking the pool's workers costs more than sharing it. Above it, the partition
// runs kTrialRuns times on the calling thread and as many on the pool, alternately, and keeps
// the pool only if it is clearly faster on average:
// every operator of a pooled runtime waits for all workers, which on a machine whose cores are
// taken by other processes costs a scheduler time slice each, so only a measurement tells.
inline constexpr double kPoolWork = 1 << 21;
inline constexpr std::size_t kTrialRuns = 4;

class SubgraphRuntimes {
 public:
  SubgraphRuntimes() = default;
  ~SubgraphRuntimes();
  SubgraphRuntimes(const SubgraphRuntimes&) = delete;
  SubgraphRuntimes& operator=(const SubgraphRuntimes&) = delete;

  // Runs the partition; nullopt when it cannot as planned (shapes other than inferred, XNNPACK
  // refused the subgraph): the executor then runs its nodes one by one.
  std::optional<std::vector<runtime::TensorView>> run(const graph::Graph& graph,
                                                      const graph::Graph& shapes,
                                                      const runtime::Partition& partition,
                                                      std::span<const runtime::TensorView> inputs,
                                                      pthreadpool_t pool);

  void clear() { entries_.clear(); }
  // Drops runtimes whose weights are gone (a closed model).
  void prune();
  std::size_t size() const { return entries_.size(); }
  const SubgraphStats& stats() const { return stats_; }
  void reset_stats() { stats_ = {}; }
  void note_declined() { ++stats_.declined; }  // a run the caller kept from the runtimes

 private:
  struct RuntimeDeleter {
    void operator()(xnn_runtime_t r) const { xnn_delete_runtime(r); }
  };
  struct Entry {
    std::vector<int> nodes;
    std::vector<graph::TensorRef> outputs;
    std::string fingerprint;  // what the nodes compute (ops, names, attributes)
    std::vector<Shape> shapes;  // of the partition's inputs
    // Per input: the weight buffer a runtime packed or reads (empty for activations).
    std::vector<std::weak_ptr<const Buffer>> weights;
    std::vector<const std::byte*> weight_ptrs;
    pthreadpool_t pool = nullptr;       // the runtime's: the pool, or null (calling thread)
    pthreadpool_t candidate = nullptr;  // the pool, when the partition holds enough work
    std::size_t threads = 0;
    // While the trial runs: the runtime on the other side (pool or calling thread), and times.
    std::unique_ptr<xnn_runtime, RuntimeDeleter> other;
    std::vector<double> single_ms, pooled_ms;
    std::vector<std::vector<float>> data;                  // static values the runtime reads
    std::unique_ptr<xnn_runtime, RuntimeDeleter> runtime;  // null: XNNPACK refused
    std::vector<std::uint32_t> input_ids;                  // per input; invalid for weights
  };
  // Records a trial run's time; switches runtimes or settles on the faster.
  void trial(Entry& e, double ms);
  void build(Entry& e, const graph::Graph& graph, const graph::Graph& shapes,
             const runtime::Partition& p, std::span<const HostTensor> host, pthreadpool_t pool);

  // Keyed by the partition's first node (its address: one plan per graph and backend).
  std::map<const graph::Node*, Entry> entries_;
  SubgraphStats stats_;
};

}  // namespace tfjsi::xnnpack
