// Draws the whole graph into an image off screen, as the SVG export draws it (boxes, colours,
// splines, labels, the legend right of the graph) and without anything of the canvas's overlays
// (find toolbar, status line): File > Export PNG and `tfjs-inspector --export-graph`.
#pragma once

#include <QImage>
#include <QString>
#include <filesystem>

#include "graph_layout.h"
#include "graph_scene.h"
#include "svg_export.h"

namespace tfjsi::viewers {

struct PngLimits {
  float scale = 1.5f;      // pixels per layout point: 11-point titles become 16 px
  float min_scale = 0.5f;  // below it labels are no longer readable: refuse instead
  int max_side = 16384;    // pixels, either side
  double max_pixels = 48e6;
};

struct PngPicture {
  QImage image;
  float scale = 1;  // what was used: below PngLimits::scale when the graph is big
  QString note;     // says so, for the status line; empty at the full scale
};

// Throws std::runtime_error when even min_scale would exceed the limits (the message says how
// big the graph is and what to do instead).
PngPicture render_png(const Scene& scene, const Layout& layout, int selected_item,
                      const SvgColouring* colouring, const PngLimits& limits = {});
// render_png, then saved; throws std::runtime_error naming the file when it cannot be written.
PngPicture write_png(const std::filesystem::path& file, const Scene& scene, const Layout& layout,
                     int selected_item, const SvgColouring* colouring,
                     const PngLimits& limits = {});

}  // namespace tfjsi::viewers
