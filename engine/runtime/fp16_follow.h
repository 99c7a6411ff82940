// Where fp16 storage rounds (flag fp16_follow). "webgl", the default: where TF.js 4.22's webgl
// backend stores a tensor in its half-float textures, so that an fp16 run predicts what a TF.js
// user sees on a device without float32 render targets (issue #24): every node's output, except
// what the Keras lowering marks as computed inside one TF.js kernel (graph::kWebglInKernel) and
// the value before a Relu or Relu6 (a backend may clip before the rounding: the same halves), and
// the intermediate stages TF.js stores inside its own kernels (Mean and Sum reduce in windows,
// each stage's partial results stored; Softmax stores x - max, exp, the sum and the quotient).
// "accuracy": only where this engine's own kernels store, fused as far as the backend fuses: the
// smallest fp16 error the engine reaches.
#pragma once

#include <string_view>

#include "runtime/flags.h"

namespace tfjsi::runtime {

enum class Fp16Follow { Webgl, Accuracy };

inline constexpr std::string_view kFp16FollowFlag = "fp16_follow";

// The flag's value (webgl when the flags do not define it); throws UsageError for another text.
Fp16Follow fp16_follow(const Flags* flags);
std::string_view to_string(Fp16Follow f);
// One line for the Precision panel and `tfjsi check-fp16`: what the rounding follows.
std::string_view describe(Fp16Follow f);

}  // namespace tfjsi::runtime
