// What the gl backend runs inside the kernel before it (Backend::fuse), the merges TFLite's GPU
// delegate does: a bias add of a constant vector per output channel into the convolution or
// matrix product before it (which becomes its fused form with a BiasAdd), and an activation
// (Relu-like, or Prelu with a constant alpha per channel) into the binary op or fused convolution
// before it. On llvmpipe an elementwise node costs its texel count in image stores; what a kernel
// takes in costs next to nothing.
#include <array>
#include <string_view>

#include "backends/gl/gl_backend.h"
#include "backends/gl/gl_op.h"
#include "ops/attr.h"
#include "ops/window.h"

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

// The fused form of a convolution or product without one, "" for other ops.
std::string_view fused_form(std::string_view op) {
  if (op == "Conv2D") return "_FusedConv2D";
  if (op == "DepthwiseConv2dNative" || op == "DepthwiseConv2d") return "FusedDepthwiseConv2dNative";
  if (op == "MatMul") return "_FusedMatMul";
  return {};
}

// `next` adds a float vector (rank 0 or 1) to input `through`'s last axis: a bias, when the
// plan finds the vector is a Const.
std::optional<graph::TensorRef> bias_of(const graph::Node& next, int through,
                                        std::span<const graph::TensorInfo* const> inputs) {
  if (next.inputs.size() != 2 || through < 0 || through > 1 || inputs.size() != 2) return {};
  if (next.op == "BiasAdd") {
    if (through != 0 || ops::try_data_format(next) != ops::DataFormat::Nhwc) return {};
  } else if (next.op != "Add" && next.op != "AddV2") {
    return {};
  }
  const graph::TensorInfo* b = inputs[1 - through];
  if (!b || b->dtype != DType::Float32 || !b->shape.rank_known || b->shape.dims.size() > 1)
    return {};
  return next.inputs[1 - through];
}

}  // namespace

std::optional<graph::Node> GlBackend::fuse(
    const graph::Node& producer, const graph::Node& next, int through,
    std::span<const graph::TensorInfo* const> next_inputs) const {
  if (!supports(producer) || !supports(next)) return std::nullopt;
  graph::Node fused = producer;
  // A bias: Conv2D -> AddV2(., b) becomes _FusedConv2D [BiasAdd] reading b.
  if (const std::string_view form = fused_form(producer.op); !form.empty()) {
    const auto bias = bias_of(next, through, next_inputs);
    if (!bias) return std::nullopt;
    fused.op = std::string(form);
    fused.attrs["fused_ops"] = std::vector<std::string>{"BiasAdd"};
    fused.attrs["num_args"] = std::int64_t{1};
    fused.inputs.push_back(*bias);
    return fused;
  }
  // An activation: the activations of common.glsl that cpu's fused kernels know too. Prelu's
  // alpha (its input 1, a Const per channel as the plan and supports_inputs check) becomes the
  // fused node's last input.
  const std::optional<Activation> act = activation_of(next.op);
  const bool prelu = act == Activation::Prelu;
  if (!act || *act == Activation::None || through != 0 || next.inputs.size() != (prelu ? 2u : 1u))
    return std::nullopt;
  const float alpha = ops::attr<float>(next, "alpha", 0.2f);
  if (one_of(producer.op, kBinary)) {
    fused.attrs[std::string(runtime::kFusedActivation)] = next.op;
    fused.attrs[std::string(runtime::kFusedActivationAlpha)] = alpha;
  } else if (one_of(producer.op, kFusedWithBias)) {
    const auto fused_ops = ops::attr<ops::Strings>(producer, "fused_ops", {});
    if (fused_ops.size() != 1 || lower(fused_ops[0]) != "biasadd") return std::nullopt;
    fused.attrs["fused_ops"] = std::vector<std::string>{fused_ops[0], next.op};
    if (act == Activation::Leaky) fused.attrs["leakyrelu_alpha"] = alpha;
    if (prelu) fused.attrs["num_args"] = std::int64_t{2};
  } else {
    return std::nullopt;
  }
  if (prelu) fused.inputs.push_back(next.inputs[1]);
  return fused;
}

}  // namespace tfjsi::gl
