#include "analysis/tensor_stats.h"

#include <algorithm>
#include <cmath>

#include "analysis/fp16_rounding.h"

namespace tfjsi::analysis {

namespace {
// Half's smallest subnormal is 2^-24 (5.96e-8); anything under half of it rounds to zero even
// to nearest, and truncation zeroes everything under it. 6e-8 is the bound the report names.
constexpr double kFlushBound = 6e-8;

// One pass over the values; Welford's update keeps the variance stable on large tensors.
template <class T>
void accumulate(std::span<const T> values, TensorStats& s) {
  double mean = 0, m2 = 0;
  double lo = INFINITY, hi = -INFINITY;
  for (const T raw : values) {
    const double x = static_cast<double>(raw);
    if (std::isnan(x)) {
      ++s.nan;
      continue;
    }
    if (std::isinf(x)) {
      ++s.inf;
      continue;
    }
    ++s.finite;
    lo = std::min(lo, x);
    hi = std::max(hi, x);
    const double d = x - mean;
    mean += d / static_cast<double>(s.finite);
    m2 += d * (x - mean);
    const double a = std::fabs(x);
    if (a == 0) {
      ++s.zeros;
    } else if (a > kHalfMax) {
      ++s.overflow;
    } else if (a < kHalfMinNormal) {
      ++s.subnormal;
      if (a < kFlushBound) {
        ++s.flushed;
        s.max_flushed = std::max(s.max_flushed, a);
      }
    }
  }
  if (s.finite > 0) {
    s.min = lo;
    s.max = hi;
    s.max_abs = std::max(std::fabs(lo), std::fabs(hi));
    s.mean = mean;
    s.std = std::sqrt(m2 / static_cast<double>(s.finite));
  }
}
}  // namespace

TensorStats tensor_stats(const HostTensor& t) {
  TensorStats s;
  s.count = t.num_elements();
  if (!t.buffer) return s;
  switch (t.dtype) {
    case DType::Float32:
      accumulate(t.values<float>(), s);
      break;
    case DType::Int32:
      accumulate(t.values<std::int32_t>(), s);
      break;
    case DType::Bool:
      accumulate(t.values<std::uint8_t>(), s);
      break;
    case DType::Complex64:
      s.count = 2 * s.count;
      accumulate(t.float_parts(), s);
      break;
    case DType::String:
      break;
  }
  return s;
}

void TensorStats::merge(const TensorStats& o) {
  if (o.count == 0) return;
  if (count == 0) {
    *this = o;
    return;
  }
  if (o.finite > 0) {
    if (finite > 0) {
      // Chan et al.'s pairwise update of the mean and the sum of squared deviations.
      const double na = static_cast<double>(finite), nb = static_cast<double>(o.finite);
      const double d = o.mean - mean;
      const double m2 = std * std * na + o.std * o.std * nb + d * d * na * nb / (na + nb);
      mean += d * nb / (na + nb);
      std = std::sqrt(m2 / (na + nb));
      min = std::min(min, o.min);
      max = std::max(max, o.max);
    } else {
      mean = o.mean, std = o.std, min = o.min, max = o.max;
    }
  }
  max_abs = std::max(max_abs, o.max_abs);
  count += o.count;
  finite += o.finite;
  zeros += o.zeros;
  overflow += o.overflow;
  subnormal += o.subnormal;
  flushed += o.flushed;
  max_flushed = std::max(max_flushed, o.max_flushed);
  nan += o.nan;
  inf += o.inf;
}

bool TensorStats::underflows(double threshold) const {
  return flushed > 0 && max_abs > 0 && max_flushed > threshold * max_abs;
}

nlohmann::json to_json(const TensorStats& s) {
  return {{"count", s.count},
          {"min", s.min},
          {"max", s.max},
          {"max_abs", s.max_abs},
          {"mean", s.mean},
          {"std", s.std},
          {"zeros", s.zeros},
          {"overflow", s.overflow},
          {"subnormal", s.subnormal},
          {"flushed", s.flushed},
          {"max_flushed", s.max_flushed},
          {"nan", s.nan},
          {"inf", s.inf}};
}

}  // namespace tfjsi::analysis
