#include "backends/gl/activation.h"

#include <array>

namespace tfjsi::gl {
namespace {

constexpr std::array kMacros{
#define TFJSI_GL_ACTIVATION_MACRO(name, macro) std::string_view(#macro),
    TFJSI_GL_ACTIVATIONS(TFJSI_GL_ACTIVATION_MACRO)
#undef TFJSI_GL_ACTIVATION_MACRO
};

}  // namespace

std::string_view glsl_macro(Activation a) {
  return kMacros.at(static_cast<std::size_t>(a));
}

const std::string& activation_defines() {
  static const std::string defines = [] {
    std::string s;
    for (std::size_t i = 0; i < kMacros.size(); ++i)
      s += "#define " + std::string(kMacros[i]) + " " + std::to_string(i) + "\n";
    return s;
  }();
  return defines;
}

Activation activation_code(ops::Activation a) {
  switch (a) {
    case ops::Activation::None:
      return Activation::None;
    case ops::Activation::Relu:
      return Activation::Relu;
    case ops::Activation::Relu6:
      return Activation::Relu6;
    case ops::Activation::Elu:
      return Activation::Elu;
    case ops::Activation::LeakyRelu:
      return Activation::Leaky;
    case ops::Activation::Prelu:
      return Activation::Prelu;
    case ops::Activation::Sigmoid:
      return Activation::Sigmoid;
    case ops::Activation::HardSwish:
      return Activation::HardSwish;
  }
  return Activation::None;
}

std::optional<Activation> activation_of(std::string_view name) {
  const std::optional<ops::Activation> a = ops::fused_activation(name);
  if (!a) return std::nullopt;
  return activation_code(*a);
}

}  // namespace tfjsi::gl
