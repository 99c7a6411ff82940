// XNNPACK runtimes for a plan's partitions: which runs of nodes become one (partition_plan), and
// the runtimes themselves, made once per (partition, input shapes, weights, pool) and reused.
#pragma once

#include <xnnpack.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "backends/xnnpack/pool_choice.h"
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
  std::int64_t pooled = 0;    // runtimes kept on the thread pool
  std::int64_t single = 0;    // runtimes kept on the calling thread alone
  std::int64_t trials = 0;    // partitions timed both ways in their first run (pool_choice.h)
  std::int64_t given_up = 0;  // pooled runtimes made again on the calling thread (PoolGuard)
};

// Ids a partition reserves per node for the values inside it (a node defines at most its output
// and a few temporaries).
inline constexpr std::uint32_t kScratchIdsPerNode = 6;

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

  void clear() {
    entries_.clear();
    given_up_.clear();
    scratch_ = {};
  }
  // Drops runtimes whose partition or weights are gone (a closed model).
  void prune();
  std::size_t size() const { return entries_.size(); }
  const SubgraphStats& stats() const { return stats_; }
  void reset_stats() { stats_ = {}; }
  void note_declined() { ++stats_.declined; }  // a run the caller kept from the runtimes
  // Whether the last partition run() ran used the pool (its runtime's, or a trial's).
  bool last_pooled() const { return last_pooled_; }

 private:
  struct RuntimeDeleter {
    void operator()(xnn_runtime_t r) const { xnn_delete_runtime(r); }
  };
  struct Entry {
    std::vector<int> nodes;
    std::vector<graph::TensorRef> outputs;
    std::weak_ptr<const bool> token;  // the partition's (runtime::Partition::token)
    std::vector<Shape> shapes;        // of the partition's inputs
    // Per input: the weight buffer a runtime packed or reads (empty for activations).
    std::vector<std::weak_ptr<const Buffer>> weights;
    std::vector<const std::byte*> weight_ptrs;
    pthreadpool_t pool = nullptr;   // the runtime's: the pool, or null (calling thread)
    pthreadpool_t given = nullptr;  // the pool the engine gave when the runtime was made
    std::size_t threads = 0;
    // Until the first run has tried both (PoolUse::Trial): the runtime on the pool; `runtime`
    // is then the calling thread's. The loser goes at once, with its packed weights.
    std::unique_ptr<xnn_runtime, RuntimeDeleter> pooled;
    PoolGuard guard;      // while on the pool
    bool remake = false;  // the pool gave the partition up: made again on the calling thread
    std::vector<std::vector<float>> data;                  // static values the runtime reads
    std::unique_ptr<xnn_runtime, RuntimeDeleter> runtime;  // null: XNNPACK refused
    std::vector<std::uint32_t> input_ids;                  // per input; invalid for weights
    // The values inside that live in the shared scratch: ids from first_scratch on, offsets.
    std::uint32_t first_scratch = 0;
    std::vector<std::size_t> scratch_offsets;
    std::size_t scratch_bytes = 0;
  };
  // Sets the runtime up on `ext` and runs it.
  static xnn_status invoke(xnn_runtime_t rt, std::span<const xnn_external_value> ext);
  void build(Entry& e, const graph::Graph& graph, const graph::Graph& shapes,
             const runtime::Partition& p, std::span<const HostTensor> host, pthreadpool_t pool);

  // Keyed by the partition's token (runtime::Partition::token), unique while the entry lives.
  std::map<const bool*, Entry> entries_;
  // Partitions (by token) the pool stopped paying for: on the calling thread from then on.
  std::set<const bool*> given_up_;
  // The values inside partitions, during their runs (one partition runs at a time).
  std::vector<float> scratch_;
  SubgraphStats stats_;
  bool last_pooled_ = false;
};

}  // namespace tfjsi::xnnpack
