// MaxPool3D and AvgPool3D over NDHWC windows, as TF.js's pool3d: padded positions take no part
// (the average divides by the number of input elements inside the window, 0 for none), and the
// maximum skips NaN (-inf for an empty window).
#include <algorithm>
#include <limits>

#include "backends/cpu/nn_util.h"
#include "backends/cpu/parallel.h"
#include "ops/window.h"

namespace tfjsi::cpu {

namespace {

enum class Pool { Max, Avg };

struct Range {
  std::int64_t begin, end;
};

// The input positions of one window along a dimension: [corner, corner + k) inside [0, in).
Range inside(std::int64_t corner, std::int64_t k, std::int64_t in) {
  return {std::max<std::int64_t>(0, corner), std::min(in, corner + k)};
}

// One output row (batch n, output depth oz, output row oy), every column and channel.
void pool3d_row(Pool kind, const ops::Window3D& g, std::int64_t C, const float* x, float* out,
                std::int64_t n, std::int64_t oz, std::int64_t oy) {
  const Range rz = inside(oz * g.stride_d - g.pad_front, g.k_d, g.in_d);
  const Range ry = inside(oy * g.stride_h - g.pad_top, g.k_h, g.in_h);
  float* orow = out + ((n * g.out_d + oz) * g.out_h + oy) * g.out_w * C;
  for (std::int64_t ox = 0; ox < g.out_w; ++ox) {
    const Range rx = inside(ox * g.stride_w - g.pad_left, g.k_w, g.in_w);
    float* o = orow + ox * C;
    const float init = kind == Pool::Max ? -std::numeric_limits<float>::infinity() : 0.f;
    std::fill_n(o, C, init);
    std::int64_t count = 0;
    for (std::int64_t iz = rz.begin; iz < rz.end; ++iz)
      for (std::int64_t iy = ry.begin; iy < ry.end; ++iy)
        for (std::int64_t ix = rx.begin; ix < rx.end; ++ix) {
          const float* p = x + (((n * g.in_d + iz) * g.in_h + iy) * g.in_w + ix) * C;
          ++count;
          if (kind == Pool::Max) {
            for (std::int64_t c = 0; c < C; ++c) o[c] = p[c] > o[c] ? p[c] : o[c];  // NaN: skipped
          } else {
            for (std::int64_t c = 0; c < C; ++c) o[c] += p[c];
          }
        }
    if (kind == Pool::Avg) {
      const float scale = 1.f / static_cast<float>(std::max<std::int64_t>(count, 1));
      for (std::int64_t c = 0; c < C; ++c) o[c] *= scale;
    }
  }
}

std::vector<HostTensor> pool3d(const KernelContext& ctx, Pool kind) {
  const graph::Node& node = ctx.node;
  nn::expect_inputs(ctx, 1, 1);
  const HostTensor& x = nn::float_input(ctx, 0, 5, "input");
  const ops::Window3D g = ops::window3d(node, x.shape);
  const std::int64_t batch = x.shape[0], C = x.shape[4];
  HostTensor out = nn::new_output_uninitialized(node, {batch, g.out_d, g.out_h, g.out_w, C});
  const float* xp = x.values<float>().data();
  float* op = out.mutable_values<float>().data();
  const double work =
      static_cast<double>(out.num_elements()) * static_cast<double>(g.k_d * g.k_h * g.k_w);
  const std::int64_t rows = batch * g.out_d * g.out_h;
  parallel_for(pool_for_work(ctx.pool, work), static_cast<std::size_t>(rows), [&](std::size_t row) {
    const auto r = static_cast<std::int64_t>(row);
    pool3d_row(kind, g, C, xp, op, r / (g.out_d * g.out_h), r / g.out_h % g.out_d, r % g.out_h);
  });
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

}  // namespace

std::vector<HostTensor> kernel_max_pool3d(const KernelContext& ctx) {
  return pool3d(ctx, Pool::Max);
}
std::vector<HostTensor> kernel_avg_pool3d(const KernelContext& ctx) {
  return pool3d(ctx, Pool::Avg);
}

}  // namespace tfjsi::cpu
