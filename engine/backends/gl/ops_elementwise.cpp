// Elementwise ops: activations and other unary functions, binary ops with broadcasting, AddN.
#include <algorithm>
#include <array>

#include "backends/gl/gl_op.h"
#include "backends/gl/shader_library.h"
#include "ops/attr.h"
#include "ops/fusion.h"

namespace tfjsi::gl {

KernelCall unary_call(std::string_view op, Activation act, float alpha, const GlTensorData& x,
                      GlTensorData& out) {
  KernelCall call;
  call.shader = "unary.comp";
  call.defines = def_symbol("OP", op);
  set_activation(call, act, alpha);
  call.inputs = {&x};
  call.output = &out;
  return call;
}

namespace {

// binary_call without the ADDEND #define, which a fused addend sets (set_addend).
KernelCall binary_base(const GlBackend& gl, std::string_view op, Activation act, float alpha,
                       const GlTensorData& a, const GlTensorData& b, GlTensorData& out) {
  KernelCall call;
  call.shader = "binary.comp";
  // Broadcasting along N, H, W is a clamp by the uniform shapes; a single channel is splatted
  // across the lanes (not needed for an output of one channel). The op and the splats are
  // uniforms (binary.comp says why).
  call.set_int("OP", shader_constant("binary.comp", op));
  const bool many = out.layout().c > 1;
  call.set_int("IN0_SPLAT", many && a.layout().c == 1 ? 1 : 0);
  call.set_int("IN1_SPLAT", many && b.layout().c == 1 ? 1 : 0);
  call.inputs = {&a, &b};
  add_lazy_rounding(gl, call, 2);
  set_activation(call, act, alpha);
  call.output = &out;
  return call;
}

}  // namespace

KernelCall binary_call(const GlBackend& gl, std::string_view op, Activation act, float alpha,
                       const GlTensorData& a, const GlTensorData& b, GlTensorData& out) {
  KernelCall call = binary_base(gl, op, act, alpha, a, b, out);
  call.defines += def("ADDEND", std::int64_t{0});
  return call;
}

namespace {

// `op` is unary.comp's macro for f (OP_EXP, ...; OP_ACT applies `act`).
std::vector<runtime::TensorView> unary(OpContext& c, std::string_view op,
                                       Activation act = Activation::None, float alpha = 0.f) {
  // Functions that leave a half a half besides the clips (a sign, an integer of a half).
  constexpr std::array<std::string_view, 6> kKeepsHalves{"OP_ABS",  "OP_NEG",   "OP_FLOOR",
                                                         "OP_CEIL", "OP_ROUND", "OP_SIGN"};
  const bool keeps = (op == "OP_ACT" && act != Activation::None && keeps_halves(act)) ||
                     std::find(kKeepsHalves.begin(), kKeepsHalves.end(), op) != kKeepsHalves.end();
  c.expect_inputs(1, 1);
  const GlTensorData& x = c.tex(0);
  auto out = c.output(c.shape(0));
  KernelCall call = unary_call(op, act, alpha, x, *out);
  if (keeps) call.stores = KernelCall::Stores::InputValues;
  c.dispatch(call);
  return OpContext::result(out, c.shape(0));
}

std::vector<runtime::TensorView> leaky_relu(OpContext& c) {
  return unary(c, "OP_ACT", Activation::Leaky, ops::attr<float>(c.node(), "alpha", 0.2f));
}

// The activation a fused node applies before its store (GlBackend::fuse): None for none, nullopt
// for one gl does not have.
std::optional<Activation> fused_activation(const graph::Node& n) {
  const auto act = ops::try_attr<std::string>(n, runtime::kFusedActivation);
  return act ? activation_of(*act) : Activation::None;
}

// `op` names binary.comp's op (OP_ADD, ...).
std::vector<runtime::TensorView> binary(OpContext& c, std::string_view op) {
  const std::optional<Activation> act = fused_activation(c.node());
  if (!act) c.unsupported("its fused activation is not supported");
  const bool prelu = *act == Activation::Prelu;
  // A fused Prelu reads its alpha, one per output channel, as input 2; a fused addend
  // (ops::kFusedAddend, of the output's shape) is the last input.
  const bool addend = ops::attr<bool>(c.node(), ops::kFusedAddend, false);
  const std::size_t want = 2 + (prelu ? 1 : 0) + (addend ? 1 : 0);
  c.expect_inputs(want, want);
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
  KernelCall call =
      binary_base(c.backend(), op, *act,
                  ops::attr<float>(c.node(), runtime::kFusedActivationAlpha, 0.2f), a, b, *out);
  const bool many = out->layout().c > 1;
  if (prelu) {
    call.inputs.push_back(&c.per_channel_tex(2, out_shape.back(), "prelu alpha"));
    call.defines += def("IN2_SPLAT", std::int64_t{many && call.inputs.back()->layout().c == 1});
  }
  set_addend(c, call, addend ? std::optional(want - 1) : std::nullopt,
             ops::attr<bool>(c.node(), ops::kFusedAddendAfterActivation, false), out_shape);
  // The larger or smaller of two halves, maybe clipped: a half.
  if ((op == "OP_MAX" || op == "OP_MIN") && !addend && keeps_halves(*act))
    call.stores = KernelCall::Stores::InputValues;
  c.dispatch(call);
  return OpContext::result(out, out_shape);
}

std::vector<runtime::TensorView> bias_add(OpContext& c) {
  if (c.num_inputs() < 2) c.fail("needs input and bias");
  const Shape& x = c.shape(0);
  const Shape& b = c.shape(1);
  if (b.size() != 1 || x.empty() || b[0] != x.back())
    c.fail("bias of shape " + shape_to_string(b) + " does not match the channels of " +
           shape_to_string(x));
  return binary(c, "OP_ADD");
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
  const std::optional<Activation> act = fused_activation(n);
  // A fused addend (ops::kFusedAddend) is one input more, the last.
  const std::size_t addend = ops::attr<bool>(n, ops::kFusedAddend, false) ? 1 : 0;
  if (act != Activation::Prelu) return act && n.inputs.size() == 2 + addend;
  if (n.inputs.size() != 3 + addend) return false;
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
    {"Relu", [](OpContext& c) { return unary(c, "OP_ACT", Activation::Relu); }, nullptr},
    {"Relu6", [](OpContext& c) { return unary(c, "OP_ACT", Activation::Relu6); }, nullptr},
    {"Elu", [](OpContext& c) { return unary(c, "OP_ACT", Activation::Elu); }, nullptr},
    {"Sigmoid", [](OpContext& c) { return unary(c, "OP_ACT", Activation::Sigmoid); }, nullptr},
    {"Tanh", [](OpContext& c) { return unary(c, "OP_ACT", Activation::Tanh); }, nullptr},
    {"LeakyRelu", leaky_relu, nullptr},
    {"Exp", [](OpContext& c) { return unary(c, "OP_EXP"); }, nullptr},
    {"Abs", [](OpContext& c) { return unary(c, "OP_ABS"); }, nullptr},
    {"Neg", [](OpContext& c) { return unary(c, "OP_NEG"); }, nullptr},
    {"Square", [](OpContext& c) { return unary(c, "OP_SQUARE"); }, nullptr},
    {"Add", [](OpContext& c) { return binary(c, "OP_ADD"); }, binary_supported},
    {"AddV2", [](OpContext& c) { return binary(c, "OP_ADD"); }, binary_supported},
    {"Sub", [](OpContext& c) { return binary(c, "OP_SUB"); }, binary_supported},
    {"Mul", [](OpContext& c) { return binary(c, "OP_MUL"); }, binary_supported},
    {"RealDiv", [](OpContext& c) { return binary(c, "OP_DIV"); }, binary_supported},
    {"Maximum", [](OpContext& c) { return binary(c, "OP_MAX"); }, binary_supported},
    {"Minimum", [](OpContext& c) { return binary(c, "OP_MIN"); }, binary_supported},
    {"SquaredDifference", [](OpContext& c) { return binary(c, "OP_SQDIFF"); }, binary_supported},
    {"Prelu", [](OpContext& c) { return binary(c, "OP_PRELU"); }, nullptr},
    {"BiasAdd", bias_add, binary_supported},
    {"AddN", add_n, add_n_supported},
    {"Rsqrt", [](OpContext& c) { return unary(c, "OP_RSQRT"); }, nullptr},
    {"Sqrt", [](OpContext& c) { return unary(c, "OP_SQRT"); }, nullptr},
    {"Reciprocal", [](OpContext& c) { return unary(c, "OP_RECIPROCAL"); }, nullptr},
    {"Floor", [](OpContext& c) { return unary(c, "OP_FLOOR"); }, nullptr},
    {"Ceil", [](OpContext& c) { return unary(c, "OP_CEIL"); }, nullptr},
    {"Log", [](OpContext& c) { return unary(c, "OP_LOG"); }, nullptr},
    {"Sin", [](OpContext& c) { return unary(c, "OP_SIN"); }, nullptr},
    {"Cos", [](OpContext& c) { return unary(c, "OP_COS"); }, nullptr},
    {"Round", [](OpContext& c) { return unary(c, "OP_ROUND"); }, nullptr},
    {"Softplus", [](OpContext& c) { return unary(c, "OP_SOFTPLUS"); }, nullptr},
    {"Sign", [](OpContext& c) { return unary(c, "OP_SIGN"); }, nullptr},
    {"Asinh", [](OpContext& c) { return unary(c, "OP_ASINH"); }, nullptr},
    {"Acosh", [](OpContext& c) { return unary(c, "OP_ACOSH"); }, nullptr},
    {"Atanh", [](OpContext& c) { return unary(c, "OP_ATANH"); }, nullptr},
};
const std::size_t kNumElementwiseOps = std::size(kElementwiseOps);

}  // namespace tfjsi::gl
