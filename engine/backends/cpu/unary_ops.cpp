// One-input elementwise math (Abs, Exp, Sqrt, Round, ...), IsNan, IsFinite, IsInf and ClipByValue.
// Abs, Neg, Square and Sign keep int32; the other math ops run on float32 as TF.js casts their
// input.
#include <cmath>
#include <cstdint>
#include <vector>

#include "backends/cpu/elementwise.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

template <class Op>
std::vector<HostTensor> float_unary(const KernelContext& ctx, Op op) {
  require_inputs(ctx, 1, 1);
  const HostTensor x = convert(input(ctx, 0), DType::Float32);
  HostTensor out = HostTensor::uninitialized(DType::Float32, x.shape);
  map_unary(ctx.pool, x.values<float>().data(), out.mutable_values<float>().data(),
            x.num_elements(), op);
  return {out};
}

// Ops that keep int32 (bool is computed as int32); fop for float32, iop for int32.
template <class FOp, class IOp>
std::vector<HostTensor> typed_unary(const KernelContext& ctx, FOp fop, IOp iop) {
  require_inputs(ctx, 1, 1);
  const HostTensor& x0 = input(ctx, 0);
  if (x0.dtype == DType::Float32) return float_unary(ctx, fop);
  const HostTensor x = convert(x0, DType::Int32);
  HostTensor out = HostTensor::uninitialized(DType::Int32, x.shape);
  map_unary(ctx.pool, x.values<std::int32_t>().data(), out.mutable_values<std::int32_t>().data(),
            x.num_elements(), iop);
  return {out};
}

inline std::int32_t wrap(std::int64_t v) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
}

}  // namespace

std::vector<HostTensor> Abs(const KernelContext& ctx) {
  return typed_unary(
      ctx, [](float v) { return std::fabs(v); },
      [](std::int32_t v) { return wrap(v < 0 ? -std::int64_t{v} : v); });
}
std::vector<HostTensor> Neg(const KernelContext& ctx) {
  return typed_unary(
      ctx, [](float v) { return -v; }, [](std::int32_t v) { return wrap(-std::int64_t{v}); });
}
std::vector<HostTensor> Square(const KernelContext& ctx) {
  return typed_unary(
      ctx, [](float v) { return v * v; }, [](std::int32_t v) { return wrap(std::int64_t{v} * v); });
}
// Sign(NaN) is 0 in TF.js (TF gives NaN).
std::vector<HostTensor> Sign(const KernelContext& ctx) {
  return typed_unary(
      ctx, [](float v) { return v < 0 ? -1.0f : (v > 0 ? 1.0f : 0.0f); },
      [](std::int32_t v) { return v < 0 ? -1 : (v > 0 ? 1 : 0); });
}

std::vector<HostTensor> Sqrt(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::sqrt(v); });
}
std::vector<HostTensor> Rsqrt(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return 1.0f / std::sqrt(v); });
}
std::vector<HostTensor> Reciprocal(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return 1.0f / v; });
}
std::vector<HostTensor> Exp(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::exp(v); });
}
std::vector<HostTensor> Expm1(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::expm1(v); });
}
std::vector<HostTensor> Log(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::log(v); });
}
std::vector<HostTensor> Log1p(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::log1p(v); });
}
std::vector<HostTensor> Floor(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::floor(v); });
}
std::vector<HostTensor> Ceil(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::ceil(v); });
}
// Banker's rounding: halves go to the even neighbour (TF and TF.js agree).
std::vector<HostTensor> Round(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) {
    const float base = std::floor(v);
    const float frac = v - base;
    if (frac < 0.5f) return base;
    if (frac > 0.5f) return base + 1.0f;
    return std::fmod(base, 2.0f) == 0.0f ? base : base + 1.0f;
  });
}
std::vector<HostTensor> Sin(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::sin(v); });
}
std::vector<HostTensor> Cos(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::cos(v); });
}
std::vector<HostTensor> Tan(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::tan(v); });
}
std::vector<HostTensor> Asin(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::asin(v); });
}
std::vector<HostTensor> Acos(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::acos(v); });
}
std::vector<HostTensor> Atan(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::atan(v); });
}
std::vector<HostTensor> Asinh(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::asinh(v); });
}
std::vector<HostTensor> Acosh(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::acosh(v); });
}
std::vector<HostTensor> Atanh(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::atanh(v); });
}
std::vector<HostTensor> Sinh(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::sinh(v); });
}
std::vector<HostTensor> Cosh(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::cosh(v); });
}
// TF.js evaluates erf with a 1.5e-7-accurate polynomial; the libm value is well within tolerance.
std::vector<HostTensor> Erf(const KernelContext& ctx) {
  return float_unary(ctx, [](float v) { return std::erf(v); });
}

namespace {
// A bool per element: pred(x) on x as float32.
template <class Pred>
std::vector<HostTensor> float_predicate(const KernelContext& ctx, Pred pred) {
  require_inputs(ctx, 1, 1);
  const HostTensor x = convert(input(ctx, 0), DType::Float32);
  HostTensor out = HostTensor::zeros(DType::Bool, x.shape);
  map_unary(ctx.pool, x.values<float>().data(), out.mutable_values<std::uint8_t>().data(),
            x.num_elements(), [pred](float v) -> std::uint8_t { return pred(v) ? 1 : 0; });
  return {out};
}
}  // namespace

std::vector<HostTensor> IsNan(const KernelContext& ctx) {
  return float_predicate(ctx, [](float v) { return v != v; });
}
std::vector<HostTensor> IsFinite(const KernelContext& ctx) {
  return float_predicate(ctx, [](float v) { return std::isfinite(v); });
}
std::vector<HostTensor> IsInf(const KernelContext& ctx) {
  return float_predicate(ctx, [](float v) { return std::isinf(v); });
}

// x clamped to [min, max] (scalar bounds, as TF.js takes them); NaN stays NaN.
std::vector<HostTensor> ClipByValue(const KernelContext& ctx) {
  require_inputs(ctx, 3, 3);
  const HostTensor& x = input(ctx, 0);
  const double lo = read_scalar(ctx, 1, "clip_value_min");
  const double hi = read_scalar(ctx, 2, "clip_value_max");
  if (lo > hi)
    fail(ctx,
         "clip_value_min " + std::to_string(lo) + " is above clip_value_max " + std::to_string(hi));
  if (x.dtype == DType::Int32) {
    HostTensor out = HostTensor::zeros(DType::Int32, x.shape);
    const auto l = static_cast<std::int32_t>(lo), h = static_cast<std::int32_t>(hi);
    map_unary(ctx.pool, x.values<std::int32_t>().data(), out.mutable_values<std::int32_t>().data(),
              x.num_elements(), [l, h](std::int32_t v) { return v < l ? l : (v > h ? h : v); });
    return {out};
  }
  const HostTensor xf = convert(x, DType::Float32);
  HostTensor out = HostTensor::uninitialized(DType::Float32, x.shape);
  const auto l = static_cast<float>(lo), h = static_cast<float>(hi);
  map_unary(ctx.pool, xf.values<float>().data(), out.mutable_values<float>().data(),
            x.num_elements(), [l, h](float v) { return v < l ? l : (v > h ? h : v); });
  return {out};
}

}  // namespace tfjsi::cpu::tensor_ops
