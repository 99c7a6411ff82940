#include "weight_stats.h"

#include <algorithm>
#include <cmath>

namespace tfjsi::ui {
namespace {

template <class T>
WeightStats stats_of(std::span<const T> v, int bins) {
  WeightStats s;
  s.count = static_cast<std::int64_t>(v.size());
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  for (T x : v) {
    double d = static_cast<double>(x);
    if (std::isnan(d)) {
      ++s.nan;
      continue;
    }
    if (std::isinf(d)) {
      ++s.inf;
      continue;
    }
    ++s.finite;
    if (d == 0) ++s.zeros;
    lo = std::min(lo, d);
    hi = std::max(hi, d);
    sum += d;
  }
  if (s.finite == 0) return s;
  s.min = lo;
  s.max = hi;
  s.mean = sum / static_cast<double>(s.finite);
  // A second pass: the textbook one-pass formula loses precision on large weights.
  double sq = 0;
  for (T x : v) {
    double d = static_cast<double>(x);
    if (std::isfinite(d)) sq += (d - s.mean) * (d - s.mean);
  }
  s.stddev = std::sqrt(sq / static_cast<double>(s.finite));
  s.histogram.assign(static_cast<size_t>(std::max(1, bins)), 0);
  const double width = hi - lo;
  for (T x : v) {
    double d = static_cast<double>(x);
    if (!std::isfinite(d)) continue;
    auto b =
        width > 0 ? static_cast<std::int64_t>((d - lo) / width * static_cast<double>(bins)) : 0;
    b = std::clamp<std::int64_t>(b, 0, bins - 1);
    ++s.histogram[static_cast<size_t>(b)];
  }
  return s;
}

}  // namespace

WeightStats weight_stats(const HostTensor& t, int bins) {
  if (!t.buffer && t.dtype != DType::String) return {};
  switch (t.dtype) {
    case DType::Float32:
      return stats_of(t.values<float>(), bins);
    case DType::Int32:
      return stats_of(t.values<std::int32_t>(), bins);
    case DType::Bool:
      return stats_of(t.values<std::uint8_t>(), bins);
    case DType::Complex64:  // the histogram of its real and imaginary parts
      return stats_of(t.float_parts(), bins);
    case DType::String: {
      WeightStats s;
      s.count = t.strings ? static_cast<std::int64_t>(t.strings->size()) : 0;
      return s;
    }
  }
  return {};
}

}  // namespace tfjsi::ui
