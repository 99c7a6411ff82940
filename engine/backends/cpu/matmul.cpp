// MatMul, _FusedMatMul and BatchMatMulV2: batched C = op(A) op(B) with NumPy-style broadcasting of
// the batch dims (TF semantics), each batch item one GEMM.
#include <algorithm>
#include <optional>
#include <span>
#include <vector>

#include "backends/cpu/fused_activation.h"
#include "backends/cpu/gemm.h"
#include "backends/cpu/nn_util.h"
#include "backends/cpu/parallel.h"
#include "ops/attr.h"

namespace tfjsi::cpu {

namespace {

std::vector<HostTensor> matmul(const KernelContext& ctx, bool fused, const char* ta_key,
                               const char* tb_key) {
  const graph::Node& node = ctx.node;
  nn::expect_inputs(ctx, 2, fused ? 5 : 2);  // bias, Prelu alpha, addend
  // TF.js multiplies int32 matrices too (index arithmetic in some models), into int32.
  const bool ints = ctx.inputs.size() >= 2 && ctx.inputs[0].dtype == DType::Int32 &&
                    ctx.inputs[1].dtype == DType::Int32 && !fused;
  const HostTensor& a = ints ? ctx.inputs[0] : nn::float_input(ctx, 0, -1, "a");
  const HostTensor& b = ints ? ctx.inputs[1] : nn::float_input(ctx, 1, -1, "b");
  if (ints && (!a.buffer || a.buffer->size() < a.byte_size() || !b.buffer ||
               b.buffer->size() < b.byte_size()))
    nn::fail(node, "an input has no data");
  if (a.rank() < 2 || b.rank() < 2)
    nn::fail(node, "inputs must have rank >= 2, got " + shape_to_string(a.shape) + " and " +
                       shape_to_string(b.shape));
  const bool ta = ops::attr<bool>(node, ta_key, false), tb = ops::attr<bool>(node, tb_key, false);
  const int ra = a.rank(), rb = b.rank();
  const std::int64_t m = ta ? a.shape[ra - 1] : a.shape[ra - 2];
  const std::int64_t k = ta ? a.shape[ra - 2] : a.shape[ra - 1];
  const std::int64_t kb = tb ? b.shape[rb - 1] : b.shape[rb - 2];
  const std::int64_t n = tb ? b.shape[rb - 2] : b.shape[rb - 1];
  if (k != kb)
    nn::fail(node, "inner dimensions differ: " + shape_to_string(a.shape) +
                       (ta ? " (transposed)" : "") + " times " + shape_to_string(b.shape) +
                       (tb ? " (transposed)" : ""));

  // Broadcast the batch dims, right-aligned.
  const int rank = std::max(ra, rb);
  Shape out_shape(static_cast<std::size_t>(rank));
  std::vector<std::int64_t> a_dims(rank - 2, 1), b_dims(rank - 2, 1);
  for (int d = 0; d < rank - 2; ++d) {
    const int da = d - (rank - ra), db = d - (rank - rb);
    if (da >= 0) a_dims[d] = a.shape[da];
    if (db >= 0) b_dims[d] = b.shape[db];
    if (a_dims[d] != b_dims[d] && a_dims[d] != 1 && b_dims[d] != 1)
      nn::fail(node, "batch dims of " + shape_to_string(a.shape) + " and " +
                         shape_to_string(b.shape) + " do not broadcast");
    out_shape[d] = std::max(a_dims[d], b_dims[d]);
    if (a_dims[d] == 0 || b_dims[d] == 0) out_shape[d] = 0;
  }
  out_shape[rank - 2] = m;
  out_shape[rank - 1] = n;
  HostTensor out = nn::new_output(node, out_shape, ints ? DType::Int32 : DType::Float32);

  std::optional<FusedOps> ops;
  Epilogue epilogue;
  if (fused) {
    ops.emplace(ctx, out.shape);
    if (ops->per_channel()) epilogue = ops->epilogue();
  }

  // Element offsets of every batch item in a and b.
  const std::int64_t batches = num_elements(std::span(out_shape).first(rank - 2));
  std::vector<std::int64_t> a_off(batches), b_off(batches);
  {
    std::vector<std::int64_t> index(rank - 2, 0);
    for (std::int64_t i = 0; i < batches; ++i) {
      std::int64_t ia = 0, ib = 0;
      for (int d = 0; d < rank - 2; ++d) {
        ia = ia * a_dims[d] + (a_dims[d] == 1 ? 0 : index[d]);
        ib = ib * b_dims[d] + (b_dims[d] == 1 ? 0 : index[d]);
      }
      a_off[i] = ia * m * k;
      b_off[i] = ib * k * n;
      for (int d = rank - 3; d >= 0; --d) {
        if (++index[d] < out_shape[d]) break;
        index[d] = 0;
      }
    }
  }
  if (ints) {
    // Plain loops: int32 products are rare and small. Sums wrap to int32 like TF.js's Int32Array.
    const auto ap = a.values<std::int32_t>();
    const auto bp = b.values<std::int32_t>();
    auto cp = out.mutable_values<std::int32_t>();
    for (std::int64_t i = 0; i < batches; ++i)
      for (std::int64_t r = 0; r < m; ++r)
        for (std::int64_t c = 0; c < n; ++c) {
          std::int64_t sum = 0;
          for (std::int64_t p = 0; p < k; ++p) {
            const std::int64_t av =
                ap[static_cast<std::size_t>(a_off[i] + (ta ? p * m + r : r * k + p))];
            const std::int64_t bv =
                bp[static_cast<std::size_t>(b_off[i] + (tb ? c * k + p : p * n + c))];
            sum += av * bv;
          }
          cp[static_cast<std::size_t>(i * m * n + r * n + c)] =
              static_cast<std::int32_t>(static_cast<std::uint32_t>(sum));
        }
    std::vector<HostTensor> result;
    result.push_back(std::move(out));
    return result;
  }
  const float* ap = a.values<float>().data();
  const float* bp = b.values<float>().data();
  float* cp = out.mutable_values<float>().data();
  auto one = [&](std::int64_t i, pthreadpool_t pool) {
    const GemmA ga{ap + a_off[i], ta ? m : k, ta, {}};
    const GemmB gb{bp + b_off[i], tb ? k : n, tb};
    gemm(m, n, k, ga, gb, cp + i * m * n, n, epilogue, pool);
  };
  // Many small products: one per task. Few large ones: each spread over the pool.
  if (batches > 1 && m * n * k < 32768) {
    const double work = static_cast<double>(batches) * static_cast<double>(m * n * k);
    parallel_for(pool_for_work(ctx.pool, work), static_cast<std::size_t>(batches),
                 [&](std::size_t i) { one(static_cast<std::int64_t>(i), nullptr); });
  } else {
    for (std::int64_t i = 0; i < batches; ++i) one(i, ctx.pool);
  }
  if (ops && !ops->per_channel()) ops->apply_all(out.mutable_values<float>());
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

}  // namespace

std::vector<HostTensor> kernel_matmul(const KernelContext& ctx) {
  return matmul(ctx, false, "transpose_a", "transpose_b");
}
std::vector<HostTensor> kernel_fused_matmul(const KernelContext& ctx) {
  return matmul(ctx, true, "transpose_a", "transpose_b");
}
std::vector<HostTensor> kernel_batch_matmul(const KernelContext& ctx) {
  return matmul(ctx, false, "adj_x", "adj_y");
}

}  // namespace tfjsi::cpu
