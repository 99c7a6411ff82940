#include "backends/cpu/window.h"

#include <algorithm>
#include <string>
#include <vector>

#include "backends/cpu/nn_util.h"

namespace tfjsi::cpu {

namespace {

// A [1, h, w, 1] attribute (strides, dilations, ksize) as its h and w; a 2-list is taken as is.
void read_hw(const graph::Node& node, const char* key, std::int64_t& h, std::int64_t& w) {
  const std::vector<std::int64_t> v = nn::int_list_attr(node, key, {1, 1, 1, 1});
  if (v.size() == 4) {
    h = v[1], w = v[2];
  } else if (v.size() == 2) {
    h = v[0], w = v[1];
  } else {
    nn::fail(node, std::string("attribute '") + key + "' must have 4 values");
  }
  if (h < 1 || w < 1 || h > (1 << 20) || w > (1 << 20))
    nn::fail(node, std::string("attribute '") + key + "' must hold positive values");
}

}  // namespace

Window make_window(const graph::Node& node, std::int64_t batch, std::int64_t in_h,
                   std::int64_t in_w, std::int64_t k_h, std::int64_t k_w,
                   const char* dilations_key) {
  Window g;
  g.batch = batch, g.in_h = in_h, g.in_w = in_w, g.k_h = k_h, g.k_w = k_w;
  if (k_h < 1 || k_w < 1) nn::fail(node, "the window is empty");
  read_hw(node, "strides", g.stride_h, g.stride_w);
  if (dilations_key) read_hw(node, dilations_key, g.dil_h, g.dil_w);
  const std::int64_t ekh = g.eff_k_h(), ekw = g.eff_k_w();

  const std::string padding = nn::string_attr(node, "padding", "VALID");
  if (padding == "SAME") {
    g.out_h = (in_h + g.stride_h - 1) / g.stride_h;
    g.out_w = (in_w + g.stride_w - 1) / g.stride_w;
    const std::int64_t along_h = std::max<std::int64_t>(0, (g.out_h - 1) * g.stride_h + ekh - in_h);
    const std::int64_t along_w = std::max<std::int64_t>(0, (g.out_w - 1) * g.stride_w + ekw - in_w);
    g.pad_top = along_h / 2, g.pad_bottom = along_h - g.pad_top;
    g.pad_left = along_w / 2, g.pad_right = along_w - g.pad_left;
  } else if (padding == "VALID") {
    g.out_h = std::max<std::int64_t>(0, (in_h - ekh + g.stride_h) / g.stride_h);
    g.out_w = std::max<std::int64_t>(0, (in_w - ekw + g.stride_w) / g.stride_w);
  } else if (padding == "EXPLICIT") {
    const std::vector<std::int64_t> p = nn::int_list_attr(node, "explicit_paddings");
    if (p.size() != 8)
      nn::fail(node, "padding is EXPLICIT but explicit_paddings does not hold 8 values");
    if (p[0] || p[1] || p[6] || p[7])
      nn::fail(node, "explicit_paddings may pad only height and width");
    for (auto v : p)
      if (v < 0 || v > (1 << 20)) nn::fail(node, "explicit_paddings must hold small values >= 0");
    g.pad_top = p[2], g.pad_bottom = p[3], g.pad_left = p[4], g.pad_right = p[5];
    // TF.js truncates (in - k + pads) / stride + 1 toward zero.
    const std::int64_t span_h = in_h - ekh + g.pad_top + g.pad_bottom;
    const std::int64_t span_w = in_w - ekw + g.pad_left + g.pad_right;
    g.out_h = span_h < 0 ? 0 : span_h / g.stride_h + 1;
    g.out_w = span_w < 0 ? 0 : span_w / g.stride_w + 1;
  } else {
    nn::fail(node, "padding '" + padding + "' is not SAME, VALID or EXPLICIT");
  }
  return g;
}

}  // namespace tfjsi::cpu
