// Select/SelectV2 (pick from two tensors by a condition), Where (coordinates of true elements) and
// MatrixBandPart (keep a band around each matrix's diagonal, zero elsewhere).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "backends/cpu/elementwise.h"

namespace tfjsi::cpu::tensor_ops {

// TF.js runs both Select and SelectV2 as tf.where, which broadcasts condition, t and e NumPy
// style. TF's Select also accepts a vector condition that picks whole rows of a higher-rank t;
// TF.js rejects that unless the shapes happen to broadcast, so we only take TF's reading when
// plain broadcasting fails.
std::vector<HostTensor> SelectV2(const KernelContext& ctx) {
  require_inputs(ctx, 3, 3);
  const HostTensor cond = convert(input(ctx, 0), DType::Bool);
  const HostTensor& t0 = input(ctx, 1);
  const HostTensor& e0 = input(ctx, 2);
  const DType dt = upcast(t0.dtype, e0.dtype);
  const HostTensor t = convert(t0, dt);
  const HostTensor e = convert(e0, dt);
  Shape cshape = cond.shape;
  if (ctx.node.op == "Select" && cond.rank() == 1 && t.rank() > 1 && cond.shape[0] == t.shape[0]) {
    // Row selection: view the condition as [N, 1, 1, ...].
    cshape.resize(t.shape.size(), 1);
  }
  const Shape shape = broadcast_shapes(ctx, broadcast_shapes(ctx, cshape, t.shape), e.shape);
  HostTensor out = HostTensor::zeros(dt, shape);
  const auto plan = plan_broadcast<3>(shape, {&cshape, &t.shape, &e.shape});
  dispatch_numeric(ctx, dt, [&](auto tag) {
    using T = decltype(tag);
    map_select(ctx.pool, plan, cond.values<std::uint8_t>().data(), t.values<T>().data(),
               e.values<T>().data(), out.mutable_values<T>().data());
  });
  return {out};
}

std::vector<HostTensor> Select(const KernelContext& ctx) {
  return SelectV2(ctx);
}

// The coordinates of the true (non-zero) elements, row-major, as an int32 [count, rank] tensor.
std::vector<HostTensor> Where(const KernelContext& ctx) {
  require_inputs(ctx, 1, 1);
  const HostTensor cond = convert(input(ctx, 0), DType::Bool);
  const auto values = cond.values<std::uint8_t>();
  std::int64_t count = 0;
  for (auto v : values) count += v != 0;
  const int rank = cond.rank();
  HostTensor out = HostTensor::zeros(DType::Int32, {count, rank});
  auto o = out.mutable_values<std::int32_t>();
  const auto strides = strides_of(cond.shape);
  std::size_t w = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!values[i]) continue;
    auto rem = static_cast<std::int64_t>(i);
    for (int d = 0; d < rank; ++d) {
      o[w++] = static_cast<std::int32_t>(rem / strides[d]);
      rem %= strides[d];
    }
  }
  return {out};
}

// Inputs: a [..., M, N], num_lower, num_upper. Keeps a[..., i, j] where i - j <= num_lower and
// j - i <= num_upper (a negative bound keeps that whole triangle). TF.js 4.22's op list maps both
// of its bounds to input 1, so num_upper is num_lower there; we read it as TF.js does, and the
// conformance case (TF.js's numbers) holds us to it.
std::vector<HostTensor> MatrixBandPart(const KernelContext& ctx) {
  require_inputs(ctx, 2, 3);
  const HostTensor& a = input(ctx, 0);
  if (a.rank() < 2) fail(ctx, "input must have rank >= 2, got shape " + shape_to_string(a.shape));
  const std::int64_t M = a.shape[a.rank() - 2], N = a.shape[a.rank() - 1];
  const std::int64_t lower_in = read_int(ctx, 1, "num_lower");
  const std::int64_t upper_in = read_int(ctx, 1, "num_upper");
  const std::int64_t lower = lower_in < 0 ? M : std::min(lower_in, M);
  const std::int64_t upper = upper_in < 0 ? N : std::min(upper_in, N);
  HostTensor out = HostTensor::zeros(a.dtype, a.shape);
  if (out.num_elements() == 0) return {out};
  const std::int64_t batch = a.num_elements() / (M * N);
  const std::size_t elem = element_size(a.dtype);
  const std::byte* src = a.buffer->data();
  std::byte* dst = out.buffer->mutable_data();
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t i = 0; i < M; ++i) {
      // Columns j with i - lower <= j <= i + upper.
      const std::int64_t j0 = std::max<std::int64_t>(0, i - lower);
      const std::int64_t j1 = std::min<std::int64_t>(N, i + upper + 1);
      const std::int64_t row = (b * M + i) * N;
      if (j1 > j0) copy_elems(dst + (row + j0) * elem, src + (row + j0) * elem, j1 - j0, elem);
    }
  return {out};
}

}  // namespace tfjsi::cpu::tensor_ops
