// Sliding-window ops (Window and Window3D, window.h): Conv2D, Conv1D, DepthwiseConv2dNative and
// their fused forms, Dilation2D, MaxPool, AvgPool, MaxPoolWithArgmax, Conv2DBackpropInput, Conv3D,
// MaxPool3D, AvgPool3D.
#include <optional>

#include "core/error.h"
#include "ops/attr.h"
#include "ops/op_def.h"
#include "ops/shape_context.h"
#include "ops/window.h"

namespace tfjsi::ops {
namespace {

// One spatial output size (ops/window.h): -1 when something it needs is unknown or too large.
std::int64_t window_out(Padding padding, std::int64_t in, std::int64_t k, std::int64_t stride,
                        std::int64_t dilation, std::int64_t pad_before, std::int64_t pad_after) {
  if (in < 0 || in > (std::int64_t{1} << 62)) return -1;
  if (padding == Padding::Same) return output_size(padding, in, 1, stride);
  const std::int64_t eff = dim_add(dim_mul(k - 1, dilation), 1);
  if (k < 1 || eff < 0 || dim_add(dim_add(in, pad_before), pad_after) < 0) return -1;
  return output_size(padding, in, eff, stride, pad_before, pad_after);
}

// Conv2D-like and pooling ops: `kh`, `kw` give a convolution's filter size (pools read ksize),
// `channels` the output depth.
void windowed(InferContext& c, std::int64_t kh, std::int64_t kw, std::int64_t channels) {
  const PartialShape x = with_rank(c.shape(0), 4);
  std::optional<WindowAttrs> a;
  try {
    a = window_attrs(c.node);
  } catch (const ModelError&) {
    // Static inference never rejects a model: the kernel does, with the same message.
  }
  if (!x.rank_known || x.dims.size() != 4 || !a) {
    c.set(0, c.t(), PartialShape::unknown());
    return;
  }
  const Layout l{a->format == DataFormat::Nchw};
  if (is_pool(c.node.op)) kh = a->k_h, kw = a->k_w;
  std::vector<std::int64_t> out(4, -1);
  out[0] = x.dims[0];
  out[static_cast<std::size_t>(l.ch())] = channels;
  out[static_cast<std::size_t>(l.h())] =
      window_out(a->padding, x.dims[static_cast<std::size_t>(l.h())], kh, a->stride_h, a->dil_h,
                 a->pad_top, a->pad_bottom);
  out[static_cast<std::size_t>(l.w())] =
      window_out(a->padding, x.dims[static_cast<std::size_t>(l.w())], kw, a->stride_w, a->dil_w,
                 a->pad_left, a->pad_right);
  c.set(0, c.t(), PartialShape::of(std::move(out)));
}

void conv2d(InferContext& c) {
  const PartialShape f = with_rank(c.shape(1), 4);  // [kh, kw, in, out]
  const bool ok = f.rank_known && f.dims.size() == 4;
  windowed(c, ok ? f.dims[0] : -1, ok ? f.dims[1] : -1, ok ? f.dims[3] : -1);
}

void depthwise(InferContext& c) {
  const PartialShape f = with_rank(c.shape(1), 4);  // [kh, kw, in, multiplier]
  const bool ok = f.rank_known && f.dims.size() == 4;
  std::int64_t channels = -1;
  if (ok) channels = dim_mul(f.dims[2], f.dims[3]);
  windowed(c, ok ? f.dims[0] : -1, ok ? f.dims[1] : -1, channels);
}

void pool(InferContext& c) {
  const Layout l = layout_of(c);
  const PartialShape x = with_rank(c.shape(0), 4);
  const std::int64_t ch =
      x.rank_known && x.dims.size() == 4 ? x.dims[static_cast<std::size_t>(l.ch())] : -1;
  windowed(c, -1, -1, ch);
}

// MaxPool's values and, second, the int32 positions of the maxima.
void pool_with_argmax(InferContext& c) {
  pool(c);
  c.set(1, DType::Int32, c.out[0].shape);
}

// Conv1D: [batch, width, in] * [kw, in, out] -> [batch, out_w, out] (NWC; TF.js takes no other).
void conv1d(InferContext& c) {
  const PartialShape x = with_rank(c.shape(0), 3);
  const PartialShape f = with_rank(c.shape(1), 3);
  std::optional<WindowAttrs> a;
  try {
    a = window_attrs(c.node);
  } catch (const ModelError&) {
  }
  if (!x.rank_known || x.dims.size() != 3 || !a) {
    c.set(0, c.t(), PartialShape::unknown());
    return;
  }
  const bool fk = f.rank_known && f.dims.size() == 3;
  std::vector<std::int64_t> out{x.dims[0], -1, fk ? f.dims[2] : -1};
  out[1] = window_out(a->padding, x.dims[1], fk ? f.dims[0] : -1, a->stride_w, a->dil_w, 0, 0);
  c.set(0, c.t(), PartialShape::of(std::move(out)));
}

// Dilation2D: [batch, h, w, channels] with a filter [kh, kw, channels] and rates as dilations.
void dilation2d(InferContext& c) {
  const PartialShape f = with_rank(c.shape(1), 3);
  const bool ok = f.rank_known && f.dims.size() == 3;
  windowed(c, ok ? f.dims[0] : -1, ok ? f.dims[1] : -1, ok ? f.dims[2] : -1);
}

// Conv3D ([kd, kh, kw, in, out] filter), MaxPool3D, AvgPool3D: NDHWC.
void windowed3d(InferContext& c) {
  const PartialShape x = with_rank(c.shape(0), 5);
  std::optional<Window3DAttrs> a;
  try {
    a = window3d_attrs(c.node);
  } catch (const ModelError&) {
  }
  if (!x.rank_known || x.dims.size() != 5 || !a) {
    c.set(0, c.t(), PartialShape::unknown());
    return;
  }
  std::int64_t k[3] = {a->k_d, a->k_h, a->k_w}, channels = x.dims[4];
  if (!is_pool3d(c.node.op)) {
    const PartialShape f = with_rank(c.shape(1), 5);
    const bool ok = f.rank_known && f.dims.size() == 5;
    for (std::size_t i = 0; i < 3; ++i) k[i] = ok ? f.dims[i] : -1;
    channels = ok ? f.dims[4] : -1;
  }
  const std::int64_t stride[3] = {a->stride_d, a->stride_h, a->stride_w};
  const std::int64_t dil[3] = {a->dil_d, a->dil_h, a->dil_w};
  std::vector<std::int64_t> out{x.dims[0], -1, -1, -1, channels};
  for (std::size_t i = 0; i < 3; ++i)
    out[i + 1] = window_out(a->padding, x.dims[i + 1], k[i], stride[i], dil[i], 0, 0);
  c.set(0, c.t(), PartialShape::of(std::move(out)));
}

void conv2d_backprop_input(InferContext& c) {
  // Inputs: input_sizes, filter, out_backprop. The result is what input_sizes says.
  if (auto sizes = c.ints(0); sizes && sizes->size() == 4) {
    c.set(0, c.t(), PartialShape::of(*sizes));
    return;
  }
  const Layout l = layout_of(c);
  std::vector<std::int64_t> out(4, -1);
  const PartialShape dy = c.shape(2);
  if (dy.rank_known && dy.dims.size() == 4) out[0] = dy.dims[0];
  const PartialShape f = c.shape(1);
  if (f.rank_known && f.dims.size() == 4) out[static_cast<std::size_t>(l.ch())] = f.dims[2];
  c.set(0, c.t(), PartialShape::of(std::move(out)));
}

constexpr OpDef kOps[] = {
    {"AvgPool", pool, Family::Pooling},
    {"AvgPool3D", windowed3d, Family::Pooling},
    {"Conv1D", conv1d, Family::Conv},
    {"Conv2D", conv2d, Family::Conv},
    {"Conv2DBackpropInput", conv2d_backprop_input, Family::Conv},
    {"Conv3D", windowed3d, Family::Conv},
    {"DepthwiseConv2d", depthwise, Family::Conv},
    {"DepthwiseConv2dNative", depthwise, Family::Conv},
    {"Dilation2D", dilation2d, Family::Conv},
    {"FusedDepthwiseConv2dNative", depthwise, Family::Conv},
    {"MaxPool", pool, Family::Pooling},
    {"MaxPool3D", windowed3d, Family::Pooling},
    {"MaxPoolWithArgmax", pool_with_argmax, Family::Pooling},
    {"_FusedConv2D", conv2d, Family::Conv},
};

}  // namespace

std::span<const OpDef> conv_ops() {
  return kOps;
}

}  // namespace tfjsi::ops
