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

std::unique_ptr<Graph> with_static_inputs(const Graph& graph) {
  auto copy = std::make_unique<Graph>(graph);
  bool changed = false;
  for (const auto& e : graph.inputs) {
    if (e.ref.node < 0 || e.ref.node >= static_cast<int>(graph.nodes.size())) continue;
    Node& n = copy->nodes[e.ref.node];
    const AttrValue* a = n.attr("shape");
    const auto* s = a ? std::get_if<PartialShape>(a) : nullptr;
    if (n.op != "Placeholder" || !s || !s->rank_known || s->fully_known()) continue;
    PartialShape fixed = *s;
    for (auto& d : fixed.dims) d = d < 0 ? 1 : d;
    n.attrs["shape"] = fixed;
    changed = true;
  }
  if (!changed) return nullptr;
  infer_shapes(*copy);
  // Only the shapes are kept: weights stay the model's, and die with it.
  for (auto& n : copy->nodes) n.value.reset();
  for (auto& [name, f] : copy->functions) f.reset();
  return copy;
}

}  // namespace tfjsi::graph
