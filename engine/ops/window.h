// The sliding window of convolutions and pooling: kernel, strides, dilations, padding and output
// size, read from a node's attributes once and computed the way TF.js's conv_util does. Window:
// Conv2D, Conv1D (a Conv2D of height 1, as TF.js runs it), DepthwiseConv2dNative (and
// DepthwiseConv2d) and the fused forms, Dilation2D, MaxPool, AvgPool, MaxPoolWithArgmax,
// Conv2DBackpropInput (computeConv2DInfo, computePool2DInfo, computeDilation2DInfo). Window3D:
// Conv3D, MaxPool3D, AvgPool3D (computeConv3DInfo, computePool3DInfo). Every backend and the
// static shape rules use them.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/shape.h"
#include "graph/ir.h"

namespace tfjsi::ops {

enum class Padding { Same, Valid, Explicit };
// Channels last (NHWC; Conv1D's NWC, the 3D ops' NDHWC) or first (NCHW, NCW, NCDHW).
enum class DataFormat { Nhwc, Nchw };

// What a node's attributes say about its window before sizes are known.
struct WindowAttrs {
  DataFormat format = DataFormat::Nhwc;
  Padding padding = Padding::Valid;
  // Pools: their ksize. Convolutions: 0, the filter gives the kernel.
  std::int64_t k_h = 0, k_w = 0;
  std::int64_t stride_h = 1, stride_w = 1;  // Conv1D: stride_h 1, stride_w its stride
  // 1 for pools and Conv2DBackpropInput, as in TF.js; Conv1D's dilation is dil_w, Dilation2D's
  // rates are these.
  std::int64_t dil_h = 1, dil_w = 1;
  // EXPLICIT only (explicit_paddings); SAME's are worked out by window().
  std::int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
};

struct Window {
  DataFormat format = DataFormat::Nhwc;
  Padding padding = Padding::Valid;  // as given: with SAME a backend may work out pads itself
  std::int64_t in_h = 0, in_w = 0;
  std::int64_t k_h = 1, k_w = 1;  // before dilation
  std::int64_t stride_h = 1, stride_w = 1;
  std::int64_t dil_h = 1, dil_w = 1;
  // The pads in effect, SAME's included: TF puts SAME's odd pixel at the bottom and right.
  std::int64_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  std::int64_t out_h = 0, out_w = 0;

  std::int64_t eff_k_h() const { return (k_h - 1) * dil_h + 1; }
  std::int64_t eff_k_w() const { return (k_w - 1) * dil_w + 1; }
};

// data_format as TF.js reads it (in any case; channels last when absent). Throws ModelError naming
// the node and the attribute for anything but NHWC and NCHW (Conv1D: NWC and NCW; Conv3D,
// MaxPool3D, AvgPool3D: NDHWC and NCDHW).
DataFormat data_format(const graph::Node& node);
// nullopt instead of the exception, for checks that only decide where a node runs.
std::optional<DataFormat> try_data_format(const graph::Node& node);

// MaxPool, AvgPool and MaxPoolWithArgmax: the kernel is the node's ksize, there are no
// dilations, no EXPLICIT.
bool is_pool(std::string_view op);
// MaxPool3D and AvgPool3D.
bool is_pool3d(std::string_view op);

// Reads data_format, padding, strides, dilations, explicit_paddings and (pools) ksize, accepting
// the forms model.json gives (4 values in data_format's order, or 2 for height and width; padding
// and data_format in any case, as TF.js reads them). Throws ModelError naming the node and the
// attribute.
WindowAttrs window_attrs(const graph::Node& node);

// One spatial output size of TF.js's getPadAndOutInfo for an input of `in`, an effective
// (dilated) kernel of `eff_k`, and, for EXPLICIT, the pads on both sides (trunc rounding, TF.js's
// default). A window that does not fit gives 0 (TF.js would make a negative size).
std::int64_t output_size(Padding padding, std::int64_t in, std::int64_t eff_k, std::int64_t stride,
                         std::int64_t pad_before = 0, std::int64_t pad_after = 0);

// The window of `node` over an input of shape `input` (rank 4, in data_format's order; for
// Conv2DBackpropInput its input_sizes; Conv1D: rank 3, NWC) and, for convolutions, a filter of
// shape `filter` ([kh, kw, in, out], as TF stores it; Conv1D [kw, in, out]; Dilation2D
// [kh, kw, channels]; ignored for pools). Throws ModelError naming the node.
Window window(const graph::Node& node, const Shape& input, const Shape& filter = {});
// The same from attributes already read.
Window window(const graph::Node& node, const WindowAttrs& attrs, const Shape& input,
              const Shape& filter = {});
// nullopt instead of an exception, for checks that only decide where a node runs.
std::optional<Window> try_window(const graph::Node& node, const Shape& input,
                                 const Shape& filter = {});

// ---- Conv3D, MaxPool3D, AvgPool3D ----

struct Window3DAttrs {
  Padding padding = Padding::Valid;        // SAME or VALID: TF.js takes no other here
  std::int64_t k_d = 0, k_h = 0, k_w = 0;  // pools: their ksize; Conv3D: 0, the filter gives it
  std::int64_t stride_d = 1, stride_h = 1, stride_w = 1;
  std::int64_t dil_d = 1, dil_h = 1, dil_w = 1;  // 1 for pools
};

struct Window3D {
  Padding padding = Padding::Valid;
  std::int64_t in_d = 0, in_h = 0, in_w = 0;
  std::int64_t k_d = 1, k_h = 1, k_w = 1;  // before dilation
  std::int64_t stride_d = 1, stride_h = 1, stride_w = 1;
  std::int64_t dil_d = 1, dil_h = 1, dil_w = 1;
  // The pads in effect. TF.js's SAME (get3DPadAndOutInfo) does not clamp the total at 0 as TF
  // and the 2D window do: a window smaller than its stride gets a negative pad before (the
  // windows start later), which these keep.
  std::int64_t pad_front = 0, pad_back = 0, pad_top = 0, pad_bottom = 0, pad_left = 0,
               pad_right = 0;
  std::int64_t out_d = 0, out_h = 0, out_w = 0;

  std::int64_t eff_k_d() const { return (k_d - 1) * dil_d + 1; }
  std::int64_t eff_k_h() const { return (k_h - 1) * dil_h + 1; }
  std::int64_t eff_k_w() const { return (k_w - 1) * dil_w + 1; }
};

// Reads padding, strides, dilations and (pools) ksize: 5 values in NDHWC order (or 3 for depth,
// height and width). Throws ModelError naming the node and the attribute; NCDHW is refused
// (TF.js's conv3d and pools take only NDHWC).
Window3DAttrs window3d_attrs(const graph::Node& node);
// The window of `node` over an input of shape `input` ([n, d, h, w, c]) and, for Conv3D, a filter
// of shape `filter` ([kd, kh, kw, in, out]). Throws ModelError naming the node.
Window3D window3d(const graph::Node& node, const Shape& input, const Shape& filter = {});
// nullopt instead of an exception, for checks that only decide where a node runs.
std::optional<Window3D> try_window3d(const graph::Node& node, const Shape& input,
                                     const Shape& filter = {});

}  // namespace tfjsi::ops
