// Static shape inference: one pass in topological order, repeated while loop back edges
// (NextIteration -> Merge) still widen what a Merge can see.
#include <algorithm>

#include "graph/build.h"
#include "ops/attr.h"
#include "ops/op_def.h"
#include "ops/shape_context.h"

namespace tfjsi::graph {
namespace {

using ops::InferContext;
using ops::KnownValue;

// Ops no rule knows: one output of attribute T's (or dtype's) type, shape unknown.
void unknown_op(InferContext& c) {
  auto d = ops::try_attr<DType>(c.node, "T");
  if (!d) d = ops::try_attr<DType>(c.node, "dtype");
  c.set(0, d, PartialShape::unknown());
}

bool same_info(const TensorInfo& a, const TensorInfo& b) {
  return a.dtype == b.dtype && a.shape == b.shape;
}

// One pass over the graph; returns whether any node's outputs changed.
bool run_pass(Graph& g, std::vector<std::vector<std::optional<KnownValue>>>& values,
              const std::vector<int>& min_outputs, bool force_merge_unknown) {
  bool changed = false;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    Node& n = g.nodes[i];
    std::vector<TensorInfo> in;
    std::vector<const KnownValue*> vals;
    std::vector<bool> inferred;
    in.reserve(n.inputs.size());
    for (const auto& ref : n.inputs) {
      const bool ok =
          ref.node >= 0 && static_cast<std::size_t>(ref.node) < g.nodes.size() && ref.output >= 0;
      const Node* src = ok ? &g.nodes[static_cast<std::size_t>(ref.node)] : nullptr;
      const auto k = static_cast<std::size_t>(ref.output);
      if (src && k < src->outputs.size()) {
        in.push_back(src->outputs[k]);
        const auto& sv = values[static_cast<std::size_t>(ref.node)];
        vals.push_back(k < sv.size() && sv[k] ? &*sv[k] : nullptr);
        inferred.push_back(true);
      } else {
        in.push_back(TensorInfo{});
        vals.push_back(nullptr);
        inferred.push_back(false);
      }
    }
    InferContext c(n, std::move(in), std::move(vals), std::move(inferred));
    const ops::OpDef* def = ops::find_op(n.op);
    (def && def->shape ? def->shape : unknown_op)(c);
    if (force_merge_unknown && n.op == "Merge" && !c.out.empty())
      c.out[0].shape = PartialShape::unknown();
    if (c.out.size() < static_cast<std::size_t>(min_outputs[i]))
      c.out.resize(static_cast<std::size_t>(min_outputs[i]), TensorInfo{});
    c.out_values.resize(c.out.size());

    if (!changed) {
      if (c.out.size() != n.outputs.size()) {
        changed = true;
      } else {
        for (std::size_t k = 0; k < c.out.size(); ++k)
          if (!same_info(c.out[k], n.outputs[k])) changed = true;
      }
    }
    n.outputs = std::move(c.out);
    values[i] = std::move(c.out_values);
  }
  return changed;
}

}  // namespace

void infer_shapes(Graph& graph) {
  const std::size_t n = graph.nodes.size();
  // Every output something refers to exists, even for ops no rule knows.
  std::vector<int> min_outputs(n, 0);
  auto need = [&](const TensorRef& r) {
    if (r.node >= 0 && static_cast<std::size_t>(r.node) < n)
      min_outputs[static_cast<std::size_t>(r.node)] =
          std::max(min_outputs[static_cast<std::size_t>(r.node)], r.output + 1);
  };
  bool has_loops = false;
  for (const auto& node : graph.nodes) {
    for (const auto& r : node.inputs) need(r);
    if (node.op == "NextIteration") has_loops = true;
  }
  for (const auto& e : graph.inputs) need(e.ref);
  for (const auto& e : graph.outputs) need(e.ref);

  for (auto& node : graph.nodes) node.outputs.clear();
  std::vector<std::vector<std::optional<KnownValue>>> values(n);
  run_pass(graph, values, min_outputs, false);
  if (has_loops) {
    // Each extra pass lets a Merge see its back edge and only ever widens shapes, so this
    // settles quickly; if it does not, loop variables are given up as unknown.
    constexpr int kMaxPasses = 8;
    bool settled = false;
    for (int pass = 0; pass < kMaxPasses && !settled; ++pass)
      settled = !run_pass(graph, values, min_outputs, false);
    if (!settled) run_pass(graph, values, min_outputs, true);
  }

  // Outputs: what the graph says, with dims it leaves open taken from the signature.
  for (auto& e : graph.outputs) {
    if (e.ref.node < 0 || static_cast<std::size_t>(e.ref.node) >= n) continue;
    const auto& outs = graph.nodes[static_cast<std::size_t>(e.ref.node)].outputs;
    if (static_cast<std::size_t>(e.ref.output) >= outs.size()) continue;
    const TensorInfo& info = outs[static_cast<std::size_t>(e.ref.output)];
    if (info.dtype) e.dtype = info.dtype;
    PartialShape s = info.shape;
    if (!s.rank_known) {
      s = e.shape;
    } else if (e.shape.rank_known && e.shape.dims.size() == s.dims.size()) {
      for (std::size_t k = 0; k < s.dims.size(); ++k)
        if (s.dims[k] < 0) s.dims[k] = e.shape.dims[k];
    }
    e.shape = s;
  }
}

}  // namespace tfjsi::graph
