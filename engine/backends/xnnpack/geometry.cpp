#include "backends/xnnpack/geometry.h"

#include <algorithm>
#include <vector>

#include "backends/xnnpack/native_op.h"

namespace tfjsi::xnnpack {

std::optional<std::pair<std::int64_t, std::int64_t>> hw_attr(const graph::Node& node,
                                                             const char* key) {
  const auto v = int_list_attr(node, key, {1, 1, 1, 1});
  if (!v) return std::nullopt;
  std::int64_t h = 0, w = 0;
  if (v->size() == 4) {
    if ((*v)[0] != 1 || (*v)[3] != 1) return std::nullopt;
    h = (*v)[1], w = (*v)[2];
  } else if (v->size() == 2) {
    h = (*v)[0], w = (*v)[1];
  } else {
    return std::nullopt;
  }
  if (h < 1 || w < 1 || h > (1 << 20) || w > (1 << 20)) return std::nullopt;
  return std::pair{h, w};
}

std::optional<Geometry> window_geometry(const graph::Node& node, std::int64_t in_h,
                                        std::int64_t in_w, std::int64_t k_h, std::int64_t k_w,
                                        const char* dilations_key, bool allow_explicit) {
  Geometry g;
  g.k_h = k_h, g.k_w = k_w;
  if (k_h < 1 || k_w < 1 || in_h < 1 || in_w < 1) return std::nullopt;
  const auto strides = hw_attr(node, "strides");
  if (!strides) return std::nullopt;
  std::tie(g.s_h, g.s_w) = *strides;
  if (dilations_key) {
    const auto dil = hw_attr(node, dilations_key);
    if (!dil) return std::nullopt;
    std::tie(g.d_h, g.d_w) = *dil;
  }
  const std::int64_t ek_h = (k_h - 1) * g.d_h + 1, ek_w = (k_w - 1) * g.d_w + 1;
  const auto padding = string_attr(node, "padding", "VALID");
  if (!padding) return std::nullopt;
  if (*padding == "SAME") {
    g.same = true;
    g.out_h = (in_h + g.s_h - 1) / g.s_h;
    g.out_w = (in_w + g.s_w - 1) / g.s_w;
    const std::int64_t along_h = std::max<std::int64_t>(0, (g.out_h - 1) * g.s_h + ek_h - in_h);
    const std::int64_t along_w = std::max<std::int64_t>(0, (g.out_w - 1) * g.s_w + ek_w - in_w);
    g.top = along_h / 2, g.bottom = along_h - g.top;
    g.left = along_w / 2, g.right = along_w - g.left;
  } else if (*padding == "VALID") {
    if (in_h < ek_h || in_w < ek_w) return std::nullopt;
    g.out_h = (in_h - ek_h) / g.s_h + 1;
    g.out_w = (in_w - ek_w) / g.s_w + 1;
  } else if (*padding == "EXPLICIT" && allow_explicit) {
    const auto p = int_list_attr(node, "explicit_paddings", {});
    if (!p || p->size() != 8) return std::nullopt;
    const auto& v = *p;
    if (v[0] || v[1] || v[6] || v[7]) return std::nullopt;
    for (auto x : v)
      if (x < 0 || x > (1 << 20)) return std::nullopt;
    g.top = v[2], g.bottom = v[3], g.left = v[4], g.right = v[5];
    const std::int64_t span_h = in_h + g.top + g.bottom - ek_h;
    const std::int64_t span_w = in_w + g.left + g.right - ek_w;
    if (span_h < 0 || span_w < 0) return std::nullopt;
    g.out_h = span_h / g.s_h + 1;
    g.out_w = span_w / g.s_w + 1;
  } else {
    return std::nullopt;
  }
  return g;
}

}  // namespace tfjsi::xnnpack
