// Convolutions: Conv2D, Conv1D, DepthwiseConv2D, SeparableConv2D, Conv2DTranspose. Keras kernels
// already have TF's layouts ([kh, kw, in, out]; depthwise [kh, kw, in, multiplier]; transposed
// [kh, kw, out, in]), so weights go in unchanged.
#include "graph/keras/layers.h"

namespace tfjsi::graph::keras {

namespace {

Attrs conv_attrs(const std::vector<std::int64_t>& strides, const std::string& padding,
                 const std::vector<std::int64_t>& dilations) {
  Attrs a = t_attr();
  a.emplace("strides", std::vector<std::int64_t>{1, strides[0], strides[1], 1});
  a.emplace("padding", padding);
  a.emplace("dilations", std::vector<std::int64_t>{1, dilations[0], dilations[1], 1});
  a.emplace("data_format", std::string("NHWC"));
  return a;
}

void check_positive(Layer& layer, const std::vector<std::int64_t>& v, const char* key) {
  for (std::int64_t x : v)
    if (x <= 0) layer.fail(std::string("config '") + key + "' must hold positive integers");
}

void check_input_rank(Layer& layer, TensorRef x, int want) {
  const PartialShape s = layer.shape(x);
  if (s.rank_known && s.rank() != want)
    layer.fail("its input must have rank " + std::to_string(want) + ", got shape " + s.to_string());
}

TensorRef bias_add(Layer& layer, TensorRef y, std::int64_t n) {
  if (!layer.bool_or("use_bias", true)) return y;
  Attrs b = t_attr();
  b.emplace("data_format", std::string("NHWC"));
  return layer.add("BiasAdd", {y, layer.weight("bias", {n})}, std::move(b));
}

// Conv2D on a rank-4 NHWC tensor with the layer's kernel and bias.
TensorRef conv2d_core(Layer& layer, TensorRef x, const std::vector<std::int64_t>& strides,
                      const std::vector<std::int64_t>& dilations, const Shape& kernel_shape) {
  const std::int64_t filters = kernel_shape.back();
  const TensorRef kernel = layer.weight("kernel", kernel_shape);
  TensorRef y = layer.add("Conv2D", {x, kernel}, conv_attrs(strides, layer.padding(), dilations));
  return bias_add(layer, y, filters);
}

}  // namespace

Outputs lower_conv2d(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  layer.require_channels_last();
  check_input_rank(layer, in[0], 4);
  if (layer.int_or("groups", 1) != 1) layer.fail("grouped convolution is not supported");
  const std::int64_t filters = layer.int_or("filters", -1);
  if (filters <= 0) layer.fail("config 'filters' must be a positive integer");
  const auto k = layer.ints("kernel_size", 2);
  const auto s = layer.ints("strides", 2, std::vector<std::int64_t>{1, 1});
  const auto d = layer.ints("dilation_rate", 2, std::vector<std::int64_t>{1, 1});
  check_positive(layer, k, "kernel_size");
  check_positive(layer, s, "strides");
  check_positive(layer, d, "dilation_rate");
  const TensorRef y = conv2d_core(layer, in[0], s, d, {k[0], k[1], layer.channels(in[0]), filters});
  // tfjs-layers runs the bias add, and relu, linear or elu, inside its fused conv2d kernel.
  const bool fused_act = tfjs_fuses_activation(layer) && layer_activation_name(layer) != "linear";
  if (layer.bool_or("use_bias", true))
    mark_webgl_in_kernel(layer,
                         layer.writer().graph().nodes[static_cast<std::size_t>(y.node)].inputs[0]);
  if (fused_act) mark_webgl_in_kernel(layer, y);
  return {apply_layer_activation(layer, y)};
}

Outputs lower_conv1d(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  layer.require_channels_last();
  check_input_rank(layer, in[0], 3);
  const std::int64_t filters = layer.int_or("filters", -1);
  if (filters <= 0) layer.fail("config 'filters' must be a positive integer");
  const auto k = layer.ints("kernel_size", 1);
  const auto s = layer.ints("strides", 1, std::vector<std::int64_t>{1});
  const auto d = layer.ints("dilation_rate", 1, std::vector<std::int64_t>{1});
  check_positive(layer, k, "kernel_size");
  check_positive(layer, s, "strides");
  check_positive(layer, d, "dilation_rate");
  if (layer.string_or("padding", "valid") == "causal")
    layer.fail("padding 'causal' is not supported");
  const std::int64_t channels = layer.channels(in[0]);
  // [N, W, C] -> [N, 1, W, C], a 1 x k Conv2D, and back; the kernel [k, C, F] gets a leading 1.
  Attrs e = t_attr();
  e.emplace("Tdim", TypeAttr{"DT_INT32"});
  const TensorRef x4 = layer.add("ExpandDims", {in[0], layer.int_const("axis", {1}, Shape{})},
                                 std::move(e), "expand");
  const TensorRef kernel3 = layer.weight("kernel", {k[0], channels, filters});
  Attrs r = t_attr();
  r.emplace("Tshape", TypeAttr{"DT_INT32"});
  const TensorRef kernel4 =
      layer.add("Reshape",
                {kernel3, layer.int_const("kernel_shape", {1, static_cast<std::int32_t>(k[0]),
                                                           static_cast<std::int32_t>(channels),
                                                           static_cast<std::int32_t>(filters)})},
                std::move(r), "kernel_2d");
  TensorRef y =
      layer.add("Conv2D", {x4, kernel4}, conv_attrs({1, s[0]}, layer.padding(), {1, d[0]}));
  Attrs sq = t_attr();
  sq.emplace("squeeze_dims", std::vector<std::int64_t>{1});
  y = layer.add("Squeeze", {y}, std::move(sq));
  y = bias_add(layer, y, filters);
  return {apply_layer_activation(layer, y)};
}

Outputs lower_depthwise_conv2d(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  layer.require_channels_last();
  check_input_rank(layer, in[0], 4);
  const auto k = layer.ints("kernel_size", 2);
  const auto s = layer.ints("strides", 2, std::vector<std::int64_t>{1, 1});
  const auto d = layer.ints("dilation_rate", 2, std::vector<std::int64_t>{1, 1});
  check_positive(layer, k, "kernel_size");
  check_positive(layer, s, "strides");
  check_positive(layer, d, "dilation_rate");
  const std::int64_t mult = layer.int_or("depth_multiplier", 1);
  if (mult <= 0) layer.fail("config 'depth_multiplier' must be a positive integer");
  const std::int64_t c = layer.channels(in[0]);
  const TensorRef kernel = layer.weight("depthwise_kernel", {k[0], k[1], c, mult});
  TensorRef y =
      layer.add("DepthwiseConv2dNative", {in[0], kernel}, conv_attrs(s, layer.padding(), d));
  y = bias_add(layer, y, c * mult);
  return {apply_layer_activation(layer, y)};
}

Outputs lower_separable_conv2d(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  layer.require_channels_last();
  check_input_rank(layer, in[0], 4);
  const std::int64_t filters = layer.int_or("filters", -1);
  if (filters <= 0) layer.fail("config 'filters' must be a positive integer");
  const auto k = layer.ints("kernel_size", 2);
  const auto s = layer.ints("strides", 2, std::vector<std::int64_t>{1, 1});
  const auto d = layer.ints("dilation_rate", 2, std::vector<std::int64_t>{1, 1});
  check_positive(layer, k, "kernel_size");
  check_positive(layer, s, "strides");
  check_positive(layer, d, "dilation_rate");
  const std::int64_t c = layer.channels(in[0]);
  // tfjs-layers 4.22 does not save depth_multiplier; the kernel's last dim says what it is.
  const HostTensor dw = layer.weight_value("depthwise_kernel", {k[0], k[1], c, -1});
  const std::int64_t mult = dw.shape[3];
  if (layer.has("depth_multiplier") && layer.int_or("depth_multiplier", 1) != mult)
    layer.fail("depthwise_kernel's last dim " + std::to_string(mult) +
               " does not match depth_multiplier");
  const TensorRef dk = layer.weight("depthwise_kernel", {k[0], k[1], c, mult});
  const TensorRef pk = layer.weight("pointwise_kernel", {1, 1, c * mult, filters});
  const TensorRef depthwise =
      layer.add("DepthwiseConv2dNative", {in[0], dk}, conv_attrs(s, layer.padding(), d));
  TensorRef y =
      layer.add("Conv2D", {depthwise, pk}, conv_attrs({1, 1}, "VALID", {1, 1}), "pointwise");
  y = bias_add(layer, y, filters);
  return {apply_layer_activation(layer, y)};
}

Outputs lower_conv2d_transpose(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  layer.require_channels_last();
  const TensorRef x = in[0];
  check_input_rank(layer, x, 4);
  const std::int64_t filters = layer.int_or("filters", -1);
  if (filters <= 0) layer.fail("config 'filters' must be a positive integer");
  const auto k = layer.ints("kernel_size", 2);
  const auto s = layer.ints("strides", 2, std::vector<std::int64_t>{1, 1});
  check_positive(layer, k, "kernel_size");
  check_positive(layer, s, "strides");
  const auto d = layer.ints("dilation_rate", 2, std::vector<std::int64_t>{1, 1});
  if (d[0] != 1 || d[1] != 1) layer.fail("dilation_rate other than 1 is not supported");
  if (layer.has("output_padding")) layer.fail("output_padding is not supported");
  const std::string padding = layer.padding();
  const TensorRef kernel = layer.weight("kernel", {k[0], k[1], filters, layer.channels(x)});

  // Output size as tfjs-layers computes it (deconvLength): same -> in * stride; valid ->
  // in * stride + max(kernel - stride, 0).
  const PartialShape xs = layer.shape(x);
  std::vector<std::int64_t> out_hw(2, -1);
  for (int i = 0; i < 2; ++i) {
    const std::int64_t n = xs.dims[static_cast<std::size_t>(i + 1)];
    if (n < 0) continue;
    out_hw[i] = n * s[i] + (padding == "VALID" ? std::max<std::int64_t>(k[i] - s[i], 0) : 0);
  }

  // input_sizes = [batch (read at run time), out_h, out_w, filters].
  Attrs shape_attrs = t_attr();
  shape_attrs.emplace("out_type", TypeAttr{"DT_INT32"});
  const TensorRef shape = layer.add("Shape", {x}, std::move(shape_attrs));
  auto slice = [&](const std::string& name, std::int32_t begin, std::int32_t end) {
    Attrs a = t_attr(DType::Int32);
    a.emplace("Index", TypeAttr{"DT_INT32"});
    for (const char* m :
         {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"})
      a.emplace(m, std::int64_t{0});
    return layer.add(
        "StridedSlice",
        {shape, layer.int_const(name + "_begin", {begin}), layer.int_const(name + "_end", {end}),
         layer.int_const(name + "_stride", {1})},
        std::move(a), name);
  };
  const TensorRef batch = slice("batch", 0, 1);
  TensorRef hw;
  if (out_hw[0] >= 0 && out_hw[1] >= 0) {
    hw = layer.int_const(
        "out_hw", {static_cast<std::int32_t>(out_hw[0]), static_cast<std::int32_t>(out_hw[1])});
  } else {
    const TensorRef in_hw = slice("in_hw", 1, 3);
    hw = layer.add("Mul",
                   {in_hw, layer.int_const("hw_strides", {static_cast<std::int32_t>(s[0]),
                                                          static_cast<std::int32_t>(s[1])})},
                   t_attr(DType::Int32), "scaled_hw");
    if (padding == "VALID") {
      const auto extra = [&](int i) {
        return static_cast<std::int32_t>(std::max<std::int64_t>(k[i] - s[i], 0));
      };
      hw = layer.add("AddV2", {hw, layer.int_const("hw_extra", {extra(0), extra(1)})},
                     t_attr(DType::Int32), "out_hw");
    }
  }
  Attrs concat = t_attr(DType::Int32);
  concat.emplace("N", std::int64_t{3});
  concat.emplace("Tidx", TypeAttr{"DT_INT32"});
  const TensorRef sizes =
      layer.add("ConcatV2",
                {batch, hw, layer.int_const("out_channels", {static_cast<std::int32_t>(filters)}),
                 layer.int_const("axis", {0}, Shape{})},
                std::move(concat), "input_sizes");
  Attrs a = t_attr();
  a.emplace("strides", std::vector<std::int64_t>{1, s[0], s[1], 1});
  a.emplace("padding", padding);
  a.emplace("dilations", std::vector<std::int64_t>{1, 1, 1, 1});
  a.emplace("data_format", std::string("NHWC"));
  TensorRef y = layer.add("Conv2DBackpropInput", {sizes, kernel, x}, std::move(a));
  // The size depends on the batch read at run time, so the op's rule cannot see the spatial
  // dims; the lowering knows them.
  layer.writer().refine(y, PartialShape::of({xs.dims[0], out_hw[0], out_hw[1], filters}));
  y = bias_add(layer, y, filters);
  return {apply_layer_activation(layer, y)};
}

}  // namespace tfjsi::graph::keras
