// MatMul, _FusedMatMul and BatchMatMulV2 as XNNPACK's fully connected operator: the right-hand
// matrix is the weight (packed once), every row of the left-hand side one batch item. Products
// whose right-hand side has real batch dims, or whose left-hand side is transposed, are not
// fully connected and stay on the cpu kernel.
#include "backends/xnnpack/fused_epilogue.h"
#include "backends/xnnpack/ops.h"
#include "ops/attr.h"

namespace tfjsi::xnnpack {

namespace {

NativeResult fully_connected(NativeCall& call, bool fused, const char* ta_key, const char* tb_key) {
  const graph::Node& node = call.node;
  if (!call.is_float(0) || !call.is_float(1)) return std::nullopt;
  if (!fused && call.num_inputs() != 2) return std::nullopt;
  const HostTensor& a = call.input(0);
  const HostTensor& b = call.input(1);
  const auto ta = ops::try_attr<bool>(node, ta_key, false),
             tb = ops::try_attr<bool>(node, tb_key, false);
  if (!ta || !tb || *ta || a.rank() < 2 || b.rank() < 2) return std::nullopt;
  const int ra = a.rank(), rb = b.rank();
  const std::int64_t k = a.shape[ra - 1];
  const std::int64_t kb = *tb ? b.shape[rb - 1] : b.shape[rb - 2];
  const std::int64_t n = *tb ? b.shape[rb - 2] : b.shape[rb - 1];
  if (k != kb || k < 1 || n < 1) return std::nullopt;
  for (int d = 0; d < rb - 2; ++d)
    if (b.shape[d] != 1) return std::nullopt;
  // Output: a's dims with the last one replaced, under any extra leading 1s of b.
  Shape out_shape(static_cast<std::size_t>(std::max(ra, rb) - ra), 1);
  out_shape.insert(out_shape.end(), a.shape.begin(), a.shape.end());
  out_shape.back() = n;
  const std::int64_t rows = a.num_elements() / k;
  if (rows < 1) return std::nullopt;
  Fused ep;
  if (fused) {
    auto r = read_fused(call, n);
    if (!r) return std::nullopt;
    ep = std::move(*r);
  }
  OperatorCache::Recipe recipe;
  // TF's [K, N] is XNNPACK's transposed layout; with transpose_b it is XNNPACK's own [N, K].
  const std::uint32_t flags = *tb ? 0u : XNN_FLAG_TRANSPOSE_WEIGHTS;
  recipe.params = {k, n, flags};
  ep.add_params(recipe.params);
  recipe.weights = {b.buffer, ep.bias_buffer};
  recipe.weight_bytes = static_cast<std::size_t>(k * n + n) * sizeof(float);
  auto create = [&](xnn_operator_t* op) {
    return xnn_create_fully_connected_nc_f32(
        static_cast<std::size_t>(k), static_cast<std::size_t>(n), static_cast<std::size_t>(k),
        static_cast<std::size_t>(n), b.values<float>().data(),
        ep.bias.empty() ? nullptr : ep.bias.data(), ep.min, ep.max, flags | kOperatorFlags, op);
  };
  xnn_operator_t op = call.cache.get(node, 0, recipe, create);
  if (!op) return std::nullopt;
  HostTensor out = new_output(std::move(out_shape));
  if (!call.setup_ok(xnn_setup_fully_connected_nc_f32(
          op, static_cast<std::size_t>(rows), static_cast<const float*>(call.activation(0)),
          out.mutable_values<float>().data(), call.pool)))
    return std::nullopt;
  call.run(op);
  if (!apply_post(call, ep, out, n)) return std::nullopt;
  return one(std::move(out));
}

}  // namespace

NativeResult op_matmul(NativeCall& call) {
  return fully_connected(call, false, "transpose_a", "transpose_b");
}
NativeResult op_fused_matmul(NativeCall& call) {
  return fully_connected(call, true, "transpose_a", "transpose_b");
}
NativeResult op_batch_matmul(NativeCall& call) {
  return fully_connected(call, false, "adj_x", "adj_y");
}

}  // namespace tfjsi::xnnpack
