#include "analysis/nonfinite_origin.h"

#include <cmath>

#include "analysis/node_trace.h"

namespace tfjsi::analysis {

bool holds_nonfinite(const HostTensor& t, bool nan) {
  if ((t.dtype != DType::Float32 && t.dtype != DType::Complex64) || !t.buffer) return false;
  for (float v : t.float_parts())  // complex64: either part
    if (nan ? std::isnan(v) : std::isinf(v)) return true;
  return false;
}

std::string NonfiniteOrigin::message() const {
  std::string s = value + " first appears at node '" + node + "' (" + op + ")";
  if (!weight.empty()) s += ", which reads weight '" + weight + "' holding inf or NaN";
  if (!input.empty()) s += "; model input '" + input + "' holds inf or NaN";
  return s;
}

std::optional<NonfiniteOrigin> find_nonfinite_origin(runtime::Engine& engine,
                                                     const graph::Graph& graph,
                                                     const runtime::NamedTensors& inputs,
                                                     bool nan) {
  const NodeIds ids(graph);
  std::optional<int> first;
  NodeTap tap(ids, [&](NodeRun&& r) {
    if (first) return;
    for (const auto& out : r.outputs)
      if (out && holds_nonfinite(*out, nan)) {
        first = r.id;
        return;
      }
  });
  {
    ScopedObserver watch(engine, tap);
    runtime::Executor(engine, graph).run(inputs);
  }
  if (!first) return std::nullopt;
  NonfiniteOrigin o;
  o.value = nan ? "NaN" : "inf";
  o.node = ids.name(*first);
  const graph::Node& n = ids.node(*first);
  o.op = n.op;
  // A weight feeding it that is itself not finite (stored -inf is legitimate in some models: a
  // mask or padding value; it is named so the user can judge).
  if (*first < ids.main_size())
    for (const auto& in : n.inputs) {
      if (in.node < 0 || static_cast<std::size_t>(in.node) >= graph.nodes.size()) continue;
      const graph::Node& src = graph.nodes[static_cast<std::size_t>(in.node)];
      if (src.op == "Const" && src.value &&
          (holds_nonfinite(*src.value, true) || holds_nonfinite(*src.value, false))) {
        o.weight = src.name;
        break;
      }
    }
  for (const auto& [name, t] : inputs)
    if (holds_nonfinite(t, true) || holds_nonfinite(t, false)) {
      o.input = name;
      break;
    }
  return o;
}

}  // namespace tfjsi::analysis
