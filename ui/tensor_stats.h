// How the Outputs dock shows one tensor: single elements, the first values, and the top classes of
// a classifier-like output.
#pragma once

#include <QString>
#include <cstdint>
#include <utility>
#include <vector>

#include "analysis/tensor_stats.h"
#include "core/host_tensor.h"

namespace tfjsi::ui {

// The numbers themselves come from the engine's one routine (analysis/tensor_stats.h).
using analysis::tensor_stats;
using analysis::TensorStats;

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
