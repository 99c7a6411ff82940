#include "graph/transpose_sinking.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "graph/build.h"

namespace tfjsi::graph {
namespace {

using Perm = std::vector<int>;

constexpr std::string_view kSunk = "/sunk";

// One data input, one output, each element on its own. ClipByValue's bounds are scalars.
const std::set<std::string_view> kUnary = {
    "Abs",      "Acos",       "Acosh",    "Asin",       "Asinh", "Atan",      "Atanh",
    "Cast",     "Ceil",       "Cos",      "Cosh",       "Elu",   "Erf",       "Exp",
    "Expm1",    "Floor",      "IsFinite", "IsInf",      "IsNan", "LeakyRelu", "Log",
    "Log1p",    "LogicalNot", "Neg",      "Reciprocal", "Relu",  "Relu6",     "Round",
    "Rsqrt",    "Selu",       "Sigmoid",  "Sign",       "Sin",   "Sinh",      "Softplus",
    "Softsign", "Sqrt",       "Square",   "Step",       "Tan",   "Tanh",      "ClipByValue"};

// Elementwise with broadcasting; AddN takes any number of operands.
const std::set<std::string_view> kBinary = {"Add",          "AddV2",
                                            "AddN",         "Atan2",
                                            "Div",          "DivNoNan",
                                            "Equal",        "FloorDiv",
                                            "FloorMod",     "Greater",
                                            "GreaterEqual", "Less",
                                            "LessEqual",    "LogicalAnd",
                                            "LogicalOr",    "Maximum",
                                            "Minimum",      "Mul",
                                            "NotEqual",     "Pow",
                                            "RealDiv",      "SquaredDifference",
                                            "Sub"};

bool is_identity(const Perm& p) {
  for (std::size_t k = 0; k < p.size(); ++k)
    if (p[k] != static_cast<int>(k)) return false;
  return true;
}

Perm inverse(const Perm& p) {
  Perm q(p.size());
  for (std::size_t k = 0; k < p.size(); ++k)
    q[static_cast<std::size_t>(p[k])] = static_cast<int>(k);
  return q;
}

// `t` transposed: result dim j is t's dim q[j].
HostTensor permuted(const HostTensor& t, const Perm& q) {
  const int n = t.rank();
  Shape shape(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j)
    shape[static_cast<std::size_t>(j)] = t.shape[static_cast<std::size_t>(q[j])];
  HostTensor out = HostTensor::uninitialized(t.dtype, shape);
  const std::size_t es = element_size(t.dtype);
  std::vector<std::int64_t> in_stride(static_cast<std::size_t>(n), 1);
  for (int d = n - 2; d >= 0; --d)
    in_stride[static_cast<std::size_t>(d)] =
        in_stride[static_cast<std::size_t>(d) + 1] * t.shape[static_cast<std::size_t>(d) + 1];
  const std::byte* src = t.buffer->data();
  std::byte* dst = out.buffer->mutable_data();
  std::vector<std::int64_t> idx(static_cast<std::size_t>(n), 0);
  for (std::int64_t e = 0; e < out.num_elements(); ++e) {
    std::int64_t off = 0;
    for (int j = 0; j < n; ++j)
      off += idx[static_cast<std::size_t>(j)] * in_stride[static_cast<std::size_t>(q[j])];
    std::memcpy(dst + e * static_cast<std::int64_t>(es), src + off * static_cast<std::int64_t>(es),
                es);
    for (int j = n - 1; j >= 0; --j) {
      if (++idx[static_cast<std::size_t>(j)] < shape[static_cast<std::size_t>(j)]) break;
      idx[static_cast<std::size_t>(j)] = 0;
    }
  }
  return out;
}

HostTensor int32_tensor(Shape shape, const std::vector<std::int32_t>& v) {
  HostTensor t = HostTensor::uninitialized(DType::Int32, std::move(shape));
  std::copy(v.begin(), v.end(), t.mutable_values<std::int32_t>().begin());
  return t;
}

class Sinker {
 public:
  explicit Sinker(Graph& g) : g_(g) {
    for (const Node& n : g_.nodes) names_.insert(n.name);
  }

  // Returns how many ops and Transposes it rewrote.
  int run() {
    int rewrites = 0;
    std::deque<int> work;
    for (int i = 0; i < static_cast<int>(g_.nodes.size()); ++i)
      if (perm_of(i)) work.push_back(i);
    while (!work.empty()) {
      const int t = work.front();
      work.pop_front();
      const auto p = perm_of(t);
      if (!p) continue;
      for (int c : consumers(t)) {
        const Met met = compose(t, *p, c);
        // A Transpose made or left here moves on in its turn.
        const bool moves = met == Met::Composed || (met == Met::Apart && sink(c, *p));
        if (moves) work.push_back(c);
        rewrites += moves || met == Met::Cancelled;
      }
    }
    return rewrites;
  }

 private:
  // The permutation of a Transpose whose perm is a constant, or nullopt.
  std::optional<Perm> perm_of(int i) const {
    const Node& n = g_.nodes[static_cast<std::size_t>(i)];
    if (n.op != "Transpose" || n.inputs.size() != 2) return std::nullopt;
    const Node& c = g_.nodes[static_cast<std::size_t>(n.inputs[1].node)];
    if (c.op != "Const" || !c.value || c.value->dtype != DType::Int32 || c.value->rank() != 1)
      return std::nullopt;
    Perm p;
    for (std::int32_t v : c.value->values<std::int32_t>()) p.push_back(v);
    Perm seen(p.size(), 0);
    for (int v : p) {
      if (v < 0 || v >= static_cast<int>(p.size()) || seen[static_cast<std::size_t>(v)]++)
        return std::nullopt;
    }
    return p;
  }

  // Nodes reading output 0 of `i`, each once.
  std::vector<int> consumers(int i) const {
    std::vector<int> out;
    for (int c = 0; c < static_cast<int>(g_.nodes.size()); ++c)
      for (const auto& in : g_.nodes[static_cast<std::size_t>(c)].inputs)
        if (in.node == i && in.output == 0) {
          out.push_back(c);
          break;
        }
    return out;
  }

  std::string fresh_name(const std::string& base) {
    std::string name = base;
    for (int k = 2; names_.count(name); ++k) name = base + "_" + std::to_string(k);
    names_.insert(name);
    return name;
  }

  TensorRef add(Node n) {
    g_.nodes.push_back(std::move(n));
    return {static_cast<int>(g_.nodes.size()) - 1, 0};
  }

  TensorRef add_const(const std::string& base, HostTensor v, const std::string& group) {
    Node n;
    n.name = fresh_name(base);
    n.op = "Const";
    n.group = group;
    n.attrs["dtype"] = TypeAttr{std::string(tf_name(v.dtype))};
    n.value = std::move(v);
    return add(std::move(n));
  }

  // What became of a consumer `c` of Transpose `t`.
  enum class Met { Apart, Cancelled, Composed };

  // Transpose `c` reading Transpose `t` (perm p): reads t's input through the composed perm, or
  // becomes an Identity of it when the two cancel.
  Met compose(int t, const Perm& p, int c) {
    const auto q = perm_of(c);
    Node& n = g_.nodes[static_cast<std::size_t>(c)];
    if (!q || q->size() != p.size() || n.inputs[0] != TensorRef{t, 0}) return Met::Apart;
    Perm r(p.size());
    for (std::size_t j = 0; j < p.size(); ++j) r[j] = p[static_cast<std::size_t>((*q)[j])];
    const TensorRef source = g_.nodes[static_cast<std::size_t>(t)].inputs[0];
    if (is_identity(r)) {
      n.op = "Identity";
      n.inputs = {source};
      n.attrs.erase("Tperm");
      return Met::Cancelled;
    }
    std::vector<std::int32_t> v(r.begin(), r.end());
    const TensorRef perm = add_const(
        n.name + "/perm", int32_tensor({static_cast<std::int64_t>(v.size())}, v), n.group);
    Node& again = g_.nodes[static_cast<std::size_t>(c)];  // add() may have moved the vector
    again.inputs = {source, perm};
    return Met::Composed;
  }

  // A constant operand of an elementwise op in the transposed layout, in the source layout:
  // scalars stay, lower ranks align right (numpy broadcasting) and move with the perm.
  std::optional<TensorRef> const_operand(const TensorRef& ref, const Perm& p,
                                         const std::string& base, const std::string& group) {
    const Node& c = g_.nodes[static_cast<std::size_t>(ref.node)];
    if (c.op != "Const" || !c.value || c.value->dtype == DType::String || !c.value->buffer)
      return std::nullopt;
    const HostTensor& v = *c.value;
    const int n = static_cast<int>(p.size());
    if (v.num_elements() == 1 && v.rank() <= n) return ref;  // broadcasts alike either way
    if (v.rank() > n) return std::nullopt;
    HostTensor full = v;
    Shape shape(static_cast<std::size_t>(n - v.rank()), 1);
    shape.insert(shape.end(), v.shape.begin(), v.shape.end());
    full.shape = shape;
    return add_const(base, permuted(full, inverse(p)), group);
  }

  // Moves Transpose perm p from the inputs of `c` to its output when `c` allows: `c`'s work goes
  // to a new node "<c>/sunk" on the untransposed inputs and `c` becomes the Transpose of it.
  bool sink(int c, const Perm& p) {
    const Node node = g_.nodes[static_cast<std::size_t>(c)];
    const bool unary = kUnary.count(node.op) > 0, binary = kBinary.count(node.op) > 0;
    const bool pad = node.op == "Pad" || node.op == "PadV2" || node.op == "MirrorPad";
    const bool concat = node.op == "ConcatV2";
    if (!unary && !binary && !pad && !concat) return false;
    if (node.outputs.size() != 1 || !node.outputs[0].dtype || node.inputs.empty()) return false;
    const int n = static_cast<int>(p.size());

    // An input the transposes feed, or nullopt.
    auto untransposed = [&](const TensorRef& in) -> std::optional<TensorRef> {
      if (in.output != 0) return std::nullopt;
      const auto q = perm_of(in.node);
      if (!q || *q != p) return std::nullopt;
      return g_.nodes[static_cast<std::size_t>(in.node)].inputs[0];
    };
    std::vector<TensorRef> inputs = node.inputs;
    const std::string base = std::string(sunk_name(node.name));
    const std::size_t data = concat ? node.inputs.size() - 1 : pad ? 1 : node.inputs.size();
    std::optional<TensorRef> perm;  // the constant a Transpose feeding `c` reads
    for (std::size_t k = 0; k < data; ++k) {
      if (const auto u = untransposed(node.inputs[k])) {
        inputs[k] = *u;
        perm = g_.nodes[static_cast<std::size_t>(node.inputs[k].node)].inputs[1];
      } else if (binary) {
        const auto k_const = const_operand(node.inputs[k], p, base + "/operand", node.group);
        if (!k_const) return false;
        inputs[k] = *k_const;
      } else if (unary && k > 0) {
        const Node& b = g_.nodes[static_cast<std::size_t>(node.inputs[k].node)];
        if (b.op != "Const" || !b.value || b.value->num_elements() != 1) return false;
      } else {
        return false;
      }
    }
    if (!perm) return false;
    if (pad) {
      const Node& pc = g_.nodes[static_cast<std::size_t>(node.inputs[1].node)];
      if (pc.op != "Const" || !pc.value || pc.value->dtype != DType::Int32 ||
          pc.value->shape != Shape{n, 2})
        return false;
      const auto old = pc.value->values<std::int32_t>();
      std::vector<std::int32_t> v(old.size());
      for (int k = 0; k < n; ++k)
        for (int e = 0; e < 2; ++e)
          v[static_cast<std::size_t>(p[static_cast<std::size_t>(k)] * 2 + e)] =
              old[static_cast<std::size_t>(k * 2 + e)];
      inputs[1] = add_const(base + "/paddings", int32_tensor({n, 2}, v), node.group);
    }
    if (concat) {
      const Node& ac = g_.nodes[static_cast<std::size_t>(node.inputs.back().node)];
      if (ac.op != "Const" || !ac.value || ac.value->dtype != DType::Int32 ||
          ac.value->num_elements() != 1)
        return false;
      int axis = ac.value->values<std::int32_t>()[0];
      if (axis < -n || axis >= n) return false;
      if (axis < 0) axis += n;
      inputs.back() = add_const(base + "/axis",
                                int32_tensor({}, {p[static_cast<std::size_t>(axis)]}), node.group);
    }

    Node moved = node;
    moved.name = fresh_name(base);
    moved.inputs = inputs;
    moved.outputs.clear();
    const TensorRef work = add(std::move(moved));
    Node& t = g_.nodes[static_cast<std::size_t>(c)];
    t.op = "Transpose";
    t.inputs = {work, *perm};
    t.control_inputs.clear();
    t.attrs = {{"T", TypeAttr{std::string(tf_name(*node.outputs[0].dtype))}},
               {"Tperm", TypeAttr{"DT_INT32"}}};
    return true;
  }

  Graph& g_;
  std::unordered_set<std::string> names_;
};

// Transposes the graph's outputs need, and the elements they move (-1 if any size is unknown).
std::pair<int, std::int64_t> transpose_cost(const Graph& g) {
  std::vector<char> needed(g.nodes.size(), 0);
  std::vector<int> todo;
  for (const auto& o : g.outputs) todo.push_back(o.ref.node);
  while (!todo.empty()) {
    const int i = todo.back();
    todo.pop_back();
    if (i < 0 || i >= static_cast<int>(g.nodes.size()) || needed[static_cast<std::size_t>(i)])
      continue;
    needed[static_cast<std::size_t>(i)] = 1;
    for (const auto& in : g.nodes[static_cast<std::size_t>(i)].inputs) todo.push_back(in.node);
    for (int c : g.nodes[static_cast<std::size_t>(i)].control_inputs) todo.push_back(c);
  }
  int count = 0;
  std::int64_t elements = 0;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (!needed[i] || n.op != "Transpose") continue;
    ++count;
    if (n.outputs.empty() || !n.outputs[0].shape.fully_known())
      elements = -1;
    else if (elements >= 0)
      elements += num_elements(n.outputs[0].shape.dims);
  }
  return {count, elements};
}

}  // namespace

std::string sunk_name(std::string_view node) {
  return std::string(node) + std::string(kSunk);
}

std::string_view sunk_origin(std::string_view name) {
  // fresh_name() may have added "_2", "_3", ... after the suffix.
  const std::size_t at = name.rfind(kSunk);
  if (at == std::string_view::npos) return name;
  const std::string_view rest = name.substr(at + kSunk.size());
  const bool numbered = rest.size() > 1 && rest[0] == '_' &&
                        rest.find_first_not_of("0123456789", 1) == std::string_view::npos;
  return rest.empty() || numbered ? name.substr(0, at) : name;
}

std::optional<Graph> sink_transposes(const Graph& graph, SinkReport* report) {
  bool any = false;
  for (const Node& n : graph.nodes) {
    if (is_tf1_control_flow(n.op)) return std::nullopt;
    any = any || n.op == "Transpose";
  }
  if (!any) return std::nullopt;
  const auto [before_count, before_elements] = transpose_cost(graph);
  if (report) *report = {before_count, before_count, before_elements, before_elements, false};
  Graph g = graph;
  // Nothing moved (no Transpose feeds an op it can pass): the shapes need not be inferred again.
  if (Sinker(g).run() == 0) return std::nullopt;
  sort_topologically(g);
  infer_shapes(g);
  const auto [after_count, after_elements] = transpose_cost(g);
  const bool better = before_elements >= 0 && after_elements >= 0 ? after_elements < before_elements
                                                                  : after_count < before_count;
  if (report) *report = {before_count, after_count, before_elements, after_elements, better};
  if (!better) return std::nullopt;
  return g;
}

}  // namespace tfjsi::graph
