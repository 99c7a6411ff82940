#include "backends/cpu/work_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace tfjsi::cpu {
namespace {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

// How long an idle helper polls for the next loop before it sleeps: long enough to catch the next
// kernel of a run on an idle machine, short enough not to steal much from a loaded one.
constexpr auto kHelperSpin = std::chrono::microseconds(30);
// How long the caller polls for helpers' unfinished items before it yields its time slice
// (which lets a descheduled helper run on this core).
constexpr auto kCallerSpin = std::chrono::microseconds(20);

// True on a helper thread and on a caller inside its loop: nested loops run inline.
thread_local bool t_in_loop = false;

class Pool {
 public:
  ~Pool() {
    stop_.store(true);
    wake_.fetch_add(1);
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }

  // Returns false (and runs nothing) when another thread's loop holds the pool.
  bool run(std::size_t helpers, std::size_t n, void* ctx, WorkItemFn fn) {
    std::unique_lock lock(run_mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return false;
    while (threads_.size() < helpers) {
      const std::size_t index = threads_.size();
      threads_.emplace_back([this, index] { helper_main(index); });
    }
    // Publish the loop: fields first, then the generation that makes them current.
    fn_.store(fn, std::memory_order_relaxed);
    ctx_.store(ctx, std::memory_order_relaxed);
    n_.store(n, std::memory_order_relaxed);
    participants_.store(helpers + 1, std::memory_order_relaxed);
    helpers_.store(helpers, std::memory_order_relaxed);
    done_.store(0, std::memory_order_relaxed);
    const std::uint64_t gen = ++generation_;
    state_.store(gen << 32, std::memory_order_release);
    wake_.fetch_add(1);
    if (sleepers_.load() > 0) wake_.notify_all();

    t_in_loop = true;
    work();
    t_in_loop = false;

    // Only items a helper has claimed can be outstanding.
    const auto spin_until = std::chrono::steady_clock::now() + kCallerSpin;
    for (unsigned i = 0; done_.load(std::memory_order_acquire) < n; ++i) {
      if (i < 64 || std::chrono::steady_clock::now() < spin_until)
        cpu_relax();
      else
        std::this_thread::yield();
    }
    return true;
  }

 private:
  // Claims and runs ranges of the current loop until none is left (or the loop changed).
  void work() {
    std::uint64_t s = state_.load(std::memory_order_acquire);
    for (;;) {
      const std::uint64_t gen = s >> 32;
      const std::size_t next = static_cast<std::size_t>(s & 0xffffffffu);
      // These may already belong to a later loop; then the exchange below fails and we retry.
      const std::size_t n = n_.load(std::memory_order_relaxed);
      if (next >= n) return;
      const WorkItemFn fn = fn_.load(std::memory_order_relaxed);
      void* ctx = ctx_.load(std::memory_order_relaxed);
      // Guided self-scheduling: big ranges first, small ones at the end; no range holds more
      // than a small share, so a helper descheduled mid-range delays the caller little.
      const std::size_t take = std::max<std::size_t>(
          1, (n - next) / (8 * participants_.load(std::memory_order_relaxed)));
      const std::uint64_t claimed = (gen << 32) | (next + take);
      if (!state_.compare_exchange_weak(s, claimed, std::memory_order_acq_rel,
                                        std::memory_order_acquire))
        continue;
      fn(ctx, next, next + take);
      done_.fetch_add(take, std::memory_order_release);
      s = claimed;
    }
  }

  void helper_main(std::size_t index) {
    t_in_loop = true;
    std::uint32_t seen = wake_.load();
    for (;;) {
      const auto spin_until = std::chrono::steady_clock::now() + kHelperSpin;
      for (unsigned i = 0; wake_.load(std::memory_order_acquire) == seen; ++i) {
        if (i % 64 == 0 && std::chrono::steady_clock::now() >= spin_until) {
          sleepers_.fetch_add(1);
          wake_.wait(seen);
          sleepers_.fetch_sub(1);
          break;
        }
        cpu_relax();
      }
      seen = wake_.load();
      if (stop_.load()) return;
      // A loop asks for fewer helpers than the pool may have (--threads lowered).
      if (index < helpers_.load(std::memory_order_relaxed)) work();
    }
  }

  std::mutex run_mutex_;  // one loop at a time
  std::vector<std::thread> threads_;
  std::uint64_t generation_ = 0;
  // The loop's generation (high 32 bits) and its next unclaimed item (low 32 bits).
  std::atomic<std::uint64_t> state_{0};
  std::atomic<WorkItemFn> fn_{nullptr};
  std::atomic<void*> ctx_{nullptr};
  std::atomic<std::size_t> n_{0};
  std::atomic<std::size_t> participants_{1};
  std::atomic<std::size_t> helpers_{0};
  std::atomic<std::size_t> done_{0};
  std::atomic<std::uint32_t> wake_{0};  // bumped for every loop; sleeping helpers wait on it
  std::atomic<int> sleepers_{0};
  std::atomic<bool> stop_{false};
};

Pool& pool() {
  static Pool p;
  return p;
}

}  // namespace

void run_parallel(std::size_t helpers, std::size_t n, void* ctx, WorkItemFn fn) {
  if (n == 0) return;
  // Items are counted in 32 bits of the claim word; no kernel comes near that.
  if (helpers == 0 || n == 1 || t_in_loop || n > 0xffffffffu || !pool().run(helpers, n, ctx, fn))
    fn(ctx, 0, n);
}

}  // namespace tfjsi::cpu
