// The legend of an exported graph (SVG and PNG alike): what the colours mean, as the canvas's
// legend says it, laid out as a box right of the graph so that it never covers a node.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "svg_export.h"

namespace tfjsi::viewers {

inline constexpr float kLegendWidth = 200;
inline constexpr float kLegendRow = 16;

// A swatch and its label (the value scale draws a bar instead, above the rows).
struct LegendRow {
  std::uint32_t color;
  std::string label;
};

struct Legend {
  std::string title;
  std::vector<LegendRow> rows;
  bool scale = false;  // a value scale: a colour bar from min to max above the rows
  std::string scale_low, scale_high, scale_note;
};

// Without a colouring (or in op-family mode), the op families.
Legend make_legend(const SvgColouring* colouring);
float legend_height(const Legend& l);

}  // namespace tfjsi::viewers
