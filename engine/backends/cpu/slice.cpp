// Slice, StridedSlice (begin/end/ellipsis/new_axis/shrink_axis masks, negative strides) and
// Reverse/ReverseV2, all reduced to one strided copy: per input dim a start, a step and a count.
#include <algorithm>
#include <vector>

#include "backends/cpu/tensor_util.h"
#include "ops/attr.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

template <class T>
void strided_copy(const T* in, T* out, const std::vector<std::int64_t>& counts,
                  const std::vector<std::int64_t>& steps, std::int64_t base, pthreadpool_t pool) {
  const int r = static_cast<int>(counts.size());
  const std::int64_t inner = counts[r - 1];
  const std::int64_t inner_step = steps[r - 1];
  const std::int64_t rows = num_elements(std::span(counts).first(r - 1));
  parallel_for(pool, rows,
               std::max<std::int64_t>(1, kElementwiseGrain / std::max<std::int64_t>(inner, 1)),
               [&](std::int64_t rb, std::int64_t re) {
                 std::vector<std::int64_t> idx(r, 0);
                 std::int64_t off = base, rem = rb;
                 for (int d = r - 2; d >= 0; --d) {
                   idx[d] = rem % counts[d];
                   rem /= counts[d];
                   off += idx[d] * steps[d];
                 }
                 for (std::int64_t row = rb; row < re; ++row) {
                   T* o = out + row * inner;
                   const T* src = in + off;
                   if (inner_step == 1)
                     std::copy_n(src, inner, o);
                   else
                     for (std::int64_t i = 0; i < inner; ++i) o[i] = src[i * inner_step];
                   for (int d = r - 2; d >= 0; --d) {
                     off += steps[d];
                     if (++idx[d] < counts[d]) break;
                     off -= steps[d] * counts[d];
                     idx[d] = 0;
                   }
                 }
               });
}

// Copies x[begin[d] + i * stride[d] for i < count[d]] into a tensor of shape `out_shape` (which
// has the same element count as the product of `count`).
HostTensor gather_strided(const KernelContext& ctx, const HostTensor& x,
                          const std::vector<std::int64_t>& begin,
                          const std::vector<std::int64_t>& stride,
                          const std::vector<std::int64_t>& count, Shape out_shape) {
  HostTensor out = HostTensor::uninitialized(x.dtype, std::move(out_shape));
  if (out.num_elements() == 0) return out;
  const auto xs = strides_of(x.shape);
  std::int64_t base = 0;
  std::vector<std::int64_t> counts, steps;
  for (std::size_t d = 0; d < count.size(); ++d) {
    base += begin[d] * xs[d];
    counts.push_back(count[d]);
    steps.push_back(stride[d] * xs[d]);
  }
  if (counts.empty()) {
    counts.push_back(1);
    steps.push_back(1);
  }
  switch (element_size(x.dtype)) {
    case 1:
      strided_copy(reinterpret_cast<const std::uint8_t*>(x.buffer->data()),
                   reinterpret_cast<std::uint8_t*>(out.buffer->mutable_data()), counts, steps, base,
                   ctx.pool);
      break;
    case 4:
      strided_copy(reinterpret_cast<const std::uint32_t*>(x.buffer->data()),
                   reinterpret_cast<std::uint32_t*>(out.buffer->mutable_data()), counts, steps,
                   base, ctx.pool);
      break;
    default:
      fail(ctx, "unsupported dtype " + std::string(to_string(x.dtype)));
  }
  return out;
}

std::int64_t mask_attr(const KernelContext& ctx, const char* key) {
  return ops::attr<std::int64_t>(ctx.node, key, 0);
}

// x with the dims marked in `flip` reversed: a copy with step -1 from the end of those dims.
HostTensor reverse_dims(const KernelContext& ctx, const HostTensor& x,
                        const std::vector<bool>& flip) {
  std::vector<std::int64_t> begin(x.shape.size(), 0), step(x.shape.size(), 1);
  for (std::size_t d = 0; d < x.shape.size(); ++d)
    if (flip[d]) begin[d] = x.shape[d] - 1, step[d] = -1;
  return gather_strided(ctx, x, begin, step, x.shape, x.shape);
}

}  // namespace

// Inputs: x, dims (a bool per dim of x: whether to reverse it).
std::vector<HostTensor> Reverse(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const HostTensor& x = input(ctx, 0);
  const auto dims = read_ints(ctx, 1, "dims");
  if (dims.size() != x.shape.size())
    fail(ctx, "dims has " + std::to_string(dims.size()) + " entries for input " +
                  shape_to_string(x.shape) + " of rank " + std::to_string(x.rank()));
  std::vector<bool> flip(dims.size());
  for (std::size_t d = 0; d < dims.size(); ++d) flip[d] = dims[d] != 0;
  return {reverse_dims(ctx, x, flip)};
}

// Inputs: x, axis (the dims to reverse; negative ones count from the end).
std::vector<HostTensor> ReverseV2(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const HostTensor& x = input(ctx, 0);
  std::vector<bool> flip(x.shape.size(), false);
  for (auto a : read_ints(ctx, 1, "axis")) flip[normalize_axis(ctx, a, x.rank())] = true;
  return {reverse_dims(ctx, x, flip)};
}

// Inputs: x, begin, size (-1: to the end of the dim).
std::vector<HostTensor> Slice(const KernelContext& ctx) {
  require_inputs(ctx, 3, 3);
  const HostTensor& x = input(ctx, 0);
  const int rank = x.rank();
  auto begin = read_ints(ctx, 1, "begin");
  auto size = read_ints(ctx, 2, "size");
  // TF.js lets begin/size be shorter than the rank (the rest is the whole dim).
  if (static_cast<int>(begin.size()) > rank || static_cast<int>(size.size()) > rank)
    fail(ctx, "begin " + shape_to_string(begin) + " / size " + shape_to_string(size) +
                  " do not fit input " + shape_to_string(x.shape));
  begin.resize(rank, 0);
  size.resize(rank, -1);
  for (int d = 0; d < rank; ++d) {
    if (size[d] == -1) size[d] = x.shape[d] - begin[d];
    if (begin[d] < 0 || size[d] < 0 || begin[d] + size[d] > x.shape[d])
      fail(ctx, "begin " + shape_to_string(begin) + " and size " + shape_to_string(size) +
                    " fall outside input " + shape_to_string(x.shape));
  }
  return {gather_strided(ctx, x, begin, std::vector<std::int64_t>(rank, 1), size,
                         Shape(size.begin(), size.end()))};
}

// Inputs: x, begin, end, strides; attributes begin_mask, end_mask, ellipsis_mask, new_axis_mask,
// shrink_axis_mask, with TF's meaning.
std::vector<HostTensor> StridedSlice(const KernelContext& ctx) {
  require_inputs(ctx, 3, 4);
  const HostTensor& x = input(ctx, 0);
  const int rank = x.rank();
  const auto begin = read_ints(ctx, 1, "begin");
  const auto end = read_ints(ctx, 2, "end");
  auto strides = ctx.inputs.size() > 3 ? read_ints(ctx, 3, "strides")
                                       : std::vector<std::int64_t>(begin.size(), 1);
  const std::size_t n = begin.size();
  if (end.size() != n || strides.size() != n)
    fail(ctx, "begin, end and strides differ in length: " + shape_to_string(begin) + ", " +
                  shape_to_string(end) + ", " + shape_to_string(strides));
  const std::int64_t begin_mask = mask_attr(ctx, "begin_mask");
  const std::int64_t end_mask = mask_attr(ctx, "end_mask");
  std::int64_t ellipsis_mask = mask_attr(ctx, "ellipsis_mask");
  const std::int64_t new_axis_mask = mask_attr(ctx, "new_axis_mask");
  const std::int64_t shrink_mask = mask_attr(ctx, "shrink_axis_mask");
  if (ellipsis_mask & (ellipsis_mask - 1)) fail(ctx, "more than one ellipsis in ellipsis_mask");
  auto bit = [](std::int64_t mask, std::size_t i) { return (mask >> i) & 1; };

  // Spec index n stands for the implicit trailing ellipsis when none is given.
  const bool implicit_ellipsis = ellipsis_mask == 0;
  const std::size_t spec_len = implicit_ellipsis ? n + 1 : n;
  std::vector<std::int64_t> db, ds, dc;  // per input dim: start, step, count
  Shape out_shape;
  int dim = 0;
  for (std::size_t i = 0; i < spec_len; ++i) {
    const bool is_ellipsis = i == n ? implicit_ellipsis : bit(ellipsis_mask, i);
    if (is_ellipsis) {
      int after = 0;
      for (std::size_t j = i + 1; j < n; ++j)
        if (!bit(new_axis_mask, j)) ++after;
      const int count = rank - dim - after;
      if (count < 0) fail(ctx, "the slice has more dims than input " + shape_to_string(x.shape));
      for (int k = 0; k < count; ++k, ++dim) {
        db.push_back(0);
        ds.push_back(1);
        dc.push_back(x.shape[dim]);
        out_shape.push_back(x.shape[dim]);
      }
      continue;
    }
    if (bit(new_axis_mask, i)) {
      out_shape.push_back(1);
      continue;
    }
    if (dim >= rank) fail(ctx, "the slice has more dims than input " + shape_to_string(x.shape));
    const std::int64_t size = x.shape[dim];
    const std::int64_t s = strides[i];
    if (s == 0) fail(ctx, "stride " + std::to_string(i) + " is 0");
    if (bit(shrink_mask, i)) {
      std::int64_t b = begin[i] < 0 ? begin[i] + size : begin[i];
      if (b < 0 || b >= size)
        fail(ctx, "index " + std::to_string(begin[i]) + " is out of range for dim " +
                      std::to_string(dim) + " of " + shape_to_string(x.shape));
      db.push_back(b);
      ds.push_back(1);
      dc.push_back(1);
      ++dim;
      continue;
    }
    // Clamp to [0, size] going forward, [-1, size - 1] going backward.
    const std::int64_t lo = s > 0 ? 0 : -1, hi = s > 0 ? size : size - 1;
    auto canon = [&](std::int64_t v, bool masked, bool is_begin) {
      if (masked) return (s > 0) == is_begin ? lo : hi;
      if (v < 0) v += size;
      return std::clamp(v, lo, hi);
    };
    const std::int64_t b = canon(begin[i], bit(begin_mask, i), true);
    const std::int64_t e = canon(end[i], bit(end_mask, i), false);
    std::int64_t count = s > 0 ? (e - b + s - 1) / s : (b - e + (-s) - 1) / (-s);
    if (count < 0) count = 0;
    db.push_back(count > 0 ? b : 0);
    ds.push_back(s);
    dc.push_back(count);
    out_shape.push_back(count);
    ++dim;
  }
  for (; dim < rank; ++dim) {  // an explicit ellipsis earlier may leave dims unnamed
    db.push_back(0);
    ds.push_back(1);
    dc.push_back(x.shape[dim]);
    out_shape.push_back(x.shape[dim]);
  }
  return {gather_strided(ctx, x, db, ds, dc, std::move(out_shape))};
}

}  // namespace tfjsi::cpu::tensor_ops
