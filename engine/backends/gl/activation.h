// The activation codes gl's kernels switch on (common.glsl's activate(), the ACT #define of
// epilogue.glsl, binary.comp and unary.comp). This table is their one home: the C++ enum, each
// code's GLSL macro name and the GLSL `#define ACT_RELU 1` lines that every kernel's prelude
// carries (activation_defines()) all come from it, so C++ and GLSL cannot disagree on a number.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ops/fusion.h"

namespace tfjsi::gl {

// X(enumerator, GLSL macro), in code order (the code is the position).
// Linear is none, relu, relu6 and leaky as one formula with uniforms (act_linear): one program
// serves them all.
#define TFJSI_GL_ACTIVATIONS(X) \
  X(None, ACT_NONE)             \
  X(Relu, ACT_RELU)             \
  X(Relu6, ACT_RELU6)           \
  X(Elu, ACT_ELU)               \
  X(Leaky, ACT_LEAKY)           \
  X(Prelu, ACT_PRELU)           \
  X(Sigmoid, ACT_SIGMOID)       \
  X(Tanh, ACT_TANH)             \
  X(Linear, ACT_LINEAR)         \
  X(HardSwish, ACT_HARD_SWISH)

enum class Activation {
#define TFJSI_GL_ACTIVATION_ENUM(name, macro) name,
  TFJSI_GL_ACTIVATIONS(TFJSI_GL_ACTIVATION_ENUM)
#undef TFJSI_GL_ACTIVATION_ENUM
};

// Its macro in the GLSL ("ACT_NONE", "ACT_RELU", ...).
std::string_view glsl_macro(Activation a);
// "#define ACT_NONE 0\n#define ACT_RELU 1\n...": the codes as GLSL sees them, ahead of
// common.glsl in every kernel.
const std::string& activation_defines();

// A fused node's activation (ops::FusedEpilogue) as gl applies it.
Activation activation_code(ops::Activation a);
// The activation a fusable op's name means, as fused_ops or a fused node's kFusedActivation gives
// it (matched without case, ops::fused_activation): None for "", nullopt for one gl does not fuse.
std::optional<Activation> activation_of(std::string_view name);

// Whether `a` maps every half to a half and commutes with rounding to half: none, or a clip at
// 0 or 6 (any rounding that is monotone and keeps 0 and 6 exact, as every driver's is). Emulated
// fp16 storage needs no rounding pass after a kernel that only applies it to halves, and a kernel
// may apply it before the rounding where TF.js applies it after (fp16 following webgl).
inline bool keeps_halves(Activation a) {
  return a == Activation::None || a == Activation::Relu || a == Activation::Relu6;
}

// Whether a fused kernel's program for `a` applies it under the uniform ACT_APPLY (epilogue.glsl):
// the activations with a program of their own (Prelu's alpha then has a stand-in). Such a kernel
// also runs without it, as fp32's program (fp16 following webgl, GlBackend::unfused_form).
inline bool switched_by_uniform(Activation a) {
  return a == Activation::Elu || a == Activation::Sigmoid || a == Activation::Tanh ||
         a == Activation::HardSwish || a == Activation::Prelu;
}

}  // namespace tfjsi::gl
