// Writes the graph view's current layout as an SVG file: the same boxes, colours, splines and
// labels the canvas draws, so a user gets a vector copy of what they see.
#pragma once

#include <filesystem>

#include "graph_layout.h"
#include "graph_scene.h"

namespace tfjsi::viewers {

// Throws std::runtime_error naming the file when it cannot be written.
void write_svg(const std::filesystem::path& file, const Scene& scene, const Layout& layout,
               int selected_item);

}  // namespace tfjsi::viewers
