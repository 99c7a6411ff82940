#include "analysis/node_cost.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string_view>

#include "graph/build.h"
#include "ops/attr.h"
#include "runtime/engine.h"

namespace tfjsi::analysis {
namespace {

bool is_one_of(std::string_view op, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), op) != names.end();
}

std::int64_t elements(const TensorShape& t) {
  return num_elements(t.dims);
}

std::int64_t bytes(std::span<const TensorShape> ts) {
  std::int64_t b = 0;
  for (const auto& t : ts)
    if (t.dtype != DType::String)
      b += elements(t) * static_cast<std::int64_t>(element_size(t.dtype));
  return b;
}

// 1 for the bias and 1 for the activation of a fused node ("BiasAdd", "Relu").
std::int64_t epilogue_ops(const graph::Node& n) {
  return static_cast<std::int64_t>(ops::attr<ops::Strings>(n, "fused_ops", {}).size());
}

// The operations a node spends per its main output, by the rules in node_cost.h; -1: unknown
// from these shapes (a filter of another rank).
std::int64_t flops_of(const graph::Node& n, std::span<const TensorShape> in,
                      std::span<const TensorShape> out) {
  const std::string_view op = n.op;
  if (out.empty()) return 0;
  const std::int64_t o = elements(out[0]);
  const auto filter = [&](std::size_t i) -> const Shape* {
    return i < in.size() && in[i].dims.size() == 4 ? &in[i].dims : nullptr;
  };
  if (is_one_of(op, {"Conv2D", "_FusedConv2D"})) {
    const Shape* f = filter(1);
    if (!f) return -1;
    return 2 * o * (*f)[0] * (*f)[1] * (*f)[2] + o * epilogue_ops(n);
  }
  if (is_one_of(op, {"DepthwiseConv2dNative", "FusedDepthwiseConv2dNative"})) {
    const Shape* f = filter(1);
    if (!f) return -1;
    return 2 * o * (*f)[0] * (*f)[1] + o * epilogue_ops(n);
  }
  if (op == "Conv2DBackpropInput") {
    const Shape* f = filter(1);
    if (!f || in.size() < 3) return -1;
    return 2 * elements(in[2]) * (*f)[0] * (*f)[1] * (*f)[2];
  }
  if (is_one_of(op, {"MatMul", "_FusedMatMul", "BatchMatMul", "BatchMatMulV2"})) {
    if (in.empty() || in[0].dims.size() < 2) return -1;
    const bool batched = op == "BatchMatMul" || op == "BatchMatMulV2";
    const bool ta = ops::attr<bool>(n, batched ? "adj_x" : "transpose_a", false);
    const Shape& a = in[0].dims;
    const std::int64_t k = a[a.size() - (ta ? 2 : 1)];
    return 2 * o * k + o * epilogue_ops(n);
  }
  if (is_one_of(op, {"MaxPool", "AvgPool", "MaxPoolV2"})) {
    const auto k = ops::attr<ops::Ints>(n, "ksize", {});
    if (k.size() != 4) return -1;
    return o * k[1] * k[2];
  }
  if (is_one_of(op, {"Sum", "Mean", "Max", "Min", "Prod", "All", "Any", "ArgMax", "ArgMin",
                     "EuclideanNorm"}))
    return in.empty() ? -1 : elements(in[0]);
  if (is_one_of(op, {"Softmax", "LogSoftmax"})) return 5 * o;
  if (is_one_of(op, {"FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"})) return 2 * o;
  if (op == "ResizeBilinear") return 8 * o;
  if (is_one_of(op, {"Abs",         "Acos",       "Acosh",     "Asin",         "Asinh",
                     "Atan",        "Atanh",      "Ceil",      "Cos",          "Cosh",
                     "Elu",         "Erf",        "Exp",       "Expm1",        "Floor",
                     "LeakyRelu",   "Log",        "Log1p",     "Reciprocal",   "Relu",
                     "Relu6",       "Round",      "Rsqrt",     "Selu",         "Sigmoid",
                     "Sign",        "Sin",        "Sinh",      "Softplus",     "Softsign",
                     "Sqrt",        "Square",     "Tan",       "Tanh",         "ClipByValue",
                     "BiasAdd",     "BiasAddV1",  "Prelu",     "LRN",          "Neg",
                     "Add",         "AddV2",      "Sub",       "Mul",          "Div",
                     "RealDiv",     "DivNoNan",   "Maximum",   "Minimum",      "FloorDiv",
                     "FloorMod",    "Mod",        "Pow",       "Atan2",        "SquaredDifference",
                     "Equal",       "NotEqual",   "Greater",   "GreaterEqual", "Less",
                     "LessEqual",   "LogicalAnd", "LogicalOr", "LogicalNot",   "Select",
                     "SelectV2",    "IsNan",      "IsFinite",  "IsInf",        "Swish",
                     "HardSigmoid", "Gelu"}))
    return o;
  if (op == "AddN") return o * std::max<std::int64_t>(static_cast<std::int64_t>(in.size()) - 1, 0);
  return 0;
}

}  // namespace

std::string format_flops(double f) {
  char text[32];
  if (f >= 1e9)
    std::snprintf(text, sizeof text, "%.2f GFLOP", f / 1e9);
  else if (f >= 1e6)
    std::snprintf(text, sizeof text, "%.1f MFLOP", f / 1e6);
  else if (f >= 1e3)
    std::snprintf(text, sizeof text, "%.1f kFLOP", f / 1e3);
  else
    std::snprintf(text, sizeof text, "%.0f FLOP", f);
  return text;
}

NodeCost node_cost(const graph::Node& node, std::span<const TensorShape> inputs,
                   std::span<const TensorShape> outputs) {
  NodeCost c;
  const std::int64_t f = flops_of(node, inputs, outputs);
  if (f < 0) return c;
  c.known = true;
  c.flops = f;
  c.bytes_read = bytes(inputs);
  c.bytes_written = bytes(outputs);
  return c;
}

GraphCost graph_cost(const graph::Graph& model) {
  GraphCost g;
  const std::unique_ptr<graph::Graph> fixed = graph::with_static_inputs(model);
  const graph::Graph& graph = fixed ? *fixed : model;
  if (fixed)
    for (const auto& e : model.inputs) {
      const auto& was = model.nodes.at(static_cast<std::size_t>(e.ref.node)).outputs;
      const auto& now = graph.nodes.at(static_cast<std::size_t>(e.ref.node)).outputs;
      if (!was.empty() && !was[0].shape.fully_known() && !now.empty() && now[0].shape.fully_known())
        g.assumed_inputs.emplace_back(e.name, now[0].shape.dims);
    }
  g.nodes.resize(graph.nodes.size());
  auto known = [](const graph::TensorInfo& t, TensorShape& s) {
    if (!t.dtype || !t.shape.fully_known()) return false;
    s = {*t.dtype, t.shape.dims};
    return true;
  };
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    const graph::Node& n = graph.nodes[i];
    if (n.op == "Const" || n.op == "Placeholder") continue;
    std::vector<TensorShape> in, out;
    bool all = true;
    for (const auto& ref : n.inputs) {
      const auto& src = graph.nodes.at(static_cast<std::size_t>(ref.node));
      TensorShape s;
      if (static_cast<std::size_t>(ref.output) < src.outputs.size() &&
          known(src.outputs[static_cast<std::size_t>(ref.output)], s))
        in.push_back(std::move(s));
      else if (src.outputs.size() > static_cast<std::size_t>(ref.output) &&
               !src.outputs[static_cast<std::size_t>(ref.output)].dtype)
        continue;  // a TensorArray or TensorList handle: no tensor bytes
      else
        all = false;
    }
    for (const auto& o : n.outputs) {
      TensorShape s;
      if (known(o, s))
        out.push_back(std::move(s));
      else if (o.dtype)
        all = false;
    }
    NodeCost c = all ? node_cost(n, in, out) : NodeCost{};
    if (!c.known) {
      ++g.unknown;
      continue;
    }
    g.flops += c.flops;
    g.bytes_read += c.bytes_read;
    g.bytes_written += c.bytes_written;
    g.nodes[i] = c;
  }
  return g;
}

void CostCounter::after_kernel(runtime::KernelEvent& event) {
  // A value that is no tensor here (inside a partition a backend ran as one) has the shape that
  // inference gave it, static in such partitions.
  auto static_shape = [](const graph::TensorInfo& info) -> std::optional<TensorShape> {
    if (!info.dtype || !info.shape.fully_known()) return std::nullopt;
    return TensorShape{*info.dtype, Shape(info.shape.dims.begin(), info.shape.dims.end())};
  };
  // `count` values: inside a partition a node's outputs have no entries in the event at all.
  auto shapes = [&](std::span<const runtime::Tensor> ts, std::size_t count, auto&& info_of) {
    std::vector<TensorShape> out;
    for (std::size_t k = 0; k < std::max(ts.size(), count); ++k) {
      if (k < ts.size() && event.engine.alive(ts[k]))
        out.push_back({event.engine.dtype(ts[k]), event.engine.shape(ts[k])});
      else if (const auto s = info_of(k))
        out.push_back(*s);
    }
    return out;
  };
  // The node as that shape inference saw it (KernelEvent::graph), where the event has one.
  const graph::Node* shaped =
      event.graph && event.index >= 0 &&
              static_cast<std::size_t>(event.index) < event.graph->nodes.size()
          ? &event.graph->nodes[static_cast<std::size_t>(event.index)]
          : nullptr;
  const std::size_t static_outputs = shaped ? shaped->outputs.size() : 0;
  const auto in = shapes(event.inputs, 0, [&](std::size_t k) -> std::optional<TensorShape> {
    if (!shaped || k >= shaped->inputs.size()) return std::nullopt;
    const graph::TensorRef& ref = shaped->inputs[k];
    const auto& producer = event.graph->nodes[static_cast<std::size_t>(ref.node)];
    if (static_cast<std::size_t>(ref.output) >= producer.outputs.size()) return std::nullopt;
    return static_shape(producer.outputs[static_cast<std::size_t>(ref.output)]);
  });
  const auto out =
      shapes(event.outputs, static_outputs, [&](std::size_t k) -> std::optional<TensorShape> {
        if (!shaped || k >= shaped->outputs.size()) return std::nullopt;
        return static_shape(shaped->outputs[k]);
      });
  const NodeCost c = node_cost(event.node, in, out);
  flops_ += c.flops;
  bytes_ += c.bytes_read + c.bytes_written;
  OpCost& op = by_op_[event.node.op];
  op.flops += c.flops;
  op.bytes += c.bytes_read + c.bytes_written;
}

}  // namespace tfjsi::analysis
