// Element-wise activations and BiasAdd, with the formulas of TF.js's cpu backend.
#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/cpu/fused_activation.h"
#include "backends/cpu/nn_util.h"
#include "backends/cpu/parallel.h"
#include "ops/attr.h"

namespace tfjsi::cpu {

namespace {

// Elements per task: below this, scheduling costs more than it saves.
constexpr std::size_t kMinChunk = 16384;

template <class F>
std::vector<HostTensor> unary(const KernelContext& ctx, const F& f) {
  nn::expect_inputs(ctx, 1, 1);
  const HostTensor& x = nn::float_input(ctx, 0, -1, "x");
  HostTensor out = nn::new_output_uninitialized(ctx.node, x.shape);
  const float* xp = x.values<float>().data();
  float* op = out.mutable_values<float>().data();
  parallel_ranges(ctx.pool, static_cast<std::size_t>(x.num_elements()), kMinChunk,
                  [&](std::size_t b, std::size_t e) {
                    for (std::size_t i = b; i < e; ++i) op[i] = f(xp[i]);
                  });
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

Epilogue activation_only(Activation act) {
  Epilogue e;
  e.act = act;
  return e;
}

// Copies x and runs the vectorized activation of `e` over the copy.
std::vector<HostTensor> in_place(const KernelContext& ctx, const Epilogue& e) {
  nn::expect_inputs(ctx, 1, 1);
  const HostTensor& x = nn::float_input(ctx, 0, -1, "x");
  HostTensor out = nn::new_output_uninitialized(ctx.node, x.shape);
  const float* xp = x.values<float>().data();
  float* op = out.mutable_values<float>().data();
  parallel_ranges(ctx.pool, static_cast<std::size_t>(x.num_elements()), kMinChunk,
                  [&](std::size_t b, std::size_t n) {
                    std::copy(xp + b, xp + n, op + b);
                    e.apply(op + b, 0, static_cast<std::int64_t>(n - b));
                  });
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

// x combined with a parameter that broadcasts to x's shape (bias, Prelu alpha).
template <class F>
std::vector<HostTensor> with_param(const KernelContext& ctx, const char* what, const F& f) {
  nn::expect_inputs(ctx, 2, 2);
  const HostTensor& x = nn::float_input(ctx, 0, -1, "x");
  const HostTensor& p = nn::float_input(ctx, 1, -1, what);
  const std::vector<float> period = nn::broadcast_period(ctx.node, p, x.shape, what);
  HostTensor out = nn::new_output(ctx.node, x.shape);
  const float* xp = x.values<float>().data();
  float* op = out.mutable_values<float>().data();
  const std::size_t np = period.size();
  parallel_ranges(ctx.pool, static_cast<std::size_t>(x.num_elements()), kMinChunk,
                  [&](std::size_t b, std::size_t e) {
                    std::size_t j = b % np;
                    for (std::size_t i = b; i < e; ++i) {
                      op[i] = f(xp[i], period[j]);
                      if (++j == np) j = 0;
                    }
                  });
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

// TF.js's constants and thresholds.
constexpr float kSeluScale = 1.0507009873554804934193349852946f;
constexpr float kSeluScaleAlpha = 1.7580993408473768599402175208123f;
const float kSoftplusThreshold = std::log(1.1920928955078125e-7f) + 2.f;

float softplus(float x) {
  if (x < kSoftplusThreshold) return std::exp(x);  // log(1 + e^x) ~ e^x
  if (x > -kSoftplusThreshold) return x;           // log(1 + e^x) ~ x
  return std::log1p(std::exp(x));
}

}  // namespace

std::vector<HostTensor> kernel_relu(const KernelContext& ctx) {
  return in_place(ctx, activation_only(Activation::Relu));
}
std::vector<HostTensor> kernel_relu6(const KernelContext& ctx) {
  return in_place(ctx, activation_only(Activation::Relu6));
}
std::vector<HostTensor> kernel_elu(const KernelContext& ctx) {
  return unary(ctx, [](float x) { return elu(x); });
}
std::vector<HostTensor> kernel_selu(const KernelContext& ctx) {
  return unary(ctx, [](float x) {
    return x >= 0.f ? kSeluScale * x : kSeluScaleAlpha * (std::exp(x) - 1.f);
  });
}
std::vector<HostTensor> kernel_leaky_relu(const KernelContext& ctx) {
  Epilogue e;
  e.act = Activation::LeakyRelu;
  e.leaky_alpha = ops::attr<float>(ctx.node, "alpha", 0.2f);
  return in_place(ctx, e);
}
std::vector<HostTensor> kernel_sigmoid(const KernelContext& ctx) {
  return unary(ctx, [](float x) { return sigmoid(x); });
}
std::vector<HostTensor> kernel_tanh(const KernelContext& ctx) {
  return unary(ctx, [](float x) { return std::tanh(x); });
}
std::vector<HostTensor> kernel_softplus(const KernelContext& ctx) {
  return unary(ctx, [](float x) { return softplus(x); });
}
std::vector<HostTensor> kernel_softsign(const KernelContext& ctx) {
  return unary(ctx, [](float x) { return x / (1.f + std::fabs(x)); });
}
std::vector<HostTensor> kernel_prelu(const KernelContext& ctx) {
  return with_param(ctx, "alpha", [](float x, float a) { return leaky_relu(x, a); });
}
std::vector<HostTensor> kernel_bias_add(const KernelContext& ctx) {
  nn::expect_nhwc(ctx.node);
  if (ctx.inputs.size() == 2 && ctx.inputs[1].rank() != 1)
    nn::fail(ctx.node, "bias must have rank 1, got " + shape_to_string(ctx.inputs[1].shape));
  return with_param(ctx, "bias", [](float x, float b) { return x + b; });
}

}  // namespace tfjsi::cpu
