// Convolutions on XNNPACK: Conv2D and _FusedConv2D (TF's HWIO filter repacked to XNNPACK's OHWI),
// depthwise convolutions (TF's [kh, kw, C, M] filter is XNNPACK's depthwise HWGo layout as is;
// with M = 1, the common case, the backend's own kernel in depthwise_rows.cpp) and
// Conv2DBackpropInput as XNNPACK's deconvolution.
#include <algorithm>
#include <limits>
#include <vector>

#include "backends/xnnpack/depthwise_rows.h"
#include "backends/xnnpack/fused_epilogue.h"
#include "backends/xnnpack/ops.h"

namespace tfjsi::xnnpack {

namespace {

enum class ConvKind { Regular, Depthwise };

constexpr float kNoMin = -std::numeric_limits<float>::infinity();
constexpr float kNoMax = std::numeric_limits<float>::infinity();

// Bias and Relu/Relu6 bounds as a second XNNPACK operator, in place on the convolution's output,
// rather than inside the convolution: XNNPACK would start each sum from the bias, TF.js adds it
// to the finished sum. Deep models (blazepose's segmentation head) amplify that rounding
// difference about tenfold past the 1e-3 tolerance; one extra pass over the output avoids it.
bool add_bias(NativeCall& call, const Fused& ep, HostTensor& out, std::int64_t channels) {
  if (ep.bias.empty() && ep.min == kNoMin && ep.max == kNoMax) return true;
  const std::size_t c = static_cast<std::size_t>(channels);
  // XNNPACK may read XNN_EXTRA_BYTES past the bias.
  std::vector<float> bias(c + XNN_EXTRA_BYTES / sizeof(float), 0.f);
  std::copy(ep.bias.begin(), ep.bias.end(), bias.begin());
  OperatorCache::Recipe recipe;
  recipe.params = {float_bits(ep.min), float_bits(ep.max)};
  auto create = [&](xnn_operator_t* op) {
    return xnn_create_add_nd_f32(ep.min, ep.max, kOperatorFlags, op);
  };
  xnn_operator_t op = call.cache.get(call.node, 2, recipe, create);
  if (!op) return false;
  const std::size_t rows[2] = {static_cast<std::size_t>(out.num_elements()) / c, c};
  const std::size_t cols[1] = {c};
  float* o = out.mutable_values<float>().data();
  if (!call.setup_ok(xnn_setup_add_nd_f32(op, 2, rows, 1, cols, o, bias.data(), o, call.pool)))
    return false;
  call.run(op);
  return true;
}

NativeResult convolution(NativeCall& call, ConvKind kind, bool fused) {
  const graph::Node& node = call.node;
  // Conv1D's [batch, width, in] and [kw, in, out] are a Conv2D's [batch, 1, width, in] and
  // [1, kw, in, out] as they lie in memory (ops::window gives it height 1).
  const bool conv1d = node.op == "Conv1D";
  const int rank = conv1d ? 3 : 4;
  if (!call.is_float(0, rank) || !call.is_float(1, rank) || !nhwc(node)) return std::nullopt;
  if (!fused && call.num_inputs() != 2) return std::nullopt;
  const Shape xs =
      conv1d ? Shape{call.input(0).shape[0], 1, call.input(0).shape[1], call.input(0).shape[2]}
             : call.input(0).shape;
  const Shape fs =
      conv1d ? Shape{1, call.input(1).shape[0], call.input(1).shape[1], call.input(1).shape[2]}
             : call.input(1).shape;
  const HostTensor& f = call.input(1);
  const std::int64_t n = xs[0], in_h = xs[1], in_w = xs[2], c = xs[3];
  const std::int64_t k_h = fs[0], k_w = fs[1];
  if (fs[2] != c || n < 1 || c < 1 || fs[3] < 1) return std::nullopt;
  const std::int64_t out_c = kind == ConvKind::Regular ? fs[3] : c * fs[3];
  const auto g = window_of(node, call.input(0).shape, f.shape);
  if (!g) return std::nullopt;
  const Shape out_shape = conv1d ? Shape{n, g->out_w, out_c} : Shape{n, g->out_h, g->out_w, out_c};
  Fused ep;
  if (fused) {
    auto r = read_fused(call, out_c);
    if (!r) return std::nullopt;
    ep = std::move(*r);
  }

  if (kind == ConvKind::Depthwise && fs[3] == 1) {
    // One filter per channel: the backend's own kernel, in TF.js's summation order
    // (depthwise_rows.cpp).
    HostTensor out = new_output(out_shape);
    DepthwiseRows a;
    a.x = call.input(0).values<float>().data();
    a.filter = f.values<float>().data();
    a.bias = ep.bias.empty() ? nullptr : ep.bias.data();
    a.out = out.mutable_values<float>().data();
    a.batch = n, a.in_h = in_h, a.in_w = in_w, a.channels = c;
    a.k_h = k_h, a.k_w = k_w, a.s_h = g->stride_h, a.s_w = g->stride_w, a.d_h = g->dil_h,
    a.d_w = g->dil_w, a.pad_top = g->pad_top, a.pad_left = g->pad_left, a.out_h = g->out_h,
    a.out_w = g->out_w;
    a.min = ep.min, a.max = ep.max;
    run_depthwise_rows(a, call.pool);
    if (!apply_post(call, ep, out, out_c)) return std::nullopt;
    return one(std::move(out));
  }

  OperatorCache::Recipe recipe;
  const bool same = g->padding == ops::Padding::Same;
  const std::uint32_t flags = (same ? XNN_FLAG_TENSORFLOW_SAME_PADDING : 0u) |
                              (kind == ConvKind::Depthwise ? XNN_FLAG_DEPTHWISE_CONVOLUTION : 0u);
  // With TF SAME padding XNNPACK works out the pads per input size, so the operator (and its
  // packed weights) serve every input size.
  const std::int64_t top = same ? 0 : g->pad_top, bottom = same ? 0 : g->pad_bottom;
  const std::int64_t left = same ? 0 : g->pad_left, right = same ? 0 : g->pad_right;
  recipe.params = {static_cast<std::int64_t>(kind),
                   k_h,
                   k_w,
                   g->stride_h,
                   g->stride_w,
                   g->dil_h,
                   g->dil_w,
                   top,
                   bottom,
                   left,
                   right,
                   c,
                   out_c,
                   flags};
  recipe.weights = {f.buffer};
  recipe.weight_bytes = static_cast<std::size_t>(f.num_elements()) * sizeof(float);

  auto create = [&](xnn_operator_t* op) {
    const auto u = [](std::int64_t v) { return static_cast<std::uint32_t>(v); };
    if (kind == ConvKind::Depthwise) {
      const auto m = static_cast<std::size_t>(fs[3]);
      return xnn_create_convolution2d_nhwc_f32(
          u(top), u(right), u(bottom), u(left), u(k_h), u(k_w), u(g->stride_h), u(g->stride_w),
          u(g->dil_h), u(g->dil_w), u(c), 1, m, static_cast<std::size_t>(c),
          static_cast<std::size_t>(out_c), f.values<float>().data(), nullptr, kNoMin, kNoMax,
          flags | kOperatorFlags, op);
    }
    // HWIO -> OHWI.
    const std::int64_t taps = k_h * k_w;
    std::vector<float> ohwi(static_cast<std::size_t>(f.num_elements()));
    const float* src = f.values<float>().data();
    for (std::int64_t t = 0; t < taps; ++t)
      for (std::int64_t i = 0; i < c; ++i)
        for (std::int64_t o = 0; o < out_c; ++o)
          ohwi[static_cast<std::size_t>((o * taps + t) * c + i)] = src[(t * c + i) * out_c + o];
    return xnn_create_convolution2d_nhwc_f32(
        u(top), u(right), u(bottom), u(left), u(k_h), u(k_w), u(g->stride_h), u(g->stride_w),
        u(g->dil_h), u(g->dil_w), 1, static_cast<std::size_t>(c), static_cast<std::size_t>(out_c),
        static_cast<std::size_t>(c), static_cast<std::size_t>(out_c), ohwi.data(), nullptr, kNoMin,
        kNoMax, flags | kOperatorFlags, op);
  };
  xnn_operator_t op = call.cache.get(node, 0, recipe, create);
  if (!op) return std::nullopt;
  HostTensor out = new_output(out_shape);
  if (!call.setup_ok(xnn_setup_convolution2d_nhwc_f32(
          op, static_cast<std::size_t>(n), static_cast<std::size_t>(in_h),
          static_cast<std::size_t>(in_w), static_cast<const float*>(call.activation(0)),
          out.mutable_values<float>().data(), call.pool)))
    return std::nullopt;
  call.run(op);
  if (!add_bias(call, ep, out, out_c) || !apply_post(call, ep, out, out_c)) return std::nullopt;
  return one(std::move(out));
}

}  // namespace

NativeResult op_conv1d(NativeCall& call) {
  return convolution(call, ConvKind::Regular, false);
}
NativeResult op_conv2d(NativeCall& call) {
  return convolution(call, ConvKind::Regular, false);
}
NativeResult op_fused_conv2d(NativeCall& call) {
  return convolution(call, ConvKind::Regular, true);
}
NativeResult op_depthwise_conv2d(NativeCall& call) {
  return convolution(call, ConvKind::Depthwise, false);
}
NativeResult op_fused_depthwise_conv2d(NativeCall& call) {
  return convolution(call, ConvKind::Depthwise, true);
}

// Conv2DBackpropInput(input_sizes, filter [kh, kw, out_c, in_c], out_backprop): XNNPACK's
// deconvolution with the pads the forward convolution of input_sizes would have, and an
// adjustment for the rows and columns a strided forward convolution skips.
NativeResult op_conv2d_backprop_input(NativeCall& call) {
  const graph::Node& node = call.node;
  if (call.num_inputs() != 3 || !call.is_float(1, 4) || !call.is_float(2, 4) || !nhwc(node))
    return std::nullopt;
  const auto sizes = call.int_values(0);
  if (!sizes || sizes->size() != 4) return std::nullopt;
  const HostTensor& f = call.input(1);
  const HostTensor& dy = call.input(2);
  const std::int64_t n = (*sizes)[0], out_h = (*sizes)[1], out_w = (*sizes)[2];
  const std::int64_t out_c = f.shape[2], in_c = f.shape[3];
  const std::int64_t in_h = dy.shape[1], in_w = dy.shape[2];
  if ((*sizes)[3] != out_c || dy.shape[3] != in_c || dy.shape[0] != n || n < 1 || in_c < 1 ||
      out_c < 1 || out_h > (1 << 24) || out_w > (1 << 24))
    return std::nullopt;
  const std::int64_t k_h = f.shape[0], k_w = f.shape[1];
  // The forward convolution's window (no dilations here, as in TF.js).
  const auto g = window_of(node, *sizes, f.shape);
  if (!g || g->padding == ops::Padding::Explicit || g->out_h != in_h || g->out_w != in_w)
    return std::nullopt;
  const std::int64_t s_h = g->stride_h, s_w = g->stride_w;
  const std::int64_t top = g->pad_top, bottom = g->pad_bottom;
  const std::int64_t left = g->pad_left, right = g->pad_right;
  const std::int64_t adj_h = out_h - ((in_h - 1) * s_h + k_h - top - bottom);
  const std::int64_t adj_w = out_w - ((in_w - 1) * s_w + k_w - left - right);
  if (adj_h < 0 || adj_w < 0 || adj_h >= s_h || adj_w >= s_w) return std::nullopt;

  OperatorCache::Recipe recipe;
  recipe.params = {k_h, k_w, s_h, s_w, top, bottom, left, right, in_c, out_c};
  recipe.weights = {f.buffer};
  recipe.weight_bytes = static_cast<std::size_t>(f.num_elements()) * sizeof(float);
  auto create = [&](xnn_operator_t* op) {
    // [kh, kw, O, I] -> OHWI.
    const std::int64_t taps = k_h * k_w;
    std::vector<float> ohwi(static_cast<std::size_t>(f.num_elements()));
    const float* src = f.values<float>().data();
    for (std::int64_t t = 0; t < taps; ++t)
      for (std::int64_t o = 0; o < out_c; ++o)
        for (std::int64_t i = 0; i < in_c; ++i)
          ohwi[static_cast<std::size_t>((o * taps + t) * in_c + i)] =
              src[(t * out_c + o) * in_c + i];
    const auto u = [](std::int64_t v) { return static_cast<std::uint32_t>(v); };
    return xnn_create_deconvolution2d_nhwc_f32(
        u(top), u(right), u(bottom), u(left), u(k_h), u(k_w), u(s_h), u(s_w), 1, 1, 1,
        static_cast<std::size_t>(in_c), static_cast<std::size_t>(out_c),
        static_cast<std::size_t>(in_c), static_cast<std::size_t>(out_c), ohwi.data(), nullptr,
        -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity(),
        kOperatorFlags, op);
  };
  xnn_operator_t op = call.cache.get(node, 0, recipe, create);
  if (!op) return std::nullopt;
  HostTensor out = new_output({n, out_h, out_w, out_c});
  if (!call.setup_ok(xnn_setup_deconvolution2d_nhwc_f32(
          op, static_cast<std::size_t>(n), static_cast<std::size_t>(in_h),
          static_cast<std::size_t>(in_w), static_cast<std::uint32_t>(adj_h),
          static_cast<std::uint32_t>(adj_w), static_cast<const float*>(call.activation(2)),
          out.mutable_values<float>().data(), call.pool)))
    return std::nullopt;
  call.run(op);
  return one(std::move(out));
}

}  // namespace tfjsi::xnnpack
