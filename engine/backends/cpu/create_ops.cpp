// Ops that make new tensors from scalars: Fill, Zeros, Ones, ZerosLike, OnesLike, Range, LinSpace,
// OneHot.
#include <algorithm>
#include <cmath>
#include <complex>
#include <type_traits>
#include <vector>

#include "backends/cpu/tensor_util.h"
#include "ops/attr.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

Shape read_shape(const KernelContext& ctx, std::size_t i) {
  const auto dims = read_ints(ctx, i, "shape");
  for (auto d : dims)
    if (d < 0) fail(ctx, "shape " + shape_to_string(dims) + " has a negative dim");
  if (!checked_num_elements(dims)) fail(ctx, "shape " + shape_to_string(dims) + " is too large");
  return Shape(dims.begin(), dims.end());
}

// Every element of `t` set to `v`, converted to t's dtype.
void fill_with(HostTensor& t, double v) {
  switch (t.dtype) {
    case DType::Float32:
      std::ranges::fill(t.mutable_values<float>(), static_cast<float>(v));
      break;
    case DType::Int32:
      std::ranges::fill(t.mutable_values<std::int32_t>(), js_to_int32(v));
      break;
    case DType::Bool:
      std::ranges::fill(t.mutable_values<std::uint8_t>(), v != 0 ? 1 : 0);
      break;
    case DType::Complex64:  // (v, 0), as TF.js's ones() makes complex ones
      std::ranges::fill(t.mutable_values<std::complex<float>>(),
                        std::complex<float>(static_cast<float>(v), 0.0f));
      break;
    case DType::String:
      break;
  }
}

}  // namespace

std::vector<HostTensor> Fill(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const Shape shape = read_shape(ctx, 0);
  const HostTensor& value = input(ctx, 1);
  const DType t = ops::attr<DType>(ctx.node, "T", value.dtype);
  HostTensor out = HostTensor::zeros(t, shape);
  fill_with(out, read_scalar(ctx, 1, "value"));
  return {out};
}

// TF.js's own ops (tf.zeros, tf.ones in a graph): input 0 is the shape, attribute T the dtype.
std::vector<HostTensor> Zeros(const KernelContext& ctx) {
  require_inputs(ctx, 1, 1);
  return {HostTensor::zeros(ops::attr<DType>(ctx.node, "T", DType::Float32), read_shape(ctx, 0))};
}

std::vector<HostTensor> Ones(const KernelContext& ctx) {
  require_inputs(ctx, 1, 1);
  HostTensor out =
      HostTensor::zeros(ops::attr<DType>(ctx.node, "T", DType::Float32), read_shape(ctx, 0));
  fill_with(out, 1.0);
  return {out};
}

std::vector<HostTensor> ZerosLike(const KernelContext& ctx) {
  require_inputs(ctx, 1, 1);
  const HostTensor& x = input_or_complex(ctx, 0);
  return {HostTensor::zeros(x.dtype, x.shape)};
}

std::vector<HostTensor> OnesLike(const KernelContext& ctx) {
  require_inputs(ctx, 1, 1);
  const HostTensor& x = input_or_complex(ctx, 0);
  HostTensor out = HostTensor::zeros(x.dtype, x.shape);
  fill_with(out, 1.0);
  return {out};
}

// start, start + delta, ... up to (not including) limit. Each value is the previous one plus
// delta in the output type, as TF.js builds it.
std::vector<HostTensor> Range(const KernelContext& ctx) {
  require_inputs(ctx, 3, 3);
  const double start = read_scalar(ctx, 0, "start");
  const double limit = read_scalar(ctx, 1, "limit");
  const double delta = read_scalar(ctx, 2, "delta");
  DType t = ops::attr<DType>(ctx.node, "Tidx", input(ctx, 0).dtype);
  if (t == DType::Bool) t = DType::Int32;
  if (delta == 0) fail(ctx, "delta must not be 0");
  std::int64_t n = 0;
  // An empty result when delta points away from limit (TF.js has a quirk for 0 < delta <= 1 on a
  // decreasing range; TF rejects that case, we return nothing).
  if ((start < limit && delta > 0) || (start > limit && delta < 0)) {
    const double count = std::ceil(std::abs((limit - start) / delta));
    if (!(count < 2147483648.0)) fail(ctx, "range has too many elements");
    n = static_cast<std::int64_t>(count);
  }
  HostTensor out = HostTensor::zeros(t, {n});
  if (n == 0) return {out};
  if (t == DType::Float32) {
    auto o = out.mutable_values<float>();
    o[0] = static_cast<float>(start);
    const auto d = static_cast<float>(delta);
    for (std::int64_t i = 1; i < n; ++i) o[i] = o[i - 1] + d;
  } else {
    auto o = out.mutable_values<std::int32_t>();
    o[0] = js_to_int32(start);
    const std::int32_t d = js_to_int32(delta);
    for (std::int64_t i = 1; i < n; ++i) o[i] = o[i - 1] + d;
  }
  return {out};
}

// num float32 values from start to stop. As TF.js computes them: each is the previous plus the
// step (stop - start) / (num - 1), stored in float32, so the last one may miss stop by rounding;
// num = 1 gives [start]. TF.js makes float32 whatever attribute T says.
std::vector<HostTensor> LinSpace(const KernelContext& ctx) {
  require_inputs(ctx, 3, 3);
  const double start = read_scalar(ctx, 0, "start");
  const double stop = read_scalar(ctx, 1, "stop");
  const std::int64_t num = read_int(ctx, 2, "num");
  if (num <= 0) fail(ctx, "num must be positive, got " + std::to_string(num));
  if (num > std::int64_t{1} << 31) fail(ctx, "num " + std::to_string(num) + " is too large");
  HostTensor out = HostTensor::uninitialized(DType::Float32, {num});
  auto o = out.mutable_values<float>();
  const double step = num > 1 ? (stop - start) / static_cast<double>(num - 1) : 0.0;
  o[0] = static_cast<float>(start);
  for (std::int64_t i = 1; i < num; ++i) o[i] = static_cast<float>(o[i - 1] + step);
  return {out};
}

// indices [...] -> [..., depth] with on_value where the index matches. TF.js always puts the new
// axis last (it ignores the axis attribute); we do the same.
std::vector<HostTensor> OneHot(const KernelContext& ctx) {
  require_inputs(ctx, 4, 4);
  const HostTensor indices = convert(input(ctx, 0), DType::Int32);
  const std::int64_t depth = read_int(ctx, 1, "depth");
  if (depth < 0) fail(ctx, "depth must not be negative, got " + std::to_string(depth));
  const double on = read_scalar(ctx, 2, "on_value");
  const double off = read_scalar(ctx, 3, "off_value");
  const DType t = ops::attr<DType>(ctx.node, "T", input(ctx, 2).dtype);
  Shape shape = indices.shape;
  shape.push_back(depth);
  HostTensor out = HostTensor::zeros(t, shape);
  fill_with(out, off);
  const auto idx = indices.values<std::int32_t>();
  dispatch_numeric(ctx, t, [&](auto tag) {
    using T = decltype(tag);
    T onv;
    if constexpr (std::is_same_v<T, float>)
      onv = static_cast<float>(on);
    else if constexpr (std::is_same_v<T, std::int32_t>)
      onv = js_to_int32(on);
    else
      onv = on != 0 ? 1 : 0;
    auto o = out.mutable_values<T>();
    for (std::size_t i = 0; i < idx.size(); ++i)
      if (idx[i] >= 0 && idx[i] < depth) o[i * depth + idx[i]] = onv;
  });
  return {out};
}

}  // namespace tfjsi::cpu::tensor_ops
