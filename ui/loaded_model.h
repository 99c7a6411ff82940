// A model as the GUI sees it once loaded: the bundle, its graph and the summary, immutable and
// shared between the controller (worker thread) and the widgets (UI thread).
#pragma once

#include <QMetaType>
#include <memory>
#include <nlohmann/json.hpp>

#include "analysis/node_cost.h"
#include "graph/ir.h"
#include "model/bundle.h"

namespace tfjsi::ui {

struct LoadedModel {
  model::Bundle bundle;
  std::shared_ptr<const graph::Graph> graph;
  nlohmann::json summary;  // analysis::summarize_model
  // FLOPs and bytes per node from the inferred shapes (analysis/node_cost.h), by node index;
  // known is false where shapes are open until a run.
  analysis::GraphCost cost;
  double load_ms = 0;
};

using LoadedModelPtr = std::shared_ptr<const LoadedModel>;

}  // namespace tfjsi::ui

Q_DECLARE_METATYPE(tfjsi::ui::LoadedModelPtr)
