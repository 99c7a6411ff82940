// What a model holds, in numbers: the content of `tfjsi info` and of the GUI's model page.
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/node_cost.h"
#include "graph/ir.h"
#include "model/bundle.h"

namespace tfjsi::analysis {

// format, kind, producer, inputs and outputs, node count, op histogram, weights (count, bytes on
// disk, bytes decoded, by dtype and by quantization), shards, metadata and load warnings.
nlohmann::json summarize_model(const model::Bundle& bundle, const graph::Graph& graph);
// The same with the graph's cost already counted (analysis::graph_cost), for callers that keep it.
nlohmann::json summarize_model(const model::Bundle& bundle, const graph::Graph& graph,
                               const GraphCost& cost);

// FLOPs and bytes from the inferred shapes (analysis/node_cost.h): totals, the nodes whose shapes
// are open, the ten costliest node names and every counted node. summarize_model's "cost".
nlohmann::json summarize_cost(const graph::Graph& graph, const GraphCost& cost);

}  // namespace tfjsi::analysis
