// What one tensor's values look like: range, moments, sparsity, non-finite counts, and how many
// values a half-float store would overflow, make subnormal or flush to zero. The one routine the
// CLI's reports, the GUI's Outputs view and the fp16 check all read.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/host_tensor.h"

namespace tfjsi::analysis {

struct TensorStats {
  std::int64_t count = 0;   // elements seen (all, finite or not)
  std::int64_t finite = 0;  // the ones min, max, mean and std are over
  double min = 0, max = 0, max_abs = 0, mean = 0, std = 0;
  std::int64_t zeros = 0;
  std::int64_t overflow = 0;   // finite, |x| > 65504 (past half float's largest)
  std::int64_t subnormal = 0;  // 0 < |x| < 6.1e-5 (subnormal in half)
  std::int64_t flushed = 0;    // 0 < |x| < 6e-8 (zero in half)
  double max_flushed = 0;      // largest |x| among the flushed
  std::int64_t nan = 0, inf = 0;

  double sparsity() const {
    return count ? static_cast<double>(zeros) / static_cast<double>(count) : 0;
  }
  // Folds in another tensor of the same node (a node that runs several times in a loop).
  void merge(const TensorStats& other);
  // Whether flushing to zero changes this tensor by more than `threshold` of its largest
  // magnitude: a softmax with a few 1e-9 probabilities does not underflow in this sense, a tensor
  // whose values all sit near 1e-8 does.
  bool underflows(double threshold) const;
};

// Numeric and bool tensors (bool as 0 and 1); a string tensor gives only its count. A complex64
// tensor counts as its 2n float parts (real and imaginary alike), what a store keeps or loses.
TensorStats tensor_stats(const HostTensor& t);

// Every field, for --json reports.
nlohmann::json to_json(const TensorStats& s);

}  // namespace tfjsi::analysis
