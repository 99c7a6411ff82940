// The graph canvas's own colours (frames, edges, text, selection, overlays), named once. What
// a node's fill means lives with its colouring: op_family.cpp (the op's family) and
// node_colouring.cpp (backend, fp16 range, timing scales).
#pragma once

#include <cstdint>

namespace tfjsi::viewers::palette {

// 0xAABBGGRR, as ImGui's IM_COL32 packs it.
constexpr std::uint32_t rgba(int r, int g, int b, int a = 255) {
  return (static_cast<std::uint32_t>(a) << 24) | (static_cast<std::uint32_t>(b) << 16) |
         (static_cast<std::uint32_t>(g) << 8) | static_cast<std::uint32_t>(r);
}

// Text: dark ink on light fills, light ink on dark ones (titles, then subtitles).
inline constexpr std::uint32_t kInk = rgba(28, 32, 38);
inline constexpr std::uint32_t kInkSubtitle = rgba(56, 62, 72);
inline constexpr std::uint32_t kInkOnDark = rgba(250, 250, 250);
inline constexpr std::uint32_t kInkOnDarkSubtitle = rgba(235, 235, 235);
inline constexpr std::uint32_t kInkMuted = rgba(90, 96, 104);  // empty canvas, status line
inline constexpr std::uint32_t kInkField = rgba(20, 20, 20);   // find text, scale tick

// Open groups: a faint fill, a frame and a title.
inline constexpr std::uint32_t kClusterFill = rgba(40, 60, 90, 12);
inline constexpr std::uint32_t kClusterFrame = rgba(150, 160, 176);
inline constexpr std::uint32_t kClusterTitle = rgba(80, 90, 104);

inline constexpr std::uint32_t kEdge = rgba(110, 118, 130);
inline constexpr std::uint32_t kEdgeLabel = rgba(84, 94, 108);
// The selected box and the edges at it.
inline constexpr std::uint32_t kSelected = rgba(224, 58, 30);
inline constexpr std::uint32_t kFindMatch = rgba(240, 180, 0);

// Labels placed over the graph far out: a halo under each, item labels brighter than groups'.
inline constexpr std::uint32_t kItemLabelHalo = rgba(255, 255, 255, 225);
inline constexpr std::uint32_t kGroupLabelHalo = rgba(248, 249, 251, 215);
inline constexpr std::uint32_t kGroupLabelInk = rgba(70, 80, 96);
inline constexpr std::uint32_t kFarLabelHalo = rgba(255, 255, 255, 215);

// Overlays: the find field, the status line, the layout note, the colour scale's frame.
inline constexpr std::uint32_t kFieldFill = rgba(255, 255, 255);
inline constexpr std::uint32_t kFieldFrameActive = rgba(66, 150, 250);
inline constexpr std::uint32_t kFieldFrame = rgba(170, 176, 186);
inline constexpr std::uint32_t kFieldPlaceholder = rgba(150, 150, 150);
inline constexpr std::uint32_t kStatusFill = rgba(255, 255, 255, 220);
inline constexpr std::uint32_t kNoteFill = rgba(255, 243, 214, 235);
inline constexpr std::uint32_t kNoteInk = rgba(140, 80, 10);
inline constexpr std::uint32_t kScaleFrame = rgba(120, 120, 120);
inline constexpr std::uint32_t kBusyInk = rgba(191, 89, 13);  // "laying out..."

}  // namespace tfjsi::viewers::palette
