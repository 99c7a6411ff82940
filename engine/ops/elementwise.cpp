// Elementwise ops: unary (same shape), binary with broadcasting, comparisons and logic (bool),
// Select, AddN, Cast, MatrixBandPart, the activations and normalizations that keep their input's
// shape, and the ops that pass their input through (Identity, Print, EnsureShape, ...). Integer
// arithmetic on known values is folded so Shape -> math -> Reshape chains keep their shapes.
#include <cmath>
#include <functional>

#include "ops/attr.h"
#include "ops/op_def.h"
#include "ops/shape_context.h"

namespace tfjsi::ops {
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
  const auto to = try_attr<DType>(c.node, "DstT");
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
  auto d = try_attr<DType>(c.node, "T");
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

// FusedBatchNorm(V2, V3): y like x; batch mean and variance (and TF's reserve spaces) are, at
// inference, the given mean and variance; V3's sixth output is empty.
void fused_batch_norm(InferContext& c) {
  c.set(0, c.t(), c.shape(0));
  for (std::size_t k = 1; k < 5; ++k) c.set(k, c.t(), c.shape(k % 2 == 1 ? 3 : 4));
  if (c.node.op == "FusedBatchNormV3") c.set(5, c.t(), PartialShape::of({0}));
}

constexpr OpDef kOps[] = {
    {"Abs", same_as_input, Family::Elementwise},
    {"Acos", same_as_input, Family::Elementwise},
    {"Acosh", same_as_input, Family::Elementwise},
    {"Add", binary, Family::Elementwise},
    {"AddN", add_n, Family::Elementwise},
    {"AddV2", binary, Family::Elementwise},
    {"Asin", same_as_input, Family::Elementwise},
    {"Asinh", same_as_input, Family::Elementwise},
    {"Atan", same_as_input, Family::Elementwise},
    {"Atan2", binary, Family::Elementwise},
    {"Atanh", same_as_input, Family::Elementwise},
    {"BiasAdd", same_as_input, Family::Elementwise},
    {"BiasAddV1", binary, Family::Other},
    {"BitwiseAnd", binary, Family::Elementwise},
    {"Cast", cast, Family::Shape},
    {"Ceil", same_as_input, Family::Elementwise},
    {"CheckNumerics", identity, Family::Other},
    {"ClipByValue", same_as_input, Family::Elementwise},
    {"Cos", same_as_input, Family::Elementwise},
    {"Cosh", same_as_input, Family::Elementwise},
    {"Div", binary, Family::Elementwise},
    {"DivNoNan", binary, Family::Elementwise},
    {"Elu", same_as_input, Family::Activation},
    {"EnsureShape", identity, Family::Other},
    {"Enter", identity, Family::Control},
    {"Equal", compare, Family::Elementwise},
    {"Erf", same_as_input, Family::Elementwise},
    {"Exit", identity, Family::Control},
    {"Exp", same_as_input, Family::Elementwise},
    {"Expm1", same_as_input, Family::Elementwise},
    {"FakeQuantWithMinMaxVars", identity, Family::Other},
    {"Floor", same_as_input, Family::Elementwise},
    {"FloorDiv", binary, Family::Elementwise},
    {"FloorMod", binary, Family::Elementwise},
    {"FusedBatchNorm", fused_batch_norm, Family::Normalization},
    {"FusedBatchNormV2", fused_batch_norm, Family::Normalization},
    {"FusedBatchNormV3", fused_batch_norm, Family::Normalization},
    {"Gelu", nullptr, Family::Activation},
    {"Greater", compare, Family::Elementwise},
    {"GreaterEqual", compare, Family::Elementwise},
    {"HardSigmoid", nullptr, Family::Activation},
    {"Identity", identity, Family::Output},
    {"IsFinite", to_bool_unary, Family::Elementwise},
    {"IsInf", to_bool_unary, Family::Elementwise},
    {"IsNan", to_bool_unary, Family::Elementwise},
    {"LRN", same_as_input, Family::Normalization},
    {"LeakyRelu", same_as_input, Family::Activation},
    {"Less", compare, Family::Elementwise},
    {"LessEqual", compare, Family::Elementwise},
    {"Log", same_as_input, Family::Elementwise},
    {"Log1p", same_as_input, Family::Elementwise},
    {"LogSoftmax", same_as_input, Family::Activation},
    {"LogicalAnd", compare, Family::Elementwise},
    {"LogicalNot", to_bool_unary, Family::Elementwise},
    {"LogicalOr", compare, Family::Elementwise},
    {"LoopCond", identity, Family::Control},
    {"MatrixBandPart", same_as_input, Family::Elementwise},
    {"Maximum", binary, Family::Elementwise},
    {"Minimum", binary, Family::Elementwise},
    {"Mod", binary, Family::Elementwise},
    {"Mul", binary, Family::Elementwise},
    {"Neg", neg, Family::Elementwise},
    {"NextIteration", identity, Family::Control},
    {"NotEqual", compare, Family::Elementwise},
    {"OnesLike", same_as_input, Family::Shape},
    {"Pow", binary, Family::Elementwise},
    {"Prelu", same_as_input, Family::Activation},
    {"PreventGradient", identity, Family::Other},
    {"Print", identity, Family::Other},
    {"RealDiv", binary, Family::Elementwise},
    {"Reciprocal", same_as_input, Family::Elementwise},
    {"RefIdentity", identity, Family::Other},
    {"Relu", same_as_input, Family::Activation},
    {"Relu6", same_as_input, Family::Activation},
    {"Round", same_as_input, Family::Elementwise},
    {"Rsqrt", same_as_input, Family::Elementwise},
    {"Select", select, Family::Elementwise},
    {"SelectV2", select, Family::Elementwise},
    {"Selu", same_as_input, Family::Activation},
    {"Sigmoid", same_as_input, Family::Activation},
    {"Sign", same_as_input, Family::Elementwise},
    {"Sin", same_as_input, Family::Elementwise},
    {"Sinh", same_as_input, Family::Elementwise},
    {"Snapshot", identity, Family::Output},
    {"Softmax", same_as_input, Family::Activation},
    {"Softplus", same_as_input, Family::Activation},
    {"Softsign", same_as_input, Family::Activation},
    {"Sqrt", same_as_input, Family::Elementwise},
    {"Square", same_as_input, Family::Elementwise},
    {"SquaredDifference", binary, Family::Elementwise},
    {"StopGradient", identity, Family::Output},
    {"Sub", binary, Family::Elementwise},
    {"Swish", nullptr, Family::Activation},
    {"Tan", same_as_input, Family::Elementwise},
    {"Tanh", same_as_input, Family::Activation},
    {"ZerosLike", same_as_input, Family::Shape},
};

}  // namespace

std::span<const OpDef> elementwise_ops() {
  return kOps;
}

}  // namespace tfjsi::ops
