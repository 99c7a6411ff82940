// The bias and activation that fused nodes (_FusedConv2D, FusedDepthwiseConv2dNative,
// _FusedMatMul) apply after their main op (ops::FusedEpilogue), as XNNPACK takes them. Bias goes
// into the XNNPACK operator, Relu and Relu6 become its output bounds; Elu, LeakyRelu, Prelu and
// Sigmoid, which it cannot fuse, run as a second XNNPACK operator in place on the output.
#pragma once

#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "backends/xnnpack/native_op.h"
#include "ops/fusion.h"

namespace tfjsi::xnnpack {

enum class PostOp { None, Elu, LeakyRelu, Prelu, Sigmoid };

struct Fused {
  std::vector<float> bias;  // per output channel; empty: none
  std::shared_ptr<const Buffer> bias_buffer, alpha_buffer;
  float min = -std::numeric_limits<float>::infinity();
  float max = std::numeric_limits<float>::infinity();
  PostOp post = PostOp::None;
  float leaky_alpha = 0.2f;
  std::vector<float> alpha;  // Prelu, per output channel

  // Parameters for the main operator's recipe (bounds; the bias is a weight).
  void add_params(std::vector<std::int64_t>& params) const;
};

// The bounds and post op of `e`'s activation (bias and alpha left empty): the operator path
// (read_fused) and the subgraph path take the same.
Fused fused_activation(const ops::FusedEpilogue& e);

// The epilogue and its extra inputs (from input 2) of a fused node whose output has `channels`
// channels. nullopt for what the XNNPACK path does not take (unknown fused ops, a bias
// or alpha that is not per channel): the cpu kernel runs the node.
std::optional<Fused> read_fused(NativeCall& call, std::int64_t channels);
// The same for a node with `num_inputs` inputs whose input i is `input(i)` (nullptr: none): the
// subgraph path reads its bias and alpha from the partition's weights.
std::optional<Fused> read_fused(const graph::Node& node, std::size_t num_inputs,
                                std::int64_t channels,
                                const std::function<const HostTensor*(std::size_t)>& input);
// A float weight with `channels` values (or one, repeated); nullopt for anything else.
std::optional<std::vector<float>> per_channel(const HostTensor* t, std::int64_t channels);
// Static check for native(): fused_ops names what read_fused takes.
bool fused_ops_fit(const graph::Node& node);

// Runs the post op (if any) in place on `out`, a tensor with `channels` innermost; false when
// XNNPACK refuses it (the caller then leaves the node to the cpu kernel).
bool apply_post(NativeCall& call, const Fused& f, HostTensor& out, std::int64_t channels);

}  // namespace tfjsi::xnnpack
