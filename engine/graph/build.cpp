#include "graph/build.h"

namespace tfjsi::graph {

Graph build_graph(const model::Bundle& bundle) {
  Graph graph =
      bundle.kind == model::ModelKind::Layers ? lower_keras(bundle) : import_graphdef(bundle);
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
