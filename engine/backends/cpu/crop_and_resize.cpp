// CropAndResize(image [batch, h, w, c], boxes [n, 4], box_ind [n], crop_size [2]) ->
// [n, crop_h, crop_w, c] float32, as TF.js's cpu kernel (after TF's crop_and_resize_op): box
// corners (y1, x1, y2, x2) are normalized, sample positions run from y1 * (h - 1) to y2 * (h - 1)
// in crop_h steps, a crop of one row or column samples the box's centre, and positions outside
// the image take extrapolation_value. Coordinates are worked out in double, as JavaScript does.
// A box whose index is past the batch stays 0 (TF.js skips it).
#include <cctype>
#include <cmath>
#include <limits>
#include <string>

#include "backends/cpu/nn_util.h"
#include "backends/cpu/parallel.h"
#include "ops/attr.h"

namespace tfjsi::cpu {

namespace {

enum class Method { Bilinear, Nearest };

Method read_method(const graph::Node& node) {
  std::string m = ops::attr<std::string>(node, "method", "bilinear");
  for (char& ch : m) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (m == "bilinear") return Method::Bilinear;
  if (m == "nearest") return Method::Nearest;
  graph::throw_attr_error(node, "method", "is '" + m + "', not bilinear or nearest");
}

// The image's values as double, whatever its type (TF.js reads int32 images as they are).
double pixel(const HostTensor& image, std::int64_t i) {
  return image.dtype == DType::Int32 ? double(image.values<std::int32_t>()[i])
                                     : double(image.values<float>()[i]);
}

}  // namespace

std::vector<HostTensor> kernel_crop_and_resize(const KernelContext& ctx) {
  const graph::Node& node = ctx.node;
  nn::expect_inputs(ctx, 4, 4);
  const HostTensor& image = ctx.inputs[0];
  if (image.dtype != DType::Float32 && image.dtype != DType::Int32)
    nn::fail(node, "image must be float32 or int32, got " + std::string(to_string(image.dtype)));
  if (image.rank() != 4 || !image.buffer || image.buffer->size() < image.byte_size())
    nn::fail(node, "image must have rank 4, got shape " + shape_to_string(image.shape));
  const HostTensor& boxes = nn::float_input(ctx, 1, 2, "boxes");
  const std::int64_t n = boxes.shape[0];
  if (boxes.shape[1] != 4)
    nn::fail(node, "boxes must have shape [" + std::to_string(n) + ", 4], not " +
                       shape_to_string(boxes.shape));
  const std::vector<std::int64_t> box_ind = nn::int_input_values(ctx, 2, "box_ind");
  if (ctx.inputs[2].rank() != 1 || static_cast<std::int64_t>(box_ind.size()) != n)
    nn::fail(node, "box_ind must have shape [" + std::to_string(n) + "], not " +
                       shape_to_string(ctx.inputs[2].shape));
  const std::vector<std::int64_t> size = nn::int_input_values(ctx, 3, "crop_size");
  if (size.size() != 2 || size[0] < 1 || size[1] < 1)
    nn::fail(node, "crop_size must be [height, width], each at least 1");
  for (const std::int64_t b : box_ind)
    if (b < 0) nn::fail(node, "box_ind holds " + std::to_string(b) + ", below 0");
  const Method method = read_method(node);
  const double extrapolation = ops::attr<float>(node, "extrapolation_value", 0.f);

  const std::int64_t batch = image.shape[0], H = image.shape[1], W = image.shape[2];
  const std::int64_t C = image.shape[3], crop_h = size[0], crop_w = size[1];
  HostTensor out = nn::new_output(node, {n, crop_h, crop_w, C});
  const auto bv = boxes.values<float>();
  float* op = out.mutable_values<float>().data();
  const double work = static_cast<double>(out.num_elements()) * 4;
  parallel_for(
      pool_for_work(ctx.pool, work), static_cast<std::size_t>(n * crop_h), [&](std::size_t row) {
        const std::int64_t b = static_cast<std::int64_t>(row) / crop_h;
        const std::int64_t y = static_cast<std::int64_t>(row) % crop_h;
        const std::int64_t bi = box_ind[static_cast<std::size_t>(b)];
        if (bi >= batch) return;
        const double y1 = bv[b * 4], x1 = bv[b * 4 + 1];
        const double y2 = bv[b * 4 + 2], x2 = bv[b * 4 + 3];
        const double h_scale = crop_h > 1 ? (y2 - y1) * double(H - 1) / double(crop_h - 1) : 0;
        const double w_scale = crop_w > 1 ? (x2 - x1) * double(W - 1) / double(crop_w - 1) : 0;
        const double in_y =
            crop_h > 1 ? y1 * double(H - 1) + double(y) * h_scale : 0.5 * (y1 + y2) * double(H - 1);
        float* o = op + (b * crop_h + y) * crop_w * C;
        constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
        if (std::isnan(in_y)) {  // TF.js reads past its array: NaN
          std::fill_n(o, crop_w * C, kNaN);
          return;
        }
        if (in_y < 0 || in_y > double(H - 1)) {
          std::fill_n(o, crop_w * C, static_cast<float>(extrapolation));
          return;
        }
        const std::int64_t base = bi * H * W * C;
        for (std::int64_t x = 0; x < crop_w; ++x, o += C) {
          const double in_x = crop_w > 1 ? x1 * double(W - 1) + double(x) * w_scale
                                         : 0.5 * (x1 + x2) * double(W - 1);
          if (std::isnan(in_x)) {
            std::fill_n(o, C, kNaN);
            continue;
          }
          if (in_x < 0 || in_x > double(W - 1)) {
            std::fill_n(o, C, static_cast<float>(extrapolation));
            continue;
          }
          if (method == Method::Nearest) {
            // Math.round: halves up.
            const auto cy = static_cast<std::int64_t>(std::floor(in_y + 0.5));
            const auto cx = static_cast<std::int64_t>(std::floor(in_x + 0.5));
            for (std::int64_t c = 0; c < C; ++c)
              o[c] = static_cast<float>(pixel(image, base + (cy * W + cx) * C + c));
            continue;
          }
          const auto top = static_cast<std::int64_t>(std::floor(in_y));
          const auto bottom = static_cast<std::int64_t>(std::ceil(in_y));
          const auto left = static_cast<std::int64_t>(std::floor(in_x));
          const auto right = static_cast<std::int64_t>(std::ceil(in_x));
          const double y_lerp = in_y - double(top), x_lerp = in_x - double(left);
          for (std::int64_t c = 0; c < C; ++c) {
            const double tl = pixel(image, base + (top * W + left) * C + c);
            const double tr = pixel(image, base + (top * W + right) * C + c);
            const double bl = pixel(image, base + (bottom * W + left) * C + c);
            const double br = pixel(image, base + (bottom * W + right) * C + c);
            const double t = tl + (tr - tl) * x_lerp;
            const double u = bl + (br - bl) * x_lerp;
            o[c] = static_cast<float>(t + (u - t) * y_lerp);
          }
        }
      });
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

}  // namespace tfjsi::cpu
