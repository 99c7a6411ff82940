// Elementwise ops: activations and other unary functions, binary ops with broadcasting, AddN.
#include <algorithm>

#include "backends/gl/gl_op.h"

namespace tfjsi::gl {
namespace {

enum UnaryOp {
  kAct = 0,
  kExp = 1,
  kAbs = 2,
  kNeg = 3,
  kSquare = 4,
  kRsqrt = 6,
  kSqrt = 7,
  kReciprocal = 8,
  kFloor = 9,
  kCeil = 10,
  kLog = 11,
  kSin = 12,
  kCos = 13,
  kRound = 14,
  kSoftplus = 15,
  kSign = 16
};
enum Act { kNone = 0, kRelu = 1, kRelu6 = 2, kElu = 3, kLeaky = 4, kSigmoid = 6, kTanh = 7 };

std::vector<runtime::TensorView> unary(OpContext& c, int op, int act = 0, float alpha = 0.f) {
  c.expect_inputs(1, 1);
  const GlTensorData& x = c.tex(0);
  auto out = c.output(c.shape(0));
  KernelCall call;
  call.shader = "unary.comp";
  call.defines = def("OP", std::int64_t{op}) + def("ACT", std::int64_t{act});
  call.set_float("ALPHA", alpha);
  call.inputs = {&x};
  call.output = out.get();
  c.dispatch(call);
  return OpContext::result(out, c.shape(0));
}

template <int Op, int ActCode = 0>
std::vector<runtime::TensorView> unary_op(OpContext& c) {
  return unary(c, Op, ActCode);
}

std::vector<runtime::TensorView> leaky_relu(OpContext& c) {
  return unary(c, kAct, kLeaky, c.float_attr("alpha", 0.2f));
}

enum BinaryOp {
  kAdd = 0,
  kSub = 1,
  kMul = 2,
  kDiv = 3,
  kMax = 4,
  kMin = 5,
  kSqDiff = 6,
  kPrelu = 7
};

// The activation a fused node applies before its store (GlBackend::fuse): 0 for none.
int fused_activation(const graph::Node& n) {
  const auto* act = std::get_if<std::string>(n.attr(runtime::kFusedActivation));
  return act ? activation_code(*act) : 0;
}

std::vector<runtime::TensorView> binary(OpContext& c, int op) {
  const int act = fused_activation(c.node());
  if (act < 0) c.unsupported("its fused activation is not supported");
  // A fused Prelu reads its alpha, one per output channel, as input 2.
  c.expect_inputs(act == 5 ? 3 : 2, act == 5 ? 3 : 2);
  const GlTensorData &a = c.tex(0), &b = c.tex(1);
  const Shape &sa = c.shape(0), &sb = c.shape(1);
  const std::size_t rank = std::max(sa.size(), sb.size());
  Shape out_shape(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t da = i + sa.size() >= rank ? sa[i + sa.size() - rank] : 1;
    const std::int64_t db = i + sb.size() >= rank ? sb[i + sb.size() - rank] : 1;
    if (da != db && da != 1 && db != 1)
      c.fail("shapes " + shape_to_string(sa) + " and " + shape_to_string(sb) + " do not broadcast");
    out_shape[i] = da == 1 ? db : da;
  }
  auto out = c.output(out_shape);
  KernelCall call;
  call.shader = "binary.comp";
  // Broadcasting along N, H, W is a clamp by the uniform shapes; a single channel splatted across
  // the lanes is a code path.
  call.defines = def("OP", std::int64_t{op}) + def("IN0_SPLAT", std::int64_t{a.layout().c == 1}) +
                 def("IN1_SPLAT", std::int64_t{b.layout().c == 1});
  call.inputs = {&a, &b};
  if (act > 0) {
    call.defines += def("ACT", std::int64_t{act});
    call.set_float("ALPHA", c.float_attr(runtime::kFusedActivationAlpha, 0.2f));
    if (act == 5) {
      call.inputs.push_back(&c.per_channel_tex(2, out_shape.back(), "prelu alpha"));
      call.defines += def("IN2_SPLAT", std::int64_t{call.inputs.back()->layout().c == 1});
    }
  }
  call.output = out.get();
  c.dispatch(call);
  return OpContext::result(out, out_shape);
}

template <int Op>
std::vector<runtime::TensorView> binary_op(OpContext& c) {
  return binary(c, Op);
}

std::vector<runtime::TensorView> bias_add(OpContext& c) {
  if (c.num_inputs() < 2) c.fail("needs input and bias");
  const Shape& x = c.shape(0);
  const Shape& b = c.shape(1);
  if (b.size() != 1 || x.empty() || b[0] != x.back())
    c.fail("bias of shape " + shape_to_string(b) + " does not match the channels of " +
           shape_to_string(x));
  return binary(c, kAdd);
}

std::vector<runtime::TensorView> add_n(OpContext& c) {
  if (c.num_inputs() == 0) c.fail("AddN needs at least one input");
  std::vector<const GlTensorData*> in;
  std::string sum;
  for (std::size_t i = 0; i < c.num_inputs(); ++i) {
    if (c.shape(i) != c.shape(0))
      c.fail("input " + std::to_string(i) + " has shape " + shape_to_string(c.shape(i)) +
             ", expected " + shape_to_string(c.shape(0)));
    in.push_back(&c.tex(i));
    sum += (i ? " + " : "") + std::string("load_in") + std::to_string(i) + "(n, h, w, s)";
  }
  auto out = c.output(c.shape(0));
  KernelCall call;
  call.shader = "addn.comp";
  call.defines = "#define SUM (" + sum + ")\n";
  call.inputs = std::move(in);
  call.output = out.get();
  c.dispatch(call);
  return OpContext::result(out, c.shape(0));
}

// Two inputs, and a third when the node has Prelu fused: its alpha, one per output channel.
// Where shape inference does not know the output's channels, an alpha of that form passes and
// the kernel checks it (cpu runs the node when it does not match).
bool binary_supported(const graph::Node& n, InputInfos inputs) {
  const int act = fused_activation(n);
  if (act != 5) return act >= 0 && n.inputs.size() == 2;
  if (n.inputs.size() != 3) return false;
  if (inputs.empty()) return true;
  const PartialShape* alpha = known_shape(inputs, 2);
  const std::int64_t c = out_channels(n);
  if (c >= 0 || !alpha || alpha->dims.empty()) return per_channel(alpha, c);
  return per_channel(alpha, alpha->dims.back());
}

// Within the 16 samplers every GL 4.3 driver gives a compute shader.
bool add_n_supported(const graph::Node& n, InputInfos) {
  return n.inputs.size() >= 1 && n.inputs.size() <= 16;
}

}  // namespace

// Listed by op_registry.cpp.
extern const GlOpEntry kElementwiseOps[];
extern const std::size_t kNumElementwiseOps;
const GlOpEntry kElementwiseOps[] = {
    {"Relu", unary_op<kAct, kRelu>, nullptr},
    {"Relu6", unary_op<kAct, kRelu6>, nullptr},
    {"Elu", unary_op<kAct, kElu>, nullptr},
    {"Sigmoid", unary_op<kAct, kSigmoid>, nullptr},
    {"Tanh", unary_op<kAct, kTanh>, nullptr},
    {"LeakyRelu", leaky_relu, nullptr},
    {"Exp", unary_op<kExp>, nullptr},
    {"Abs", unary_op<kAbs>, nullptr},
    {"Neg", unary_op<kNeg>, nullptr},
    {"Square", unary_op<kSquare>, nullptr},
    {"Add", binary_op<kAdd>, binary_supported},
    {"AddV2", binary_op<kAdd>, binary_supported},
    {"Sub", binary_op<kSub>, binary_supported},
    {"Mul", binary_op<kMul>, binary_supported},
    {"RealDiv", binary_op<kDiv>, binary_supported},
    {"Maximum", binary_op<kMax>, binary_supported},
    {"Minimum", binary_op<kMin>, binary_supported},
    {"SquaredDifference", binary_op<kSqDiff>, binary_supported},
    {"Prelu", binary_op<kPrelu>, nullptr},
    {"BiasAdd", bias_add, binary_supported},
    {"AddN", add_n, add_n_supported},
    {"Rsqrt", unary_op<kRsqrt>, nullptr},
    {"Sqrt", unary_op<kSqrt>, nullptr},
    {"Reciprocal", unary_op<kReciprocal>, nullptr},
    {"Floor", unary_op<kFloor>, nullptr},
    {"Ceil", unary_op<kCeil>, nullptr},
    {"Log", unary_op<kLog>, nullptr},
    {"Sin", unary_op<kSin>, nullptr},
    {"Cos", unary_op<kCos>, nullptr},
    {"Round", unary_op<kRound>, nullptr},
    {"Softplus", unary_op<kSoftplus>, nullptr},
    {"Sign", unary_op<kSign>, nullptr},
};
const std::size_t kNumElementwiseOps = std::size(kElementwiseOps);

}  // namespace tfjsi::gl
