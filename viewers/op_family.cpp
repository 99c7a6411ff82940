#include "op_family.h"

#include <array>
#include <string>

namespace tfjsi::viewers {
namespace {

bool has(std::string_view op, std::string_view part) {
  return op.find(part) != std::string_view::npos;
}

bool any_of(std::string_view op, std::initializer_list<std::string_view> names) {
  for (auto n : names)
    if (op == n) return true;
  return false;
}

constexpr std::array kFamilies = {OpFamily::Input,   OpFamily::Const,         OpFamily::Conv,
                                  OpFamily::MatMul,  OpFamily::Elementwise,   OpFamily::Activation,
                                  OpFamily::Pooling, OpFamily::Normalization, OpFamily::Shape,
                                  OpFamily::Control, OpFamily::Output,        OpFamily::Other};

}  // namespace

OpFamily op_family(std::string_view op) {
  if (any_of(op, {"Placeholder", "PlaceholderWithDefault"})) return OpFamily::Input;
  if (any_of(op, {"Const", "VarHandleOp", "ReadVariableOp", "VariableV2"})) return OpFamily::Const;
  if (has(op, "Conv")) return OpFamily::Conv;
  if (has(op, "MatMul") || op == "Einsum" || op == "_FusedMatMul") return OpFamily::MatMul;
  if (any_of(op, {"Relu", "Relu6", "Elu", "Selu", "LeakyRelu", "Prelu", "Sigmoid", "Tanh",
                  "Softmax", "LogSoftmax", "Softplus", "Softsign", "Swish", "Gelu", "HardSigmoid"}))
    return OpFamily::Activation;
  if (has(op, "Pool") || any_of(op, {"Mean", "Sum", "Max", "Min", "Prod", "All", "Any", "ArgMax",
                                     "ArgMin", "TopKV2", "Cumsum"}))
    return OpFamily::Pooling;
  if (has(op, "BatchNorm") || has(op, "LRN") || op == "LRN") return OpFamily::Normalization;
  if (any_of(op, {"Switch", "Merge", "Enter", "Exit", "NextIteration", "LoopCond", "While",
                  "StatelessWhile", "If", "StatelessIf", "NoOp"}) ||
      has(op, "TensorArray") || has(op, "TensorList") || has(op, "NonMaxSuppression"))
    return OpFamily::Control;
  if (any_of(op, {"Identity", "IdentityN", "StopGradient", "Snapshot"})) return OpFamily::Output;
  if (any_of(op, {"Reshape",
                  "Transpose",
                  "Squeeze",
                  "ExpandDims",
                  "Slice",
                  "StridedSlice",
                  "ConcatV2",
                  "Concat",
                  "Pack",
                  "Unpack",
                  "Split",
                  "SplitV",
                  "Pad",
                  "PadV2",
                  "MirrorPad",
                  "Gather",
                  "GatherV2",
                  "GatherNd",
                  "Tile",
                  "Shape",
                  "ShapeN",
                  "Size",
                  "Rank",
                  "Fill",
                  "Range",
                  "ZerosLike",
                  "OnesLike",
                  "Cast",
                  "Reverse",
                  "ReverseV2",
                  "ResizeBilinear",
                  "ResizeNearestNeighbor",
                  "CropAndResize",
                  "DepthToSpace",
                  "SpaceToDepth",
                  "BroadcastTo",
                  "BroadcastArgs",
                  "OneHot",
                  "ScatterNd",
                  "Where",
                  "SpaceToBatchND",
                  "BatchToSpaceND"}))
    return OpFamily::Shape;
  if (any_of(op, {"Add",        "AddV2",     "AddN",       "Sub",         "Mul",
                  "Div",        "RealDiv",   "DivNoNan",   "FloorDiv",    "FloorMod",
                  "Mod",        "Maximum",   "Minimum",    "Pow",         "SquaredDifference",
                  "Square",     "Sqrt",      "Rsqrt",      "Exp",         "Log",
                  "Log1p",      "Neg",       "Abs",        "Sign",        "Floor",
                  "Ceil",       "Round",     "Reciprocal", "BiasAdd",     "Equal",
                  "NotEqual",   "Less",      "LessEqual",  "Greater",     "GreaterEqual",
                  "LogicalAnd", "LogicalOr", "LogicalNot", "Select",      "SelectV2",
                  "Sin",        "Cos",       "Tan",        "Atan",        "Atan2",
                  "Asin",       "Acos",      "Erf",        "ClipByValue", "IsNan",
                  "Expm1",      "Sinh",      "Cosh"}))
    return OpFamily::Elementwise;
  return OpFamily::Other;
}

std::string_view family_name(OpFamily f) {
  switch (f) {
    case OpFamily::Input:
      return "input";
    case OpFamily::Const:
      return "const";
    case OpFamily::Conv:
      return "convolution";
    case OpFamily::MatMul:
      return "matmul";
    case OpFamily::Elementwise:
      return "elementwise";
    case OpFamily::Activation:
      return "activation";
    case OpFamily::Pooling:
      return "pooling / reduction";
    case OpFamily::Normalization:
      return "normalization";
    case OpFamily::Shape:
      return "shape / reshape";
    case OpFamily::Control:
      return "control flow";
    case OpFamily::Output:
      return "identity / output";
    case OpFamily::Other:
      return "other";
  }
  return "other";
}

std::uint32_t family_color(OpFamily f) {
  // Soft fills that keep dark label text readable; 0xAABBGGRR.
  switch (f) {
    case OpFamily::Input:
      return 0xFF7FD8A6;  // green
    case OpFamily::Const:
      return 0xFFC8C8C8;  // grey
    case OpFamily::Conv:
      return 0xFFE6A86F;  // blue
    case OpFamily::MatMul:
      return 0xFFD68CB0;  // violet
    case OpFamily::Elementwise:
      return 0xFF9BDDF5;  // yellow
    case OpFamily::Activation:
      return 0xFF7FA0F5;  // orange
    case OpFamily::Pooling:
      return 0xFFC7D97F;  // teal
    case OpFamily::Normalization:
      return 0xFFE0C9A5;
    case OpFamily::Shape:
      return 0xFFB8B8E8;  // pink
    case OpFamily::Control:
      return 0xFF6B6BE0;  // red
    case OpFamily::Output:
      return 0xFF9EE0C7;  // light green
    case OpFamily::Other:
      return 0xFFEAEAEA;
  }
  return 0xFFEAEAEA;
}

std::span<const OpFamily> all_families() {
  return kFamilies;
}

}  // namespace tfjsi::viewers
