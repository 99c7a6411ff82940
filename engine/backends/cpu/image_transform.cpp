// ImageProjectiveTransformV3(images [batch, h, w, c], transforms [1 or batch, 8], output_shape [2],
// fill_value) as TF.js's cpu Transform (after TF's image_ops.h): output pixel (x, y) samples the
// input at ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k), k = c0 x + c1 y + 1, each
// coordinate first mapped by fill_mode (REFLECT, WRAP, NEAREST; CONSTANT and anything else leave
// it), then read NEAREST or BILINEAR with fill_value for pixels outside the image (and where
// k = 0). Coordinates in double, as JavaScript works them out.
//
// TF.js 4.22's kernel returns after the first image, leaving the others all fill_value; this one
// transforms every image, as TF does.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

#include "backends/cpu/nn_util.h"
#include "backends/cpu/parallel.h"
#include "ops/attr.h"

namespace tfjsi::cpu {

namespace {

enum class Fill { Constant, Reflect, Wrap, Nearest };

std::string lower_attr(const graph::Node& node, std::string_view key, std::string fallback) {
  std::string s = ops::attr<std::string>(node, key, std::move(fallback));
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// TF.js's mapCoord: the input coordinate a sample at `c` reads along a side of `len` pixels.
double map_coord(double c, std::int64_t len, Fill mode) {
  const double n = static_cast<double>(len);
  switch (mode) {
    case Fill::Reflect:  // [abcd] -> [dcba|abcd|dcba]
      if (c < 0) {
        if (len <= 1) {
          c = 0;
        } else {
          const double sz2 = 2 * n;
          if (c < sz2) c = sz2 * std::trunc(-c / sz2) + c;
          c = c < -n ? c + sz2 : -c - 1;
        }
      } else if (c > n - 1) {
        if (len <= 1) {
          c = 0;
        } else {
          const double sz2 = 2 * n;
          c -= sz2 * std::trunc(c / sz2);
          if (c >= n) c = sz2 - c - 1;
        }
      }
      return std::clamp(c, 0.0, n - 1);
    case Fill::Wrap:  // [abcd] -> [abcd|abcd|abcd]
      if (c < 0) {
        if (len <= 1)
          c = 0;
        else
          c += n * (std::trunc(-c / (n - 1)) + 1);
      } else if (c > n - 1) {
        if (len <= 1)
          c = 0;
        else
          c -= n * std::trunc(c / (n - 1));
      }
      return std::clamp(c, 0.0, n - 1);
    case Fill::Nearest:
      return std::clamp(c, 0.0, n - 1);
    case Fill::Constant:
      break;
  }
  return c;
}

struct Image {
  const float* data;
  std::int64_t h, w, c;
  double fill;
  // Pixel (y, x), channel ch, of this image, or the fill value outside it.
  double at(double y, double x, std::int64_t ch) const {
    if (!(y >= 0 && y < double(h) && x >= 0 && x < double(w))) return fill;
    return data[(static_cast<std::int64_t>(y) * w + static_cast<std::int64_t>(x)) * c + ch];
  }
};

}  // namespace

std::vector<HostTensor> kernel_image_projective_transform_v3(const KernelContext& ctx) {
  const graph::Node& node = ctx.node;
  nn::expect_inputs(ctx, 4, 4);
  const HostTensor& images = nn::float_input(ctx, 0, 4, "images");
  const HostTensor& transforms = nn::float_input(ctx, 1, 2, "transforms");
  const std::int64_t batch = images.shape[0];
  if (transforms.shape[1] != 8 || (transforms.shape[0] != 1 && transforms.shape[0] != batch))
    nn::fail(node, "transforms must have shape [1, 8] or [" + std::to_string(batch) + ", 8], not " +
                       shape_to_string(transforms.shape));
  const std::vector<std::int64_t> size = nn::int_input_values(ctx, 2, "output_shape");
  if (size.size() != 2 || size[0] < 0 || size[1] < 0)
    nn::fail(node, "output_shape must be [height, width]");
  const HostTensor& fill_t = nn::float_input(ctx, 3, -1, "fill_value");
  if (fill_t.num_elements() != 1) nn::fail(node, "fill_value must be a scalar");
  const std::string interpolation = lower_attr(node, "interpolation", "nearest");
  if (interpolation != "nearest" && interpolation != "bilinear")
    graph::throw_attr_error(node, "interpolation",
                            "is '" + interpolation + "', not NEAREST or BILINEAR");
  const bool bilinear = interpolation == "bilinear";
  const std::string fill_mode = lower_attr(node, "fill_mode", "constant");
  const Fill fill = fill_mode == "reflect"   ? Fill::Reflect
                    : fill_mode == "wrap"    ? Fill::Wrap
                    : fill_mode == "nearest" ? Fill::Nearest
                                             : Fill::Constant;  // TF.js's default branch

  const std::int64_t H = images.shape[1], W = images.shape[2], C = images.shape[3];
  const std::int64_t out_h = size[0], out_w = size[1];
  HostTensor out = nn::new_output_uninitialized(node, {batch, out_h, out_w, C});
  const float* ip = images.values<float>().data();
  const float* tp = transforms.values<float>().data();
  float* op = out.mutable_values<float>().data();
  const double fill_value = fill_t.values<float>()[0];
  const double work = static_cast<double>(out.num_elements()) * 8;
  parallel_for(
      pool_for_work(ctx.pool, work), static_cast<std::size_t>(batch * out_h), [&](std::size_t r) {
        const std::int64_t b = static_cast<std::int64_t>(r) / out_h;
        const std::int64_t oy = static_cast<std::int64_t>(r) % out_h;
        const float* t = tp + (transforms.shape[0] == 1 ? 0 : b * 8);
        const Image img{ip + b * H * W * C, H, W, C, fill_value};
        float* o = op + (b * out_h + oy) * out_w * C;
        for (std::int64_t ox = 0; ox < out_w; ++ox, o += C) {
          const double x = double(ox), y = double(oy);
          const double k = double(t[6]) * x + double(t[7]) * y + 1;
          if (k == 0) {  // a point at infinity: outside the image
            std::fill_n(o, C, static_cast<float>(fill_value));
            continue;
          }
          const double in_x = map_coord((double(t[0]) * x + double(t[1]) * y + t[2]) / k, W, fill);
          const double in_y = map_coord((double(t[3]) * x + double(t[4]) * y + t[5]) / k, H, fill);
          if (!bilinear) {
            // Math.round: halves up.
            const double ry = std::floor(in_y + 0.5), rx = std::floor(in_x + 0.5);
            for (std::int64_t c = 0; c < C; ++c) o[c] = static_cast<float>(img.at(ry, rx, c));
            continue;
          }
          const double y0 = std::floor(in_y), x0 = std::floor(in_x);
          const double y1 = y0 + 1, x1 = x0 + 1;
          for (std::int64_t c = 0; c < C; ++c) {
            const double top = (x1 - in_x) * img.at(y0, x0, c) + (in_x - x0) * img.at(y0, x1, c);
            const double bottom = (x1 - in_x) * img.at(y1, x0, c) + (in_x - x0) * img.at(y1, x1, c);
            o[c] = static_cast<float>((y1 - in_y) * top + (in_y - y0) * bottom);
          }
        }
      });
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

}  // namespace tfjsi::cpu
