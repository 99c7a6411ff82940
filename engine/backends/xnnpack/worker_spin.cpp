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
  }
  if (in_run_) return;
  in_run_ = true;
  pooled_ = false;
  if (!pool_) return;  // one thread: nothing to judge at the end (two clock reads saved)
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
  if (in_run_ && pooled_) {
    const double wall = clock_ms(CLOCK_MONOTONIC) - wall0_;
    const double cpu = clock_ms(CLOCK_THREAD_CPUTIME_ID) - cpu0_;
    policy_.judge(wall > 0 ? cpu / wall : 1.0);
  }
  in_run_ = false;
}

void WorkerSpin::park() {
  if (!awake_ || !pool_) return;
  awake_ = false;
  ++parks_;
  runtime::park_workers(pool_);
}

}  // namespace tfjsi::xnnpack
