// Static shape inference: one pass in topological order, repeated while loop back edges
// (NextIteration -> Merge) still widen what a Merge can see.
#include <algorithm>
#include <cmath>

#include "graph/build.h"
#include "graph/shape_rules.h"
#include "ops/attr.h"

namespace tfjsi::graph {
namespace detail {

namespace {
const TensorInfo kUnknownInfo{};
}

const TensorInfo& InferContext::in(std::size_t i) const {
  return i < in_.size() ? in_[i] : kUnknownInfo;
}

std::optional<std::vector<std::int64_t>> InferContext::ints(std::size_t i) const {
  const KnownValue* v = value(i);
  if (!v) return std::nullopt;
  std::vector<std::int64_t> out;
  out.reserve(v->v.size());
  for (double d : v->v) {
    if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9e15) return std::nullopt;
    out.push_back(static_cast<std::int64_t>(d));
  }
  return out;
}

std::optional<std::int64_t> InferContext::scalar(std::size_t i) const {
  auto v = ints(i);
  if (!v || v->size() != 1) return std::nullopt;
  return (*v)[0];
}

std::optional<DType> InferContext::t() const {
  if (auto d = ops::try_attr<DType>(node, "T")) return d;
  return in(0).dtype;
}

void InferContext::set(std::size_t k, std::optional<DType> dtype, PartialShape shape) {
  if (out.size() <= k) out.resize(k + 1);
  out[k] = TensorInfo{dtype, std::move(shape)};
}

void InferContext::set_value(std::size_t k, KnownValue v) {
  if (v.v.size() > kMaxKnownElements) return;
  if (out_values.size() <= k) out_values.resize(k + 1);
  out_values[k] = std::move(v);
}

PartialShape broadcast_shapes(const PartialShape& a, const PartialShape& b) {
  if (!a.rank_known || !b.rank_known) return PartialShape::unknown();
  const std::size_t r = std::max(a.dims.size(), b.dims.size());
  std::vector<std::int64_t> out(r);
  for (std::size_t i = 0; i < r; ++i) {
    const std::int64_t x = i < r - a.dims.size() ? 1 : a.dims[i - (r - a.dims.size())];
    const std::int64_t y = i < r - b.dims.size() ? 1 : b.dims[i - (r - b.dims.size())];
    if (x == 1)
      out[i] = y;
    else if (y == 1)
      out[i] = x;
    else if (x < 0)
      out[i] = y;  // y is -1 or the size x must have
    else if (y < 0 || x == y)
      out[i] = x;
    else
      out[i] = -1;  // incompatible: left for the runtime to report
  }
  return PartialShape::of(std::move(out));
}

PartialShape generalize(const PartialShape& a, const PartialShape& b) {
  if (!a.rank_known || !b.rank_known || a.dims.size() != b.dims.size())
    return PartialShape::unknown();
  PartialShape out = a;
  for (std::size_t i = 0; i < out.dims.size(); ++i)
    if (out.dims[i] != b.dims[i]) out.dims[i] = -1;
  return out;
}

PartialShape with_rank(const PartialShape& s, int rank) {
  if (s.rank_known || rank < 0) return s;
  return PartialShape::of(std::vector<std::int64_t>(static_cast<std::size_t>(rank), -1));
}

std::optional<KnownValue> known_from_tensor(const HostTensor& t) {
  if (!t.buffer && t.dtype != DType::String) return std::nullopt;
  const auto n = checked_num_elements(t.shape);
  if (!n || static_cast<std::size_t>(*n) > kMaxKnownElements) return std::nullopt;
  KnownValue k{t.dtype, t.shape, {}};
  k.v.reserve(static_cast<std::size_t>(*n));
  switch (t.dtype) {
    case DType::Float32:
      for (float f : t.values<float>()) k.v.push_back(f);
      break;
    case DType::Int32:
      for (auto i : t.values<std::int32_t>()) k.v.push_back(i);
      break;
    case DType::Bool:
      for (auto b : t.values<std::uint8_t>()) k.v.push_back(b ? 1.0 : 0.0);
      break;
    case DType::String:
      return std::nullopt;
  }
  return k;
}

const RuleTable& shape_rules() {
  static const RuleTable table = [] {
    RuleTable t;
    add_elementwise_rules(t);
    add_nn_rules(t);
    add_array_rules(t);
    add_reduction_rules(t);
    add_control_rules(t);
    return t;
  }();
  return table;
}

namespace {

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
  const auto& rules = shape_rules();
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
    auto it = rules.find(n.op);
    (it != rules.end() ? it->second : unknown_op)(c);
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
}  // namespace detail

void infer_shapes(Graph& graph) {
  using namespace detail;
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
