// Bincount and DenseBincount: how often each value in [0, size) occurs in an int32 input, or the
// sum of the weights at its positions, as TF.js's bincountImpl / bincountReduceImpl count.
// Values >= size are skipped; a negative value is an error.
#include <string>
#include <vector>

#include "backends/cpu/tensor_util.h"
#include "ops/attr.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

struct Inputs {
  const HostTensor& x;
  std::int64_t size;
  const HostTensor& weights;  // as many elements as x, or none (count by one)
};

Inputs read_inputs(const KernelContext& ctx) {
  require_inputs(ctx, 3, 3);
  const HostTensor& x = input(ctx, 0);
  const HostTensor& weights = input(ctx, 2);
  if (x.dtype != DType::Int32)
    fail(ctx, "the input must be int32, got " + std::string(to_string(x.dtype)));
  const std::int64_t size = read_int(ctx, 1, "size");
  if (size < 0) fail(ctx, "size must be non-negative, got " + std::to_string(size));
  if (weights.num_elements() != 0 && weights.num_elements() != x.num_elements())
    fail(ctx, "weights " + shape_to_string(weights.shape) + " must have as many elements as the " +
                  "input " + shape_to_string(x.shape) + ", or none");
  return {x, size, weights};
}

// Adds row `r` of x ([cols] values) into out[size] (one row of the output).
template <class T>
void count_row(const KernelContext& ctx, const std::int32_t* x, const T* w, std::int64_t cols,
               std::int64_t size, bool binary, T* out) {
  for (std::int64_t j = 0; j < cols; ++j) {
    const std::int32_t v = x[j];
    if (v < 0) fail(ctx, "the input must be non-negative, got " + std::to_string(v));
    if (v >= size) continue;
    if (binary)
      out[v] = T(1);
    else if constexpr (std::is_same_v<T, std::int32_t>)  // wraps like Int32Array
      out[v] = static_cast<std::int32_t>(static_cast<std::uint32_t>(out[v]) +
                                         static_cast<std::uint32_t>(w ? w[j] : 1));
    else
      out[v] = static_cast<T>(out[v] + (w ? w[j] : T(1)));
  }
}

// rows x cols values counted row by row into [rows, size] of the weights' type.
HostTensor count(const KernelContext& ctx, const Inputs& in, std::int64_t rows, bool binary,
                 Shape out_shape) {
  const std::int64_t cols = rows == 0 ? 0 : in.x.num_elements() / rows;
  HostTensor out = HostTensor::zeros(in.weights.dtype, std::move(out_shape));
  dispatch_numeric(ctx, in.weights.dtype, [&](auto tag) {
    using T = decltype(tag);
    const std::int32_t* x = in.x.values<std::int32_t>().data();
    const T* w = in.weights.num_elements() ? in.weights.values<T>().data() : nullptr;
    T* o = out.mutable_values<T>().data();
    for (std::int64_t r = 0; r < rows; ++r)
      count_row(ctx, x + r * cols, w ? w + r * cols : nullptr, cols, in.size, binary,
                o + r * in.size);
  });
  return out;
}

}  // namespace

// Every value of x, whatever its rank, into one [size] tensor.
std::vector<HostTensor> Bincount(const KernelContext& ctx) {
  const Inputs in = read_inputs(ctx);
  return {count(ctx, in, 1, false, {in.size})};
}

// A vector into [size]; each row of a matrix into its own row of [rows, size]. TF.js reads
// binary_output (set 1 instead of adding) for matrices only: a vector is always counted.
std::vector<HostTensor> DenseBincount(const KernelContext& ctx) {
  const Inputs in = read_inputs(ctx);
  if (in.x.rank() == 1) return {count(ctx, in, 1, false, {in.size})};
  if (in.x.rank() != 2)
    fail(ctx, "the input must have rank 1 or 2, got " + shape_to_string(in.x.shape));
  const bool binary = ops::attr<bool>(ctx.node, "binary_output", false);
  const std::int64_t rows = in.x.shape[0];
  return {count(ctx, in, rows, binary, {rows, in.size})};
}

}  // namespace tfjsi::cpu::tensor_ops
