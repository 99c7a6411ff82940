// Which activations the gl backend applies inside the kernel before them (Backend::
// fuse_activation): one dispatch for a binary op or a fused convolution and the Relu-like op that
// reads it, the way TFLite's GPU delegate merges elementwise ops into the node before. On llvmpipe
// an elementwise node costs its texel count in image stores; the fused activation costs nothing.
#include <array>
#include <string_view>

#include "backends/gl/gl_backend.h"
#include "backends/gl/gl_op.h"

namespace tfjsi::gl {
namespace {

// Ops of binary.comp, which applies ACT before its store.
constexpr std::array<std::string_view, 9> kBinary{
    "Add", "AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "SquaredDifference", "BiasAdd"};
// Ops whose fused_ops may take an activation after their BiasAdd (epilogue.glsl).
constexpr std::array<std::string_view, 3> kFusedWithBias{
    "_FusedConv2D", "FusedDepthwiseConv2dNative", "_FusedMatMul"};

bool one_of(std::string_view op, auto const& list) {
  for (std::string_view o : list)
    if (o == op) return true;
  return false;
}

}  // namespace

std::optional<graph::Node> GlBackend::fuse_activation(const graph::Node& producer,
                                                      const graph::Node& activation) const {
  // The activations of common.glsl that cpu's fused kernels know too; not Prelu (a second input).
  const int code = activation_code(activation.op);
  if (code <= 0 || code == 5 || !supports(producer) || !supports(activation)) return std::nullopt;
  const float alpha = activation.attr_or<float>("alpha", 0.2f);
  graph::Node fused = producer;
  if (one_of(producer.op, kBinary)) {
    fused.attrs[std::string(runtime::kFusedActivation)] = activation.op;
    fused.attrs[std::string(runtime::kFusedActivationAlpha)] = alpha;
    return fused;
  }
  if (one_of(producer.op, kFusedWithBias)) {
    const std::vector<std::string> ops = node_string_list(producer, "fused_ops");
    if (ops.size() != 1 || lower(ops[0]) != "biasadd") return std::nullopt;
    fused.attrs["fused_ops"] = std::vector<std::string>{ops[0], activation.op};
    if (code == 4) fused.attrs["leakyrelu_alpha"] = alpha;
    return fused;
  }
  return std::nullopt;
}

}  // namespace tfjsi::gl
