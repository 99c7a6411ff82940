// Op families: the colour a node gets in the graph view and the legend that explains it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace tfjsi::viewers {

enum class OpFamily : std::uint8_t {
  Input,        // Placeholder
  Const,        // Const and weight reads
  Conv,         // convolutions, depthwise, transposed
  MatMul,       // MatMul, BatchMatMul, Einsum
  Elementwise,  // arithmetic and comparisons
  Activation,   // Relu, Sigmoid, Tanh, Softmax, ...
  Pooling,      // MaxPool, AvgPool, reductions
  Normalization,
  Shape,    // reshape, transpose, slice, concat, pad, gather, resize
  Control,  // Switch/Merge/While/If/Enter/Exit, TensorArray, TensorList
  Output,   // Identity and the like
  Other,
};

OpFamily op_family(std::string_view op);
std::string_view family_name(OpFamily f);
// Fill colour as 0xAABBGGRR (the ImGui packing, also written as SVG colours).
std::uint32_t family_color(OpFamily f);
// Every family, in legend order.
std::span<const OpFamily> all_families();

}  // namespace tfjsi::viewers
