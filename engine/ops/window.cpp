#include "ops/window.h"

#include <algorithm>
#include <cctype>
#include <string>
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
  return op == "MaxPool" || op == "AvgPool";
}

DataFormat data_format(const graph::Node& node) {
  const std::string format = upper_string(node, "data_format", "NHWC");
  if (format == "NCHW") return DataFormat::Nchw;
  if (format != "NHWC")
    graph::throw_attr_error(node, "data_format", "is '" + format + "', not NHWC or NCHW");
  return DataFormat::Nhwc;
}

std::optional<DataFormat> try_data_format(const graph::Node& node) {
  try {
    return data_format(node);
  } catch (const ModelError&) {
    return std::nullopt;
  }
}

WindowAttrs window_attrs(const graph::Node& node) {
  WindowAttrs a;
  a.format = data_format(node);
  const bool nchw = a.format == DataFormat::Nchw;
  const bool pool = is_pool(node.op);

  read_hw(node, "strides", a.format, false, a.stride_h, a.stride_w);
  if (pool)
    read_hw(node, "ksize", a.format, true, a.k_h, a.k_w);
  else if (node.op != "Conv2DBackpropInput")  // TF.js's conv2dTranspose has no dilations
    read_hw(node, "dilations", a.format, false, a.dil_h, a.dil_w);

  const std::string padding = upper_string(node, "padding", "VALID");
  if (padding == "SAME") {
    a.padding = Padding::Same;
  } else if (padding == "VALID") {
    a.padding = Padding::Valid;
  } else if (padding == "EXPLICIT") {
    if (pool)
      graph::throw_attr_error(node, "padding",
                              "is EXPLICIT, which pooling does not take (nor TF.js)");
    a.padding = Padding::Explicit;
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
  } else {
    graph::throw_attr_error(node, "padding", "is '" + padding + "', not SAME, VALID or EXPLICIT");
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
  if (input.size() != 4)
    fail(node, "the input must have rank 4, not " + std::to_string(input.size()));
  Window g;
  g.format = a.format, g.padding = a.padding;
  const bool nchw = a.format == DataFormat::Nchw;
  g.in_h = input[nchw ? 2 : 1], g.in_w = input[nchw ? 3 : 2];
  if (g.in_h < 0 || g.in_w < 0)
    fail(node, "the input " + shape_to_string(input) + " is not a size");
  if (is_pool(node.op)) {
    g.k_h = a.k_h, g.k_w = a.k_w;
  } else {
    if (filter.size() != 4)
      fail(node, "the filter must have rank 4, not " + std::to_string(filter.size()));
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

}  // namespace tfjsi::ops
