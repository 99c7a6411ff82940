// ResizeBilinear and ResizeNearestNeighbor (NHWC), with TF's align_corners and half_pixel_centers
// coordinate rules, following TF.js's cpu kernels (source coordinates in double precision).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "backends/cpu/nn_util.h"
#include "backends/cpu/parallel.h"
#include "backends/cpu/simd.h"
#include "ops/attr.h"

namespace tfjsi::cpu {

namespace {

struct ResizeSetup {
  std::int64_t batch, in_h, in_w, channels, out_h, out_w;
  double ratio_h, ratio_w;
  bool align_corners, half_pixel;
};

ResizeSetup setup(const KernelContext& ctx, const HostTensor& images) {
  const graph::Node& node = ctx.node;
  if (images.rank() != 4)
    nn::fail(node, "images must have rank 4, got " + shape_to_string(images.shape));
  const std::vector<std::int64_t> size = nn::int_input_values(ctx, 1, "size");
  if (size.size() != 2 || size[0] < 0 || size[1] < 0 || size[0] > (1 << 24) || size[1] > (1 << 24))
    nn::fail(node, "size must hold two sizes >= 0");
  ResizeSetup s;
  s.batch = images.shape[0], s.in_h = images.shape[1], s.in_w = images.shape[2];
  s.channels = images.shape[3], s.out_h = size[0], s.out_w = size[1];
  s.align_corners = ops::attr<bool>(node, "align_corners", false);
  s.half_pixel = ops::attr<bool>(node, "half_pixel_centers", false);
  if (s.align_corners && s.half_pixel)
    nn::fail(node, "align_corners and half_pixel_centers cannot both be true");
  if ((s.in_h == 0 || s.in_w == 0) && s.out_h * s.out_w * s.batch * s.channels > 0)
    nn::fail(node, "cannot resize an empty image " + shape_to_string(images.shape));
  const bool ac_h = s.align_corners && s.out_h > 1, ac_w = s.align_corners && s.out_w > 1;
  s.ratio_h = static_cast<double>(ac_h ? s.in_h - 1 : s.in_h) /
              static_cast<double>(ac_h ? s.out_h - 1 : s.out_h);
  s.ratio_w = static_cast<double>(ac_w ? s.in_w - 1 : s.in_w) /
              static_cast<double>(ac_w ? s.out_w - 1 : s.out_w);
  return s;
}

// Source index pair and weight of the second for each output coordinate.
struct Lerp {
  std::int64_t lo, hi;
  float frac;
};

std::vector<Lerp> bilinear_axis(std::int64_t out, std::int64_t in, double ratio, bool half) {
  std::vector<Lerp> v(static_cast<std::size_t>(out));
  for (std::int64_t i = 0; i < out; ++i) {
    const double src =
        half ? ratio * (static_cast<double>(i) + 0.5) - 0.5 : ratio * static_cast<double>(i);
    const double lo = std::max(0.0, std::floor(src));
    const auto lo_i = std::min(in - 1, static_cast<std::int64_t>(lo));
    const auto hi_i = std::min(in - 1, static_cast<std::int64_t>(std::ceil(src)));
    v[static_cast<std::size_t>(i)] = {lo_i, std::max<std::int64_t>(hi_i, 0),
                                      static_cast<float>(src - lo)};
  }
  return v;
}

std::vector<std::int64_t> nearest_axis(std::int64_t out, std::int64_t in, double ratio, bool align,
                                       bool half) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(out));
  for (std::int64_t i = 0; i < out; ++i) {
    const double src =
        half ? ratio * (static_cast<double>(i) + 0.5) : ratio * static_cast<double>(i);
    // JavaScript's Math.round rounds halves up.
    auto j = static_cast<std::int64_t>(align ? std::floor(src + 0.5) : std::floor(src));
    j = std::min(in - 1, j);
    if (half) j = std::max<std::int64_t>(0, j);
    v[static_cast<std::size_t>(i)] = j;
  }
  return v;
}

TFJSI_HOT_CLONES
void bilinear_row(const ResizeSetup& s, const float* x, const Lerp& ly, const std::vector<Lerp>& lx,
                  std::int64_t n, float* orow) {
  const std::int64_t C = s.channels;
  const float* top = x + (n * s.in_h + ly.lo) * s.in_w * C;
  const float* bot = x + (n * s.in_h + ly.hi) * s.in_w * C;
  const float fy = ly.frac;
  for (std::int64_t ox = 0; ox < s.out_w; ++ox) {
    const Lerp& l = lx[static_cast<std::size_t>(ox)];
    const float *tl = top + l.lo * C, *tr = top + l.hi * C, *bl = bot + l.lo * C,
                *br = bot + l.hi * C;
    const float fx = l.frac;
    float* o = orow + ox * C;
    std::int64_t c = 0;
    for (; c + kF32x8 <= C; c += kF32x8) {
      f32x8 a, b, d, e;
      vload(a, tl + c), vload(b, tr + c), vload(d, bl + c), vload(e, br + c);
      const f32x8 t = a + (b - a) * fx, u = d + (e - d) * fx;
      const f32x8 r = t + (u - t) * fy;
      vstore(o + c, r);
    }
    for (; c < C; ++c) {
      const float t = tl[c] + (tr[c] - tl[c]) * fx, u = bl[c] + (br[c] - bl[c]) * fx;
      o[c] = t + (u - t) * fy;
    }
  }
}

}  // namespace

std::vector<HostTensor> kernel_resize_bilinear(const KernelContext& ctx) {
  nn::expect_inputs(ctx, 2, 2);
  const HostTensor& in = ctx.inputs[0];
  if (in.dtype != DType::Float32 && in.dtype != DType::Int32)
    nn::fail(ctx.node, "images must be float32 or int32");
  const ResizeSetup s = setup(ctx, in);
  // TF.js reads int32 images as numbers and returns float32.
  std::vector<float> converted;
  const float* x = nullptr;
  if (in.dtype == DType::Int32) {
    const auto v = in.values<std::int32_t>();
    converted.assign(v.begin(), v.end());
    x = converted.data();
  } else {
    x = in.values<float>().data();
  }
  HostTensor out = nn::new_output_uninitialized(ctx.node, {s.batch, s.out_h, s.out_w, s.channels});
  if (out.num_elements() > 0) {
    const std::vector<Lerp> ly = bilinear_axis(s.out_h, s.in_h, s.ratio_h, s.half_pixel);
    const std::vector<Lerp> lx = bilinear_axis(s.out_w, s.in_w, s.ratio_w, s.half_pixel);
    float* o = out.mutable_values<float>().data();
    parallel_for(pool_for_work(ctx.pool, 4.0 * static_cast<double>(out.num_elements())),
                 static_cast<std::size_t>(s.batch * s.out_h), [&](std::size_t row) {
                   const auto n = static_cast<std::int64_t>(row) / s.out_h,
                              oy = static_cast<std::int64_t>(row) % s.out_h;
                   bilinear_row(s, x, ly[static_cast<std::size_t>(oy)], lx, n,
                                o + static_cast<std::int64_t>(row) * s.out_w * s.channels);
                 });
  }
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

std::vector<HostTensor> kernel_resize_nearest_neighbor(const KernelContext& ctx) {
  nn::expect_inputs(ctx, 2, 2);
  const HostTensor& in = ctx.inputs[0];
  if (in.dtype != DType::Float32 && in.dtype != DType::Int32)
    nn::fail(ctx.node, "images must be float32 or int32");
  const ResizeSetup s = setup(ctx, in);
  HostTensor out =
      nn::new_output_uninitialized(ctx.node, {s.batch, s.out_h, s.out_w, s.channels}, in.dtype);
  if (out.num_elements() > 0) {
    const auto ys = nearest_axis(s.out_h, s.in_h, s.ratio_h, s.align_corners, s.half_pixel);
    const auto xs = nearest_axis(s.out_w, s.in_w, s.ratio_w, s.align_corners, s.half_pixel);
    // Both dtypes are 4 bytes wide: copy elements as raw bytes.
    const std::byte* src = in.buffer->data();
    std::byte* dst = out.buffer->mutable_data();
    const std::size_t pixel = static_cast<std::size_t>(s.channels) * 4;
    parallel_for(
        pool_for_work(ctx.pool, 4.0 * static_cast<double>(out.num_elements())),
        static_cast<std::size_t>(s.batch * s.out_h), [&](std::size_t row) {
          const auto n = static_cast<std::int64_t>(row) / s.out_h,
                     oy = static_cast<std::int64_t>(row) % s.out_h;
          const std::byte* srow =
              src +
              static_cast<std::size_t>((n * s.in_h + ys[static_cast<std::size_t>(oy)]) * s.in_w) *
                  pixel;
          std::byte* drow = dst + row * static_cast<std::size_t>(s.out_w) * pixel;
          for (std::int64_t ox = 0; ox < s.out_w; ++ox)
            std::memcpy(drow + static_cast<std::size_t>(ox) * pixel,
                        srow + static_cast<std::size_t>(xs[static_cast<std::size_t>(ox)]) * pixel,
                        pixel);
        });
  }
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

}  // namespace tfjsi::cpu
