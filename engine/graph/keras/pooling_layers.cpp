// Pooling (windowed and global, 1-D and 2-D), ZeroPadding2D, Cropping2D and UpSampling2D.
#include "graph/keras/layers.h"

namespace tfjsi::graph::keras {

namespace {

void check_rank(Layer& layer, TensorRef x, int want) {
  if (layer.rank(x) != want)
    layer.fail("its input must have rank " + std::to_string(want) + ", got shape " +
               layer.shape(x).to_string());
}

TensorRef pool2d(Layer& layer, TensorRef x, const char* op, const std::vector<std::int64_t>& size,
                 const std::vector<std::int64_t>& strides) {
  for (std::int64_t v : size)
    if (v <= 0) layer.fail("config 'pool_size' must hold positive integers");
  for (std::int64_t v : strides)
    if (v <= 0) layer.fail("config 'strides' must hold positive integers");
  Attrs a = t_attr();
  a.emplace("ksize", std::vector<std::int64_t>{1, size[0], size[1], 1});
  a.emplace("strides", std::vector<std::int64_t>{1, strides[0], strides[1], 1});
  a.emplace("padding", layer.padding());
  a.emplace("data_format", std::string("NHWC"));
  return layer.add(op, {x}, std::move(a));
}

Outputs pooling2d(Layer& layer, std::span<const TensorRef> in, const char* op) {
  layer.expect_inputs(in, 1);
  layer.require_channels_last();
  check_rank(layer, in[0], 4);
  const auto size = layer.ints("pool_size", 2, std::vector<std::int64_t>{2, 2});
  // tfjs and Keras: strides default to the pool size.
  const auto strides = layer.ints("strides", 2, size);
  return {pool2d(layer, in[0], op, size, strides)};
}

// tfjs pools 1-D as 2-D on [N, W, 1, C]; the same here.
Outputs pooling1d(Layer& layer, std::span<const TensorRef> in, const char* op) {
  layer.expect_inputs(in, 1);
  layer.require_channels_last();
  check_rank(layer, in[0], 3);
  const auto size = layer.ints("pool_size", 1, std::vector<std::int64_t>{2});
  const auto strides = layer.ints("strides", 1, size);
  Attrs e = t_attr();
  e.emplace("Tdim", TypeAttr{"DT_INT32"});
  const TensorRef x4 = layer.add("ExpandDims", {in[0], layer.int_const("axis", {2}, Shape{})},
                                 std::move(e), "expand");
  const TensorRef y = pool2d(layer, x4, op, {size[0], 1}, {strides[0], 1});
  Attrs sq = t_attr();
  sq.emplace("squeeze_dims", std::vector<std::int64_t>{2});
  return {layer.add("Squeeze", {y}, std::move(sq))};
}

Outputs global_pooling(Layer& layer, std::span<const TensorRef> in, const char* op, int rank) {
  layer.expect_inputs(in, 1);
  layer.require_channels_last();
  check_rank(layer, in[0], rank);
  std::vector<std::int32_t> axes;
  for (int a = 1; a < rank - 1; ++a) axes.push_back(a);
  Attrs a = t_attr();
  a.emplace("Tidx", TypeAttr{"DT_INT32"});
  a.emplace("keep_dims", layer.bool_or("keepdims", false));
  return {layer.add(op, {in[0], layer.int_const("axes", axes)}, std::move(a))};
}

// [[top, bottom], [left, right]] from an int, [sym_h, sym_w] or [[t, b], [l, r]].
std::vector<std::int64_t> two_by_two(Layer& layer, const char* key, std::int64_t fallback) {
  const nlohmann::json* j = layer.get(key);
  if (!j) return {fallback, fallback, fallback, fallback};
  auto as_int = [&](const nlohmann::json& v) {
    if (!v.is_number_integer() || v.get<std::int64_t>() < 0)
      layer.fail(std::string("config '") + key + "' must hold non-negative integers, got " +
                 j->dump());
    return v.get<std::int64_t>();
  };
  if (j->is_number()) {
    const std::int64_t v = as_int(*j);
    return {v, v, v, v};
  }
  if (j->is_array() && j->size() == 2) {
    std::vector<std::int64_t> out;
    for (const auto& item : *j) {
      if (item.is_array() && item.size() == 2) {
        out.push_back(as_int(item[0]));
        out.push_back(as_int(item[1]));
      } else {
        const std::int64_t v = as_int(item);
        out.push_back(v);
        out.push_back(v);
      }
    }
    return out;
  }
  layer.fail(std::string("config '") + key + "' must be an int, [h, w] or [[t, b], [l, r]], got " +
             j->dump());
}

}  // namespace

Outputs lower_max_pooling2d(Layer& layer, std::span<const TensorRef> in) {
  return pooling2d(layer, in, "MaxPool");
}
Outputs lower_average_pooling2d(Layer& layer, std::span<const TensorRef> in) {
  return pooling2d(layer, in, "AvgPool");
}
Outputs lower_max_pooling1d(Layer& layer, std::span<const TensorRef> in) {
  return pooling1d(layer, in, "MaxPool");
}
Outputs lower_average_pooling1d(Layer& layer, std::span<const TensorRef> in) {
  return pooling1d(layer, in, "AvgPool");
}
Outputs lower_global_average_pooling2d(Layer& layer, std::span<const TensorRef> in) {
  return global_pooling(layer, in, "Mean", 4);
}
Outputs lower_global_max_pooling2d(Layer& layer, std::span<const TensorRef> in) {
  return global_pooling(layer, in, "Max", 4);
}
Outputs lower_global_average_pooling1d(Layer& layer, std::span<const TensorRef> in) {
  return global_pooling(layer, in, "Mean", 3);
}
Outputs lower_global_max_pooling1d(Layer& layer, std::span<const TensorRef> in) {
  return global_pooling(layer, in, "Max", 3);
}

Outputs lower_zero_padding2d(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  layer.require_channels_last();
  check_rank(layer, in[0], 4);
  const auto p = two_by_two(layer, "padding", 1);
  std::vector<std::int32_t> pads{0, 0};
  for (std::int64_t v : p) pads.push_back(static_cast<std::int32_t>(v));
  pads.push_back(0);
  pads.push_back(0);
  Attrs a = t_attr();
  a.emplace("Tpaddings", TypeAttr{"DT_INT32"});
  return {layer.add("Pad", {in[0], layer.int_const("paddings", pads, Shape{4, 2})}, std::move(a))};
}

Outputs lower_cropping2d(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  layer.require_channels_last();
  check_rank(layer, in[0], 4);
  const auto c = two_by_two(layer, "cropping", 0);
  // Ends count from the back, so no static size is needed; a zero crop at the end uses end_mask.
  std::int64_t end_mask = 1 | 8;
  if (c[1] == 0) end_mask |= 2;
  if (c[3] == 0) end_mask |= 4;
  Attrs a = t_attr();
  a.emplace("Index", TypeAttr{"DT_INT32"});
  a.emplace("begin_mask", std::int64_t{1 | 8});
  a.emplace("end_mask", end_mask);
  a.emplace("ellipsis_mask", std::int64_t{0});
  a.emplace("new_axis_mask", std::int64_t{0});
  a.emplace("shrink_axis_mask", std::int64_t{0});
  const auto i32 = [](std::int64_t v) { return static_cast<std::int32_t>(v); };
  return {layer.add("StridedSlice",
                    {in[0], layer.int_const("begin", {0, i32(c[0]), i32(c[2]), 0}),
                     layer.int_const("end", {0, i32(-c[1]), i32(-c[3]), 0}),
                     layer.int_const("strides", {1, 1, 1, 1})},
                    std::move(a))};
}

Outputs lower_upsampling2d(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  layer.require_channels_last();
  const TensorRef x = in[0];
  check_rank(layer, x, 4);
  const auto size = layer.ints("size", 2, std::vector<std::int64_t>{2, 2});
  for (std::int64_t v : size)
    if (v <= 0) layer.fail("config 'size' must hold positive integers");
  const std::string interpolation = layer.string_or("interpolation", "nearest");
  const char* op = nullptr;
  if (interpolation == "nearest")
    op = "ResizeNearestNeighbor";
  else if (interpolation == "bilinear")
    op = "ResizeBilinear";
  else
    layer.fail("interpolation '" + interpolation + "' is not supported (nearest or bilinear)");

  const PartialShape s = layer.shape(x);
  TensorRef out_size;
  if (s.dims[1] >= 0 && s.dims[2] >= 0) {
    out_size = layer.int_const("size", {static_cast<std::int32_t>(s.dims[1] * size[0]),
                                        static_cast<std::int32_t>(s.dims[2] * size[1])});
  } else {
    Attrs sh = t_attr();
    sh.emplace("out_type", TypeAttr{"DT_INT32"});
    const TensorRef shape = layer.add("Shape", {x}, std::move(sh));
    Attrs sl = t_attr(DType::Int32);
    sl.emplace("Index", TypeAttr{"DT_INT32"});
    for (const char* m :
         {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"})
      sl.emplace(m, std::int64_t{0});
    const TensorRef hw =
        layer.add("StridedSlice",
                  {shape, layer.int_const("hw_begin", {1}), layer.int_const("hw_end", {3}),
                   layer.int_const("hw_stride", {1})},
                  std::move(sl), "in_hw");
    out_size = layer.add("Mul",
                         {hw, layer.int_const("factors", {static_cast<std::int32_t>(size[0]),
                                                          static_cast<std::int32_t>(size[1])})},
                         t_attr(DType::Int32), "size");
  }
  // tfjs resizes with align_corners and half_pixel_centers both false.
  Attrs a = t_attr();
  a.emplace("align_corners", false);
  a.emplace("half_pixel_centers", false);
  return {layer.add(op, {x, out_size}, std::move(a))};
}

}  // namespace tfjsi::graph::keras
