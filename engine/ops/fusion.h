// Fused nodes: what _FusedConv2D, FusedDepthwiseConv2dNative and _FusedMatMul apply after their
// main op (their fused epilogue: a bias, then an activation), read from fused_ops, num_args and
// leakyrelu_alpha once, as TF.js's converter reads them; and the fusion rules that make such a
// node from two (a convolution and the bias add after it, a fused node and the activation after
// it), which a backend's Backend::fuse applies where its kernels take the result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>

#include "graph/ir.h"

namespace tfjsi::ops {

// The activations a fused node applies, as TF.js's fused kernels do (fused_util's
// applyActivation): the op of that name (Relu, Relu6, Elu, LeakyRelu, Prelu, Sigmoid). And ours:
// HardSwish, the four nodes a converted Keras hard swish is (match_hard_swish), which TF.js runs
// as such and no fused_ops names (FusedEpilogue::hard_swish_scale says what it computes).
enum class Activation : std::uint8_t {
  None,
  Relu,
  Relu6,
  Elu,
  LeakyRelu,
  Prelu,
  Sigmoid,
  HardSwish
};

// The op of the stand-in node the plan hands to Backend::fuse for a matched hard swish (never a
// node of a graph: no backend runs it alone; its attributes "scale" and "shift" are the two
// Consts), and the attributes (floats) of a fused node that applies it instead of a fused_ops
// activation. Ours only: the model loader drops "_tfjsi_" attributes from files.
inline constexpr std::string_view kHardSwishOp = "_tfjsi_HardSwish";
inline constexpr std::string_view kFusedHardSwishScale = "_tfjsi_hard_swish_scale";
inline constexpr std::string_view kFusedHardSwishShift = "_tfjsi_hard_swish_shift";

// The activation an op name means, matched without case as TF.js matches fused_ops ("Relu",
// "relu6", "LeakyRelu"): None for "", nullopt for a name no fused kernel applies.
std::optional<Activation> fused_activation(std::string_view name);

// The attribute (a bool) of a fused node that Backend::fuse made from a fused convolution or
// product and the add of a tensor of its output's shape after it (a residual connection): the
// node adds its last input after the bias, before the activation. Ours only: TF.js's converter
// writes no such node, and the model loader keeps attributes as they are.
inline constexpr std::string_view kFusedAddend = "_tfjsi_addend";
// With kFusedAddend, a bool: the add comes after the activation (the Add node read the
// activation's output), not before it.
inline constexpr std::string_view kFusedAddendAfterActivation = "_tfjsi_addend_after_activation";

// What a fused node does after its main op. Its inputs: the main op's two, then the bias (input
// 2) when `bias`, then Prelu's alpha (input 3), each broadcast against the output, then the
// addend (kFusedAddend: a tensor of the output's shape) when `addend`.
struct FusedEpilogue {
  bool bias = false;  // fused_ops [BiasAdd, ...]
  Activation activation = Activation::None;
  float leaky_alpha = 0.2f;              // leakyrelu_alpha: LeakyRelu's slope below zero
  bool addend = false;                   // kFusedAddend
  bool addend_after_activation = false;  // kFusedAddendAfterActivation
  // HardSwish: y = (x * scale) * relu6(x + shift), each step a float32 operation in that order,
  // as the converter's four nodes compute it (scale 1/6 and shift 3, or their float16 roundings
  // in a quantized model).
  static constexpr float kKerasHardSwishScale = 1.f / 6.f, kKerasHardSwishShift = 3.f;
  float hard_swish_scale = kKerasHardSwishScale, hard_swish_shift = kKerasHardSwishShift;

  static constexpr std::size_t kBiasInput = 2, kAlphaInput = 3;
  bool prelu() const { return activation == Activation::Prelu; }
  // The inputs after the main op's two.
  std::size_t extra_inputs() const { return (bias ? 1 : 0) + (prelu() ? 1 : 0) + (addend ? 1 : 0); }
  // The addend's input: the last.
  std::size_t addend_input() const { return 2 + extra_inputs() - 1; }
};

// Reads fused_ops ([] or [BiasAdd] or [BiasAdd, activation]; TF.js supports no FusedBatchNorm),
// num_args (the inputs after the first two; when absent, whatever the node has) and
// leakyrelu_alpha of a node with `num_inputs` inputs. Throws ModelError naming the node for what
// TF.js does not run (an unknown fused op or activation, inputs that do not match).
FusedEpilogue fused_epilogue(const graph::Node& node, std::size_t num_inputs);
// nullopt instead of the exception, for checks that only decide where a node runs.
std::optional<FusedEpilogue> try_fused_epilogue(const graph::Node& node, std::size_t num_inputs);

// ---- fusion rules ----

// The nodes of a hard swish of `x` (a node's only output), as the converter writes Keras's:
// mul = Mul(x, scale), add = AddV2 or Add(x, shift) (either operand order; scale and shift scalar
// float32 Consts, 1/6 and 3 as Keras writes them), relu6 = Relu6(add), out = Mul(mul, relu6)
// (either order). `readers(i)`: the nodes that read node i (each once); x must have these two, and
// each node between them one. Whether a node is also an output is the caller's to check.
struct HardSwishNodes {
  int mul = -1, add = -1, relu6 = -1, out = -1;
  float scale = 0, shift = 0;
};
std::optional<HardSwishNodes> match_hard_swish(
    const graph::Graph& graph, int x, const std::function<std::span<const int>(int)>& readers);

// The activation `act` applies when it is an activation node a fused kernel can take over (an
// op fused_activation names, with one input, or two for Prelu's alpha); nullopt otherwise.
std::optional<Activation> activation_node(const graph::Node& act);

// The fused form of a convolution or product (Conv2D -> _FusedConv2D, DepthwiseConv2dNative and
// DepthwiseConv2d -> FusedDepthwiseConv2dNative, MatMul -> _FusedMatMul); "" for other ops.
std::string_view fused_form(std::string_view op);
// Whether `op` is one of the fused forms, whose fused_ops may take an activation after BiasAdd.
bool has_fused_epilogue(std::string_view op);

// `producer` (an op with a fused form) followed by a bias add of `bias`: its fused form with
// fused_ops [BiasAdd], reading `bias` as input 2. nullopt for an op without a fused form.
std::optional<graph::Node> fuse_bias(const graph::Node& producer, const graph::TensorRef& bias);
// `fused` (a fused form with fused_ops [BiasAdd]) followed by the activation node `act` reading
// its output: fused_ops [BiasAdd, act.op], LeakyRelu's alpha as leakyrelu_alpha, Prelu's alpha
// (act's input 1) as input 3; for kHardSwishOp, kFusedHardSwishScale and Shift. nullopt when
// `fused` has no bias alone or `act` is no activation a fused node applies.
std::optional<graph::Node> fuse_activation(const graph::Node& fused, const graph::Node& act);
// `fused` (a fused form with fused_ops [BiasAdd] and no addend yet) followed by an add of
// `addend`, a tensor of its output's shape: the same node with kFusedAddend, reading `addend` as
// its last input, added after the activation when the node has one (kFusedAddendAfterActivation),
// else before any activation fused later. In float32 the sum rounds as the two nodes' would (the
// kernel's value, rounded, plus the addend); stored at a lower precision in between, it would not.
std::optional<graph::Node> fuse_addend(const graph::Node& fused, const graph::TensorRef& addend);

}  // namespace tfjsi::ops
