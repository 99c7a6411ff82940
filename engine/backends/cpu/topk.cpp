// TopKV2: the k largest entries of the last axis and their indices. Ties keep the lower index
// first, as TF.js's comparator does.
#include <algorithm>
#include <numeric>
#include <vector>

#include "backends/cpu/tensor_util.h"

namespace tfjsi::cpu::tensor_ops {

// Inputs: x, k; attribute sorted. The result is always sorted: with sorted=false TF.js leaves its
// quickselect order, which TF does not define either.
std::vector<HostTensor> TopKV2(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const HostTensor& x0 = input(ctx, 0);
  if (x0.rank() == 0) fail(ctx, "input must have rank >= 1");
  const std::int64_t k = read_int(ctx, 1, "k");
  const std::int64_t n = x0.shape.back();
  if (k < 0 || k > n)
    fail(ctx, "k = " + std::to_string(k) + " is out of range for input of shape " +
                  shape_to_string(x0.shape));
  const DType t = x0.dtype == DType::Float32 ? DType::Float32 : DType::Int32;
  const HostTensor x = convert(x0, t);
  Shape shape = x.shape;
  shape.back() = k;
  HostTensor values = HostTensor::zeros(t, shape);
  HostTensor indices = HostTensor::zeros(DType::Int32, shape);
  const std::int64_t rows = n == 0 ? 0 : x.num_elements() / n;
  dispatch_numeric(ctx, t, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.values<T>().data();
    T* pv = values.mutable_values<T>().data();
    std::int32_t* pi = indices.mutable_values<std::int32_t>().data();
    parallel_for(ctx.pool, rows, 1, [&](std::int64_t rb, std::int64_t re) {
      std::vector<std::int32_t> order(static_cast<std::size_t>(n));
      for (std::int64_t r = rb; r < re; ++r) {
        const T* row = px + r * n;
        std::iota(order.begin(), order.end(), 0);
        auto before = [row](std::int32_t a, std::int32_t b) {
          return row[a] > row[b] || (row[a] == row[b] && a < b);
        };
        std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
        for (std::int64_t i = 0; i < k; ++i) {
          pv[r * k + i] = row[order[i]];
          pi[r * k + i] = order[i];
        }
      }
    });
  });
  return {values, indices};
}

}  // namespace tfjsi::cpu::tensor_ops
