// MaxPool, AvgPool and MaxPoolWithArgmax over NHWC windows. As in TF and TF.js, padded positions
// take no part: the average divides by the number of input elements inside the window, and the
// maximum skips NaN.
#include <algorithm>
#include <limits>

#include "backends/cpu/nn_util.h"
#include "backends/cpu/parallel.h"
#include "backends/cpu/simd.h"
#include "ops/attr.h"
#include "ops/window.h"

namespace tfjsi::cpu {

namespace {

enum class Pool { Max, Avg };

// One output row (batch n, output row oy).
TFJSI_HOT_CLONES
void pool_row(Pool kind, const ops::Window& g, std::int64_t C, const float* x, float* out,
              std::int64_t n, std::int64_t oy) {
  const std::int64_t y0 = oy * g.stride_h - g.pad_top;
  const std::int64_t ya = std::max<std::int64_t>(0, y0), yb = std::min(g.in_h, y0 + g.k_h);
  float* orow = out + (n * g.out_h + oy) * g.out_w * C;
  for (std::int64_t ox = 0; ox < g.out_w; ++ox) {
    const std::int64_t x0 = ox * g.stride_w - g.pad_left;
    const std::int64_t xa = std::max<std::int64_t>(0, x0), xb = std::min(g.in_w, x0 + g.k_w);
    float* o = orow + ox * C;
    const std::int64_t count =
        std::max<std::int64_t>(0, yb - ya) * std::max<std::int64_t>(0, xb - xa);
    const float init = kind == Pool::Max ? -std::numeric_limits<float>::infinity() : 0.f;
    const float scale = 1.f / static_cast<float>(count);
    std::int64_t c = 0;
    for (; c + kF32x8 <= C; c += kF32x8) {
      f32x8 acc, v;
      vbroadcast(acc, init);
      for (std::int64_t iy = ya; iy < yb; ++iy)
        for (std::int64_t ix = xa; ix < xb; ++ix) {
          vload(v, x + ((n * g.in_h + iy) * g.in_w + ix) * C + c);
          if (kind == Pool::Max)
            acc = v > acc ? v : acc;  // a NaN never compares greater: skipped, like TF.js
          else
            acc += v;
        }
      if (kind == Pool::Avg) acc *= scale;
      vstore(o + c, acc);
    }
    for (; c < C; ++c) {
      float acc = init;
      for (std::int64_t iy = ya; iy < yb; ++iy)
        for (std::int64_t ix = xa; ix < xb; ++ix) {
          const float v = x[((n * g.in_h + iy) * g.in_w + ix) * C + c];
          if (kind == Pool::Max)
            acc = v > acc ? v : acc;
          else
            acc += v;
        }
      o[c] = kind == Pool::Avg ? acc * scale : acc;
    }
  }
}

std::vector<HostTensor> pool(const KernelContext& ctx, Pool kind) {
  const graph::Node& node = ctx.node;
  nn::expect_inputs(ctx, 1, 1);
  const HostTensor& x = nn::float_input(ctx, 0, 4, "input");
  nn::expect_nhwc(node);
  const ops::Window g = ops::window(node, x.shape);
  const std::int64_t batch = x.shape[0];
  const std::int64_t C = x.shape[3];
  HostTensor out = nn::new_output_uninitialized(node, {batch, g.out_h, g.out_w, C});
  const float* xp = x.values<float>().data();
  float* op = out.mutable_values<float>().data();
  const double work = static_cast<double>(out.num_elements()) * static_cast<double>(g.k_h * g.k_w);
  parallel_for(pool_for_work(ctx.pool, work), static_cast<std::size_t>(batch * g.out_h),
               [&](std::size_t row) {
                 pool_row(kind, g, C, xp, op, static_cast<std::int64_t>(row) / g.out_h,
                          static_cast<std::int64_t>(row) % g.out_h);
               });
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

// MaxPoolWithArgmax: MaxPool's values and, as int32 (TF.js's type whatever Targmax says), the
// flat position of each maximum in its image, ((y * W + x) * C + c), with
// include_batch_in_index ((b * H + y) * W + x) * C + c. The first of equal maxima wins; a window
// of NaN and -inf only gives -inf and -1, as TF.js's maxPoolPositions.
std::vector<HostTensor> max_pool_with_argmax(const KernelContext& ctx) {
  const graph::Node& node = ctx.node;
  nn::expect_inputs(ctx, 1, 1);
  const HostTensor& x = nn::float_input(ctx, 0, 4, "input");
  nn::expect_nhwc(node);
  const bool batch_in_index = ops::attr<bool>(node, "include_batch_in_index", false);
  if (x.num_elements() > std::numeric_limits<std::int32_t>::max())
    nn::fail(node,
             "the input " + shape_to_string(x.shape) + " has more positions than int32 holds");
  const ops::Window g = ops::window(node, x.shape);
  const std::int64_t batch = x.shape[0], C = x.shape[3];
  HostTensor out = nn::new_output_uninitialized(node, {batch, g.out_h, g.out_w, C});
  HostTensor index = nn::new_output_uninitialized(node, out.shape, DType::Int32);
  const float* xp = x.values<float>().data();
  float* op = out.mutable_values<float>().data();
  std::int32_t* ip = index.mutable_values<std::int32_t>().data();
  const double work = static_cast<double>(out.num_elements()) * static_cast<double>(g.k_h * g.k_w);
  parallel_for(
      pool_for_work(ctx.pool, work), static_cast<std::size_t>(batch * g.out_h),
      [&](std::size_t row) {
        const std::int64_t n = static_cast<std::int64_t>(row) / g.out_h;
        const std::int64_t oy = static_cast<std::int64_t>(row) % g.out_h;
        const std::int64_t y0 = oy * g.stride_h - g.pad_top;
        const std::int64_t ya = std::max<std::int64_t>(0, y0), yb = std::min(g.in_h, y0 + g.k_h);
        const std::int64_t image = batch_in_index ? n * g.in_h * g.in_w * C : 0;
        for (std::int64_t ox = 0; ox < g.out_w; ++ox) {
          const std::int64_t x0 = ox * g.stride_w - g.pad_left;
          const std::int64_t xa = std::max<std::int64_t>(0, x0), xb = std::min(g.in_w, x0 + g.k_w);
          const std::int64_t o = ((n * g.out_h + oy) * g.out_w + ox) * C;
          for (std::int64_t c = 0; c < C; ++c) {
            float best = -std::numeric_limits<float>::infinity();
            std::int64_t at = -1;
            for (std::int64_t iy = ya; iy < yb; ++iy)
              for (std::int64_t ix = xa; ix < xb; ++ix) {
                const std::int64_t pos = (iy * g.in_w + ix) * C + c;
                const float v = xp[n * g.in_h * g.in_w * C + pos];
                if (v > best) best = v, at = image + pos;
              }
            op[o + c] = best;
            ip[o + c] = static_cast<std::int32_t>(at);
          }
        }
      });
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  result.push_back(std::move(index));
  return result;
}

}  // namespace

std::vector<HostTensor> kernel_max_pool_with_argmax(const KernelContext& ctx) {
  return max_pool_with_argmax(ctx);
}
std::vector<HostTensor> kernel_max_pool(const KernelContext& ctx) {
  return pool(ctx, Pool::Max);
}
std::vector<HostTensor> kernel_avg_pool(const KernelContext& ctx) {
  return pool(ctx, Pool::Avg);
}

}  // namespace tfjsi::cpu
