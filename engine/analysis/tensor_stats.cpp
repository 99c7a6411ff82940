#include "analysis/range_stats.h"

#include <algorithm>
#include <cmath>

#include "analysis/fp16_rounding.h"

namespace tfjsi::analysis {

namespace {
// Half's smallest subnormal is 2^-24 (5.96e-8); anything under half of it rounds to zero even
// to nearest, and truncation zeroes everything under it. 6e-8 is the bound the report names.
constexpr double kFlushBound = 6e-8;
}  // namespace

RangeStats range_stats(const HostTensor& t) {
  RangeStats s;
  if (t.dtype != DType::Float32 || !t.buffer) return s;
  const auto v = t.values<float>();
  s.count = static_cast<std::int64_t>(v.size());
  double sum = 0;
  std::int64_t finite = 0;
  double lo = INFINITY, hi = -INFINITY;
  for (float x : v) {
    if (std::isnan(x)) {
      ++s.nan;
      continue;
    }
    if (std::isinf(x)) {
      ++s.inf;
      continue;
    }
    ++finite;
    sum += x;
    lo = std::min(lo, static_cast<double>(x));
    hi = std::max(hi, static_cast<double>(x));
    const double a = std::fabs(static_cast<double>(x));
    if (a > kHalfMax) ++s.overflow;
    if (a > 0 && a < kHalfMinNormal) {
      ++s.subnormal;
      if (a < kFlushBound) {
        ++s.flushed;
        s.max_flushed = std::max(s.max_flushed, a);
      }
    }
  }
  if (finite > 0) {
    s.min = lo;
    s.max = hi;
    s.max_abs = std::max(std::fabs(lo), std::fabs(hi));
    s.mean = sum / static_cast<double>(finite);
  }
  return s;
}

void RangeStats::merge(const RangeStats& o) {
  if (o.count == 0) return;
  if (count == 0) {
    *this = o;
    return;
  }
  const std::int64_t fa = count - nan - inf, fb = o.count - o.nan - o.inf;
  if (fa + fb > 0)
    mean = (mean * static_cast<double>(fa) + o.mean * static_cast<double>(fb)) /
           static_cast<double>(fa + fb);
  if (fb > 0) {
    min = fa > 0 ? std::min(min, o.min) : o.min;
    max = fa > 0 ? std::max(max, o.max) : o.max;
  }
  max_abs = std::max(max_abs, o.max_abs);
  count += o.count;
  overflow += o.overflow;
  subnormal += o.subnormal;
  flushed += o.flushed;
  max_flushed = std::max(max_flushed, o.max_flushed);
  nan += o.nan;
  inf += o.inf;
}

bool RangeStats::underflows(double threshold) const {
  return flushed > 0 && max_abs > 0 && max_flushed > threshold * max_abs;
}

nlohmann::json to_json(const RangeStats& s) {
  return {{"count", s.count},
          {"min", s.min},
          {"max", s.max},
          {"max_abs", s.max_abs},
          {"mean", s.mean},
          {"overflow", s.overflow},
          {"subnormal", s.subnormal},
          {"flushed", s.flushed},
          {"max_flushed", s.max_flushed},
          {"nan", s.nan},
          {"inf", s.inf}};
}

}  // namespace tfjsi::analysis
