// Numbers that describe a weight at a glance: range, mean, spread and a histogram.
#pragma once

#include <cstdint>
#include <vector>

#include "core/host_tensor.h"

namespace tfjsi::ui {

struct WeightStats {
  std::int64_t count = 0;   // elements
  std::int64_t finite = 0;  // of which finite (NaN and inf are counted apart)
  std::int64_t nan = 0, inf = 0, zeros = 0;
  double min = 0, max = 0, mean = 0, stddev = 0;
  std::vector<std::int64_t> histogram;  // `bins` equal bins over [min, max] of finite values
};

// Float32, Int32 and Bool tensors; String tensors give count only.
WeightStats weight_stats(const HostTensor& t, int bins = 32);

}  // namespace tfjsi::ui
