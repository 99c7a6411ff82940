// Activations as TF.js's cpu backend computes them, and the bias + activation step that fused
// nodes (_FusedConv2D, FusedDepthwiseConv2dNative, _FusedMatMul) run after their main op.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "backends/cpu/kernel.h"
#include "ops/fusion.h"

namespace tfjsi::cpu {

// The activations of fused nodes (ops/fusion.h), which the standalone activation kernels share.
using ops::Activation;

// NaN passes through Relu and Relu6, as in TF.js.
inline float relu(float x) {
  return x < 0.f ? 0.f : x;
}
inline float relu6(float x) {
  return x < 0.f ? 0.f : (x > 6.f ? 6.f : x);
}
inline float elu(float x) {
  return x >= 0.f ? x : std::exp(x) - 1.f;
}
inline float leaky_relu(float x, float alpha) {
  return x < 0.f ? alpha * x : x;
}
inline float sigmoid(float x) {
  return 1.f / (1.f + std::exp(-x));
}
// The converter's four nodes, step for step (ops::FusedEpilogue::hard_swish_scale).
inline float hard_swish(float x, float scale, float shift) {
  const float a = x * scale;
  return a * relu6(x + shift);
}

// Bias and activation applied to rows of output channels. Pointers are per channel (size C).
struct Epilogue {
  const float* bias = nullptr;
  Activation act = Activation::None;
  const float* alpha = nullptr;  // Prelu
  float leaky_alpha = 0.2f;
  float hard_swish_scale = ops::FusedEpilogue::kKerasHardSwishScale,
        hard_swish_shift = ops::FusedEpilogue::kKerasHardSwishShift;

  bool empty() const { return !bias && act == Activation::None; }
  // out[0..n) holds channels [c0, c0 + n) of one output position.
  void apply(float* out, std::int64_t c0, std::int64_t n) const;
};

// The extra work of a fused node: its epilogue as ops::fused_epilogue reads it, with the bias and
// Prelu alpha inputs kept as broadcast periods over the output (see broadcast_period), and the
// addend (ops::kFusedAddend) as the input tensor it is.
class FusedOps {
 public:
  // Reads the node; the output shape is needed to check and expand the broadcasts.
  FusedOps(const KernelContext& ctx, std::span<const std::int64_t> out_shape);

  // True when bias and alpha are per output channel (or absent) and there is no addend, so the
  // main op can apply them while its output is still in cache.
  bool per_channel() const { return per_channel_; }
  // The per-channel epilogue; valid while this object lives and per_channel() holds.
  Epilogue epilogue() const;
  // Applies bias, addend and activation to a whole output (the path for everything else).
  void apply_all(std::span<float> out) const;

 private:
  std::vector<float> bias_, alpha_;
  std::span<const float> addend_;  // the input's, which outlives the kernel's run
  bool addend_after_activation_ = false;
  Activation act_ = Activation::None;
  float leaky_alpha_ = 0.2f;
  float hard_swish_scale_ = ops::FusedEpilogue::kKerasHardSwishScale,
        hard_swish_shift_ = ops::FusedEpilogue::kKerasHardSwishShift;
  bool per_channel_ = true;
};

}  // namespace tfjsi::cpu
