#include "ops/window.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "ops/attr.h"

namespace tfjsi::ops {

namespace {

// Strides, dilations, window sizes and pads above this are not models but hostile files: kernels
// refuse them (static shape inference, which refuses nothing, works with them as they are).
constexpr std::int64_t kMaxStep = std::int64_t{1} << 20;

void check_step(const graph::Node& node, std::string_view key, std::int64_t h, std::int64_t w) {
  if (h > kMaxStep || w > kMaxStep)
    graph::throw_attr_error(
        node, key,
        "holds " + std::to_string(std::max(h, w)) + ", more than " + std::to_string(kMaxStep));
}

[[noreturn]] void fail(const graph::Node& node, const std::string& what) {
  throw ModelError("node '" + node.name + "' (" + node.op + "): " + what);
}

// padding and data_format in any case, as TF.js reads them.
std::string upper_string(const graph::Node& node, std::string_view key, std::string fallback) {
  std::string s = attr<std::string>(node, key, std::move(fallback));
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// A per-dimension attribute (strides, dilations, ksize) as its height and width: 4 values in
// data_format's order, or 2. TF.js reads only the spatial entries, so the others are not checked,
// except where `unit_rest` asks for them to be 1 (ksize).
void read_hw(const graph::Node& node, std::string_view key, DataFormat format, bool unit_rest,
             std::int64_t& h, std::int64_t& w) {
  const Ints v = attr<Ints>(node, key, {1, 1, 1, 1});
  const bool nchw = format == DataFormat::Nchw;
  if (v.size() == 4) {
    h = v[nchw ? 2 : 1], w = v[nchw ? 3 : 2];
    if (unit_rest && (v[0] != 1 || v[nchw ? 1 : 3] != 1))
      graph::throw_attr_error(node, key,
                              nchw ? "must be [1, 1, h, w] (NCHW)" : "must be [1, h, w, 1]");
  } else if (v.size() == 2 && !unit_rest) {
    h = v[0], w = v[1];
  } else {
    graph::throw_attr_error(node, key, "must hold 4 values, not " + std::to_string(v.size()));
  }
  if (h < 1 || w < 1)
    graph::throw_attr_error(node, key, "must hold a height and width of 1 or more");
}

}  // namespace

bool is_pool(std::string_view op) {
  return op == "MaxPool" || op == "AvgPool" || op == "MaxPoolWithArgmax";
}

bool is_pool3d(std::string_view op) {
  return op == "MaxPool3D" || op == "AvgPool3D";
}

namespace {

// The names data_format takes for `op`: channels last, channels first.
std::pair<std::string, std::string> format_names(std::string_view op) {
  if (op == "Conv1D") return {"NWC", "NCW"};
  if (op == "Conv3D" || is_pool3d(op)) return {"NDHWC", "NCDHW"};
  return {"NHWC", "NCHW"};
}

}  // namespace

DataFormat data_format(const graph::Node& node) {
  const auto [last, first] = format_names(node.op);
  const std::string format = upper_string(node, "data_format", last);
  if (format == first) return DataFormat::Nchw;
  if (format != last)
    graph::throw_attr_error(node, "data_format",
                            "is '" + format + "', not " + last + " or " + first);
  return DataFormat::Nhwc;
}

std::optional<DataFormat> try_data_format(const graph::Node& node) {
  try {
    return data_format(node);
  } catch (const ModelError&) {
    return std::nullopt;
  }
}

namespace {

// SAME, VALID or (where `explicit_ok`) EXPLICIT, in any case.
Padding read_padding(const graph::Node& node, bool explicit_ok) {
  const std::string padding = upper_string(node, "padding", "VALID");
  if (padding == "SAME") return Padding::Same;
  if (padding == "VALID") return Padding::Valid;
  if (padding == "EXPLICIT") {
    if (!explicit_ok)
      graph::throw_attr_error(node, "padding",
                              "is EXPLICIT, which " + node.op + " does not take (nor TF.js)");
    return Padding::Explicit;
  }
  graph::throw_attr_error(node, "padding", "is '" + padding + "', not SAME, VALID or EXPLICIT");
}

// Conv1D's stride and dilation: one number each.
std::int64_t read_step(const graph::Node& node, std::string_view key, bool required) {
  const std::int64_t v =
      required ? attr<std::int64_t>(node, key) : attr<std::int64_t>(node, key, 1);
  if (v < 1) graph::throw_attr_error(node, key, "must be 1 or more, not " + std::to_string(v));
  return v;
}

}  // namespace

WindowAttrs window_attrs(const graph::Node& node) {
  WindowAttrs a;
  a.format = data_format(node);
  const bool nchw = a.format == DataFormat::Nchw;
  const bool pool = is_pool(node.op);
  // TF.js's conv1d is a conv2d over [batch, 1, width, channels].
  const bool conv1d = node.op == "Conv1D";
  const bool dilation2d = node.op == "Dilation2D";

  if (conv1d) {
    a.stride_w = read_step(node, "stride", true);
    a.dil_w = read_step(node, "dilation", false);
  } else {
    read_hw(node, "strides", a.format, false, a.stride_h, a.stride_w);
  }
  if (pool)
    read_hw(node, "ksize", a.format, true, a.k_h, a.k_w);
  else if (dilation2d)
    read_hw(node, "rates", a.format, false, a.dil_h, a.dil_w);
  else if (!conv1d && node.op != "Conv2DBackpropInput")  // TF.js's conv2dTranspose: no dilations
    read_hw(node, "dilations", a.format, false, a.dil_h, a.dil_w);

  a.padding = read_padding(node, !pool && !conv1d && !dilation2d);
  if (a.padding == Padding::Explicit) {
    const Ints p = attr<Ints>(node, "explicit_paddings", {});
    if (p.size() != 8)
      graph::throw_attr_error(
          node, "explicit_paddings",
          "must hold 8 values when padding is EXPLICIT, not " + std::to_string(p.size()));
    // Pairs (before, after) per dimension in data_format's order: only height and width pad.
    const std::size_t h = nchw ? 4 : 2, w = h + 2, c = nchw ? 2 : 6;
    if (p[0] || p[1] || p[c] || p[c + 1])
      graph::throw_attr_error(node, "explicit_paddings", "may pad only height and width");
    for (const std::int64_t v : p)
      if (v < 0) graph::throw_attr_error(node, "explicit_paddings", "must hold values >= 0");
    a.pad_top = p[h], a.pad_bottom = p[h + 1], a.pad_left = p[w], a.pad_right = p[w + 1];
  }
  return a;
}

std::int64_t output_size(Padding padding, std::int64_t in, std::int64_t eff_k, std::int64_t stride,
                         std::int64_t pad_before, std::int64_t pad_after) {
  switch (padding) {
    case Padding::Same:  // ceil(in / stride)
      return in / stride + (in % stride != 0 ? 1 : 0);
    case Padding::Valid:  // ceil((in - k + 1) / stride)
      return in < eff_k ? 0 : (in - eff_k) / stride + 1;
    case Padding::Explicit: {  // trunc((in - k + before + after) / stride + 1)
      const std::int64_t span = in + pad_before + pad_after - eff_k;
      return span < 0 ? 0 : span / stride + 1;
    }
  }
  return 0;
}

Window window(const graph::Node& node, const WindowAttrs& a, const Shape& input,
              const Shape& filter) {
  const bool conv1d = node.op == "Conv1D";
  const std::size_t rank = conv1d ? 3 : 4;
  if (input.size() != rank)
    fail(node, "the input must have rank " + std::to_string(rank) + ", not " +
                   std::to_string(input.size()));
  Window g;
  g.format = a.format, g.padding = a.padding;
  const bool nchw = a.format == DataFormat::Nchw;
  if (conv1d) {
    g.in_h = 1, g.in_w = input[nchw ? 2 : 1];
  } else {
    g.in_h = input[nchw ? 2 : 1], g.in_w = input[nchw ? 3 : 2];
  }
  if (g.in_h < 0 || g.in_w < 0)
    fail(node, "the input " + shape_to_string(input) + " is not a size");
  if (is_pool(node.op)) {
    g.k_h = a.k_h, g.k_w = a.k_w;
  } else {
    // Conv1D's filter is [kw, in, out], Dilation2D's [kh, kw, channels].
    const bool dilation2d = node.op == "Dilation2D";
    const std::size_t filter_rank = conv1d || dilation2d ? 3 : 4;
    if (filter.size() != filter_rank)
      fail(node, "the filter must have rank " + std::to_string(filter_rank) + ", not " +
                     std::to_string(filter.size()));
    if (conv1d)
      g.k_h = 1, g.k_w = filter[0];
    else
      g.k_h = filter[0], g.k_w = filter[1];
  }
  if (g.k_h < 1 || g.k_w < 1) fail(node, "the window " + shape_to_string(filter) + " is empty");
  if (is_pool(node.op)) check_step(node, "ksize", g.k_h, g.k_w);
  check_step(node, "strides", a.stride_h, a.stride_w);
  check_step(node, "dilations", a.dil_h, a.dil_w);
  check_step(node, "explicit_paddings", std::max(a.pad_top, a.pad_bottom),
             std::max(a.pad_left, a.pad_right));
  g.stride_h = a.stride_h, g.stride_w = a.stride_w;
  g.dil_h = a.dil_h, g.dil_w = a.dil_w;
  const std::int64_t ekh = g.eff_k_h(), ekw = g.eff_k_w();
  if (a.padding == Padding::Same) {
    g.out_h = output_size(Padding::Same, g.in_h, ekh, g.stride_h);
    g.out_w = output_size(Padding::Same, g.in_w, ekw, g.stride_w);
    const std::int64_t along_h =
        std::max<std::int64_t>(0, (g.out_h - 1) * g.stride_h + ekh - g.in_h);
    const std::int64_t along_w =
        std::max<std::int64_t>(0, (g.out_w - 1) * g.stride_w + ekw - g.in_w);
    g.pad_top = along_h / 2, g.pad_bottom = along_h - g.pad_top;
    g.pad_left = along_w / 2, g.pad_right = along_w - g.pad_left;
  } else {
    g.pad_top = a.pad_top, g.pad_bottom = a.pad_bottom;
    g.pad_left = a.pad_left, g.pad_right = a.pad_right;
    g.out_h = output_size(a.padding, g.in_h, ekh, g.stride_h, g.pad_top, g.pad_bottom);
    g.out_w = output_size(a.padding, g.in_w, ekw, g.stride_w, g.pad_left, g.pad_right);
  }
  return g;
}

Window window(const graph::Node& node, const Shape& input, const Shape& filter) {
  return window(node, window_attrs(node), input, filter);
}

std::optional<Window> try_window(const graph::Node& node, const Shape& input, const Shape& filter) {
  try {
    return window(node, input, filter);
  } catch (const ModelError&) {
    return std::nullopt;
  }
}

// ---- Conv3D, MaxPool3D, AvgPool3D ----

namespace {

// A per-dimension attribute of the 3D ops as its depth, height and width: 5 values in NDHWC order,
// or 3. As read_hw, `unit_rest` asks for the batch and channel entries to be 1 (ksize).
void read_dhw(const graph::Node& node, std::string_view key, bool unit_rest, std::int64_t& d,
              std::int64_t& h, std::int64_t& w) {
  const Ints v = attr<Ints>(node, key, {1, 1, 1, 1, 1});
  if (v.size() == 5) {
    d = v[1], h = v[2], w = v[3];
    if (unit_rest && (v[0] != 1 || v[4] != 1))
      graph::throw_attr_error(node, key, "must be [1, d, h, w, 1]");
  } else if (v.size() == 3 && !unit_rest) {
    d = v[0], h = v[1], w = v[2];
  } else {
    graph::throw_attr_error(node, key, "must hold 5 values, not " + std::to_string(v.size()));
  }
  if (d < 1 || h < 1 || w < 1)
    graph::throw_attr_error(node, key, "must hold a depth, height and width of 1 or more");
}

// One dimension of get3DPadAndOutInfo: the output size, and the pads SAME puts before and after
// (its total unclamped, TF.js's floor(total / 2) before).
std::int64_t dim3d(Padding padding, std::int64_t in, std::int64_t eff_k, std::int64_t stride,
                   std::int64_t& before, std::int64_t& after) {
  const std::int64_t out = output_size(padding, in, eff_k, stride);
  before = after = 0;
  if (padding == Padding::Same) {
    const std::int64_t total = (out - 1) * stride + eff_k - in;
    before = total >= 0 ? total / 2 : -((1 - total) / 2);  // Math.floor(total / 2)
    after = total - before;
  }
  return out;
}

}  // namespace

Window3DAttrs window3d_attrs(const graph::Node& node) {
  Window3DAttrs a;
  if (data_format(node) == DataFormat::Nchw)
    graph::throw_attr_error(node, "data_format", "is NCDHW: only NDHWC is supported (as in TF.js)");
  read_dhw(node, "strides", false, a.stride_d, a.stride_h, a.stride_w);
  if (is_pool3d(node.op))
    read_dhw(node, "ksize", true, a.k_d, a.k_h, a.k_w);
  else
    read_dhw(node, "dilations", false, a.dil_d, a.dil_h, a.dil_w);
  a.padding = read_padding(node, false);
  return a;
}

Window3D window3d(const graph::Node& node, const Shape& input, const Shape& filter) {
  const Window3DAttrs a = window3d_attrs(node);
  if (input.size() != 5)
    fail(node, "the input must have rank 5, not " + std::to_string(input.size()));
  Window3D g;
  g.padding = a.padding;
  g.in_d = input[1], g.in_h = input[2], g.in_w = input[3];
  if (g.in_d < 0 || g.in_h < 0 || g.in_w < 0)
    fail(node, "the input " + shape_to_string(input) + " is not a size");
  if (is_pool3d(node.op)) {
    g.k_d = a.k_d, g.k_h = a.k_h, g.k_w = a.k_w;
    check_step(node, "ksize", std::max(g.k_d, g.k_h), g.k_w);
  } else {
    if (filter.size() != 5)
      fail(node, "the filter must have rank 5, not " + std::to_string(filter.size()));
    g.k_d = filter[0], g.k_h = filter[1], g.k_w = filter[2];
  }
  if (g.k_d < 1 || g.k_h < 1 || g.k_w < 1)
    fail(node, "the window " + shape_to_string(filter) + " is empty");
  check_step(node, "strides", std::max(a.stride_d, a.stride_h), a.stride_w);
  check_step(node, "dilations", std::max(a.dil_d, a.dil_h), a.dil_w);
  g.stride_d = a.stride_d, g.stride_h = a.stride_h, g.stride_w = a.stride_w;
  g.dil_d = a.dil_d, g.dil_h = a.dil_h, g.dil_w = a.dil_w;
  g.out_d = dim3d(g.padding, g.in_d, g.eff_k_d(), g.stride_d, g.pad_front, g.pad_back);
  g.out_h = dim3d(g.padding, g.in_h, g.eff_k_h(), g.stride_h, g.pad_top, g.pad_bottom);
  g.out_w = dim3d(g.padding, g.in_w, g.eff_k_w(), g.stride_w, g.pad_left, g.pad_right);
  return g;
}

std::optional<Window3D> try_window3d(const graph::Node& node, const Shape& input,
                                     const Shape& filter) {
  try {
    return window3d(node, input, filter);
  } catch (const ModelError&) {
    return std::nullopt;
  }
}

}  // namespace tfjsi::ops
