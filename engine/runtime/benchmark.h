// The timing loop `tfjsi bench` and the GUI's Benchmark share: warm-up runs, then timed runs, as
// TF.js's benchmark page times them (wall clock around each run, no profiling while timed).
#pragma once

#include <functional>
#include <vector>

namespace tfjsi::runtime {

struct RunTimes {
  std::vector<double> ms;  // each timed run, in order
  double median_ms = 0, min_ms = 0, max_ms = 0;
};

// `run` does one run and returns its time in ms. `after_each` hears how many runs are done,
// warm-up ones included, and may throw to stop (a cancel); `before_timed` is called once, after
// the warm-up (to start a profiler over the timed runs only). runs >= 1.
RunTimes time_runs(int warmup, int runs, const std::function<double()>& run,
                   const std::function<void(int done)>& after_each = {},
                   const std::function<void()>& before_timed = {});

}  // namespace tfjsi::runtime
