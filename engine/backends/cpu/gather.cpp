// GatherV2 (with batch_dims) and GatherNd: block copies addressed by int32 indices. An index out
// of range is an error naming the node, as TF.js's cpu backend rejects it too.
#include <vector>

#include "backends/cpu/tensor_util.h"
#include "ops/attr.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

[[noreturn]] void bad_index(const KernelContext& ctx, std::int64_t index, std::int64_t limit,
                            const Shape& x_shape) {
  fail(ctx, "index " + std::to_string(index) + " is out of range [0, " + std::to_string(limit) +
                ") for params of shape " + shape_to_string(x_shape));
}

}  // namespace

// Inputs: params, indices, axis; attribute batch_dims.
std::vector<HostTensor> GatherV2(const KernelContext& ctx) {
  require_inputs(ctx, 2, 3);
  const HostTensor& x = input(ctx, 0);
  const HostTensor idx = convert(input(ctx, 1), DType::Int32);
  if (x.rank() == 0) fail(ctx, "params must have rank >= 1");
  const int axis =
      normalize_axis(ctx, ctx.inputs.size() > 2 ? read_int(ctx, 2, "axis") : 0, x.rank());
  std::int64_t batch_dims = ops::attr<std::int64_t>(ctx.node, "batch_dims", 0);
  if (batch_dims < 0) batch_dims += idx.rank();
  if (batch_dims < 0 || batch_dims > idx.rank() || batch_dims > axis)
    fail(ctx, "batch_dims " + std::to_string(batch_dims) + " does not fit params " +
                  shape_to_string(x.shape) + ", indices " + shape_to_string(idx.shape) +
                  " and axis " + std::to_string(axis));
  for (std::int64_t d = 0; d < batch_dims; ++d)
    if (x.shape[d] != idx.shape[d])
      fail(ctx, "batch dims of params " + shape_to_string(x.shape) + " and indices " +
                    shape_to_string(idx.shape) + " differ");

  std::int64_t batch = 1, outer = 1, inner = 1;
  for (std::int64_t d = 0; d < batch_dims; ++d) batch *= x.shape[d];
  for (std::int64_t d = batch_dims; d < axis; ++d) outer *= x.shape[d];
  for (int d = axis + 1; d < x.rank(); ++d) inner *= x.shape[d];
  const std::int64_t n = x.shape[axis];
  std::int64_t per_batch = 1;
  for (int d = static_cast<int>(batch_dims); d < idx.rank(); ++d) per_batch *= idx.shape[d];

  Shape shape(x.shape.begin(), x.shape.begin() + axis);
  shape.insert(shape.end(), idx.shape.begin() + batch_dims, idx.shape.end());
  shape.insert(shape.end(), x.shape.begin() + axis + 1, x.shape.end());
  HostTensor out = HostTensor::zeros(x.dtype, shape);

  const auto iv = idx.values<std::int32_t>();
  for (auto i : iv)
    if (i < 0 || i >= n) bad_index(ctx, i, n, x.shape);
  if (out.num_elements() == 0) return {out};
  const std::size_t elem = element_size(x.dtype);
  const std::byte* src = x.buffer->data();
  std::byte* dst = out.buffer->mutable_data();
  const std::int64_t rows = batch * outer * per_batch;
  parallel_for(ctx.pool, rows,
               std::max<std::int64_t>(1, kElementwiseGrain / std::max<std::int64_t>(inner, 1)),
               [&](std::int64_t rb, std::int64_t re) {
                 for (std::int64_t row = rb; row < re; ++row) {
                   const std::int64_t j = row % per_batch;
                   const std::int64_t o = (row / per_batch) % outer;
                   const std::int64_t b = row / (per_batch * outer);
                   const std::int64_t i = iv[b * per_batch + j];
                   copy_elems(dst + row * inner * elem,
                              src + (((b * outer + o) * n + i) * inner) * elem, inner, elem);
                 }
               });
  return {out};
}

// Inputs: params, indices [..., K]; each index row addresses the first K dims of params.
std::vector<HostTensor> GatherNd(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const HostTensor& x = input(ctx, 0);
  const HostTensor idx = convert(input(ctx, 1), DType::Int32);
  if (idx.rank() == 0) fail(ctx, "indices must have rank >= 1");
  const std::int64_t k = idx.shape.back();
  if (k > x.rank())
    fail(ctx, "index depth " + std::to_string(k) + " exceeds the rank of params " +
                  shape_to_string(x.shape));
  Shape shape(idx.shape.begin(), idx.shape.end() - 1);
  shape.insert(shape.end(), x.shape.begin() + k, x.shape.end());
  HostTensor out = HostTensor::zeros(x.dtype, shape);
  std::int64_t inner = 1;
  for (int d = static_cast<int>(k); d < x.rank(); ++d) inner *= x.shape[d];
  const auto xs = strides_of(x.shape);
  const std::int64_t count =
      k == 0 ? num_elements(shape) / std::max<std::int64_t>(inner, 1) : idx.num_elements() / k;
  const auto iv = idx.values<std::int32_t>();
  const std::size_t elem = element_size(x.dtype);
  std::byte* dst = out.buffer->mutable_data();
  for (std::int64_t r = 0; r < count; ++r) {
    std::int64_t off = 0;
    for (std::int64_t d = 0; d < k; ++d) {
      const std::int64_t i = iv[r * k + d];
      if (i < 0 || i >= x.shape[d]) bad_index(ctx, i, x.shape[d], x.shape);
      off += i * xs[d];
    }
    copy_elems(dst + r * inner * elem, x.buffer->data() + off * elem, inner, elem);
  }
  return {out};
}

}  // namespace tfjsi::cpu::tensor_ops
