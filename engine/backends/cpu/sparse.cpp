// SparseToDense: a dense tensor of default_value with the listed entries set.
#include <algorithm>
#include <vector>

#include "backends/cpu/tensor_util.h"

namespace tfjsi::cpu::tensor_ops {

// Inputs: sparse_indices (scalar, [N] or [N, R]), output_shape [R], sparse_values (scalar or
// [N]), default_value (scalar). Later duplicates overwrite earlier ones, as in TF.js.
std::vector<HostTensor> SparseToDense(const KernelContext& ctx) {
  require_inputs(ctx, 4, 4);
  const HostTensor idx = convert(input(ctx, 0), DType::Int32);
  const auto dims = read_ints(ctx, 1, "output_shape");
  for (auto d : dims)
    if (d < 0) fail(ctx, "output_shape " + shape_to_string(dims) + " has a negative dim");
  const HostTensor& values0 = input(ctx, 2);
  const DType t = values0.dtype;
  const HostTensor values = values0;
  const HostTensor def = convert(input(ctx, 3), t);
  if (def.num_elements() != 1) fail(ctx, "default_value must be a scalar");
  const Shape shape(dims.begin(), dims.end());
  const auto rank = static_cast<std::int64_t>(shape.size());
  if (idx.rank() > 2)
    fail(ctx, "sparse_indices must have rank <= 2, got " + shape_to_string(idx.shape));
  const std::int64_t n = idx.rank() == 0 ? 1 : idx.shape[0];
  const std::int64_t depth = idx.rank() == 2 ? idx.shape[1] : 1;
  if (depth != rank)
    fail(ctx, "sparse_indices " + shape_to_string(idx.shape) + " do not address output shape " +
                  shape_to_string(shape));
  if (values.num_elements() != 1 && values.num_elements() != n)
    fail(ctx, "sparse_values of shape " + shape_to_string(values.shape) + " do not match " +
                  std::to_string(n) + " indices");
  HostTensor out = HostTensor::zeros(t, shape);
  const auto strides = strides_of(shape);
  const auto iv = idx.values<std::int32_t>();
  dispatch_numeric(ctx, t, [&](auto tag) {
    using T = decltype(tag);
    auto o = out.mutable_values<T>();
    std::ranges::fill(o, def.values<T>()[0]);
    const auto v = values.values<T>();
    for (std::int64_t i = 0; i < n; ++i) {
      std::int64_t off = 0;
      for (std::int64_t d = 0; d < depth; ++d) {
        const std::int64_t k = iv[i * depth + d];
        if (k < 0 || k >= shape[d])
          fail(ctx, "index " + std::to_string(k) + " is out of range for output shape " +
                        shape_to_string(shape));
        off += k * strides[d];
      }
      o[off] = v[v.size() == 1 ? 0 : i];
    }
  });
  return {out};
}

}  // namespace tfjsi::cpu::tensor_ops
