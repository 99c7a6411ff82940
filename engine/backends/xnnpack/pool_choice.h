// Whether the thread pool pays for a piece of work (a partition's runtime, or a node outside
// partitions), so that a second thread never makes a model slower. Every pooled dispatch waits
// for all workers to check in: a sleeping worker costs a wake-up, and one whose core another
// process holds costs a scheduler time slice. Little work therefore stays on the calling thread;
// more is tried both ways once, in the first run (run_pool_trial), and what the pool won is
// watched (PoolGuard): when the cores get busy and it stops paying, the calling thread takes the
// work back. Later runs pay a clock reading per pooled piece of work, nothing more.
#pragma once

#include <pthreadpool.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <span>
#include <vector>

namespace tfjsi::xnnpack {

enum class PoolUse {
  CallingThread,  // too little work to share: the pool is never woken for it
  Trial,          // run both ways in the first run, keep the faster (trial_picks_pool)
};

// Work is counted in multiply-adds (convolutions, matrix products), or in elements times
// kElementWork for memory-bound passes. Below kTrialWork (a few us on one core) a dispatch costs
// more than the second core saves. It was 2^20 while every dispatch woke a sleeping worker
// (55 us here); with workers spinning through a run (worker_spin.h) a dispatch costs ~2 us, and
// 2^18 let blazepose-heavy's 46 smaller depthwise convolutions try the pool too (two threads
// 38.5-39.0 ms against 41.0-44.2 with 2^20, movenet-thunder 25.3-28.2 against 28.4-29.1; a
// loaded machine, load 12-15).
inline constexpr double kTrialWork = 1 << 18;
inline constexpr double kElementWork = 16;

PoolUse pool_use(double work, std::size_t threads);

// Timed pairs in a trial (after one untimed run on each side: first touch of the memory), and
// how many of them the pool must win.
inline constexpr std::size_t kTrialRuns = 3;
inline constexpr std::size_t kTrialWins = 2;
// A pair is the pool's when its run takes at most this share of the calling thread's.
inline constexpr double kTrialMargin = 0.85;

// One timed pair: whether the pool's run won it.
inline bool pool_won(double calling_ms, double pooled_ms) {
  return pooled_ms <= kTrialMargin * calling_ms;
}

// The pool wins kTrialWins of the pairs. Not all of them: one stalled pooled run (another
// process took the second core for a time slice) kept gear's big partition on the calling
// thread for good, 1.7x slower; a pool that keeps stalling is given back by PoolGuard.
bool trial_picks_pool(std::span<const double> calling_ms, std::span<const double> pooled_ms);

struct TrialResult {
  bool pool = false;      // the pool won
  double calling_ms = 0;  // the calling thread's best time: what the pool must stay under
};

// Runs `run(p)` once untimed on the calling thread (p = nullptr) and once on the pool, then timed
// pairs, the calling thread then the pool, until the pool has won kTrialWins of them or can no
// longer (a busy machine pays for few pooled runs in the first run). The pool's side needs its
// own untimed run: a partition's pooled runtime is a second runtime, whose first run touches its
// memory for the first time (gear: 121 ms against 24 ms on the calling thread, in a trial the pool
// wins 1.7x without it). The pool's run comes last, so what it computed is what the caller keeps
// (both compute the same). `now` gives milliseconds (a steady clock; tests pass their own).
template <class Run, class Now>
TrialResult run_pool_trial(pthreadpool_t pool, const Run& run, const Now& now) {
  run(nullptr);
  run(pool);
  std::vector<double> calling, pooled;
  TrialResult r;
  std::size_t wins = 0;
  for (std::size_t k = 0; k < kTrialRuns; ++k) {
    for (pthreadpool_t p : {static_cast<pthreadpool_t>(nullptr), pool}) {
      const double t0 = now();
      run(p);
      (p ? pooled : calling).push_back(now() - t0);
    }
    r.calling_ms = k == 0 ? calling.back() : std::min(r.calling_ms, calling.back());
    wins += pool_won(calling.back(), pooled.back()) ? 1 : 0;
    if (wins >= kTrialWins || kTrialRuns - (k + 1) < kTrialWins - wins) break;
  }
  r.pool = wins >= kTrialWins;
  return r;
}

// Watches work the pool won: two runs in a row slower than the calling thread was in the trial
// (the other core got busy) give it back to the calling thread.
struct PoolGuard {
  double calling_ms = 0;
  int slow = 0;
  // Whether the pool should give the work up after a run of `ms` on it.
  bool give_up(double ms) {
    slow = ms > calling_ms ? slow + 1 : 0;
    return slow >= 2;
  }
};

inline double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

template <class Run>
TrialResult run_pool_trial(pthreadpool_t pool, const Run& run) {
  return run_pool_trial(pool, run, now_ms);
}

}  // namespace tfjsi::xnnpack
