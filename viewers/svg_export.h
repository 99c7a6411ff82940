// Writes the graph view's current layout as an SVG file: the same boxes, colours, splines and
// labels the canvas draws, so a user gets a vector copy of what they see.
#pragma once

#include <filesystem>
#include <vector>

#include "graph_layout.h"
#include "graph_scene.h"
#include "node_colouring.h"

namespace tfjsi::viewers {

// What the canvas fills its boxes with and explains in its legend (GraphView's colouring).
struct SvgColouring {
  const NodeColouring& colouring;
  const std::vector<std::vector<FillBand>>& fills;  // per scene item; empty: the item's colour
  int graph_nodes = 0;                              // for the legend's "none" count
};

// Throws std::runtime_error naming the file when it cannot be written. With `colouring`, boxes
// take its fills (mixed groups as bands, as on the canvas) and a legend is drawn right of the
// graph; without, the op-family colours and legend.
void write_svg(const std::filesystem::path& file, const Scene& scene, const Layout& layout,
               int selected_item, const SvgColouring* colouring = nullptr);

}  // namespace tfjsi::viewers
