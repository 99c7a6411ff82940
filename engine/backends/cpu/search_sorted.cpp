// LowerBound and UpperBound (TF.js's searchSorted, side left/right): for each value, the first
// position in its row of the sorted sequence whose element is >= (lower) or > (upper) the value.
#include <string>
#include <vector>

#include "backends/cpu/tensor_util.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

// TF.js's binary search, comparisons as in JS (a NaN value lands at 0 for lower bound and at the
// end for upper bound).
template <class S, class V>
std::int32_t bound(const S* row, std::int64_t n, V value, bool upper) {
  std::int64_t left = 0, right = n;
  while (left < right) {
    const std::int64_t mid = (left + right) / 2;
    const double m = static_cast<double>(row[mid]), v = static_cast<double>(value);
    if (upper ? m <= v : m < v)
      left = mid + 1;
    else
      right = mid;
  }
  return static_cast<std::int32_t>(right);
}

// TF.js views both inputs as rows, [-1, last dim], and gives the values' row shape.
Shape as_rows(const KernelContext& ctx, const HostTensor& t, const char* what) {
  if (t.rank() < 1) fail(ctx, std::string(what) + " must be at least 1-D, got a scalar");
  std::int64_t rows = 1;
  for (int d = 0; d + 1 < t.rank(); ++d) rows *= t.shape[d];
  return {rows, t.shape.back()};
}

std::vector<HostTensor> search_sorted(const KernelContext& ctx, bool upper) {
  require_inputs(ctx, 2, 2);
  const HostTensor& sorted = input(ctx, 0);
  const HostTensor& values = input(ctx, 1);
  const Shape s = as_rows(ctx, sorted, "sorted_inputs");
  const Shape v = as_rows(ctx, values, "values");
  if (s[0] != v[0])
    fail(ctx, "the leading dimensions of sorted_inputs " + shape_to_string(sorted.shape) +
                  " and values " + shape_to_string(values.shape) + " must match");
  if (s[1] >= (std::int64_t{1} << 31))
    fail(ctx, "sorted_inputs rows must be shorter than 2^31 for int32 positions");
  HostTensor out = HostTensor::uninitialized(DType::Int32, v);
  auto o = out.mutable_values<std::int32_t>();
  dispatch_numeric(ctx, sorted.dtype, [&](auto stag) {
    using S = decltype(stag);
    dispatch_numeric(ctx, values.dtype, [&](auto vtag) {
      using V = decltype(vtag);
      const S* sp = sorted.values<S>().data();
      const V* vp = values.values<V>().data();
      for (std::int64_t r = 0; r < v[0]; ++r)
        for (std::int64_t i = 0; i < v[1]; ++i)
          o[static_cast<std::size_t>(r * v[1] + i)] =
              bound(sp + r * s[1], s[1], vp[r * v[1] + i], upper);
    });
  });
  return {out};
}

}  // namespace

std::vector<HostTensor> LowerBound(const KernelContext& ctx) {
  return search_sorted(ctx, false);
}

std::vector<HostTensor> UpperBound(const KernelContext& ctx) {
  return search_sorted(ctx, true);
}

}  // namespace tfjsi::cpu::tensor_ops
