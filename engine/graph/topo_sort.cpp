// Kahn's algorithm, smallest original index first, so an already ordered graph keeps its order
// and the rest moves as little as it must.
#include <functional>
#include <queue>

#include "core/error.h"
#include "graph/build.h"

namespace tfjsi::graph {
namespace {

// A loop's back edge: the value for the next iteration, not something Merge waits for.
bool is_back_edge(const Node& src, const Node& dst) {
  return src.op == "NextIteration" && (dst.op == "Merge" || dst.op == "RefMerge");
}

}  // namespace

void sort_topologically(Graph& graph) {
  const std::size_t n = graph.nodes.size();
  std::vector<std::vector<int>> consumers(n), producers(n);
  std::vector<int> pending(n, 0);
  auto add_edge = [&](int src, std::size_t dst) {
    if (src < 0 || static_cast<std::size_t>(src) >= n)
      throw ModelError("node '" + graph.nodes[dst].name + "' (" + graph.nodes[dst].op +
                       ") refers to a node index out of range");
    if (is_back_edge(graph.nodes[static_cast<std::size_t>(src)], graph.nodes[dst])) return;
    consumers[static_cast<std::size_t>(src)].push_back(static_cast<int>(dst));
    producers[dst].push_back(src);
    ++pending[dst];
  };
  for (std::size_t i = 0; i < n; ++i) {
    for (const auto& in : graph.nodes[i].inputs) add_edge(in.node, i);
    for (int c : graph.nodes[i].control_inputs) add_edge(c, i);
  }

  std::priority_queue<int, std::vector<int>, std::greater<>> ready;
  for (std::size_t i = 0; i < n; ++i)
    if (pending[i] == 0) ready.push(static_cast<int>(i));
  std::vector<int> order;
  order.reserve(n);
  while (!ready.empty()) {
    const int v = ready.top();
    ready.pop();
    order.push_back(v);
    for (int c : consumers[static_cast<std::size_t>(v)])
      if (--pending[static_cast<std::size_t>(c)] == 0) ready.push(c);
  }

  if (order.size() != n) {
    // Walk back through unfinished producers from any stuck node; the walk must come back on
    // itself, and the node where it does lies on a cycle (not merely downstream of one).
    int v = -1;
    for (std::size_t i = 0; i < n && v < 0; ++i)
      if (pending[i] > 0) v = static_cast<int>(i);
    std::vector<bool> seen(n, false);
    while (!seen[static_cast<std::size_t>(v)]) {
      seen[static_cast<std::size_t>(v)] = true;
      for (int p : producers[static_cast<std::size_t>(v)]) {
        if (pending[static_cast<std::size_t>(p)] > 0) {
          v = p;
          break;
        }
      }
    }
    const Node& bad = graph.nodes[static_cast<std::size_t>(v)];
    throw ModelError("node '" + bad.name + "' (" + bad.op +
                     ") is on a cycle that is not a NextIteration -> Merge loop");
  }

  std::vector<int> new_index(n);
  for (std::size_t k = 0; k < n; ++k)
    new_index[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
  std::vector<Node> sorted;
  sorted.reserve(n);
  for (int v : order) sorted.push_back(std::move(graph.nodes[static_cast<std::size_t>(v)]));
  for (Node& node : sorted) {
    for (auto& in : node.inputs) in.node = new_index[static_cast<std::size_t>(in.node)];
    for (int& c : node.control_inputs) c = new_index[static_cast<std::size_t>(c)];
  }
  auto remap = [&](std::vector<Endpoint>& eps) {
    for (auto& e : eps)
      if (e.ref.node >= 0 && static_cast<std::size_t>(e.ref.node) < n)
        e.ref.node = new_index[static_cast<std::size_t>(e.ref.node)];
  };
  remap(graph.inputs);
  remap(graph.outputs);
  graph.nodes = std::move(sorted);
  graph.rebuild_index();
}

}  // namespace tfjsi::graph
