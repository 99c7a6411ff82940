// What one tensor's values look like from half float's point of view: range, mean, and how many
// values a half-float store would overflow, make subnormal or flush to zero.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/host_tensor.h"

namespace tfjsi::analysis {

struct RangeStats {
  std::int64_t count = 0;                          // elements seen (all, finite or not)
  double min = 0, max = 0, max_abs = 0, mean = 0;  // over finite values
  std::int64_t overflow = 0;                       // finite, |x| > 65504
  std::int64_t subnormal = 0;                      // 0 < |x| < 6.1e-5 (subnormal in half)
  std::int64_t flushed = 0;                        // 0 < |x| < 6e-8 (zero in half)
  double max_flushed = 0;                          // largest |x| among the flushed
  std::int64_t nan = 0, inf = 0;

  // Folds in another tensor of the same node (a node that runs several times in a loop).
  void merge(const RangeStats& other);
  // Whether flushing to zero changes this tensor by more than `threshold` of its largest
  // magnitude: a softmax with a few 1e-9 probabilities does not underflow in this sense, a tensor
  // whose values all sit near 1e-8 does.
  bool underflows(double threshold) const;
};

// Float32 tensors only (others give a zero count).
RangeStats range_stats(const HostTensor& t);

nlohmann::json to_json(const RangeStats& s);

}  // namespace tfjsi::analysis
