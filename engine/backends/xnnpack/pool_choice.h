// Whether the thread pool pays for a piece of work (a partition's runtime, or a node outside
// partitions), so that a second thread never makes a model slower. Every pooled dispatch waits
// for all workers to check in: a sleeping worker costs a wake-up, and one whose core another
// process holds costs a scheduler time slice. Little work therefore stays on the calling thread,
// a lot goes to the pool, and what lies between is tried both ways once, in the first run
// (run_pool_trial), which then decides for good: later runs pay nothing for the choice.
#pragma once

#include <pthreadpool.h>

#include <chrono>
#include <cstddef>
#include <span>
#include <vector>

namespace tfjsi::xnnpack {

enum class PoolUse {
  CallingThread,  // too little work to share: the pool is never woken for it
  Trial,          // run both ways in the first run, keep the faster (trial_picks_pool)
  Pool,           // enough work that sharing it always pays
};

// Work is counted in multiply-adds (convolutions, matrix products), or in elements times
// kElementWork for memory-bound passes. Below kTrialWork (about 20 us on one core) a wake-up
// costs more than the second core saves; from kSureWork on (about 3 ms) the pool wins by far
// more than any wake-up costs.
inline constexpr double kTrialWork = 1 << 20;
inline constexpr double kSureWork = 1 << 27;
inline constexpr double kElementWork = 16;

PoolUse pool_use(double work, std::size_t threads);

// Timed runs per side in a trial, after one untimed run on the calling thread (first touch of
// the memory).
inline constexpr std::size_t kTrialRuns = 3;
// In every timed pair the pool's run must take at most this share of the calling thread's: a
// pool that only wins at the median still loses a time slice now and then on a busy machine,
// which every later run would pay.
inline constexpr double kTrialMargin = 0.85;

bool trial_picks_pool(std::span<const double> calling_ms, std::span<const double> pooled_ms);

// Runs `run(p)` once untimed on the calling thread (p = nullptr), then up to kTrialRuns timed
// pairs: the calling thread, then the pool. The pool's run comes last, so what it computed is
// what the caller keeps (both compute the same). Returns whether the pool won. The first pair
// the pool loses ends the trial: on a machine whose cores are busy a pooled run can take a
// scheduler time slice per operator, which the first run should not pay again and again.
// `now` gives milliseconds (a steady clock; tests pass their own).
template <class Run, class Now>
bool run_pool_trial(pthreadpool_t pool, const Run& run, const Now& now) {
  run(nullptr);
  std::vector<double> calling, pooled;
  for (std::size_t k = 0; k < kTrialRuns; ++k) {
    for (pthreadpool_t p : {static_cast<pthreadpool_t>(nullptr), pool}) {
      const double t0 = now();
      run(p);
      (p ? pooled : calling).push_back(now() - t0);
    }
    if (!trial_picks_pool(calling, pooled)) return false;
  }
  return true;
}

template <class Run>
bool run_pool_trial(pthreadpool_t pool, const Run& run) {
  return run_pool_trial(pool, run, [] {
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  });
}

}  // namespace tfjsi::xnnpack
