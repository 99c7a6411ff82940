#include "graph/build.h"

#include <string>

#include "core/error.h"
#include "model/limits.h"

namespace tfjsi::graph {

Graph build_graph(const model::Bundle& bundle) {
  Graph graph =
      bundle.kind == model::ModelKind::Layers ? lower_keras(bundle) : import_graphdef(bundle);
  // Library functions and the initializer count too: each is planned and shaped like the graph.
  std::size_t nodes = graph.nodes.size() + graph.initializer.size();
  for (const auto& [name, body] : graph.functions) nodes += body->nodes.size();
  if (nodes > model::kMaxNodes)
    throw ModelError(bundle.model_json.string() + ": the graph has " + std::to_string(nodes) +
                     " nodes, more than the limit of " + std::to_string(model::kMaxNodes) +
                     " (kMaxNodes)");
  sort_topologically(graph);
  infer_shapes(graph);

  for (auto& [name, body] : graph.functions) {
    Graph copy = *body;
    sort_topologically(copy);
    infer_shapes(copy);
    body = std::make_shared<const Graph>(std::move(copy));
  }
  if (!graph.initializer.empty()) {
    Graph init;
    init.nodes = std::move(graph.initializer);
    init.rebuild_index();
    infer_shapes(init);
    graph.initializer = std::move(init.nodes);
  }
  return graph;
}

}  // namespace tfjsi::graph
