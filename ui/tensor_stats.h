// Numbers that describe one tensor for the Outputs dock: range, moments, sparsity, the values
// half floats cannot hold, the first values, and the top classes of a classifier-like output.
#pragma once

#include <QString>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/host_tensor.h"

namespace tfjsi::ui {

// Largest finite half float; a value past it overflows on fp16 textures.
inline constexpr double kFp16Max = 65504.0;

struct TensorStats {
  std::int64_t count = 0;   // elements
  std::int64_t finite = 0;  // the ones min, max, mean and std are over
  double min = 0, max = 0, mean = 0, std = 0;
  std::int64_t zeros = 0;  // sparsity = zeros / count
  std::int64_t nan = 0, inf = 0;
  std::int64_t over_fp16 = 0;  // finite with |x| > 65504
  double sparsity() const {
    return count ? static_cast<double>(zeros) / static_cast<double>(count) : 0;
  }
};

// Numeric and bool tensors; a string tensor gives only its count.
TensorStats tensor_stats(const HostTensor& t);

// Element i as a double (NaN for strings).
double element(const HostTensor& t, std::int64_t i);

// The first `n` values, comma separated, in the precision a float32 needs to round-trip.
QString first_values(const HostTensor& t, int n);

// Whether top-k makes sense: a float [N, classes] (or [classes]) whose rows are probabilities
// (a softmax), or with more than 5 classes and values that are not all whole numbers (those are
// ids or counts, not scores).
bool classifier_like(const HostTensor& t);
// The k largest entries of row `row` as (class index, value), largest first; NaN sorts last.
std::vector<std::pair<int, double>> top_k(const HostTensor& t, int row, int k);

}  // namespace tfjsi::ui
