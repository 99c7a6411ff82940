#include "analysis/node_trace.h"

#include "runtime/engine.h"

namespace tfjsi::analysis {

NodeIds::NodeIds(const graph::Graph& graph) {
  main_size_ = static_cast<int>(graph.nodes.size());
  add_graph(graph, "");
}

void NodeIds::add_graph(const graph::Graph& g, const std::string& prefix) {
  for (const graph::Node& n : g.nodes) {
    ids_.emplace(&n, static_cast<int>(nodes_.size()));
    nodes_.push_back(&n);
    names_.push_back(prefix + n.name);
  }
  // Bodies reached twice (shared by two callers) get their ids once.
  for (const auto& [name, body] : g.functions)
    if (body && !ids_.count(body->nodes.empty() ? nullptr : &body->nodes.front()))
      add_graph(*body, prefix + name + "/");
}

void NodeIds::alias(const graph::Graph& copy) {
  // Overwrites: an earlier copy, since destroyed, may have had its nodes at these addresses.
  for (std::size_t i = 0; i < copy.nodes.size() && i < static_cast<std::size_t>(main_size_); ++i)
    ids_.insert_or_assign(&copy.nodes[i], static_cast<int>(i));
}

int NodeIds::id(const graph::Node& node) const {
  auto it = ids_.find(&node);
  return it == ids_.end() ? -1 : it->second;
}

namespace {
std::optional<HostTensor> value_of(runtime::Engine& engine, const runtime::Tensor& t) {
  if (!engine.alive(t)) return std::nullopt;
  if (engine.dtype(t) == DType::String) return std::nullopt;
  return engine.read(t);
}
}  // namespace

void NodeTap::after_kernel(runtime::KernelEvent& event) {
  NodeRun r;
  r.id = ids_.id(event.node);
  if (r.id < 0) return;
  r.occurrence = occurrences_[r.id]++;
  r.backend = std::string(event.backend);
  for (const runtime::Tensor& t : event.outputs) r.outputs.push_back(value_of(event.engine, t));
  if (with_inputs_)
    for (const runtime::Tensor& t : event.inputs) r.inputs.push_back(value_of(event.engine, t));
  callback_(std::move(r));
}

ScopedObserver::ScopedObserver(runtime::Engine& engine, runtime::Observer& o)
    : engine_(engine), observer_(o) {
  engine_.add_observer(&observer_);
}

ScopedObserver::~ScopedObserver() {
  engine_.remove_observer(&observer_);
}

}  // namespace tfjsi::analysis
