// Elementwise ops: unary (same shape), binary with broadcasting, comparisons and logic (bool),
// Select, AddN, Cast. Integer arithmetic on known values is folded so Shape -> math -> Reshape
// chains keep their shapes.
#include <cmath>
#include <functional>

#include "graph/shape_rules.h"
#include "ops/attr.h"

namespace tfjsi::graph::detail {
namespace {

void same_as_input(InferContext& c) {
  c.set(0, c.t(), c.shape(0));
}

void identity(InferContext& c) {
  c.set(0, c.t(), c.shape(0));
  if (const KnownValue* v = c.value(0)) c.set_value(0, *v);
}

void neg(InferContext& c) {
  same_as_input(c);
  if (const KnownValue* v = c.value(0)) {
    KnownValue out = *v;
    for (double& d : out.v) d = -d;
    c.set_value(0, std::move(out));
  }
}

void cast(InferContext& c) {
  const auto to = ops::try_attr<DType>(c.node, "DstT");
  c.set(0, to, c.shape(0));
  const KnownValue* v = c.value(0);
  if (!v || !to) return;
  KnownValue out = *v;
  out.dtype = *to;
  for (double& d : out.v) {
    if (*to == DType::Int32) d = std::isfinite(d) ? std::trunc(d) : 0.0;
    if (*to == DType::Bool) d = d != 0.0 ? 1.0 : 0.0;
    if (*to == DType::Float32) d = static_cast<float>(d);
  }
  c.set_value(0, std::move(out));
}

// Folds integer binary arithmetic when one side is a single element or both have one shape.
void fold_binary(InferContext& c, const std::function<std::optional<double>(double, double)>& f) {
  const KnownValue* a = c.value(0);
  const KnownValue* b = c.value(1);
  if (!a || !b || a->dtype != DType::Int32 || b->dtype != DType::Int32) return;
  const bool same = a->shape == b->shape;
  if (!same && a->v.size() != 1 && b->v.size() != 1) return;
  const KnownValue& big = (same || b->v.size() == 1) ? *a : *b;
  KnownValue out{DType::Int32, big.shape, {}};
  if (!same) {
    const auto bs = broadcast_shapes(PartialShape::of(a->shape), PartialShape::of(b->shape));
    if (!bs.fully_known()) return;
    out.shape = bs.dims;
  }
  for (std::size_t i = 0; i < big.v.size(); ++i) {
    const double x = a->v.size() == 1 ? a->v[0] : a->v[i];
    const double y = b->v.size() == 1 ? b->v[0] : b->v[i];
    auto r = f(x, y);
    if (!r || std::fabs(*r) > 2147483647.0) return;
    out.v.push_back(*r);
  }
  c.set_value(0, std::move(out));
}

void binary(InferContext& c) {
  c.set(0, c.t(), broadcast_shapes(c.shape(0), c.shape(1)));
  const std::string_view op = c.node.op;
  if (op == "Add" || op == "AddV2") {
    fold_binary(c, [](double x, double y) { return std::optional(x + y); });
  } else if (op == "Sub") {
    fold_binary(c, [](double x, double y) { return std::optional(x - y); });
  } else if (op == "Mul") {
    fold_binary(c, [](double x, double y) { return std::optional(x * y); });
  } else if (op == "Maximum") {
    fold_binary(c, [](double x, double y) { return std::optional(std::max(x, y)); });
  } else if (op == "Minimum") {
    fold_binary(c, [](double x, double y) { return std::optional(std::min(x, y)); });
  } else if (op == "FloorDiv") {
    fold_binary(c, [](double x, double y) {
      return y == 0 ? std::nullopt : std::optional(std::floor(x / y));
    });
  } else if (op == "FloorMod") {
    fold_binary(c, [](double x, double y) {
      return y == 0 ? std::nullopt : std::optional(x - std::floor(x / y) * y);
    });
  }
}

void compare(InferContext& c) {
  c.set(0, DType::Bool, broadcast_shapes(c.shape(0), c.shape(1)));
}

void select(InferContext& c) {
  // Select: t and e share a shape; cond may be a vector along dim 0. SelectV2 broadcasts all.
  PartialShape s = broadcast_shapes(c.shape(1), c.shape(2));
  if (c.node.op == "SelectV2") s = broadcast_shapes(c.shape(0), s);
  auto d = ops::try_attr<DType>(c.node, "T");
  if (!d) d = c.in(1).dtype;
  c.set(0, d, s);
}

void add_n(InferContext& c) {
  PartialShape s = c.shape(0);
  for (std::size_t i = 1; i < c.num_inputs(); ++i) s = broadcast_shapes(s, c.shape(i));
  c.set(0, c.t(), s);
}

void to_bool_unary(InferContext& c) {
  c.set(0, DType::Bool, c.shape(0));
}

}  // namespace

void add_elementwise_rules(RuleTable& t) {
  for (std::string_view op :
       {"Abs",   "Acos",          "Acosh",    "Asin",        "Asinh",      "Atan",       "Atanh",
        "Ceil",  "Cos",           "Cosh",     "Elu",         "Erf",        "Exp",        "Expm1",
        "Floor", "LeakyRelu",     "Log",      "Log1p",       "LogSoftmax", "Reciprocal", "Relu",
        "Relu6", "Round",         "Rsqrt",    "Selu",        "Sigmoid",    "Sign",       "Sin",
        "Sinh",  "Softmax",       "Softplus", "Softsign",    "Sqrt",       "Square",     "Tan",
        "Tanh",  "ZerosLike",     "OnesLike", "ClipByValue", "LogicalNot", "BiasAdd",    "Prelu",
        "LRN",   "FusedBatchNorm"})
    t[op] = same_as_input;
  for (std::string_view op :
       {"Identity", "Snapshot", "StopGradient", "PreventGradient", "EnsureShape", "CheckNumerics",
        "Enter", "Exit", "NextIteration", "LoopCond", "RefIdentity"})
    t[op] = identity;
  t["LogicalNot"] = to_bool_unary;
  t["IsNan"] = to_bool_unary;
  t["IsFinite"] = to_bool_unary;
  t["IsInf"] = to_bool_unary;
  t["Neg"] = neg;
  t["Cast"] = cast;
  for (std::string_view op :
       {"Add", "AddV2", "Sub", "Mul", "Div", "RealDiv", "DivNoNan", "Maximum", "Minimum",
        "FloorDiv", "FloorMod", "Mod", "Pow", "Atan2", "SquaredDifference", "BiasAddV1"})
    t[op] = binary;
  for (std::string_view op : {"Equal", "NotEqual", "Greater", "GreaterEqual", "Less", "LessEqual",
                              "LogicalAnd", "LogicalOr"})
    t[op] = compare;
  t["Select"] = select;
  t["SelectV2"] = select;
  t["AddN"] = add_n;
}

}  // namespace tfjsi::graph::detail
