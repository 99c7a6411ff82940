// Activation functions (shared by every layer with an `activation` config) and the activation
// layers: Activation, ReLU, LeakyReLU, PReLU, ELU, ThresholdedReLU, Softmax. The math follows
// tfjs-layers 4.22 (hard_sigmoid = clip(0.2 x + 0.5, 0, 1); swish = x * sigmoid(x); gelu with erf).
#include <cctype>
#include <cmath>
#include <numeric>

#include "graph/keras/layers.h"
#include "graph/webgl_mark.h"

namespace tfjsi::graph::keras {

namespace {

// "hard_sigmoid", "hardSigmoid" and "HardSigmoid" all name the same function.
std::string normalized(std::string_view name) {
  std::string out;
  for (char c : name)
    if (c != '_') out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return out;
}

}  // namespace

TensorRef apply_activation(Layer& layer, TensorRef x, std::string_view activation,
                           const std::string& prefix) {
  const std::string a = normalized(activation);
  const Attrs t = t_attr();
  auto unary = [&](const char* op, TensorRef in) { return layer.add(op, {in}, t, prefix + op); };
  auto binary = [&](const char* op, TensorRef p, TensorRef q, const std::string& name) {
    return layer.add(op, {p, q}, t, prefix + name);
  };
  auto scalar = [&](const std::string& name, float v) { return layer.scalar(prefix + name, v); };

  if (a.empty() || a == "linear") return x;
  if (a == "relu") return unary("Relu", x);
  if (a == "relu6") return unary("Relu6", x);
  if (a == "sigmoid") return unary("Sigmoid", x);
  if (a == "tanh") return unary("Tanh", x);
  if (a == "softmax") return unary("Softmax", x);
  if (a == "logsoftmax") return unary("LogSoftmax", x);
  if (a == "elu") return unary("Elu", x);
  if (a == "selu") return unary("Selu", x);
  if (a == "softplus") return unary("Softplus", x);
  if (a == "softsign") return unary("Softsign", x);
  if (a == "exponential") return unary("Exp", x);
  if (a == "hardsigmoid") {
    const TensorRef y = binary("Mul", x, scalar("slope", 0.2f), "Mul");
    const TensorRef z = binary("AddV2", y, scalar("offset", 0.5f), "AddV2");
    const TensorRef lo = binary("Minimum", z, scalar("one", 1.0f), "Minimum");
    return binary("Maximum", lo, scalar("zero", 0.0f), "Maximum");
  }
  if (a == "swish" || a == "silu") return binary("Mul", x, unary("Sigmoid", x), "Mul");
  if (a == "mish") {
    const TensorRef th = unary("Tanh", unary("Softplus", x));
    return binary("Mul", x, th, "Mul");
  }
  if (a == "gelu") {
    // x * 0.5 * (1 + erf(x / sqrt(2)))
    const TensorRef s =
        binary("Mul", x, scalar("inv_sqrt2", static_cast<float>(1 / std::sqrt(2.0))), "scaled");
    const TensorRef e = unary("Erf", s);
    const TensorRef cdf = binary("Mul", binary("AddV2", e, scalar("one", 1.0f), "AddV2"),
                                 scalar("half", 0.5f), "cdf");
    return binary("Mul", x, cdf, "Mul");
  }
  if (a == "gelunew") {
    // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    const TensorRef x3 = binary("Mul", binary("Mul", x, x, "square"), x, "cube");
    const TensorRef inner =
        binary("AddV2", x, binary("Mul", x3, scalar("coef", 0.044715f), "cube_scaled"), "inner");
    const TensorRef th =
        unary("Tanh", binary("Mul", inner,
                             scalar("sqrt_2_over_pi", static_cast<float>(std::sqrt(2.0 / M_PI))),
                             "inner_scaled"));
    const TensorRef one_plus = binary("AddV2", th, scalar("one", 1.0f), "AddV2");
    return binary("Mul", binary("Mul", x, one_plus, "Mul"), scalar("half", 0.5f), "half_x");
  }
  layer.fail("activation '" + std::string(activation) + "' is not supported");
}

TensorRef apply_layer_activation(Layer& layer, TensorRef x) {
  if (!layer.get("activation")) return x;
  return apply_activation(layer, x, layer_activation_name(layer));
}

std::string layer_activation_name(Layer& layer) {
  const nlohmann::json* a = layer.get("activation");
  if (!a) return "linear";
  if (a->is_string()) return normalized(a->get<std::string>());
  // Newer Keras may write {"class_name": ..., "config": {"name": ...}}.
  if (a->is_object() && a->contains("class_name") && (*a)["class_name"].is_string())
    return normalized((*a)["class_name"].get<std::string>());
  layer.fail("config 'activation' is neither a name nor a serialized activation: " + a->dump());
}

bool tfjs_fuses_activation(Layer& layer) {
  const std::string a = layer_activation_name(layer);
  return a == "relu" || a == "linear" || a == "elu";
}

void mark_webgl_in_kernel(Layer& layer, TensorRef t) {
  Graph& g = layer.writer().graph();
  for (int n = t.node; n >= 0 && n < static_cast<int>(g.nodes.size());) {
    Node& node = g.nodes[static_cast<std::size_t>(n)];
    node.attrs.insert_or_assign(std::string(kWebglInKernel), true);
    if (node.op != "Reshape" || node.inputs.empty()) break;
    n = node.inputs[0].node;
  }
}

namespace {

// A layer's output must be a node of its own, even when the math is the identity.
TensorRef own_node(Layer& layer, TensorRef in, TensorRef out) {
  return out == in ? layer.add("Identity", {in}, t_attr()) : out;
}

}  // namespace

Outputs lower_activation(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  const std::string name = layer.string_or("activation", "linear");
  return {own_node(layer, in[0], apply_activation(layer, in[0], name))};
}

Outputs lower_relu(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  const TensorRef x = in[0];
  const nlohmann::json* max_j = layer.get("max_value");
  if (max_j && !max_j->is_number()) layer.fail("config 'max_value' must be a number or null");
  const double slope = layer.number_or("negative_slope", 0.0);
  const double threshold = layer.number_or("threshold", 0.0);
  const Attrs t = t_attr();

  TensorRef y;
  if (slope == 0.0 && threshold == 0.0) {
    if (max_j && max_j->get<double>() == 6.0) return {layer.add("Relu6", {x}, t)};
    y = layer.add("Relu", {x}, t);
  } else {
    // x where x >= threshold, else negative_slope * (x - threshold).
    const TensorRef thr = layer.scalar("threshold", static_cast<float>(threshold));
    const TensorRef keep = layer.add("GreaterEqual", {x, thr}, t);
    const TensorRef shifted = layer.add("Sub", {x, thr}, t);
    const TensorRef below =
        layer.add("Mul", {shifted, layer.scalar("negative_slope", static_cast<float>(slope))}, t);
    y = layer.add("SelectV2", {keep, x, below}, t);
  }
  if (max_j) {
    const TensorRef m = layer.scalar("max_value", static_cast<float>(max_j->get<double>()));
    y = layer.add("Minimum", {y, m}, t);
  }
  return {y};
}

Outputs lower_leaky_relu(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  // tfjs writes "alpha"; Keras 3 writes "negative_slope".
  const double alpha = layer.number_or("alpha", layer.number_or("negative_slope", 0.3));
  Attrs a = t_attr();
  a.emplace("alpha", static_cast<float>(alpha));
  return {layer.add("LeakyRelu", {in[0]}, std::move(a))};
}

Outputs lower_prelu(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  const PartialShape s = layer.shape(in[0]);
  if (!s.rank_known || s.dims.size() < 2) layer.fail("its input rank is not known statically");
  // alpha has the input's shape without the batch dim, with 1 on each shared axis.
  Shape expected(s.dims.begin() + 1, s.dims.end());
  for (std::int64_t axis : layer.int_list("shared_axes")) {
    if (axis < 1 || axis > static_cast<std::int64_t>(expected.size()))
      layer.fail("shared axis " + std::to_string(axis) + " is out of range");
    expected[static_cast<std::size_t>(axis - 1)] = 1;
  }
  const TensorRef alpha = layer.weight("alpha", expected);
  return {layer.add("Prelu", {in[0], alpha}, t_attr())};
}

Outputs lower_elu(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  const double alpha = layer.number_or("alpha", 1.0);
  const Attrs t = t_attr();
  if (alpha == 1.0) return {layer.add("Elu", {in[0]}, t)};
  // alpha * (exp(x) - 1) below zero, x above: relu(x) + alpha * min(elu(x), 0).
  const TensorRef e = layer.add("Elu", {in[0]}, t);
  const TensorRef neg = layer.add("Minimum", {e, layer.scalar("zero", 0.0f)}, t);
  const TensorRef scaled =
      layer.add("Mul", {neg, layer.scalar("alpha", static_cast<float>(alpha))}, t);
  const TensorRef pos = layer.add("Relu", {in[0]}, t);
  return {layer.add("AddV2", {pos, scaled}, t)};
}

Outputs lower_thresholded_relu(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  const double theta = layer.number_or("theta", 1.0);
  const TensorRef above =
      layer.add("Greater", {in[0], layer.scalar("theta", static_cast<float>(theta))}, t_attr());
  Attrs cast{{"SrcT", TypeAttr{"DT_BOOL"}}, {"DstT", TypeAttr{"DT_FLOAT"}}, {"Truncate", false}};
  const TensorRef mask = layer.add("Cast", {above}, std::move(cast));
  return {layer.add("Mul", {in[0], mask}, t_attr())};
}

Outputs lower_softmax(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  const int rank = layer.rank(in[0]);
  std::vector<std::int64_t> axes = layer.ints("axis", 1, std::vector<std::int64_t>{-1});
  if (axes.size() != 1) layer.fail("softmax over several axes is not supported");
  std::int64_t axis = axes[0] < 0 ? axes[0] + rank : axes[0];
  if (axis < 0 || axis >= rank) layer.fail("axis " + std::to_string(axes[0]) + " is out of range");
  if (axis == rank - 1) return {layer.add("Softmax", {in[0]}, t_attr())};
  // TF's Softmax works on the last axis: swap the axis there and back.
  std::vector<std::int32_t> perm(static_cast<std::size_t>(rank));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[static_cast<std::size_t>(axis)], perm.back());
  const TensorRef p = layer.int_const("perm", perm);
  const TensorRef moved = layer.add("Transpose", {in[0], p}, t_attr(), "to_last");
  const TensorRef sm = layer.add("Softmax", {moved}, t_attr());
  return {layer.add("Transpose", {sm, p}, t_attr(), "from_last")};
}

}  // namespace tfjsi::graph::keras
