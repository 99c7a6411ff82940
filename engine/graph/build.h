// From a loaded bundle to the graph IR.
#pragma once

#include <memory>

#include <nlohmann/json.hpp>

#include "graph/ir.h"
#include "model/bundle.h"

namespace tfjsi::graph {

// The whole pipeline: GraphDef import (graph models) or Keras lowering (layers models), reference
// checks, topological order, static shapes. Throws ModelError naming the node at fault.
Graph build_graph(const model::Bundle& bundle);

// GraphDef JSON (`node`, `library`, `versions`) to IR nodes, weights attached to Const nodes.
// Endpoints come from `bundle.signature` when present.
Graph import_graphdef(const model::Bundle& bundle);

// Keras model_config (Sequential, functional Model, nested models) lowered to TF ops; every node
// keeps its layer's name as `group`.
Graph lower_keras(const model::Bundle& bundle);

// Puts `graph.nodes` in topological order and rebuilds the index. NextIteration -> Merge edges
// (loop back edges) are not dependencies. Throws ModelError naming a node on any other cycle.
void sort_topologically(Graph& graph);

// Fills Node::outputs for every node from input shapes, attributes and constant values, as far
// as they are known before running.
void infer_shapes(Graph& graph);

// A copy of `graph` (weights and functions left out) whose inputs' unknown dims are 1, as tfjsi
// feeds them by default, with shapes inferred again; nullptr when every input's shape is known.
std::unique_ptr<Graph> with_static_inputs(const Graph& graph);

}  // namespace tfjsi::graph
