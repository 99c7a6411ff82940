// The graph's text and box sizes, shared by the canvas, the layout it asks for and the headless
// export, so that a graph drawn from the command line is laid out as the app lays it out.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "graph_layout.h"
#include "graph_scene.h"

struct ImFont;

namespace tfjsi::viewers {

inline constexpr float kTitleSize = 14.0f;
inline constexpr float kSubtitleSize = 11.5f;
inline constexpr float kClusterHeader = 18.0f;
inline constexpr float kClusterText = 12.0f;
inline constexpr float kMinTextPx = 8.0f;      // smaller text is not drawn
inline constexpr float kGroupLabelPx = 13.0f;  // group labels far out
inline constexpr int kCollapseBudget = 300;    // boxes shown at most when a model opens
inline constexpr float kFarLabelPx = 10.0f;    // short op labels, when titles are too small
inline constexpr float kFarLabelZoom = 0.1f;   // below it boxes go unlabelled
// The zoom a big graph opens at: every box's op and name, and open groups' titles, legible.
inline constexpr float kOpenZoom = 0.8f;

// 0xAABBGGRR colours.
std::uint32_t darker(std::uint32_t c, float f);
float luminance(std::uint32_t c);

// Each scene item's box for dot, measured with the canvas's fonts (a title line, a subtitle; a
// closed group's title as drawn, "+ " and its name).
std::vector<Vec2> measure_items(const Scene& scene, ImFont* regular, ImFont* bold);
// The width each open group's frame needs for its title ("- " and its name) on its title bar.
std::vector<float> measure_cluster_titles(const Scene& scene, ImFont* bold);

// An op's name shortened for a box seen from far ("DepthwiseConv2dNative" -> "DwConv",
// "_FusedConv2D" -> "Conv+", "AddV2" -> "Add"), as Netron labels boxes.
std::string short_op_label(std::string_view op);

}  // namespace tfjsi::viewers
