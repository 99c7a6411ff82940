#include "op_family.h"

#include <array>

namespace tfjsi::viewers {
namespace {

constexpr std::array kFamilies = {OpFamily::Input,   OpFamily::Const,         OpFamily::Conv,
                                  OpFamily::MatMul,  OpFamily::Elementwise,   OpFamily::Activation,
                                  OpFamily::Pooling, OpFamily::Normalization, OpFamily::Shape,
                                  OpFamily::Control, OpFamily::Output,        OpFamily::Other};

}  // namespace

OpFamily op_family(std::string_view op) {
  const ops::OpDef* def = ops::find_op(op);
  return def ? def->family : OpFamily::Other;
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
