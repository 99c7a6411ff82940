// Whether the pool's workers spin between the pooled pieces of one run or sleep after each.
// Waking a sleeping worker is a futex call and a scheduler wake-up; on this 2-core VM a pooled
// dispatch measured 55 us (median; p90 130 us) that way against 1.6 us with the worker spinning,
// and blazepose-heavy dispatches about 160 pieces a run. So within a run the workers spin, and
// they are sent to sleep (park) when the run ends. But a spinning worker takes a core: on a busy
// machine it ends up sharing one with the calling thread (default threads were measured 7.9x
// slower than --threads 1 under load). That shows as the calling thread getting less of the
// run's wall time as CPU time; then the workers are parked after every pooled piece, as before,
// for a number of runs that doubles each time spinning is tried again and still loses.
#pragma once

#include <pthreadpool.h>

namespace tfjsi::xnnpack {

// Below this share of a run's wall time as the calling thread's CPU time, the machine is taken
// as busy. Spinning or waiting for a worker, the calling thread is on its core all the run.
inline constexpr double kBusyShare = 0.8;
// Runs that park after every piece before spinning is tried again: the first time, and at most.
inline constexpr int kFirstBackoff = 4, kMaxBackoff = 64;

// The decision alone, from the calling thread's CPU share of each run (testable without a clock).
class SpinPolicy {
 public:
  bool spinning() const { return wait_ == 0; }
  int runs_to_wait() const { return wait_; }
  // A run that used the pool ended, having had `share` of its wall time as CPU time.
  void judge(double share);

 private:
  int wait_ = 0;  // runs left parking after every piece
  int backoff_ = kFirstBackoff;
};

class WorkerSpin {
 public:
  // The backend is about to run something of a run, with the engine's `pool` (the first call
  // starts the run's clock). A pool other than the one last used means that one may be gone (the
  // thread count changed): it is forgotten, never parked; its workers sleep by themselves.
  void enter(pthreadpool_t pool);
  // A piece of the run ran on the pool: its workers spin from here until the next piece, or are
  // parked now if the policy says so.
  void ran_on_pool();
  // The run ended: workers are parked, and the run judged.
  void end_run();
  long parks() const { return parks_; }
  void reset_parks() { parks_ = 0; }

 private:
  void park();

  SpinPolicy policy_;
  pthreadpool_t pool_ = nullptr;  // whose workers may be spinning
  bool awake_ = false;            // a piece ran on pool_ since its last park
  bool in_run_ = false, pooled_ = false;
  bool pooled_last_ = true;  // the last run used the pool (unknown before the first: true)
  bool timed_ = false;       // this run's clocks were read at its start
  double wall0_ = 0, cpu0_ = 0;
  long parks_ = 0;
};

}  // namespace tfjsi::xnnpack
