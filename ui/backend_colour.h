// The colour of each backend in the panels: the same as the graph's backend colouring
// (viewers/node_colouring.cpp), so that gl is green, xnnpack blue and cpu orange everywhere.
#pragma once

#include <QColor>
#include <string_view>

namespace tfjsi::ui {

inline QColor backend_colour(std::string_view backend) {
  if (backend == "gl") return {120, 190, 110};
  if (backend == "xnnpack") return {110, 160, 230};
  if (backend == "cpu") return {240, 160, 80};
  return {150, 150, 150};
}

}  // namespace tfjsi::ui
