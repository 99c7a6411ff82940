// A model opened for inspection: its bundle, its graph, and what the shapes tell before any run.
// The one loading path the CLI and the GUI share; immutable once made.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>

#include <nlohmann/json.hpp>

#include "analysis/node_cost.h"
#include "graph/ir.h"
#include "model/bundle.h"

namespace tfjsi::analysis {

struct LoadedModel {
  model::Bundle bundle;
  std::shared_ptr<const graph::Graph> graph;
  // Filled when loading was asked to summarize (the GUI, `tfjsi info`): FLOPs and bytes per node
  // from the inferred shapes (node_cost.h; known is false where shapes are open until a run), and
  // summarize_model's JSON.
  GraphCost cost;
  nlohmann::json summary;
  double load_ms = 0;  // reading, decoding, building the graph (and summarizing)
};

enum class LoadStep { Reading, Building, Summarizing };

// Reads and builds the model; throws ModelError naming the file for a bad bundle. With
// `summarize`, a failing summary does not fail the load: the summary then holds the reason as its
// one warning (the graph is still worth showing). `on_step` hears each step as it starts.
LoadedModel load_model(const std::filesystem::path& path, bool summarize,
                       const std::function<void(LoadStep)>& on_step = {});

}  // namespace tfjsi::analysis
