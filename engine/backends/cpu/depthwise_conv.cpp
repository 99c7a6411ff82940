// DepthwiseConv2dNative and FusedDepthwiseConv2dNative: NHWC input, filter [kh, kw, C, M], output
// channel c * M + q. Each output pixel keeps eight channels at a time in a register while it runs
// over the filter taps, so every output is written once.
#include <algorithm>
#include <optional>

#include "backends/cpu/fused_activation.h"
#include "backends/cpu/nn_util.h"
#include "backends/cpu/parallel.h"
#include "backends/cpu/simd.h"
#include "ops/window.h"

namespace tfjsi::cpu {

namespace {

struct DepthwiseArgs {
  const float* x;
  const float* filter;
  ops::Window g;
  std::int64_t channels, multiplier;
  float* out;
  Epilogue epilogue;
};

// One output row (batch n, output row oy).
TFJSI_HOT_CLONES
void depthwise_row(const DepthwiseArgs& a, std::int64_t n, std::int64_t oy) {
  const ops::Window& g = a.g;
  const std::int64_t C = a.channels, M = a.multiplier, CM = C * M;
  const std::int64_t y0 = oy * g.stride_h - g.pad_top;
  // Filter rows that land inside the input.
  std::int64_t ky0 = 0, ky1 = g.k_h;
  while (ky0 < ky1 && y0 + ky0 * g.dil_h < 0) ++ky0;
  while (ky1 > ky0 && y0 + (ky1 - 1) * g.dil_h >= g.in_h) --ky1;
  float* orow = a.out + (n * g.out_h + oy) * g.out_w * CM;
  for (std::int64_t ox = 0; ox < g.out_w; ++ox) {
    const std::int64_t x0 = ox * g.stride_w - g.pad_left;
    std::int64_t kx0 = 0, kx1 = g.k_w;
    while (kx0 < kx1 && x0 + kx0 * g.dil_w < 0) ++kx0;
    while (kx1 > kx0 && x0 + (kx1 - 1) * g.dil_w >= g.in_w) --kx1;
    float* o = orow + ox * CM;
    // Offset of the window's top-left corner; it may lie in the padding (negative), so it is
    // only used once a valid tap has been added.
    const std::int64_t base = ((n * g.in_h + y0) * g.in_w + x0) * C;
    if (M == 1) {
      std::int64_t c = 0;
      for (; c + kF32x8 <= C; c += kF32x8) {
        f32x8 acc = {}, xv, wv;
        for (std::int64_t ky = ky0; ky < ky1; ++ky)
          for (std::int64_t kx = kx0; kx < kx1; ++kx) {
            vload(xv, a.x + (base + (ky * g.dil_h * g.in_w + kx * g.dil_w) * C + c));
            vload(wv, a.filter + (ky * g.k_w + kx) * C + c);
            acc += xv * wv;
          }
        vstore(o + c, acc);
      }
      for (; c < C; ++c) {
        float acc = 0.f;
        for (std::int64_t ky = ky0; ky < ky1; ++ky)
          for (std::int64_t kx = kx0; kx < kx1; ++kx)
            acc += a.x[base + (ky * g.dil_h * g.in_w + kx * g.dil_w) * C + c] *
                   a.filter[(ky * g.k_w + kx) * C + c];
        o[c] = acc;
      }
    } else {
      std::fill_n(o, CM, 0.f);
      for (std::int64_t ky = ky0; ky < ky1; ++ky)
        for (std::int64_t kx = kx0; kx < kx1; ++kx) {
          const float* xp = a.x + (base + (ky * g.dil_h * g.in_w + kx * g.dil_w) * C);
          const float* wp = a.filter + (ky * g.k_w + kx) * CM;
          for (std::int64_t c = 0; c < C; ++c)
            for (std::int64_t q = 0; q < M; ++q) o[c * M + q] += xp[c] * wp[c * M + q];
        }
    }
    if (!a.epilogue.empty()) a.epilogue.apply(o, 0, CM);
  }
}

std::vector<HostTensor> depthwise(const KernelContext& ctx, bool fused) {
  const graph::Node& node = ctx.node;
  nn::expect_inputs(ctx, 2, fused ? 5 : 2);  // bias, Prelu alpha, addend
  const HostTensor& x = nn::float_input(ctx, 0, 4, "input");
  const HostTensor& f = nn::float_input(ctx, 1, 4, "filter");
  nn::expect_nhwc(node);
  const std::int64_t channels = x.shape[3];
  if (f.shape[2] != channels)
    nn::fail(node, "filter " + shape_to_string(f.shape) + " expects " + std::to_string(f.shape[2]) +
                       " input channels, the input " + shape_to_string(x.shape) + " has " +
                       std::to_string(channels));
  const ops::Window g = ops::window(node, x.shape, f.shape);
  const std::int64_t batch = x.shape[0];
  HostTensor out =
      nn::new_output_uninitialized(node, {batch, g.out_h, g.out_w, channels * f.shape[3]});
  DepthwiseArgs args{x.values<float>().data(),
                     f.values<float>().data(),
                     g,
                     channels,
                     f.shape[3],
                     out.mutable_values<float>().data(),
                     Epilogue{}};
  std::optional<FusedOps> ops;
  if (fused) {
    ops.emplace(ctx, out.shape);
    if (ops->per_channel()) args.epilogue = ops->epilogue();
  }
  const double work = static_cast<double>(out.num_elements()) * static_cast<double>(g.k_h * g.k_w);
  parallel_for(pool_for_work(ctx.pool, work), static_cast<std::size_t>(batch * g.out_h),
               [&](std::size_t row) {
                 depthwise_row(args, static_cast<std::int64_t>(row) / g.out_h,
                               static_cast<std::int64_t>(row) % g.out_h);
               });
  if (ops && !ops->per_channel()) ops->apply_all(out.mutable_values<float>());
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

}  // namespace

std::vector<HostTensor> kernel_depthwise_conv2d(const KernelContext& ctx) {
  return depthwise(ctx, false);
}
std::vector<HostTensor> kernel_fused_depthwise_conv2d(const KernelContext& ctx) {
  return depthwise(ctx, true);
}

}  // namespace tfjsi::cpu
