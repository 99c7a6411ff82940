#include "backends/xnnpack/worker_spin.h"

#include "runtime/backend.h"

#include <time.h>

#include <algorithm>

namespace tfjsi::xnnpack {

namespace {

double clock_ms(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

}  // namespace

void SpinPolicy::judge(double share) {
  if (wait_ > 0) {
    --wait_;  // a parking run: says nothing of what spinning would have cost
    return;
  }
  if (share >= kBusyShare) {
    backoff_ = std::max(kFirstBackoff, backoff_ / 2);
    return;
  }
  wait_ = backoff_;
  backoff_ = std::min(kMaxBackoff, backoff_ * 2);
}

void WorkerSpin::enter(pthreadpool_t pool) {
  if (pool != pool_) {
    awake_ = false;
    pool_ = pthreadpool_get_threads_count(pool) > 1 ? pool : nullptr;
    pooled_last_ = true;
  }
  if (in_run_) return;
  in_run_ = true;
  pooled_ = false;
  // The thread's CPU clock is a system call (0.56 us here, a tenth of a tiny model's run): read
  // only where the run will likely pool, as the last one did. What a run pools is settled in the
  // first (run_pool_trial), so a run that pools without the clocks read is rare and left unjudged.
  timed_ = pool_ && pooled_last_;
  if (!timed_) return;
  wall0_ = clock_ms(CLOCK_MONOTONIC);
  cpu0_ = clock_ms(CLOCK_THREAD_CPUTIME_ID);
}

void WorkerSpin::ran_on_pool() {
  if (!pool_) return;
  awake_ = true;
  pooled_ = true;
  if (!policy_.spinning()) park();
}

void WorkerSpin::end_run() {
  park();
  if (in_run_ && pooled_ && timed_) {
    const double wall = clock_ms(CLOCK_MONOTONIC) - wall0_;
    const double cpu = clock_ms(CLOCK_THREAD_CPUTIME_ID) - cpu0_;
    policy_.judge(wall > 0 ? cpu / wall : 1.0);
  }
  if (in_run_) pooled_last_ = pooled_;
  in_run_ = false;
}

void WorkerSpin::park() {
  if (!awake_ || !pool_) return;
  awake_ = false;
  ++parks_;
  runtime::park_workers(pool_);
}

}  // namespace tfjsi::xnnpack
