// Arithmetic on two broadcast operands (Add, Sub, Mul, the divisions, Maximum, Minimum, Pow, ...)
// and AddN. Types follow TF.js: mixed inputs are promoted (bool < int32 < float32), int32 results
// wrap like an Int32Array, and integer division is floor division.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "backends/cpu/elementwise.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

enum class Arith {
  Add,
  Sub,
  Mul,
  RealDiv,
  DivNoNan,
  FloorDiv,
  FloorMod,
  Maximum,
  Minimum,
  Pow,
  SquaredDifference,
  Atan2
};

// Int32 results wrap modulo 2^32, as storing a JS number into an Int32Array does.
inline std::int32_t wrap(std::int64_t v) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
}

// JS `Math.floor(a / b)` stored into an Int32Array: b == 0 gives +-inf or NaN, which store as 0.
inline std::int32_t int_floor_div(std::int32_t a, std::int32_t b) {
  if (b == 0) return 0;
  std::int64_t q = std::int64_t{a} / b;
  if ((std::int64_t{a} % b != 0) && ((a < 0) != (b < 0))) --q;
  return wrap(q);
}

// TF.js mod: the remainder takes the sign of the divisor. x % 0 is NaN in JS, which stores as 0.
inline std::int32_t int_floor_mod(std::int32_t a, std::int32_t b) {
  if (b == 0) return 0;
  const std::int64_t rem = std::int64_t{a} % b;
  if ((a < 0 && b < 0) || (a >= 0 && b >= 0)) return wrap(rem);
  return wrap((rem + b) % b);
}

inline float float_floor_mod(float a, float b) {
  const float rem = std::fmod(a, b);
  if ((a < 0 && b < 0) || (a >= 0 && b >= 0)) return rem;
  return std::fmod(rem + b, b);
}

template <class T, class R, class Op>
HostTensor run(const KernelContext& ctx, const HostTensor& a, const HostTensor& b, DType out_dtype,
               Op op) {
  const Shape shape = broadcast_shapes(ctx, a.shape, b.shape);
  HostTensor out = HostTensor::uninitialized(out_dtype, shape);
  const auto plan = plan_broadcast<2>(shape, {&a.shape, &b.shape});
  map_binary(ctx.pool, plan, a.values<T>().data(), b.values<T>().data(),
             out.mutable_values<R>().data(), op);
  return out;
}

HostTensor float_op(const KernelContext& ctx, Arith kind, const HostTensor& a,
                    const HostTensor& b) {
  constexpr DType F = DType::Float32;
  switch (kind) {
    case Arith::Add:
      return run<float, float>(ctx, a, b, F, [](float x, float y) { return x + y; });
    case Arith::Sub:
      return run<float, float>(ctx, a, b, F, [](float x, float y) { return x - y; });
    case Arith::Mul:
      return run<float, float>(ctx, a, b, F, [](float x, float y) { return x * y; });
    case Arith::RealDiv:
      return run<float, float>(ctx, a, b, F, [](float x, float y) { return x / y; });
    case Arith::DivNoNan:
      return run<float, float>(ctx, a, b, F,
                               [](float x, float y) { return y == 0.0f ? 0.0f : x / y; });
    case Arith::FloorDiv:
      // TF.js's cpu FloorDiv always returns int32, also for float inputs (TF keeps the float
      // type); we follow TF.js, our golden reference.
      return run<float, std::int32_t>(ctx, a, b, DType::Int32, [](float x, float y) {
        return js_to_int32(std::floor(double{x} / double{y}));
      });
    case Arith::FloorMod:
      return run<float, float>(ctx, a, b, F, float_floor_mod);
    case Arith::Maximum:
      // Math.max semantics: NaN if either side is NaN.
      return run<float, float>(ctx, a, b, F,
                               [](float x, float y) { return ((x > y) | (x != x)) ? x : y; });
    case Arith::Minimum:
      return run<float, float>(ctx, a, b, F,
                               [](float x, float y) { return ((x < y) | (x != x)) ? x : y; });
    case Arith::Pow:
      return run<float, float>(ctx, a, b, F, [](float x, float y) {
        return static_cast<float>(std::pow(double{x}, double{y}));
      });
    case Arith::SquaredDifference:
      return run<float, float>(ctx, a, b, F, [](float x, float y) {
        const float d = x - y;
        return d * d;
      });
    case Arith::Atan2:
      return run<float, float>(ctx, a, b, F, [](float x, float y) {
        return static_cast<float>(std::atan2(double{x}, double{y}));
      });
  }
  fail(ctx, "unknown arithmetic op");
}

// TF.js's cpu backend takes complex64 in Add, Sub and Mul only, each part worked out in double
// (JavaScript numbers) and stored as float32; a real operand counts as (x, 0).
HostTensor complex_op(const KernelContext& ctx, Arith kind, const HostTensor& a,
                      const HostTensor& b) {
  using C = std::complex<float>;
  constexpr DType T = DType::Complex64;
  auto make = [](double re, double im) {
    return C(static_cast<float>(re), static_cast<float>(im));
  };
  switch (kind) {
    case Arith::Add:
      return run<C, C>(ctx, a, b, T, [&](C x, C y) {
        return make(double{x.real()} + y.real(), double{x.imag()} + y.imag());
      });
    case Arith::Sub:
      return run<C, C>(ctx, a, b, T, [&](C x, C y) {
        return make(double{x.real()} - y.real(), double{x.imag()} - y.imag());
      });
    case Arith::Mul:
      return run<C, C>(ctx, a, b, T, [&](C x, C y) {
        return make(double{x.real()} * y.real() - double{x.imag()} * y.imag(),
                    double{x.real()} * y.imag() + double{x.imag()} * y.real());
      });
    default:
      fail(ctx, "complex64 operands are taken by Add, Sub and Mul only (as TF.js's cpu backend)");
  }
}

HostTensor int_op(const KernelContext& ctx, Arith kind, const HostTensor& a, const HostTensor& b) {
  using I = std::int32_t;
  constexpr DType D = DType::Int32;
  switch (kind) {
    case Arith::Add:
      return run<I, I>(ctx, a, b, D, [](I x, I y) { return wrap(std::int64_t{x} + y); });
    case Arith::Sub:
      return run<I, I>(ctx, a, b, D, [](I x, I y) { return wrap(std::int64_t{x} - y); });
    case Arith::Mul:
      return run<I, I>(ctx, a, b, D, [](I x, I y) {
        return static_cast<I>(static_cast<std::uint32_t>(x) * static_cast<std::uint32_t>(y));
      });
    case Arith::RealDiv:  // TF.js div() on two int32 tensors is floorDiv
    case Arith::FloorDiv:
      return run<I, I>(ctx, a, b, D, int_floor_div);
    case Arith::DivNoNan:
      return run<I, I>(ctx, a, b, D, [](I x, I y) { return y == 0 ? 0 : int_floor_div(x, y); });
    case Arith::FloorMod:
      return run<I, I>(ctx, a, b, D, int_floor_mod);
    case Arith::Maximum:
      return run<I, I>(ctx, a, b, D, [](I x, I y) { return x > y ? x : y; });
    case Arith::Minimum:
      return run<I, I>(ctx, a, b, D, [](I x, I y) { return x < y ? x : y; });
    case Arith::Pow:
      return run<I, I>(ctx, a, b, D, [](I x, I y) { return js_to_int32(std::pow(double(x), y)); });
    case Arith::SquaredDifference:
      return run<I, I>(ctx, a, b, D, [](I x, I y) {
        const std::int64_t d = std::int64_t{x} - y;
        return wrap(d * d);
      });
    case Arith::Atan2:
      return run<I, I>(ctx, a, b, D,
                       [](I x, I y) { return js_to_int32(std::atan2(double(x), double(y))); });
  }
  fail(ctx, "unknown arithmetic op");
}

std::vector<HostTensor> arith(const KernelContext& ctx, Arith kind) {
  require_inputs(ctx, 2, 2);
  const HostTensor& a0 = input_or_complex(ctx, 0);
  const HostTensor& b0 = input_or_complex(ctx, 1);
  // Bool arithmetic has no TF meaning; TF.js computes it on the 0/1 values, as int32 does here.
  DType t = upcast(a0.dtype, b0.dtype);
  if (t == DType::Bool) t = DType::Int32;
  const HostTensor a = convert(a0, t);
  const HostTensor b = convert(b0, t);
  if (t == DType::Complex64) return {complex_op(ctx, kind, a, b)};
  if (t == DType::Float32) return {float_op(ctx, kind, a, b)};
  return {int_op(ctx, kind, a, b)};
}

}  // namespace

std::vector<HostTensor> Add(const KernelContext& ctx) {
  return arith(ctx, Arith::Add);
}
std::vector<HostTensor> Sub(const KernelContext& ctx) {
  return arith(ctx, Arith::Sub);
}
std::vector<HostTensor> Mul(const KernelContext& ctx) {
  return arith(ctx, Arith::Mul);
}
std::vector<HostTensor> RealDiv(const KernelContext& ctx) {
  return arith(ctx, Arith::RealDiv);
}
std::vector<HostTensor> DivNoNan(const KernelContext& ctx) {
  return arith(ctx, Arith::DivNoNan);
}
std::vector<HostTensor> FloorDiv(const KernelContext& ctx) {
  return arith(ctx, Arith::FloorDiv);
}
std::vector<HostTensor> FloorMod(const KernelContext& ctx) {
  return arith(ctx, Arith::FloorMod);
}
std::vector<HostTensor> Maximum(const KernelContext& ctx) {
  return arith(ctx, Arith::Maximum);
}
std::vector<HostTensor> Minimum(const KernelContext& ctx) {
  return arith(ctx, Arith::Minimum);
}
std::vector<HostTensor> Pow(const KernelContext& ctx) {
  return arith(ctx, Arith::Pow);
}
std::vector<HostTensor> SquaredDifference(const KernelContext& ctx) {
  return arith(ctx, Arith::SquaredDifference);
}
std::vector<HostTensor> Atan2(const KernelContext& ctx) {
  return arith(ctx, Arith::Atan2);
}

// Sums N same-shaped tensors, in input order.
std::vector<HostTensor> AddN(const KernelContext& ctx) {
  require_inputs(ctx, 1);
  const HostTensor& first = input(ctx, 0);
  DType t = first.dtype;
  for (std::size_t i = 1; i < ctx.inputs.size(); ++i) {
    const HostTensor& x = input(ctx, i);
    if (x.shape != first.shape)
      fail(ctx, "all inputs must have one shape: input 0 is " + shape_to_string(first.shape) +
                    ", input " + std::to_string(i) + " is " + shape_to_string(x.shape));
    t = upcast(t, x.dtype);
  }
  if (t == DType::Bool) t = DType::Int32;
  HostTensor out = HostTensor::zeros(t, first.shape);
  const std::int64_t n = out.num_elements();
  auto accumulate = [&](auto tag) {
    using T = decltype(tag);
    T* o = out.mutable_values<T>().data();
    const HostTensor x0 = convert(ctx.inputs[0], t);
    std::copy_n(x0.values<T>().data(), n, o);
    for (std::size_t i = 1; i < ctx.inputs.size(); ++i) {
      const HostTensor xi = convert(ctx.inputs[i], t);
      if constexpr (std::is_same_v<T, float>)
        accumulate_into(ctx.pool, o, xi.values<T>().data(), n,
                        [](float x, float y) { return x + y; });
      else
        accumulate_into(ctx.pool, o, xi.values<T>().data(), n,
                        [](T x, T y) { return wrap(std::int64_t{x} + y); });
    }
  };
  if (t == DType::Float32)
    accumulate(float{});
  else
    accumulate(std::int32_t{});
  return {out};
}

}  // namespace tfjsi::cpu::tensor_ops
