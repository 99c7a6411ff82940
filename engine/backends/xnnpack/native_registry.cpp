// The one list of ops this backend runs through XNNPACK operators, with the static check that
// native() reports. Everything else runs through the cpu kernels on the same buffers.
#include <algorithm>
#include <array>

#include "backends/xnnpack/fused_epilogue.h"
#include "backends/xnnpack/ops.h"
#include "ops/attr.h"

namespace tfjsi::xnnpack {

namespace {

bool float_fit(const graph::Node& node) {
  return float_output(node);
}
bool conv_fit(const graph::Node& node) {
  return float_output(node) && nhwc(node);
}
bool fused_fit(const graph::Node& node) {
  return float_output(node) && nhwc(node) && fused_ops_fit(node);
}
bool matmul_fit(const graph::Node& node) {
  const auto ta = ops::try_attr<bool>(node, "transpose_a", false);
  return float_output(node) && ta && !*ta;
}
bool fused_matmul_fit(const graph::Node& node) {
  return matmul_fit(node) && fused_ops_fit(node);
}
bool batch_matmul_fit(const graph::Node& node) {
  const auto ta = ops::try_attr<bool>(node, "adj_x", false);
  return float_output(node) && ta && !*ta;
}
bool pool_fit(const graph::Node& node) {
  const auto p = ops::try_attr<std::string>(node, "padding", "VALID");
  return float_output(node) && nhwc(node) && p && *p != "EXPLICIT";
}
bool resize_fit(const graph::Node& node) {
  const auto a = ops::try_attr<bool>(node, "align_corners", false);
  const auto h = ops::try_attr<bool>(node, "half_pixel_centers", false);
  return float_output(node) && a && h && !(*a && *h);
}
bool x32_fit(const graph::Node& node) {
  if (node.outputs.empty() || !node.outputs[0].dtype) return true;
  const DType t = *node.outputs[0].dtype;
  return t == DType::Float32 || t == DType::Int32;
}
bool depth_to_space_fit(const graph::Node& node) {
  return x32_fit(node) && nhwc(node);
}

constexpr std::array kNative = std::to_array<NativeOp>({
    {"Abs", op_abs, float_fit},
    {"Add", op_add, float_fit},
    {"AddV2", op_add, float_fit},
    {"AvgPool", op_avg_pool, pool_fit},
    {"BatchMatMul", op_batch_matmul, batch_matmul_fit},
    {"BatchMatMulV2", op_batch_matmul, batch_matmul_fit},
    {"Ceil", op_ceil, float_fit},
    {"Conv1D", op_conv1d, conv_fit},
    {"Conv2D", op_conv2d, conv_fit},
    {"Conv2DBackpropInput", op_conv2d_backprop_input, conv_fit},
    {"DepthToSpace", op_depth_to_space, depth_to_space_fit},
    {"DepthwiseConv2d", op_depthwise_conv2d, conv_fit},
    {"DepthwiseConv2dNative", op_depthwise_conv2d, conv_fit},
    {"Div", op_div, float_fit},
    {"Elu", op_elu, float_fit},
    {"Floor", op_floor, float_fit},
    {"FusedDepthwiseConv2dNative", op_fused_depthwise_conv2d, fused_fit},
    {"LeakyRelu", op_leaky_relu, float_fit},
    {"MatMul", op_matmul, matmul_fit},
    {"MaxPool", op_max_pool, pool_fit},
    {"Maximum", op_maximum, float_fit},
    {"Mean", op_mean, float_fit},
    {"Minimum", op_minimum, float_fit},
    {"Mul", op_mul, float_fit},
    {"Neg", op_neg, float_fit},
    {"Pad", op_pad, x32_fit},
    {"PadV2", op_pad, x32_fit},
    {"Prelu", op_prelu, float_fit},
    {"RealDiv", op_div, float_fit},
    {"Relu", op_relu, float_fit},
    {"Relu6", op_relu6, float_fit},
    {"ResizeBilinear", op_resize_bilinear, resize_fit},
    {"Sigmoid", op_sigmoid, float_fit},
    {"Softmax", op_softmax, float_fit},
    {"Sqrt", op_sqrt, float_fit},
    {"Square", op_square, float_fit},
    {"SquaredDifference", op_squared_difference, float_fit},
    {"Sub", op_sub, float_fit},
    {"_FusedConv2D", op_fused_conv2d, fused_fit},
    {"_FusedMatMul", op_fused_matmul, fused_matmul_fit},
});

}  // namespace

const NativeOp* find_native(std::string_view op) {
  static_assert(std::ranges::is_sorted(kNative, {}, &NativeOp::op), "keep kNative sorted by op");
  const auto it = std::ranges::lower_bound(kNative, op, {}, &NativeOp::op);
  return it != kNative.end() && it->op == op ? &*it : nullptr;
}

std::vector<std::string_view> native_op_names() {
  std::vector<std::string_view> ops;
  for (const NativeOp& op : kNative) ops.push_back(op.op);
  return ops;
}

}  // namespace tfjsi::xnnpack
