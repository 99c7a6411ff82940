// Reductions over axes (Sum, Mean, Prod, Max, Min, All, Any, EuclideanNorm), ArgMax/ArgMin and
// Cumsum/Cumprod. The input
// is viewed as [outer, reduced, inner] when the reduced axes are adjacent (the usual case), and is
// permuted to [kept, reduced] otherwise. Sums and products accumulate in double as TF.js does in
// JS.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "backends/cpu/elementwise.h"
#include "backends/cpu/transpose.h"
#include "ops/attr.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

namespace tfjsi::cpu::tensor_ops {
namespace {

// The input as [outer, reduced, inner] plus the output shape.
struct Layout {
  HostTensor data;  // the input, or a permuted copy
  std::int64_t outer = 1, reduced = 1, inner = 1;
  Shape out_shape;
};

std::vector<int> parse_axes(const KernelContext& ctx, std::size_t input_index, int rank) {
  const auto raw = read_ints(ctx, input_index, "axis");
  std::vector<int> axes;
  for (auto a : raw) axes.push_back(normalize_axis(ctx, a, rank));
  std::sort(axes.begin(), axes.end());
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

Layout layout_for(const KernelContext& ctx, const HostTensor& x, const std::vector<int>& axes,
                  bool keep_dims) {
  const int rank = x.rank();
  Layout l;
  std::vector<bool> is_reduced(rank, false);
  for (int a : axes) is_reduced[a] = true;
  for (int d = 0; d < rank; ++d) {
    if (!is_reduced[d])
      l.out_shape.push_back(x.shape[d]);
    else if (keep_dims)
      l.out_shape.push_back(1);
  }
  if (axes.empty()) {
    l.data = x;
    l.outer = x.num_elements();
    return l;
  }
  const bool adjacent = axes.back() - axes.front() + 1 == static_cast<int>(axes.size());
  if (adjacent) {
    l.data = x;
    for (int d = 0; d < axes.front(); ++d) l.outer *= x.shape[d];
    for (int a : axes) l.reduced *= x.shape[a];
    for (int d = axes.back() + 1; d < rank; ++d) l.inner *= x.shape[d];
    return l;
  }
  std::vector<int> perm;
  for (int d = 0; d < rank; ++d)
    if (!is_reduced[d]) {
      perm.push_back(d);
      l.outer *= x.shape[d];
    }
  for (int a : axes) {
    perm.push_back(a);
    l.reduced *= x.shape[a];
  }
  l.data = permute(x, perm, ctx.pool);
  return l;
}

bool keep_dims_attr(const KernelContext& ctx) {
  if (ctx.node.attr("keep_dims")) return ops::attr<bool>(ctx.node, "keep_dims", false);
  return ops::attr<bool>(ctx.node, "keepDims", false);
}

// Reduces with accumulator type A: acc = init; acc = step(acc, x); out = finish(acc).
template <class T, class A, class R, class Step, class Finish>
void reduce_layout(const Layout& l, const T* x, R* out, A init, Step step, Finish finish,
                   pthreadpool_t pool) {
  const std::int64_t O = l.outer, Rn = l.reduced, I = l.inner;
  if (I == 1) {
    const std::int64_t grain =
        std::max<std::int64_t>(1, kElementwiseGrain / std::max<std::int64_t>(Rn, 1));
    parallel_for(pool, O, grain, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t o = b; o < e; ++o) {
        const T* __restrict p = x + o * Rn;
        A acc = init;
        for (std::int64_t r = 0; r < Rn; ++r) acc = step(acc, p[r]);
        out[o] = finish(acc);
      }
    });
    return;
  }
  // Inner runs: accumulate whole rows so the loop over i vectorizes.
  const std::int64_t grain =
      std::max<std::int64_t>(1, kElementwiseGrain / std::max<std::int64_t>(Rn * I, 1));
  parallel_for(pool, O, grain, [&](std::int64_t b, std::int64_t e) {
    std::vector<A> acc(static_cast<std::size_t>(I));
    for (std::int64_t o = b; o < e; ++o) {
      A* __restrict a = acc.data();
      std::fill(a, a + I, init);
      for (std::int64_t r = 0; r < Rn; ++r) {
        const T* __restrict p = x + (o * Rn + r) * I;
        for (std::int64_t i = 0; i < I; ++i) a[i] = step(a[i], p[i]);
      }
      R* __restrict po = out + o * I;
      for (std::int64_t i = 0; i < I; ++i) po[i] = finish(a[i]);
    }
  });
}

enum class Red { Sum, Mean, Prod, Max, Min, All, Any };

std::vector<HostTensor> reduce(const KernelContext& ctx, Red kind) {
  require_inputs(ctx, 2, 2);
  const HostTensor& x0 = input(ctx, 0);
  const auto axes = parse_axes(ctx, 1, x0.rank());
  const bool keep = keep_dims_attr(ctx);

  if (kind == Red::All || kind == Red::Any) {
    const HostTensor x = convert(x0, DType::Bool);
    const Layout l = layout_for(ctx, x, axes, keep);
    HostTensor out = HostTensor::zeros(DType::Bool, l.out_shape);
    using B = std::uint8_t;
    if (kind == Red::All)
      reduce_layout<B, B, B>(
          l, l.data.values<B>().data(), out.mutable_values<B>().data(), 1,
          [](B a, B v) -> B { return a & (v != 0); }, [](B a) { return a; }, ctx.pool);
    else
      reduce_layout<B, B, B>(
          l, l.data.values<B>().data(), out.mutable_values<B>().data(), 0,
          [](B a, B v) -> B { return a | (v != 0); }, [](B a) { return a; }, ctx.pool);
    return {out};
  }

  // Mean is float32 for every input (TF.js casts first); the others keep float32 and turn
  // bool into int32.
  DType t = x0.dtype == DType::Bool ? DType::Int32 : x0.dtype;
  if (kind == Red::Mean) t = DType::Float32;
  const HostTensor x = convert(x0, t);
  const Layout l = layout_for(ctx, x, axes, keep);
  HostTensor out = HostTensor::zeros(t, l.out_shape);
  if (out.num_elements() == 0) return {out};

  if (t == DType::Float32) {
    const float* px = l.data.values<float>().data();
    float* po = out.mutable_values<float>().data();
    auto to_f = [](double a) { return static_cast<float>(a); };
    switch (kind) {
      case Red::Sum:
        reduce_layout<float, double, float>(
            l, px, po, 0.0, [](double a, float v) { return a + v; }, to_f, ctx.pool);
        break;
      case Red::Mean: {
        // TF.js divides each element by the count (in float32) before summing.
        const float n = static_cast<float>(l.reduced);
        reduce_layout<float, double, float>(
            l, px, po, 0.0, [n](double a, float v) { return a + static_cast<float>(v / n); }, to_f,
            ctx.pool);
        break;
      }
      case Red::Prod:
        reduce_layout<float, double, float>(
            l, px, po, 1.0, [](double a, float v) { return a * v; }, to_f, ctx.pool);
        break;
      case Red::Max:
        reduce_layout<float, float, float>(
            l, px, po, -std::numeric_limits<float>::infinity(),
            [](float a, float v) { return ((v > a) | (v != v)) ? v : a; },
            [](float a) { return a; }, ctx.pool);
        break;
      case Red::Min:
        reduce_layout<float, float, float>(
            l, px, po, std::numeric_limits<float>::infinity(),
            [](float a, float v) { return ((v < a) | (v != v)) ? v : a; },
            [](float a) { return a; }, ctx.pool);
        break;
      default:
        break;
    }
    return {out};
  }
  using I = std::int32_t;
  const I* px = l.data.values<I>().data();
  I* po = out.mutable_values<I>().data();
  auto wrap64 = [](std::int64_t a) { return static_cast<I>(static_cast<std::uint32_t>(a)); };
  switch (kind) {
    case Red::Sum:
      reduce_layout<I, std::int64_t, I>(
          l, px, po, 0, [](std::int64_t a, I v) { return a + v; }, wrap64, ctx.pool);
      break;
    case Red::Prod:
      reduce_layout<I, double, I>(
          l, px, po, 1.0, [](double a, I v) { return a * v; },
          [](double a) { return js_to_int32(a); }, ctx.pool);
      break;
    case Red::Max:
      reduce_layout<I, I, I>(
          l, px, po, std::numeric_limits<I>::min(), [](I a, I v) { return v > a ? v : a; },
          [](I a) { return a; }, ctx.pool);
      break;
    case Red::Min:
      reduce_layout<I, I, I>(
          l, px, po, std::numeric_limits<I>::max(), [](I a, I v) { return v < a ? v : a; },
          [](I a) { return a; }, ctx.pool);
      break;
    default:
      break;
  }
  return {out};
}

// sqrt(sum(x^2)) over the axes, in float32 for every input: TF.js's norm(x, 'euclidean') squares
// in float32, sums in double and takes the root of the float32 sum.
std::vector<HostTensor> euclidean_norm(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const HostTensor x = convert(input(ctx, 0), DType::Float32);
  const Layout l = layout_for(ctx, x, parse_axes(ctx, 1, x.rank()), keep_dims_attr(ctx));
  HostTensor out = HostTensor::zeros(DType::Float32, l.out_shape);
  if (out.num_elements() == 0) return {out};
  reduce_layout<float, double, float>(
      l, l.data.values<float>().data(), out.mutable_values<float>().data(), 0.0,
      [](double a, float v) { return a + static_cast<float>(v * v); },
      [](double a) { return std::sqrt(static_cast<float>(a)); }, ctx.pool);
  return {out};
}

// Running sum (kProd: product) along one axis; `exclusive` shifts by one, `reverse` runs from the
// end. Each step is stored in the output type, as TF.js accumulates in its output array.
template <bool kProd>
std::vector<HostTensor> cumulative(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const HostTensor& x0 = input(ctx, 0);
  const int axis = normalize_axis(ctx, read_int(ctx, 1, "axis"), x0.rank());
  const bool exclusive = ops::attr<bool>(ctx.node, "exclusive", false);
  const bool reverse = ops::attr<bool>(ctx.node, "reverse", false);
  const DType t = x0.dtype == DType::Float32 ? DType::Float32 : DType::Int32;
  const HostTensor x = convert(x0, t);
  HostTensor out = HostTensor::zeros(t, x.shape);
  std::int64_t O = 1, R = x.shape[axis], I = 1;
  for (int d = 0; d < axis; ++d) O *= x.shape[d];
  for (int d = axis + 1; d < x.rank(); ++d) I *= x.shape[d];
  dispatch_numeric(ctx, t, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.values<T>().data();
    T* po = out.mutable_values<T>().data();
    auto step = [](T a, T v) -> T {
      if constexpr (std::is_same_v<T, float>)
        return kProd ? a * v : a + v;
      else  // wraps as TF.js's Int32Array stores it
        return static_cast<T>(js_to_int32(kProd ? double(a) * double(v) : double(a) + double(v)));
    };
    for (std::int64_t o = 0; o < O; ++o) {
      std::vector<T> acc(static_cast<std::size_t>(I), T{kProd ? 1 : 0});
      for (std::int64_t s = 0; s < R; ++s) {
        const std::int64_t r = reverse ? R - 1 - s : s;
        const T* src = px + (o * R + r) * I;
        T* dst = po + (o * R + r) * I;
        for (std::int64_t i = 0; i < I; ++i) {
          if (exclusive) {
            dst[i] = acc[i];
            acc[i] = step(acc[i], src[i]);
          } else {
            acc[i] = step(acc[i], src[i]);
            dst[i] = acc[i];
          }
        }
      }
    }
  });
  return {out};
}

// ArgMax/ArgMin over one axis. The first extreme wins (strict comparison from element 0), and the
// result is int32 whatever output_type says, as in TF.js.
template <bool kMax>
std::vector<HostTensor> arg_reduce(const KernelContext& ctx) {
  require_inputs(ctx, 1, 2);
  const HostTensor& x0 = input(ctx, 0);
  const int axis =
      normalize_axis(ctx, ctx.inputs.size() > 1 ? read_int(ctx, 1, "axis") : 0, x0.rank());
  if (x0.shape[axis] == 0) fail(ctx, "cannot take the arg-extreme of an empty axis");
  const DType t = x0.dtype == DType::Float32 ? DType::Float32 : DType::Int32;
  const HostTensor x = convert(x0, t);
  Layout l;
  l.data = x;
  for (int d = 0; d < axis; ++d) l.outer *= x.shape[d];
  l.reduced = x.shape[axis];
  for (int d = axis + 1; d < x.rank(); ++d) l.inner *= x.shape[d];
  Shape out_shape = x.shape;
  out_shape.erase(out_shape.begin() + axis);
  HostTensor out = HostTensor::zeros(DType::Int32, out_shape);
  dispatch_numeric(ctx, t, [&](auto tag) {
    using T = decltype(tag);
    const T* px = l.data.values<T>().data();
    std::int32_t* po = out.mutable_values<std::int32_t>().data();
    parallel_for(ctx.pool, l.outer * l.inner, 4096, [&](std::int64_t b, std::int64_t e) {
      for (std::int64_t k = b; k < e; ++k) {
        const std::int64_t o = k / l.inner, i = k % l.inner;
        const T* p = px + o * l.reduced * l.inner + i;
        T best = p[0];
        std::int32_t at = 0;
        for (std::int64_t r = 1; r < l.reduced; ++r) {
          const T v = p[r * l.inner];
          if (kMax ? v > best : v < best) {
            best = v;
            at = static_cast<std::int32_t>(r);
          }
        }
        po[k] = at;
      }
    });
  });
  return {out};
}

}  // namespace

std::vector<HostTensor> Sum(const KernelContext& ctx) {
  return reduce(ctx, Red::Sum);
}
std::vector<HostTensor> Mean(const KernelContext& ctx) {
  return reduce(ctx, Red::Mean);
}
std::vector<HostTensor> Prod(const KernelContext& ctx) {
  return reduce(ctx, Red::Prod);
}
std::vector<HostTensor> Max(const KernelContext& ctx) {
  return reduce(ctx, Red::Max);
}
std::vector<HostTensor> Min(const KernelContext& ctx) {
  return reduce(ctx, Red::Min);
}
std::vector<HostTensor> All(const KernelContext& ctx) {
  return reduce(ctx, Red::All);
}
std::vector<HostTensor> Any(const KernelContext& ctx) {
  return reduce(ctx, Red::Any);
}
std::vector<HostTensor> ArgMax(const KernelContext& ctx) {
  return arg_reduce<true>(ctx);
}
std::vector<HostTensor> ArgMin(const KernelContext& ctx) {
  return arg_reduce<false>(ctx);
}

std::vector<HostTensor> EuclideanNorm(const KernelContext& ctx) {
  return euclidean_norm(ctx);
}
std::vector<HostTensor> Cumsum(const KernelContext& ctx) {
  return cumulative<false>(ctx);
}
std::vector<HostTensor> Cumprod(const KernelContext& ctx) {
  return cumulative<true>(ctx);
}

}  // namespace tfjsi::cpu::tensor_ops
