// Conv2DBackpropInput (a transposed convolution): the gradient of Conv2D with respect to its
// input, which is how TF graphs upsample. One GEMM per batch item turns every out_backprop pixel
// into its contributions for all filter taps (out_backprop x filter^T); then each result pixel
// gathers the contributions that land on it, so no two threads write the same memory.
#include <algorithm>
#include <vector>

#include "backends/cpu/gemm.h"
#include "backends/cpu/nn_util.h"
#include "backends/cpu/parallel.h"
#include "backends/cpu/simd.h"
#include "ops/window.h"

namespace tfjsi::cpu {

namespace {

// Sums into result row iy (of one batch item) the contributions in `cols`, which holds, for each
// out_backprop pixel, k_h * k_w * C values.
TFJSI_HOT_CLONES
void gather_row(const ops::Window& g, std::int64_t channels, const float* cols, std::int64_t iy,
                float* out_row) {
  const std::int64_t C = channels, taps = g.k_h * g.k_w;
  for (std::int64_t ix = 0; ix < g.in_w; ++ix) {
    float* o = out_row + ix * C;
    std::fill_n(o, C, 0.f);
    for (std::int64_t ky = 0; ky < g.k_h; ++ky) {
      const std::int64_t ty = iy + g.pad_top - ky;
      if (ty < 0 || ty % g.stride_h) continue;
      const std::int64_t oy = ty / g.stride_h;
      if (oy >= g.out_h) continue;
      for (std::int64_t kx = 0; kx < g.k_w; ++kx) {
        const std::int64_t tx = ix + g.pad_left - kx;
        if (tx < 0 || tx % g.stride_w) continue;
        const std::int64_t ox = tx / g.stride_w;
        if (ox >= g.out_w) continue;
        const float* s = cols + ((oy * g.out_w + ox) * taps + ky * g.k_w + kx) * C;
        std::int64_t c = 0;
        for (; c + kF32x8 <= C; c += kF32x8) {
          f32x8 a, b;
          vload(a, o + c);
          vload(b, s + c);
          a += b;
          vstore(o + c, a);
        }
        for (; c < C; ++c) o[c] += s[c];
      }
    }
  }
}

}  // namespace

std::vector<HostTensor> kernel_conv2d_backprop_input(const KernelContext& ctx) {
  const graph::Node& node = ctx.node;
  nn::expect_inputs(ctx, 3, 3);
  const std::vector<std::int64_t> sizes = nn::int_input_values(ctx, 0, "input_sizes");
  const HostTensor& f = nn::float_input(ctx, 1, 4, "filter");
  const HostTensor& dy = nn::float_input(ctx, 2, 4, "out_backprop");
  nn::expect_nhwc(node);
  if (sizes.size() != 4) nn::fail(node, "input_sizes must hold 4 values");
  for (auto s : sizes)
    if (s < 0 || s > (std::int64_t{1} << 24)) nn::fail(node, "input_sizes holds a bad size");
  const std::int64_t in_c = f.shape[2], out_c = f.shape[3];
  if (sizes[3] != in_c || dy.shape[3] != out_c || dy.shape[0] != sizes[0])
    nn::fail(node, "input_sizes " + shape_to_string(sizes) + ", filter " +
                       shape_to_string(f.shape) + " and out_backprop " + shape_to_string(dy.shape) +
                       " do not agree");
  // The window of the forward convolution whose input gradient this is (no dilations, as TF.js).
  const ops::Window g = ops::window(node, sizes, f.shape);
  if (g.out_h != dy.shape[1] || g.out_w != dy.shape[2])
    nn::fail(node, "out_backprop " + shape_to_string(dy.shape) +
                       " is not the size a convolution of " + shape_to_string(sizes) +
                       " with these strides and padding gives");
  HostTensor out = nn::new_output(node, sizes);
  const std::int64_t pixels = g.out_h * g.out_w, width = g.k_h * g.k_w * in_c;
  if (pixels == 0 || width == 0 || out.num_elements() == 0) return {std::move(out)};
  std::vector<float> cols(static_cast<std::size_t>(pixels * width));
  const GemmB b{f.values<float>().data(), out_c, true};
  float* o = out.mutable_values<float>().data();
  for (std::int64_t n = 0; n < sizes[0]; ++n) {
    const GemmA a{dy.values<float>().data() + n * pixels * out_c, out_c, false, {}};
    gemm(pixels, width, out_c, a, b, cols.data(), width, Epilogue{}, ctx.pool);
    const double work =
        static_cast<double>(g.in_h * g.in_w * in_c) * static_cast<double>(g.k_h * g.k_w);
    parallel_for(pool_for_work(ctx.pool, work), static_cast<std::size_t>(g.in_h),
                 [&](std::size_t iy) {
                   gather_row(g, in_c, cols.data(), static_cast<std::int64_t>(iy),
                              o + (n * g.in_h + static_cast<std::int64_t>(iy)) * g.in_w * in_c);
                 });
  }
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

}  // namespace tfjsi::cpu
