// What the engine knows of each op, kept in the op's family file (ops/conv.cpp, ops/array.cpp,
// ...) and found here: its static shape rule and its family, which the graph view colours by. The
// typed parameters an op's kernels read live beside them (window.h for the sliding-window ops).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace tfjsi::ops {

class InferContext;

// A static shape rule (shape_context.h): sets the node's outputs from what is known of its inputs.
using ShapeRule = void (*)(InferContext&);

// What an op is, for people: the graph view's colour and legend.
enum class Family : std::uint8_t {
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

struct OpDef {
  std::string_view op;  // the TF op name as model.json writes it
  ShapeRule shape;      // null: one output of attribute T's type, shape unknown
  Family family;
};

// The op called `op`, or nullptr when the engine knows nothing of it.
const OpDef* find_op(std::string_view op);
// Every op, family by family, from the one list in op_list.cpp.
std::span<const OpDef* const> all_ops();

// Each family file's ops (op_list.cpp lists the families).
std::span<const OpDef> elementwise_ops();
std::span<const OpDef> conv_ops();
std::span<const OpDef> matmul_ops();
std::span<const OpDef> spatial_ops();
std::span<const OpDef> selection_ops();
std::span<const OpDef> array_ops();
std::span<const OpDef> reduction_ops();
std::span<const OpDef> control_ops();
std::span<const OpDef> random_ops();
std::span<const OpDef> ragged_ops();
std::span<const OpDef> hash_table_ops();
std::span<const OpDef> sparse_ops();
std::span<const OpDef> spectral_ops();
std::span<const OpDef> string_ops();

}  // namespace tfjsi::ops
