// Joining and splitting along an axis: ConcatV2, Concat, Pack, Unpack, Split, SplitV. Every one is
// a set of block copies over the view [outer, axis * inner].
#include <algorithm>
#include <vector>

#include "backends/cpu/tensor_util.h"
#include "ops/attr.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

// Concatenates `parts` (all of rank r, equal except along `axis`) along `axis`.
HostTensor concat_along(const KernelContext& ctx, const std::vector<HostTensor>& parts, int axis) {
  const HostTensor& first = parts.front();
  Shape shape = first.shape;
  shape[axis] = 0;
  for (const auto& p : parts) {
    bool ok = p.rank() == first.rank();
    for (int d = 0; ok && d < first.rank(); ++d)
      if (d != axis && p.shape[d] != first.shape[d]) ok = false;
    if (!ok)
      fail(ctx, "cannot concatenate shapes " + shape_to_string(first.shape) + " and " +
                    shape_to_string(p.shape) + " along axis " + std::to_string(axis));
    shape[axis] += p.shape[axis];
  }
  HostTensor out = HostTensor::uninitialized(first.dtype, shape);
  const std::size_t elem = element_size(first.dtype);
  std::int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= shape[d];
  for (int d = axis + 1; d < first.rank(); ++d) inner *= shape[d];
  const std::int64_t out_row = shape[axis] * inner;
  std::byte* o = out.buffer->mutable_data();
  parallel_for(ctx.pool, outer,
               std::max<std::int64_t>(1, kElementwiseGrain / std::max<std::int64_t>(out_row, 1)),
               [&](std::int64_t b, std::int64_t e) {
                 for (std::int64_t r = b; r < e; ++r) {
                   std::int64_t at = r * out_row;
                   for (const auto& p : parts) {
                     const std::int64_t row = p.shape[axis] * inner;
                     copy_elems(o + at * elem, p.buffer->data() + r * row * elem, row, elem);
                     at += row;
                   }
                 }
               });
  return out;
}

// Splits `x` along `axis` into pieces of the given sizes.
std::vector<HostTensor> split_along(const KernelContext& ctx, const HostTensor& x, int axis,
                                    const std::vector<std::int64_t>& sizes) {
  std::int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d) outer *= x.shape[d];
  for (int d = axis + 1; d < x.rank(); ++d) inner *= x.shape[d];
  const std::size_t elem = element_size(x.dtype);
  const std::int64_t in_row = x.shape[axis] * inner;
  std::vector<HostTensor> outs;
  std::int64_t offset = 0;
  for (auto s : sizes) {
    Shape shape = x.shape;
    shape[axis] = s;
    HostTensor out = HostTensor::zeros(x.dtype, shape);
    const std::int64_t row = s * inner;
    std::byte* o = out.buffer->mutable_data();
    const std::byte* src = x.buffer->data();
    parallel_for(ctx.pool, outer,
                 std::max<std::int64_t>(1, kElementwiseGrain / std::max<std::int64_t>(row, 1)),
                 [&](std::int64_t b, std::int64_t e) {
                   for (std::int64_t r = b; r < e; ++r)
                     copy_elems(o + r * row * elem, src + (r * in_row + offset * inner) * elem, row,
                                elem);
                 });
    offset += s;
    outs.push_back(std::move(out));
  }
  return outs;
}

DType common_type(const KernelContext& ctx, std::size_t begin, std::size_t end) {
  DType t = input_or_complex(ctx, begin).dtype;
  for (std::size_t i = begin + 1; i < end; ++i) t = upcast(t, input_or_complex(ctx, i).dtype);
  return t;
}

// Concatenates inputs [first, first + n) along the axis in input `axis_input`.
std::vector<HostTensor> concat_inputs(const KernelContext& ctx, std::size_t first, std::size_t n,
                                      std::size_t axis_input) {
  const HostTensor& x0 = input_or_complex(ctx, first);
  if (x0.rank() == 0) fail(ctx, "cannot concatenate scalars");
  const int axis = normalize_axis(ctx, read_int(ctx, axis_input, "axis"), x0.rank());
  const DType t = common_type(ctx, first, first + n);
  // TF.js concatenates complex64 tensors only with each other.
  for (std::size_t i = first; t == DType::Complex64 && i < first + n; ++i)
    if (ctx.inputs[i].dtype != DType::Complex64)
      fail(ctx, "input " + std::to_string(i) + " is " +
                    std::string(to_string(ctx.inputs[i].dtype)) +
                    ": complex64 tensors are concatenated only with complex64 ones (as in TF.js)");
  std::vector<HostTensor> parts;
  for (std::size_t i = first; i < first + n; ++i) parts.push_back(convert(ctx.inputs[i], t));
  if (n == 1) return {parts.front()};
  return {concat_along(ctx, parts, axis)};
}

}  // namespace

// Inputs: N tensors, then the axis.
std::vector<HostTensor> ConcatV2(const KernelContext& ctx) {
  require_inputs(ctx, 2);
  return concat_inputs(ctx, 0, ctx.inputs.size() - 1, ctx.inputs.size() - 1);
}

// TF1's Concat: the axis first, then the N tensors.
std::vector<HostTensor> Concat(const KernelContext& ctx) {
  require_inputs(ctx, 2);
  return concat_inputs(ctx, 1, ctx.inputs.size() - 1, 0);
}

// Stacks N same-shaped tensors along a new axis.
std::vector<HostTensor> Pack(const KernelContext& ctx) {
  require_inputs(ctx, 1);
  const std::size_t n = ctx.inputs.size();
  const HostTensor& first = input(ctx, 0);
  const int axis =
      normalize_axis(ctx, ops::attr<std::int64_t>(ctx.node, "axis", 0), first.rank() + 1);
  const DType t = common_type(ctx, 0, n);
  std::vector<HostTensor> parts;
  Shape expanded = first.shape;
  expanded.insert(expanded.begin() + axis, 1);
  for (std::size_t i = 0; i < n; ++i) {
    const HostTensor& x = ctx.inputs[i];
    // TF.js accepts inputs whose shapes differ only by size-1 dims and views them as input 0.
    if (x.shape != first.shape) {
      auto squeezed = [](const Shape& s) {
        Shape r;
        for (auto d : s)
          if (d != 1) r.push_back(d);
        return r;
      };
      if (squeezed(x.shape) != squeezed(first.shape))
        fail(ctx, "input " + std::to_string(i) + " has shape " + shape_to_string(x.shape) +
                      ", input 0 has " + shape_to_string(first.shape));
    }
    parts.push_back(view_as(convert(x, t), expanded));
  }
  return {concat_along(ctx, parts, axis)};
}

// Splits along `axis` into shape[axis] tensors without that axis.
std::vector<HostTensor> Unpack(const KernelContext& ctx) {
  require_inputs(ctx, 1, 1);
  const HostTensor& x = input(ctx, 0);
  if (x.rank() == 0) fail(ctx, "cannot unpack a scalar");
  const int axis = normalize_axis(ctx, ops::attr<std::int64_t>(ctx.node, "axis", 0), x.rank());
  const std::int64_t num = ops::attr<std::int64_t>(ctx.node, "num", x.shape[axis]);
  if (num != x.shape[axis])
    fail(ctx, "attribute num is " + std::to_string(num) + " but dim " + std::to_string(axis) +
                  " of " + shape_to_string(x.shape) + " is " + std::to_string(x.shape[axis]));
  auto outs = split_along(ctx, x, axis, std::vector<std::int64_t>(x.shape[axis], 1));
  Shape shape = x.shape;
  shape.erase(shape.begin() + axis);
  for (auto& o : outs) o.shape = shape;
  return outs;
}

// Inputs: axis, x; attribute num_split.
std::vector<HostTensor> Split(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const HostTensor& x = input(ctx, 1);
  const int axis = normalize_axis(ctx, read_int(ctx, 0, "axis"), x.rank());
  const std::int64_t num = ops::attr<std::int64_t>(ctx.node, "num_split", 1);
  if (num <= 0 || x.shape[axis] % num != 0)
    fail(ctx, "cannot split dim " + std::to_string(axis) + " of " + shape_to_string(x.shape) +
                  " into " + std::to_string(num) + " equal parts");
  return split_along(ctx, x, axis, std::vector<std::int64_t>(num, x.shape[axis] / num));
}

// Inputs: x, size_splits (one may be -1), axis.
std::vector<HostTensor> SplitV(const KernelContext& ctx) {
  require_inputs(ctx, 3, 3);
  const HostTensor& x = input(ctx, 0);
  auto sizes = read_ints(ctx, 1, "size_splits");
  const int axis = normalize_axis(ctx, read_int(ctx, 2, "axis"), x.rank());
  std::int64_t known = 0;
  int unknown = -1;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1 && unknown < 0) {
      unknown = static_cast<int>(i);
    } else if (sizes[i] < 0) {
      fail(ctx, "size_splits " + shape_to_string(sizes) + " is invalid");
    } else {
      known += sizes[i];
    }
  }
  if (unknown >= 0) sizes[unknown] = x.shape[axis] - known;
  if ((unknown >= 0 && sizes[unknown] < 0) || (unknown < 0 && known != x.shape[axis]))
    fail(ctx, "size_splits " + shape_to_string(sizes) + " do not add up to dim " +
                  std::to_string(axis) + " of " + shape_to_string(x.shape));
  return split_along(ctx, x, axis, sizes);
}

}  // namespace tfjsi::cpu::tensor_ops
