// The Keras lowering's mark of what TF.js's webgl backend computes inside one kernel.
#pragma once

#include <string_view>
#include <variant>

#include "graph/ir.h"

namespace tfjsi::graph {

// Set (true) by the Keras lowering on a node whose output TF.js's webgl backend, running the layer
// as tfjs-layers 4.22 does, keeps inside one shader and never stores in a texture: the product of
// a Conv2D or Dense whose bias tfjs-layers fuses, the bias add before a fused relu or elu, and
// every step of a BatchNormalization but its last (one batchNorm kernel in TF.js). fp16 storage
// that follows webgl (runtime/fp16_follow.h) keeps such outputs in fp32; nothing else reads it.
inline constexpr std::string_view kWebglInKernel = "_tfjsi_webgl_in_kernel";

inline bool webgl_in_kernel(const Node& n) {
  const AttrValue* a = n.attr(kWebglInKernel);
  return a && std::holds_alternative<bool>(*a) && std::get<bool>(*a);
}

}  // namespace tfjsi::graph
