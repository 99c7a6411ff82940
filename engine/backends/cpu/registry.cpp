// The one explicit list of cpu kernels. A kernel is listed here once it is implemented; the
// planner treats every op missing from this list as unsupported on cpu.
#include <vector>

#include "backends/cpu/kernel.h"

namespace tfjsi::cpu {

// ---- Neural-network ops: convolution, matmul, pooling, resizing, activations -------------------
// Declarations of the kernels defined in this family's files:
std::vector<HostTensor> kernel_conv2d(const KernelContext&);
std::vector<HostTensor> kernel_fused_conv2d(const KernelContext&);
std::vector<HostTensor> kernel_depthwise_conv2d(const KernelContext&);
std::vector<HostTensor> kernel_fused_depthwise_conv2d(const KernelContext&);
std::vector<HostTensor> kernel_conv2d_backprop_input(const KernelContext&);
std::vector<HostTensor> kernel_matmul(const KernelContext&);
std::vector<HostTensor> kernel_fused_matmul(const KernelContext&);
std::vector<HostTensor> kernel_batch_matmul(const KernelContext&);
std::vector<HostTensor> kernel_max_pool(const KernelContext&);
std::vector<HostTensor> kernel_avg_pool(const KernelContext&);
std::vector<HostTensor> kernel_resize_bilinear(const KernelContext&);
std::vector<HostTensor> kernel_resize_nearest_neighbor(const KernelContext&);
std::vector<HostTensor> kernel_depth_to_space(const KernelContext&);
std::vector<HostTensor> kernel_space_to_depth(const KernelContext&);
std::vector<HostTensor> kernel_space_to_batch_nd(const KernelContext&);
std::vector<HostTensor> kernel_batch_to_space_nd(const KernelContext&);
std::vector<HostTensor> kernel_bias_add(const KernelContext&);
std::vector<HostTensor> kernel_relu(const KernelContext&);
std::vector<HostTensor> kernel_relu6(const KernelContext&);
std::vector<HostTensor> kernel_elu(const KernelContext&);
std::vector<HostTensor> kernel_selu(const KernelContext&);
std::vector<HostTensor> kernel_leaky_relu(const KernelContext&);
std::vector<HostTensor> kernel_prelu(const KernelContext&);
std::vector<HostTensor> kernel_sigmoid(const KernelContext&);
std::vector<HostTensor> kernel_tanh(const KernelContext&);
std::vector<HostTensor> kernel_softplus(const KernelContext&);
std::vector<HostTensor> kernel_softsign(const KernelContext&);
std::vector<HostTensor> kernel_softmax(const KernelContext&);
std::vector<HostTensor> kernel_log_softmax(const KernelContext&);
std::vector<HostTensor> kernel_fused_batch_norm(const KernelContext&);
std::vector<HostTensor> kernel_lrn(const KernelContext&);

// ---- Tensor ops: elementwise, reductions, shape manipulation, gather, selection ----------------
// Declarations of the kernels defined in this family's files:

std::span<const KernelEntry> kernel_registry() {
  static const std::vector<KernelEntry> kernels = {
      // ---- Neural-network ops ----
      {"Conv2D", kernel_conv2d},
      {"_FusedConv2D", kernel_fused_conv2d},
      {"DepthwiseConv2dNative", kernel_depthwise_conv2d},
      {"FusedDepthwiseConv2dNative", kernel_fused_depthwise_conv2d},
      {"Conv2DBackpropInput", kernel_conv2d_backprop_input},
      {"MatMul", kernel_matmul},
      {"_FusedMatMul", kernel_fused_matmul},
      {"BatchMatMul", kernel_batch_matmul},
      {"BatchMatMulV2", kernel_batch_matmul},
      {"MaxPool", kernel_max_pool},
      {"AvgPool", kernel_avg_pool},
      {"ResizeBilinear", kernel_resize_bilinear},
      {"ResizeNearestNeighbor", kernel_resize_nearest_neighbor},
      {"DepthToSpace", kernel_depth_to_space},
      {"SpaceToDepth", kernel_space_to_depth},
      {"SpaceToBatchND", kernel_space_to_batch_nd},
      {"BatchToSpaceND", kernel_batch_to_space_nd},
      {"BiasAdd", kernel_bias_add},
      {"Relu", kernel_relu},
      {"Relu6", kernel_relu6},
      {"Elu", kernel_elu},
      {"Selu", kernel_selu},
      {"LeakyRelu", kernel_leaky_relu},
      {"Prelu", kernel_prelu},
      {"Sigmoid", kernel_sigmoid},
      {"Tanh", kernel_tanh},
      {"Softplus", kernel_softplus},
      {"Softsign", kernel_softsign},
      {"Softmax", kernel_softmax},
      {"LogSoftmax", kernel_log_softmax},
      {"FusedBatchNorm", kernel_fused_batch_norm},
      {"FusedBatchNormV3", kernel_fused_batch_norm},
      {"LRN", kernel_lrn},
      // ---- Tensor ops ----
  };
  return kernels;
}

Kernel find_kernel(std::string_view op) {
  for (const auto& e : kernel_registry())
    if (e.op == op) return e.fn;
  return nullptr;
}

}  // namespace tfjsi::cpu
