#include "backends/cpu/fused_activation.h"

#include <algorithm>

#include "backends/cpu/nn_util.h"
#include "backends/cpu/simd.h"

namespace tfjsi::cpu {

// Vector loops for the cheap activations; the rest are scalar (they call exp anyway).
TFJSI_HOT_CLONES
void Epilogue::apply(float* out, std::int64_t c0, std::int64_t n) const {
  std::int64_t i = 0;
  if (bias) {
    for (; i + kF32x8 <= n; i += kF32x8) {
      f32x8 v, b;
      vload(v, out + i);
      vload(b, bias + c0 + i);
      v += b;
      vstore(out + i, v);
    }
    for (; i < n; ++i) out[i] += bias[c0 + i];
  }
  i = 0;
  const f32x8 zero = {}, six = zero + 6.f;
  switch (act) {
    case Activation::None:
      break;
    case Activation::Relu:
      for (; i + kF32x8 <= n; i += kF32x8) {
        f32x8 v;
        vload(v, out + i);
        v = v < zero ? zero : v;  // NaN compares false and passes, as in TF.js
        vstore(out + i, v);
      }
      for (; i < n; ++i) out[i] = relu(out[i]);
      break;
    case Activation::Relu6:
      for (; i + kF32x8 <= n; i += kF32x8) {
        f32x8 v;
        vload(v, out + i);
        v = v < zero ? zero : (v > six ? six : v);
        vstore(out + i, v);
      }
      for (; i < n; ++i) out[i] = relu6(out[i]);
      break;
    case Activation::Elu:
      for (; i < n; ++i) out[i] = elu(out[i]);
      break;
    case Activation::LeakyRelu:
      for (; i + kF32x8 <= n; i += kF32x8) {
        f32x8 v;
        vload(v, out + i);
        v = v < zero ? v * leaky_alpha : v;
        vstore(out + i, v);
      }
      for (; i < n; ++i) out[i] = leaky_relu(out[i], leaky_alpha);
      break;
    case Activation::Prelu:
      for (; i < n; ++i) out[i] = leaky_relu(out[i], alpha[c0 + i]);
      break;
    case Activation::Sigmoid:
      for (; i < n; ++i) out[i] = sigmoid(out[i]);
      break;
    case Activation::HardSwish:
      for (; i < n; ++i) out[i] = hard_swish(out[i], hard_swish_scale, hard_swish_shift);
      break;
  }
}

FusedOps::FusedOps(const KernelContext& ctx, std::span<const std::int64_t> out_shape) {
  const graph::Node& node = ctx.node;
  const ops::FusedEpilogue e = ops::fused_epilogue(node, ctx.inputs.size());
  if (!e.bias) return;
  act_ = e.activation;
  leaky_alpha_ = e.leaky_alpha;
  hard_swish_scale_ = e.hard_swish_scale;
  hard_swish_shift_ = e.hard_swish_shift;

  const std::int64_t channels = out_shape.empty() ? 1 : out_shape.back();
  auto read = [&](std::size_t input, const char* what) {
    const HostTensor& t = nn::float_input(ctx, input, -1, what);
    std::vector<float> v = nn::broadcast_period(node, t, out_shape, what);
    if (v.size() == 1 && channels > 1) v.assign(static_cast<std::size_t>(channels), v[0]);
    if (static_cast<std::int64_t>(v.size()) != channels) per_channel_ = false;
    return v;
  };
  bias_ = read(ops::FusedEpilogue::kBiasInput, "bias");
  if (e.prelu()) alpha_ = read(ops::FusedEpilogue::kAlphaInput, "prelu alpha");
  if (e.addend) {
    // Added element by element after the main op, so the output is finished in apply_all.
    const HostTensor& a = nn::float_input(ctx, e.addend_input(), -1, "addend");
    if (!std::equal(a.shape.begin(), a.shape.end(), out_shape.begin(), out_shape.end()))
      nn::fail(node, "the addend " + shape_to_string(a.shape) + " is not of the output's shape " +
                         shape_to_string(Shape(out_shape.begin(), out_shape.end())));
    addend_ = a.values<float>();
    addend_after_activation_ = e.addend_after_activation;
    per_channel_ = false;
  }
}

Epilogue FusedOps::epilogue() const {
  Epilogue e;
  e.bias = bias_.empty() ? nullptr : bias_.data();
  e.act = act_;
  e.alpha = alpha_.empty() ? nullptr : alpha_.data();
  e.leaky_alpha = leaky_alpha_;
  e.hard_swish_scale = hard_swish_scale_;
  e.hard_swish_shift = hard_swish_shift_;
  return e;
}

void FusedOps::apply_all(std::span<float> out) const {
  const std::size_t nb = bias_.size(), na = alpha_.size();
  for (std::size_t i = 0; i < out.size(); ++i) {
    float v = out[i];
    if (nb) v += bias_[i % nb];
    if (!addend_.empty() && !addend_after_activation_) v += addend_[i];
    switch (act_) {
      case Activation::None:
        break;
      case Activation::Relu:
        v = relu(v);
        break;
      case Activation::Relu6:
        v = relu6(v);
        break;
      case Activation::Elu:
        v = elu(v);
        break;
      case Activation::LeakyRelu:
        v = leaky_relu(v, leaky_alpha_);
        break;
      case Activation::Prelu:
        v = leaky_relu(v, alpha_[i % na]);
        break;
      case Activation::Sigmoid:
        v = sigmoid(v);
        break;
      case Activation::HardSwish:
        v = hard_swish(v, hard_swish_scale_, hard_swish_shift_);
        break;
    }
    if (!addend_.empty() && addend_after_activation_) v += addend_[i];
    out[i] = v;
  }
}

}  // namespace tfjsi::cpu
