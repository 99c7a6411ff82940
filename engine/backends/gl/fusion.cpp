// What the gl backend runs inside the kernel before it (Backend::fuse), the merges TFLite's GPU
// delegate does: a bias add of a constant vector per output channel into the convolution or
// matrix product before it (which becomes its fused form with a BiasAdd), and an activation
// (Relu-like, or Prelu with a constant alpha per channel) into the binary op or fused convolution
// before it. Beyond the delegate: the add of a residual connection into the fused convolution or
// product before it (ops::fuse_addend), the four nodes of a hard swish (ops::match_hard_swish,
// which the plan offers as one stand-in node) into the fused convolution or product before them,
// and a bias add into Conv2DBackpropInput (runtime::kFusedBias).
// The fused convolutions and products are made by ops/fusion.h's rules. On llvmpipe an elementwise
// node costs its texel count in image stores; what a kernel takes in costs next to nothing.
#include <array>
#include <string_view>

#include "backends/gl/activation.h"
#include "backends/gl/gl_backend.h"
#include "backends/gl/gl_op.h"
#include "graph/webgl_mark.h"
#include "ops/attr.h"
#include "ops/fusion.h"
#include "ops/window.h"
#include "runtime/fp16_follow.h"

namespace tfjsi::gl {
namespace {

// Ops of binary.comp, which applies ACT before its store.
constexpr std::array<std::string_view, 9> kBinary{
    "Add", "AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "SquaredDifference", "BiasAdd"};

bool one_of(std::string_view op, auto const& list) {
  for (std::string_view o : list)
    if (o == op) return true;
  return false;
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

// `next` adds to input `through` a float tensor of exactly its shape (no broadcast), both
// shapes known: the addend of a residual connection.
std::optional<graph::TensorRef> addend_of(const graph::Node& next, int through,
                                          std::span<const graph::TensorInfo* const> inputs) {
  if ((next.op != "Add" && next.op != "AddV2") || next.inputs.size() != 2 || through < 0 ||
      through > 1 || inputs.size() != 2 || !inputs[0] || !inputs[1])
    return {};
  const graph::TensorInfo &mine = *inputs[through], &other = *inputs[1 - through];
  if (mine.dtype != DType::Float32 || other.dtype != DType::Float32) return {};
  if (!mine.shape.fully_known() || mine.shape != other.shape) return {};
  return next.inputs[1 - through];
}

}  // namespace

bool GlBackend::follows_webgl() const {
  return fp16_active() && runtime::fp16_follow(flags_) == runtime::Fp16Follow::Webgl;
}

std::optional<graph::Node> GlBackend::fuse(
    const graph::Node& producer, const graph::Node& next, int through,
    std::span<const graph::TensorInfo* const> next_inputs) const {
  return fuse_as(producer, next, through, next_inputs, follows_webgl());
}

std::optional<graph::Node> GlBackend::fuse_as(const graph::Node& producer, const graph::Node& next,
                                              int through,
                                              std::span<const graph::TensorInfo* const> next_inputs,
                                              bool follow) const {
  // A hard swish (the plan's stand-in for its four nodes) no kernel runs alone.
  const bool hard_swish = next.op == ops::kHardSwishOp;
  if (!supports(producer) || (!hard_swish && !supports(next))) return std::nullopt;
  // fp16 that follows TF.js webgl (`follow`) stores every output TF.js stores: only what TF.js
  // computes inside one kernel may run inside one here, and the fused node's output is stored as
  // `next`'s.
  if (hard_swish && (follow || !ops::has_fused_epilogue(producer.op))) return std::nullopt;
  // Except a Relu or Relu6 after it: clipping before the rounding stores what TF.js stores after
  // its own Relu kernel, bit for bit (keeps_halves), and the value in between nobody else reads.
  // One kernel and one rounding pass fewer per such pair (blazeface: 31).
  const auto act = ops::activation_node(next);
  const bool clip = act && through == 0 && keeps_halves(activation_code(*act));
  if (follow && !graph::webgl_in_kernel(producer) && !clip) return std::nullopt;
  auto marked = [&](graph::Node fused) {
    if (follow && !graph::webgl_in_kernel(next))
      fused.attrs.erase(std::string(graph::kWebglInKernel));
    return fused;
  };
  // A bias into an op without a fused form (conv_transpose.comp adds it): kFusedBias, the bias
  // as its last input. Not when fp16 follows TF.js webgl, whose conv2dTranspose stores its sum.
  if (producer.op == "Conv2DBackpropInput") {
    const auto bias = bias_of(next, through, next_inputs);
    if (follow || !bias || producer.attr(runtime::kFusedBias)) return std::nullopt;
    graph::Node fused = producer;
    fused.attrs[std::string(runtime::kFusedBias)] = true;
    fused.inputs.push_back(*bias);
    return fused;
  }
  // A bias: Conv2D -> AddV2(., b) becomes _FusedConv2D [BiasAdd] reading b (ops/fusion.h).
  if (!ops::fused_form(producer.op).empty()) {
    const auto bias = bias_of(next, through, next_inputs);
    if (!bias) return std::nullopt;
    auto fused = ops::fuse_bias(producer, *bias);
    if (!fused) return std::nullopt;
    // What fp16 following webgl declines above: it stores the product and adds the bias apart.
    if (!follow && !graph::webgl_in_kernel(producer))
      fused->attrs[std::string(kBiasApartInFp16)] = true;
    return marked(std::move(*fused));
  }
  // A residual connection: a fused convolution or product with its bias (and maybe its
  // activation), followed by the add of a tensor of the same shape, adds it before its store (one
  // pass over the output less). Not when fp16 follows TF.js webgl, which stores the sum's first
  // operand at half precision.
  if (ops::has_fused_epilogue(producer.op) && !follow) {
    if (const auto addend = addend_of(next, through, next_inputs)) {
      if (auto fused = ops::fuse_addend(producer, *addend)) return std::move(*fused);
      return std::nullopt;
    }
  }
  // A binary op (with its activation, if it took one) followed by the add of a tensor of its
  // output's shape: the addend is its last input (kFusedAddend, after the activation when it has
  // one, kFusedAddendAfterActivation); nothing is taken in after it.
  const bool binary = one_of(producer.op, kBinary);
  if (binary && producer.attr(ops::kFusedAddend)) return std::nullopt;
  if (const auto addend = binary ? addend_of(next, through, next_inputs) : std::nullopt) {
    if (follow) return std::nullopt;
    graph::Node fused = producer;
    fused.attrs[std::string(ops::kFusedAddend)] = true;
    if (producer.attr(runtime::kFusedActivation))
      fused.attrs[std::string(ops::kFusedAddendAfterActivation)] = true;
    fused.inputs.push_back(*addend);
    return fused;
  }
  // An activation: the activations of common.glsl that cpu's fused kernels know too. Prelu's
  // alpha (its input 1, a Const per channel as the plan and supports_inputs check) becomes the
  // fused node's last input.
  if (through != 0) return std::nullopt;
  if (ops::has_fused_epilogue(producer.op)) {
    auto fused = ops::fuse_activation(producer, next);
    if (!fused) return std::nullopt;
    return marked(std::move(*fused));
  }
  if (!act || !binary || hard_swish) return std::nullopt;
  const bool prelu = *act == ops::Activation::Prelu;
  graph::Node fused = producer;
  fused.attrs[std::string(runtime::kFusedActivation)] = next.op;
  fused.attrs[std::string(runtime::kFusedActivationAlpha)] = ops::attr<float>(next, "alpha", 0.2f);
  if (prelu) fused.inputs.push_back(next.inputs[1]);
  return marked(std::move(fused));
}

std::optional<graph::Node> GlBackend::unfused_form(const graph::Node& producer,
                                                   std::span<const ChainLink> declined) const {
  // fp16 following webgl declines what fp32 takes into a convolution or product: a bias add
  // after a plain one, an activation. Where fp32's kernel for the chain has an activation under
  // the uniform ACT_APPLY, the producer runs as that program with the activation off and no bias
  // (HAS_BIAS, add_epilogue), not as a program of its own that only fp16 would build. Not where
  // fp32's kernel adds a residual connection (a #define).
  if (!follows_webgl() || !supports(producer) || declined.empty()) return std::nullopt;
  if (!ops::has_fused_epilogue(producer.op) && ops::fused_form(producer.op).empty())
    return std::nullopt;
  if (const auto own = ops::try_fused_epilogue(producer, producer.inputs.size());
      own && own->activation != ops::Activation::None)
    return std::nullopt;
  graph::Node fp32 = producer;
  const graph::TensorInfo* alpha = nullptr;  // the alpha of a Prelu fp32 takes in
  for (const ChainLink& link : declined) {
    auto more = fuse_as(fp32, link.node, link.through, link.inputs, false);
    if (!more) break;
    fp32 = std::move(*more);
    if (link.node.op == "Prelu" && link.inputs.size() == 2) alpha = link.inputs[1];
  }
  const auto e = ops::try_fused_epilogue(fp32, fp32.inputs.size());
  if (!e || e->addend) return std::nullopt;
  const Activation act = activation_code(e->activation);
  if (!switched_by_uniform(act)) return std::nullopt;
  graph::Node apart = producer;
  // Not the fused activation's own attributes: cpu, which runs this node where gl fails, would
  // apply them. This one only gl reads.
  apart.attrs[std::string(kProgramActivation)] = static_cast<std::int64_t>(act);
  if (act == Activation::Prelu) {
    // fp32's program splats a single alpha (ALPHA_SPLAT, a #define): the stand-in must say so.
    const std::int64_t channels = out_channels(producer);
    if (!alpha || !alpha->shape.fully_known() || channels < 0) return std::nullopt;
    std::int64_t n = 1;
    for (const std::int64_t d : alpha->shape.dims) n *= d;
    apart.attrs[std::string(kProgramAlphaSplat)] = n == 1 && channels > 1;
  }
  return apart;
}

}  // namespace tfjsi::gl
