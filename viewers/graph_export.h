// The graph of a model drawn to a file without a window or GL: laid out as the canvas lays it out
// when the model opens (groups closed past a budget of boxes, Const nodes hidden), with the
// canvas's fonts, then written as PNG or SVG by the file's extension. `tfjs-inspector
// --export-graph` uses it, so graphs can be drawn from scripts and docs.
#pragma once

#include <QString>
#include <filesystem>

#include "graph/ir.h"

namespace tfjsi::viewers {

// Whether `file` names a format export_graph writes (.png or .svg, any case).
bool is_graph_export_file(const std::filesystem::path& file);

// Returns a note for the user (the PNG's scale when the graph is big), or empty. Throws
// std::invalid_argument for another extension, std::runtime_error when the layout fails, the
// graph is too big for a PNG, or the file cannot be written.
QString export_graph(const graph::Graph& graph, const std::filesystem::path& file);

}  // namespace tfjsi::viewers
