// Conv2D and _FusedConv2D (NHWC input, HWIO filter) as one GEMM: rows are output pixels, columns
// output channels, and the shared dimension runs over filter taps x input channels. A 1x1
// stride-1 unpadded convolution reads its input as the A matrix; any other gathers its patches
// (im2col) one cache block at a time, so the patch matrix is never built whole. Conv1D is the
// same over [batch, 1, width, channels] (TF.js's conv1d is that conv2d); Conv2D in NCHW runs in
// NHWC between two transposes, as TF.js's cpu reads NCHW through strides.
#include <algorithm>
#include <cstring>

#include "backends/cpu/fused_activation.h"
#include "backends/cpu/gemm.h"
#include "backends/cpu/nn_util.h"
#include "backends/cpu/transpose.h"
#include "ops/window.h"

namespace tfjsi::cpu {

namespace {

void conv2d_nhwc(const float* x, const float* filter, const ops::Window& g, std::int64_t batch,
                 std::int64_t channels, std::int64_t out_channels, float* out,
                 const Epilogue& epilogue, pthreadpool_t pool) {
  const std::int64_t m = batch * g.out_h * g.out_w;
  const std::int64_t k = g.k_h * g.k_w * channels;
  GemmB b{filter, out_channels, false};
  GemmA a;
  const bool pointwise = g.k_h == 1 && g.k_w == 1 && g.stride_h == 1 && g.stride_w == 1 &&
                         g.pad_top == 0 && g.pad_left == 0 && g.out_h == g.in_h &&
                         g.out_w == g.in_w;
  if (pointwise) {
    a.data = x;
    a.ld = channels;
  } else {
    a.gather = [x, &g, channels](std::int64_t m0, std::int64_t rows, std::int64_t k0,
                                 std::int64_t kc, float* dst) {
      const std::int64_t k1 = k0 + kc;
      for (std::int64_t r = m0; r < m0 + rows; ++r) {
        const std::int64_t ox = r % g.out_w, oy = (r / g.out_w) % g.out_h;
        const std::int64_t n = r / (g.out_w * g.out_h);
        const std::int64_t y0 = oy * g.stride_h - g.pad_top, x0 = ox * g.stride_w - g.pad_left;
        float* d = dst + (r - m0) * kc;
        // Walk [k0, k1) in runs that stay inside one filter tap.
        for (std::int64_t kk = k0; kk < k1;) {
          const std::int64_t tap = kk / channels, ci = kk - tap * channels;
          const std::int64_t run = std::min(channels - ci, k1 - kk);
          const std::int64_t iy = y0 + (tap / g.k_w) * g.dil_h;
          const std::int64_t ix = x0 + (tap % g.k_w) * g.dil_w;
          if (iy >= 0 && iy < g.in_h && ix >= 0 && ix < g.in_w)
            std::memcpy(d, x + ((n * g.in_h + iy) * g.in_w + ix) * channels + ci,
                        static_cast<std::size_t>(run) * sizeof(float));
          else
            std::fill_n(d, run, 0.f);
          d += run;
          kk += run;
        }
      }
    };
  }
  gemm(m, out_channels, k, a, b, out, out_channels, epilogue, pool);
}

std::vector<HostTensor> conv2d(const KernelContext& ctx, bool fused) {
  const graph::Node& node = ctx.node;
  nn::expect_inputs(ctx, 2, fused ? 5 : 2);  // bias, Prelu alpha, addend
  const HostTensor& x = nn::float_input(ctx, 0, 4, "input");
  const HostTensor& f = nn::float_input(ctx, 1, 4, "filter");
  // TF.js's fused conv2d takes NHWC only; plain Conv2D also NCHW.
  if (fused) nn::expect_nhwc(node);
  const bool nchw = ops::data_format(node) == ops::DataFormat::Nchw;
  const std::int64_t channels = x.shape[nchw ? 1 : 3], out_channels = f.shape[3];
  if (f.shape[2] != channels)
    nn::fail(node, "filter " + shape_to_string(f.shape) + " expects " + std::to_string(f.shape[2]) +
                       " input channels, the input " + shape_to_string(x.shape) + " has " +
                       std::to_string(channels));
  const ops::Window g = ops::window(node, x.shape, f.shape);
  const std::int64_t batch = x.shape[0];
  HostTensor out = nn::new_output_uninitialized(node, {batch, g.out_h, g.out_w, out_channels});
  float* o = out.mutable_values<float>().data();
  if (nchw) {
    static constexpr int kToNhwc[] = {0, 2, 3, 1}, kToNchw[] = {0, 3, 1, 2};
    const HostTensor xt = tensor_ops::permute(x, kToNhwc, ctx.pool);
    conv2d_nhwc(xt.values<float>().data(), f.values<float>().data(), g, batch, channels,
                out_channels, o, Epilogue{}, ctx.pool);
    std::vector<HostTensor> result;
    result.push_back(tensor_ops::permute(out, kToNchw, ctx.pool));
    return result;
  }
  if (!fused) {
    conv2d_nhwc(x.values<float>().data(), f.values<float>().data(), g, batch, channels,
                out_channels, o, Epilogue{}, ctx.pool);
  } else {
    const FusedOps ops(ctx, out.shape);
    conv2d_nhwc(x.values<float>().data(), f.values<float>().data(), g, batch, channels,
                out_channels, o, ops.per_channel() ? ops.epilogue() : Epilogue{}, ctx.pool);
    if (!ops.per_channel()) ops.apply_all(out.mutable_values<float>());
  }
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

// Conv1D: input [batch, width, in] (NWC; TF.js refuses NCW), filter [kw, in, out]: the window has
// height 1, so both buffers are already the [batch, 1, width, in] and [1, kw, in, out] of Conv2D.
std::vector<HostTensor> conv1d(const KernelContext& ctx) {
  const graph::Node& node = ctx.node;
  nn::expect_inputs(ctx, 2, 2);
  const HostTensor& x = nn::float_input(ctx, 0, 3, "input");
  const HostTensor& f = nn::float_input(ctx, 1, 3, "filter");
  if (ops::data_format(node) != ops::DataFormat::Nhwc)
    nn::fail(node, "data_format 'NCW' is not supported on cpu (only NWC, as in TF.js)");
  const std::int64_t channels = x.shape[2], out_channels = f.shape[2];
  if (f.shape[1] != channels)
    nn::fail(node, "filter " + shape_to_string(f.shape) + " expects " + std::to_string(f.shape[1]) +
                       " input channels, the input " + shape_to_string(x.shape) + " has " +
                       std::to_string(channels));
  const ops::Window g = ops::window(node, x.shape, f.shape);
  HostTensor out = nn::new_output_uninitialized(node, {x.shape[0], g.out_w, out_channels});
  conv2d_nhwc(x.values<float>().data(), f.values<float>().data(), g, x.shape[0], channels,
              out_channels, out.mutable_values<float>().data(), Epilogue{}, ctx.pool);
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

}  // namespace

std::vector<HostTensor> kernel_conv2d(const KernelContext& ctx) {
  return conv2d(ctx, false);
}
std::vector<HostTensor> kernel_fused_conv2d(const KernelContext& ctx) {
  return conv2d(ctx, true);
}
std::vector<HostTensor> kernel_conv1d(const KernelContext& ctx) {
  return conv1d(ctx);
}

}  // namespace tfjsi::cpu
