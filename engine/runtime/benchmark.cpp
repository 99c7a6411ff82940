#include "runtime/benchmark.h"

#include <algorithm>
#include <stdexcept>

namespace tfjsi::runtime {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

RunTimes time_runs(int warmup, int runs, const std::function<double()>& run,
                   const std::function<void(int done)>& after_each,
                   const std::function<void()>& before_timed) {
  if (runs < 1) throw std::invalid_argument("time_runs: at least one timed run");
  int done = 0;
  auto step = [&] {
    if (after_each) after_each(++done);
  };
  for (int i = 0; i < warmup; ++i) {
    run();
    step();
  }
  if (before_timed) before_timed();
  RunTimes t;
  t.ms.reserve(static_cast<std::size_t>(runs));
  for (int i = 0; i < runs; ++i) {
    t.ms.push_back(run());
    step();
  }
  t.median_ms = median(t.ms);
  const auto [lo, hi] = std::minmax_element(t.ms.begin(), t.ms.end());
  t.min_ms = *lo;
  t.max_ms = *hi;
  return t;
}

}  // namespace tfjsi::runtime
