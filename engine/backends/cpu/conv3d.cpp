// Conv3D (NDHWC input, [kd, kh, kw, in, out] filter) as one GEMM, as Conv2D in conv.cpp: rows are
// output voxels, columns output channels, the shared dimension runs over filter taps x input
// channels, and the patches are gathered one cache block at a time.
#include <algorithm>
#include <cstring>

#include "backends/cpu/gemm.h"
#include "backends/cpu/nn_util.h"
#include "ops/window.h"

namespace tfjsi::cpu {

namespace {

void conv3d_ndhwc(const float* x, const float* filter, const ops::Window3D& g, std::int64_t batch,
                  std::int64_t channels, std::int64_t out_channels, float* out,
                  pthreadpool_t pool) {
  const std::int64_t m = batch * g.out_d * g.out_h * g.out_w;
  const std::int64_t k = g.k_d * g.k_h * g.k_w * channels;
  const GemmB b{filter, out_channels, false};
  GemmA a;
  a.gather = [x, &g, channels](std::int64_t m0, std::int64_t rows, std::int64_t k0, std::int64_t kc,
                               float* dst) {
    const std::int64_t k1 = k0 + kc;
    for (std::int64_t r = m0; r < m0 + rows; ++r) {
      const std::int64_t ox = r % g.out_w, oy = (r / g.out_w) % g.out_h;
      const std::int64_t oz = (r / (g.out_w * g.out_h)) % g.out_d;
      const std::int64_t n = r / (g.out_w * g.out_h * g.out_d);
      // The window's corner; TF.js's SAME may put it past the start (negative pads).
      const std::int64_t z0 = oz * g.stride_d - g.pad_front, y0 = oy * g.stride_h - g.pad_top;
      const std::int64_t x0 = ox * g.stride_w - g.pad_left;
      float* d = dst + (r - m0) * kc;
      // Walk [k0, k1) in runs that stay inside one filter tap.
      for (std::int64_t kk = k0; kk < k1;) {
        const std::int64_t tap = kk / channels, ci = kk - tap * channels;
        const std::int64_t run = std::min(channels - ci, k1 - kk);
        const std::int64_t iz = z0 + (tap / (g.k_h * g.k_w)) * g.dil_d;
        const std::int64_t iy = y0 + (tap / g.k_w % g.k_h) * g.dil_h;
        const std::int64_t ix = x0 + (tap % g.k_w) * g.dil_w;
        if (iz >= 0 && iz < g.in_d && iy >= 0 && iy < g.in_h && ix >= 0 && ix < g.in_w)
          std::memcpy(d, x + (((n * g.in_d + iz) * g.in_h + iy) * g.in_w + ix) * channels + ci,
                      static_cast<std::size_t>(run) * sizeof(float));
        else
          std::fill_n(d, run, 0.f);
        d += run;
        kk += run;
      }
    }
  };
  gemm(m, out_channels, k, a, b, out, out_channels, Epilogue{}, pool);
}

}  // namespace

std::vector<HostTensor> kernel_conv3d(const KernelContext& ctx) {
  const graph::Node& node = ctx.node;
  nn::expect_inputs(ctx, 2, 2);
  const HostTensor& x = nn::float_input(ctx, 0, 5, "input");
  const HostTensor& f = nn::float_input(ctx, 1, 5, "filter");
  const std::int64_t channels = x.shape[4], out_channels = f.shape[4];
  if (f.shape[3] != channels)
    nn::fail(node, "filter " + shape_to_string(f.shape) + " expects " + std::to_string(f.shape[3]) +
                       " input channels, the input " + shape_to_string(x.shape) + " has " +
                       std::to_string(channels));
  const ops::Window3D g = ops::window3d(node, x.shape, f.shape);
  const std::int64_t batch = x.shape[0];
  HostTensor out =
      nn::new_output_uninitialized(node, {batch, g.out_d, g.out_h, g.out_w, out_channels});
  conv3d_ndhwc(x.values<float>().data(), f.values<float>().data(), g, batch, channels, out_channels,
               out.mutable_values<float>().data(), ctx.pool);
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

}  // namespace tfjsi::cpu
