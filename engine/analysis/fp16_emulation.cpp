#include "analysis/fp16_emulation.h"

#include <algorithm>

#include "graph/webgl_mark.h"
#include "ops/attr.h"
#include "ops/webgl_stages.h"
#include "runtime/engine.h"

namespace tfjsi::analysis {

HostTensor rounded_to_half(const HostTensor& t, HalfRule rule) {
  if (t.dtype != DType::Float32 || !t.buffer) return t;
  HostTensor out = HostTensor::zeros(DType::Float32, t.shape);
  const auto src = t.values<float>();
  auto dst = out.mutable_values<float>();
  for (std::size_t i = 0; i < src.size(); ++i) dst[i] = round_to_half(src[i], rule);
  return out;
}

namespace {

// The node's output as TF.js webgl stores it when it runs the op in stages; nullopt for other
// nodes.
std::optional<HostTensor> webgl_staged(const runtime::KernelEvent& event, HalfRule rule) {
  const graph::Node& n = event.node;
  runtime::Engine& e = event.engine;
  if (event.inputs.empty() || !e.alive(event.inputs[0]) ||
      e.dtype(event.inputs[0]) != DType::Float32)
    return std::nullopt;
  if (n.op == "Softmax") {
    const HostTensor x = e.read(event.inputs[0]);
    if (x.shape.empty() || x.shape.back() == 0) return std::nullopt;
    return ops::webgl_softmax(x, rule);
  }
  if ((n.op != "Mean" && n.op != "Sum") || event.inputs.size() != 2 || !e.alive(event.inputs[1]))
    return std::nullopt;
  const HostTensor x = e.read(event.inputs[0]);
  const HostTensor a = e.read(event.inputs[1]);
  const int rank = static_cast<int>(x.shape.size());
  std::vector<int> axes;
  auto add = [&](std::int64_t v) {
    const int axis = static_cast<int>(v < 0 ? v + rank : v);
    if (std::find(axes.begin(), axes.end(), axis) == axes.end()) axes.push_back(axis);
  };
  if (a.dtype != DType::Int32) return std::nullopt;
  for (std::int32_t v : a.values<std::int32_t>()) add(v);
  if (axes.empty()) return std::nullopt;
  for (int axis : axes)
    if (axis < 0 || axis >= rank || x.shape[static_cast<std::size_t>(axis)] == 0)
      return std::nullopt;
  return ops::webgl_staged_reduce(x, axes, n.op == "Mean", ops::attr<bool>(n, "keep_dims", false),
                                  rule);
}

}  // namespace

void Fp16StorageEmulation::after_kernel(runtime::KernelEvent& event) {
  // Control flow and TensorArray plumbing only forwards values that are already rounded.
  if (event.backend == "executor") return;
  const int id = ids_.id(event.node);
  if (id >= 0 && keep_.count(id)) return;
  const bool webgl = follow_ == runtime::Fp16Follow::Webgl;
  if (webgl && graph::webgl_in_kernel(event.node)) return;
  std::optional<HostTensor> staged;
  if (webgl && event.outputs.size() == 1) staged = webgl_staged(event, rule_);
  for (runtime::Tensor& t : event.outputs) {
    if (!event.engine.alive(t) || event.engine.dtype(t) != DType::Float32) continue;
    HostTensor rounded = staged && staged->shape == event.engine.shape(t)
                             ? std::move(*staged)
                             : rounded_to_half(event.engine.read(t), rule_);
    runtime::Tensor replacement = event.engine.make_tensor(rounded, event.node.name);
    event.engine.dispose(t);
    t = replacement;
  }
}

namespace {

// For each main-graph node, whether every consumer of it is in `keep`.
std::vector<bool> only_kept_consumers(const graph::Graph& graph,
                                      const std::unordered_set<int>& keep) {
  std::vector<int> consumers(graph.nodes.size(), 0), kept(graph.nodes.size(), 0);
  for (std::size_t i = 0; i < graph.nodes.size(); ++i)
    for (const graph::TensorRef& r : graph.nodes[i].inputs) {
      if (r.node < 0 || r.node >= static_cast<int>(graph.nodes.size())) continue;
      ++consumers[r.node];
      if (keep.count(static_cast<int>(i))) ++kept[r.node];
    }
  std::vector<bool> out(graph.nodes.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = consumers[i] > 0 && kept[i] == consumers[i];
  return out;
}

}  // namespace

graph::Graph graph_with_half_weights(const graph::Graph& graph, HalfRule rule,
                                     const std::unordered_set<int>& keep_fp32) {
  graph::Graph copy = graph;
  const auto kept = only_kept_consumers(graph, keep_fp32);
  for (std::size_t i = 0; i < copy.nodes.size(); ++i) {
    graph::Node& n = copy.nodes[i];
    if (n.op != "Const" || !n.value || kept[i]) continue;
    n.value = rounded_to_half(*n.value, rule);
  }
  copy.rebuild_index();
  return copy;
}

runtime::NamedTensors inputs_as_half(const graph::Graph& graph, const runtime::NamedTensors& inputs,
                                     HalfRule rule, const std::unordered_set<int>& keep_fp32) {
  const auto kept = only_kept_consumers(graph, keep_fp32);
  runtime::NamedTensors out;
  for (const auto& [name, value] : inputs) {
    bool keep = false;
    for (const graph::Endpoint& e : graph.inputs)
      if ((e.name == name || graph.nodes[e.ref.node].name == name) && kept[e.ref.node]) keep = true;
    out.emplace(name, keep ? value : rounded_to_half(value, rule));
  }
  return out;
}

}  // namespace tfjsi::analysis
