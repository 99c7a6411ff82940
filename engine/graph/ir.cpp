#include "graph/ir.h"

#include "core/error.h"

namespace tfjsi::graph {

const AttrValue* Node::attr(std::string_view key) const {
  auto it = attrs.find(key);
  return it == attrs.end() ? nullptr : &it->second;
}

int Graph::find(std::string_view name) const {
  auto it = index_.find(std::string(name));
  return it == index_.end() ? -1 : it->second;
}

void Graph::rebuild_index() {
  index_.clear();
  index_.reserve(nodes.size());
  // The first node of a name wins, so a duplicate never shadows the one the importer checked.
  for (std::size_t i = 0; i < nodes.size(); ++i) index_.emplace(nodes[i].name, static_cast<int>(i));
}

bool is_tf1_control_flow(std::string_view op) {
  return op == "Switch" || op == "Merge" || op == "Enter" || op == "Exit" ||
         op == "NextIteration" || op == "LoopCond";
}

void throw_attr_error(const Node& node, std::string_view key, std::string_view what) {
  throw ModelError("node '" + node.name + "' (" + node.op + "): attribute '" + std::string(key) +
                   "' " + std::string(what));
}

}  // namespace tfjsi::graph
