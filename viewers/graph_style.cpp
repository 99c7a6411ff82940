#include "graph_style.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>

namespace tfjsi::viewers {

std::uint32_t darker(std::uint32_t c, float f) {
  auto ch = [&](int shift) {
    return static_cast<std::uint32_t>(static_cast<float>((c >> shift) & 0xFF) * f) << shift;
  };
  return (c & 0xFF000000u) | ch(0) | ch(8) | ch(16);
}

float luminance(std::uint32_t c) {
  const float r = static_cast<float>(c & 0xFF), g = static_cast<float>((c >> 8) & 0xFF),
              b = static_cast<float>((c >> 16) & 0xFF);
  return (0.299f * r + 0.587f * g + 0.114f * b) / 255.0f;
}

std::vector<Vec2> measure_items(const Scene& scene, ImFont* regular, ImFont* bold) {
  std::vector<Vec2> sizes;
  sizes.reserve(scene.items.size());
  for (const auto& it : scene.items) {
    const std::string title = it.is_group ? "+ " + it.title : it.title;
    float w1 = bold->CalcTextSizeA(kTitleSize, FLT_MAX, 0, title.c_str()).x;
    float w2 = regular->CalcTextSizeA(kSubtitleSize, FLT_MAX, 0, it.subtitle.c_str()).x;
    float w = std::max({w1, w2, 40.0f}) + 18.0f;
    sizes.push_back({w, it.is_group ? 42.0f : 38.0f});
  }
  return sizes;
}

std::vector<float> measure_cluster_titles(const Scene& scene, ImFont* bold) {
  std::vector<float> widths;
  widths.reserve(scene.clusters.size());
  for (const auto& c : scene.clusters) {
    const std::string title = "- " + c.label;
    // Drawn 6 points in from the frame's left edge; as much room on the right.
    widths.push_back(bold->CalcTextSizeA(kClusterText, FLT_MAX, 0, title.c_str()).x + 12.0f);
  }
  return widths;
}

std::string short_op_label(std::string_view op) {
  std::string s(op);
  bool fused = false;
  for (std::string_view prefix : {"_Fused", "Fused", "_"})
    if (s.starts_with(prefix)) {
      fused = fused || prefix != "_";
      s.erase(0, prefix.size());
    }
  auto replace = [&](std::string_view from, std::string_view to) {
    if (auto at = s.find(from); at != std::string::npos) s.replace(at, from.size(), to);
  };
  replace("DepthwiseConv2dNative", "DwConv");
  replace("DepthwiseConv2d", "DwConv");
  replace("Conv2DBackpropInput", "Deconv");
  replace("Conv2D", "Conv");
  replace("Conv2d", "Conv");
  replace("ResizeBilinear", "Resize");
  replace("ResizeNearestNeighbor", "ResizeNN");
  replace("StridedSlice", "Slice");
  replace("BatchMatMul", "MatMul");
  replace("Placeholder", "Input");
  for (std::string_view suffix : {"V2", "V3", "V4", "V5"})
    if (s.size() > suffix.size() && s.ends_with(suffix)) s.erase(s.size() - suffix.size());
  if (s.size() > 10) s = s.substr(0, 9) + ".";
  if (fused) s += "+";
  return s;
}

}  // namespace tfjsi::viewers
