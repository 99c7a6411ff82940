// Loading the MODEL argument the way every command does.
#pragma once

#include <string>

#include "graph/ir.h"
#include "model/bundle.h"

namespace tfjsi::cli {

struct LoadedModel {
  model::Bundle bundle;
  graph::Graph graph;
  double load_ms = 0;  // reading, decoding and building the graph
};

// Loads and builds the model; prints the bundle's warnings to stderr.
LoadedModel load_model(const std::string& path);

}  // namespace tfjsi::cli
