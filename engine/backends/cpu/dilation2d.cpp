// Dilation2D, grayscale morphological dilation: out[b, y, x, c] = max over the filter taps inside
// the input of in[b, y*sh - top + i*rh, x*sw - left + j*rw, c] + filter[i, j, c] (NHWC; rates are
// the window's dilations). As TF.js's cpu kernel: NaN sums are skipped, and a window with no tap
// inside the input gives Number.MIN_SAFE_INTEGER.
#include <algorithm>

#include "backends/cpu/nn_util.h"
#include "backends/cpu/parallel.h"
#include "ops/window.h"

namespace tfjsi::cpu {

std::vector<HostTensor> kernel_dilation2d(const KernelContext& ctx) {
  const graph::Node& node = ctx.node;
  nn::expect_inputs(ctx, 2, 2);
  const HostTensor& x = nn::float_input(ctx, 0, 4, "input");
  const HostTensor& f = nn::float_input(ctx, 1, 3, "filter");
  const std::int64_t C = x.shape[3];
  if (f.shape[2] != C)
    nn::fail(node, "filter " + shape_to_string(f.shape) + " has " + std::to_string(f.shape[2]) +
                       " channels, the input " + shape_to_string(x.shape) + " " +
                       std::to_string(C));
  const ops::Window g = ops::window(node, x.shape, f.shape);
  const std::int64_t batch = x.shape[0];
  HostTensor out = nn::new_output_uninitialized(node, {batch, g.out_h, g.out_w, C});
  const float* xp = x.values<float>().data();
  const float* fp = f.values<float>().data();
  float* op = out.mutable_values<float>().data();
  constexpr float kNone = -9007199254740991.f;  // JavaScript's Number.MIN_SAFE_INTEGER
  const double work = static_cast<double>(out.num_elements()) * static_cast<double>(g.k_h * g.k_w);
  parallel_for(pool_for_work(ctx.pool, work), static_cast<std::size_t>(batch * g.out_h),
               [&](std::size_t row) {
                 const std::int64_t n = static_cast<std::int64_t>(row) / g.out_h;
                 const std::int64_t oy = static_cast<std::int64_t>(row) % g.out_h;
                 const std::int64_t y0 = oy * g.stride_h - g.pad_top;
                 for (std::int64_t ox = 0; ox < g.out_w; ++ox) {
                   const std::int64_t x0 = ox * g.stride_w - g.pad_left;
                   float* o = op + ((n * g.out_h + oy) * g.out_w + ox) * C;
                   std::fill_n(o, C, kNone);
                   for (std::int64_t i = 0; i < g.k_h; ++i) {
                     const std::int64_t iy = y0 + i * g.dil_h;
                     if (iy < 0 || iy >= g.in_h) continue;
                     for (std::int64_t j = 0; j < g.k_w; ++j) {
                       const std::int64_t ix = x0 + j * g.dil_w;
                       if (ix < 0 || ix >= g.in_w) continue;
                       const float* p = xp + ((n * g.in_h + iy) * g.in_w + ix) * C;
                       const float* w = fp + (i * g.k_w + j) * C;
                       for (std::int64_t c = 0; c < C; ++c) {
                         const float v = p[c] + w[c];
                         if (v > o[c]) o[c] = v;
                       }
                     }
                   }
                 }
               });
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

}  // namespace tfjsi::cpu
