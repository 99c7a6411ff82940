// Ops that build a larger tensor from one input: Tile, BroadcastTo, Pad, PadV2, MirrorPad. Tile,
// Pad and MirrorPad share one copy: per output dim, a table from output to input index (-1: the
// pad value).
#include <algorithm>
#include <vector>

#include "backends/cpu/elementwise.h"
#include "ops/attr.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

using Maps = std::vector<std::vector<std::int64_t>>;

template <class T>
void copy_mapped(const KernelContext& ctx, const HostTensor& x, HostTensor& out, const Maps& maps,
                 T fill) {
  const int r = x.rank();
  const T* in = reinterpret_cast<const T*>(x.buffer->data());
  T* o = reinterpret_cast<T*>(out.buffer->mutable_data());
  if (r == 0) {
    o[0] = in[0];
    return;
  }
  const auto xs = strides_of(x.shape);
  const auto& last = maps[r - 1];
  const auto inner = static_cast<std::int64_t>(last.size());
  // The common Pad case: the inner table is pad, an identity run, pad.
  std::int64_t run_begin = -1, run_len = 0;
  {
    auto first = std::find_if(last.begin(), last.end(), [](auto v) { return v >= 0; });
    if (first != last.end()) {
      run_begin = first - last.begin();
      while (run_begin + run_len < inner && last[run_begin + run_len] == run_len) ++run_len;
      for (std::int64_t i = run_begin + run_len; i < inner; ++i)
        if (last[i] >= 0) run_begin = -2;  // not a single identity run
      if (last[run_begin >= 0 ? run_begin : 0] != 0) run_begin = -2;
    }
  }
  const std::int64_t rows = out.num_elements() / std::max<std::int64_t>(inner, 1);
  parallel_for(ctx.pool, rows,
               std::max<std::int64_t>(1, kElementwiseGrain / std::max<std::int64_t>(inner, 1)),
               [&](std::int64_t rb, std::int64_t re) {
                 for (std::int64_t row = rb; row < re; ++row) {
                   T* dst = o + row * inner;
                   std::int64_t rem = row, off = 0;
                   bool pad = false;
                   for (int d = r - 2; d >= 0; --d) {
                     const auto& m = maps[d];
                     const std::int64_t i = rem % static_cast<std::int64_t>(m.size());
                     rem /= static_cast<std::int64_t>(m.size());
                     if (m[i] < 0)
                       pad = true;
                     else
                       off += m[i] * xs[d];
                   }
                   if (pad) {
                     std::fill_n(dst, inner, fill);
                     continue;
                   }
                   const T* src = in + off;
                   if (run_begin >= 0) {
                     std::fill_n(dst, run_begin, fill);
                     std::copy_n(src, run_len, dst + run_begin);
                     std::fill_n(dst + run_begin + run_len, inner - run_begin - run_len, fill);
                   } else {
                     for (std::int64_t i = 0; i < inner; ++i)
                       dst[i] = last[i] < 0 ? fill : src[last[i]];
                   }
                 }
               });
}

HostTensor build_mapped(const KernelContext& ctx, const HostTensor& x, const Maps& maps,
                        double fill) {
  Shape shape;
  for (const auto& m : maps) shape.push_back(static_cast<std::int64_t>(m.size()));
  if (!checked_num_elements(shape))
    fail(ctx, "output shape " + shape_to_string(shape) + " is too large");
  HostTensor out = HostTensor::zeros(x.dtype, shape);
  if (out.num_elements() == 0) return out;
  switch (x.dtype) {
    case DType::Float32:
      copy_mapped<float>(ctx, x, out, maps, static_cast<float>(fill));
      break;
    case DType::Int32:
      copy_mapped<std::int32_t>(ctx, x, out, maps, js_to_int32(fill));
      break;
    case DType::Bool:
      copy_mapped<std::uint8_t>(ctx, x, out, maps, fill != 0);
      break;
    case DType::String:
    case DType::Complex64:
      fail(ctx, std::string(to_string(x.dtype)) + " tensors are not supported");
  }
  return out;
}

// The [rank, 2] paddings input as (before, after) pairs.
std::vector<std::pair<std::int64_t, std::int64_t>> read_paddings(const KernelContext& ctx,
                                                                 int rank) {
  const HostTensor& p = input(ctx, 1);
  const HostTensor pi = convert(p, DType::Int32);
  if (pi.num_elements() != 2 * std::int64_t{rank})
    fail(ctx, "paddings of shape " + shape_to_string(p.shape) + " do not fit an input of rank " +
                  std::to_string(rank));
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  const auto v = pi.values<std::int32_t>();
  for (int d = 0; d < rank; ++d) {
    if (v[2 * d] < 0 || v[2 * d + 1] < 0) fail(ctx, "paddings must not be negative");
    out.emplace_back(v[2 * d], v[2 * d + 1]);
  }
  return out;
}

std::vector<HostTensor> pad(const KernelContext& ctx, double value) {
  const HostTensor& x = input(ctx, 0);
  const auto pads = read_paddings(ctx, x.rank());
  Maps maps(x.rank());
  for (int d = 0; d < x.rank(); ++d) {
    auto& m = maps[d];
    m.assign(static_cast<std::size_t>(pads[d].first + x.shape[d] + pads[d].second), -1);
    for (std::int64_t i = 0; i < x.shape[d]; ++i) m[pads[d].first + i] = i;
  }
  return {build_mapped(ctx, x, maps, value)};
}

}  // namespace

// Inputs: x, multiples.
std::vector<HostTensor> Tile(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const HostTensor& x = input(ctx, 0);
  const auto reps = read_ints(ctx, 1, "multiples");
  if (static_cast<int>(reps.size()) != x.rank())
    fail(ctx,
         "multiples " + shape_to_string(reps) + " do not match input " + shape_to_string(x.shape));
  Maps maps(x.rank());
  for (int d = 0; d < x.rank(); ++d) {
    if (reps[d] < 0) fail(ctx, "multiples must not be negative: " + shape_to_string(reps));
    if (!checked_num_elements(std::vector<std::int64_t>{x.shape[d], reps[d]}))
      fail(ctx, "output is too large");
    for (std::int64_t i = 0; i < x.shape[d] * reps[d]; ++i) maps[d].push_back(i % x.shape[d]);
  }
  return {build_mapped(ctx, x, maps, 0)};
}

std::vector<HostTensor> Pad(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  return pad(ctx, 0);
}

std::vector<HostTensor> PadV2(const KernelContext& ctx) {
  require_inputs(ctx, 3, 3);
  return pad(ctx, read_scalar(ctx, 2, "constant_values"));
}

// REFLECT mirrors without repeating the edge, SYMMETRIC repeats it.
std::vector<HostTensor> MirrorPad(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const HostTensor& x = input(ctx, 0);
  const std::string mode = ops::attr<std::string>(ctx.node, "mode", "REFLECT");
  const bool reflect = mode == "REFLECT" || mode == "reflect";
  if (!reflect && mode != "SYMMETRIC" && mode != "symmetric")
    fail(ctx, "mode must be REFLECT or SYMMETRIC, got '" + mode + "'");
  const auto pads = read_paddings(ctx, x.rank());
  Maps maps(x.rank());
  for (int d = 0; d < x.rank(); ++d) {
    const std::int64_t n = x.shape[d];
    const std::int64_t limit = reflect ? n - 1 : n;
    if (pads[d].first > limit || pads[d].second > limit)
      fail(ctx, "paddings " + std::to_string(pads[d].first) + "," + std::to_string(pads[d].second) +
                    " are too large for dim " + std::to_string(d) + " of " +
                    shape_to_string(x.shape) + " in " + mode + " mode");
    for (std::int64_t i = -pads[d].first; i < n + pads[d].second; ++i) {
      std::int64_t j = i;
      if (j < 0) j = reflect ? -j : -j - 1;
      if (j >= n) j = reflect ? 2 * (n - 1) - j : 2 * n - 1 - j;
      maps[d].push_back(j);
    }
  }
  return {build_mapped(ctx, x, maps, 0)};
}

// Inputs: x, shape. x's dims must each equal the target dim or be 1.
std::vector<HostTensor> BroadcastTo(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const HostTensor& x = input(ctx, 0);
  const auto dims = read_ints(ctx, 1, "shape");
  const Shape target(dims.begin(), dims.end());
  const Shape shape = broadcast_shapes(ctx, x.shape, target);
  if (shape != target)
    fail(ctx, "cannot broadcast " + shape_to_string(x.shape) + " to " + shape_to_string(target));
  HostTensor out = HostTensor::zeros(x.dtype, shape);
  const auto plan = plan_broadcast<1>(shape, {&x.shape});
  switch (element_size(x.dtype)) {
    case 1:
      map_broadcast_copy(ctx.pool, plan, reinterpret_cast<const std::uint8_t*>(x.buffer->data()),
                         reinterpret_cast<std::uint8_t*>(out.buffer->mutable_data()));
      break;
    case 4:
      map_broadcast_copy(ctx.pool, plan, reinterpret_cast<const std::uint32_t*>(x.buffer->data()),
                         reinterpret_cast<std::uint32_t*>(out.buffer->mutable_data()));
      break;
    default:
      fail(ctx, "string tensors are not supported");
  }
  return {out};
}

}  // namespace tfjsi::cpu::tensor_ops
