#include "ops/fusion.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "core/error.h"
#include "ops/attr.h"

namespace tfjsi::ops {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// The value of `ref` when it is a scalar (one element) float32 Const.
std::optional<float> scalar_const(const graph::Graph& graph, const graph::TensorRef& ref) {
  const graph::Node& c = graph.nodes[static_cast<std::size_t>(ref.node)];
  if (c.op != "Const" || !c.value || c.value->dtype != DType::Float32 ||
      c.value->num_elements() != 1 || !c.value->buffer)
    return std::nullopt;
  return c.value->values<float>()[0];
}

// The one reader of a node's output, or -1.
int only(std::span<const int> readers) {
  return readers.size() == 1 ? readers[0] : -1;
}

// The scalar Const that `n`, a binary op `op` (or `alt`), combines with a's output, in either
// order.
std::optional<float> binary_with_const(const graph::Graph& graph, const graph::Node& n, int a,
                                       std::string_view op, std::string_view alt = {}) {
  if ((n.op != op && (alt.empty() || n.op != alt)) || n.inputs.size() != 2) return std::nullopt;
  for (int k = 0; k < 2; ++k)
    if (n.inputs[k].node == a && n.inputs[k].output == 0)
      if (auto v = scalar_const(graph, n.inputs[1 - k])) return v;
  return std::nullopt;
}

}  // namespace

std::optional<Activation> fused_activation(std::string_view name) {
  const std::string a = lower(name);
  if (a.empty()) return Activation::None;
  if (a == "relu") return Activation::Relu;
  if (a == "relu6") return Activation::Relu6;
  if (a == "elu") return Activation::Elu;
  if (a == "leakyrelu") return Activation::LeakyRelu;
  if (a == "prelu") return Activation::Prelu;
  if (a == "sigmoid") return Activation::Sigmoid;
  return std::nullopt;
}

// Attributes of another form (fused_ops not a list of strings, ...) throw from attr<T>, as every
// kernel's attributes do.
FusedEpilogue fused_epilogue(const graph::Node& node, std::size_t num_inputs) {
  const auto fail = [&](const std::string& why) {
    throw ModelError("node '" + node.name + "' (" + node.op + "): " + why);
  };
  FusedEpilogue e;
  const Strings fused = attr<Strings>(node, "fused_ops", {});
  const std::int64_t have = static_cast<std::int64_t>(num_inputs) - 2;
  const std::int64_t num_args = attr<std::int64_t>(node, "num_args", have);
  if (num_args < 0 || num_args != have)
    fail("num_args is " + std::to_string(num_args) + " but the node has " +
         std::to_string(num_inputs) + " inputs");
  // TF.js reads fused_ops as [extra op, activation]; it supports BiasAdd and no FusedBatchNorm.
  if (fused.size() > 2) fail("fused_ops lists more than two ops");
  if (fused.empty()) {
    if (num_args != 0) fail("extra inputs given but fused_ops is empty");
    return e;
  }
  const std::string first = lower(fused[0]);
  if (first == "fusedbatchnorm")
    fail("fused FusedBatchNorm is not supported (TF.js does not support it either)");
  if (first != "biasadd")
    fail("fused op '" + fused[0] + "' is not supported (expected BiasAdd first)");
  e.bias = true;
  e.addend = attr<bool>(node, kFusedAddend, false);
  e.addend_after_activation = e.addend && attr<bool>(node, kFusedAddendAfterActivation, false);
  const std::optional<Activation> act = fused_activation(fused.size() > 1 ? fused[1] : "");
  if (!act) fail("fused activation '" + fused[1] + "' is not supported");
  e.activation = *act;
  if (num_args != static_cast<std::int64_t>(e.extra_inputs()))
    fail("fused BiasAdd" + std::string(e.prelu() ? " and Prelu" : "") +
         std::string(e.addend ? " and an addend" : "") + " needs " +
         std::to_string(e.extra_inputs()) + " extra inputs, got " + std::to_string(num_args));
  e.leaky_alpha = attr<float>(node, "leakyrelu_alpha", 0.2f);
  if (const auto scale = try_attr<float>(node, kFusedHardSwishScale)) {
    if (e.activation != Activation::None) fail("a hard swish after another activation");
    e.activation = Activation::HardSwish;
    e.hard_swish_scale = *scale;
    e.hard_swish_shift =
        attr<float>(node, kFusedHardSwishShift, FusedEpilogue::kKerasHardSwishShift);
  }
  return e;
}

std::optional<FusedEpilogue> try_fused_epilogue(const graph::Node& node, std::size_t num_inputs) {
  try {
    return fused_epilogue(node, num_inputs);
  } catch (const ModelError&) {
    return std::nullopt;
  }
}

std::optional<Activation> activation_node(const graph::Node& act) {
  if (act.op == kHardSwishOp)
    return act.inputs.size() == 1 ? std::optional(Activation::HardSwish) : std::nullopt;
  const std::optional<Activation> a = fused_activation(act.op);
  if (!a || *a == Activation::None) return std::nullopt;
  if (act.inputs.size() != (*a == Activation::Prelu ? 2u : 1u)) return std::nullopt;
  return a;
}

std::string_view fused_form(std::string_view op) {
  if (op == "Conv2D") return "_FusedConv2D";
  if (op == "DepthwiseConv2dNative" || op == "DepthwiseConv2d") return "FusedDepthwiseConv2dNative";
  if (op == "MatMul") return "_FusedMatMul";
  return {};
}

bool has_fused_epilogue(std::string_view op) {
  return op == "_FusedConv2D" || op == "FusedDepthwiseConv2dNative" || op == "_FusedMatMul";
}

std::optional<graph::Node> fuse_bias(const graph::Node& producer, const graph::TensorRef& bias) {
  const std::string_view form = fused_form(producer.op);
  if (form.empty()) return std::nullopt;
  graph::Node fused = producer;
  fused.op = std::string(form);
  fused.attrs["fused_ops"] = std::vector<std::string>{"BiasAdd"};
  fused.attrs["num_args"] = std::int64_t{1};
  fused.inputs.push_back(bias);
  return fused;
}

std::optional<graph::Node> fuse_activation(const graph::Node& fused, const graph::Node& act) {
  if (!has_fused_epilogue(fused.op)) return std::nullopt;
  const std::optional<Activation> a = activation_node(act);
  if (!a) return std::nullopt;
  const bool prelu = *a == Activation::Prelu;
  // Only a fused node with a bias and no activation yet takes one.
  const auto e = try_fused_epilogue(fused, fused.inputs.size());
  if (!e || !e->bias || e->activation != Activation::None) return std::nullopt;
  graph::Node out = fused;
  if (*a == Activation::HardSwish) {
    out.attrs[std::string(kFusedHardSwishScale)] = attr<float>(act, "scale");
    out.attrs[std::string(kFusedHardSwishShift)] = attr<float>(act, "shift");
    return out;
  }
  out.attrs["fused_ops"] = std::vector<std::string>{"BiasAdd", act.op};
  if (*a == Activation::LeakyRelu) out.attrs["leakyrelu_alpha"] = attr<float>(act, "alpha", 0.2f);
  if (prelu) {
    // The alpha is input 3, before an addend (FusedEpilogue's order).
    out.attrs["num_args"] = static_cast<std::int64_t>(e->extra_inputs() + 1);
    out.inputs.insert(out.inputs.begin() + FusedEpilogue::kAlphaInput, act.inputs[1]);
  }
  return out;
}

std::optional<graph::Node> fuse_addend(const graph::Node& fused, const graph::TensorRef& addend) {
  if (!has_fused_epilogue(fused.op)) return std::nullopt;
  const auto e = try_fused_epilogue(fused, fused.inputs.size());
  if (!e || !e->bias || e->addend) return std::nullopt;
  graph::Node out = fused;
  out.attrs[std::string(kFusedAddend)] = true;
  if (e->activation != Activation::None) out.attrs[std::string(kFusedAddendAfterActivation)] = true;
  out.attrs["num_args"] = static_cast<std::int64_t>(e->extra_inputs() + 1);
  out.inputs.push_back(addend);
  return out;
}

std::optional<HardSwishNodes> match_hard_swish(
    const graph::Graph& graph, int x, const std::function<std::span<const int>(int)>& readers) {
  const std::span<const int> of_x = readers(x);
  if (of_x.size() != 2) return std::nullopt;
  HardSwishNodes h;
  for (int r : of_x) {
    const graph::Node& n = graph.nodes[static_cast<std::size_t>(r)];
    if (const auto scale = binary_with_const(graph, n, x, "Mul")) {
      h.mul = r;
      h.scale = *scale;
    } else if (const auto shift = binary_with_const(graph, n, x, "AddV2", "Add")) {
      h.add = r;
      h.shift = *shift;
    }
  }
  if (h.mul < 0 || h.add < 0) return std::nullopt;
  h.relu6 = only(readers(h.add));
  if (h.relu6 < 0) return std::nullopt;
  const graph::Node& relu6 = graph.nodes[static_cast<std::size_t>(h.relu6)];
  if (relu6.op != "Relu6" || relu6.inputs.size() != 1) return std::nullopt;
  h.out = only(readers(h.relu6));
  if (h.out < 0 || only(readers(h.mul)) != h.out) return std::nullopt;
  const graph::Node& out = graph.nodes[static_cast<std::size_t>(h.out)];
  if (out.op != "Mul" || out.inputs.size() != 2) return std::nullopt;
  const auto is = [](const graph::TensorRef& r, int node) {
    return r.node == node && r.output == 0;
  };
  if (!(is(out.inputs[0], h.mul) && is(out.inputs[1], h.relu6)) &&
      !(is(out.inputs[0], h.relu6) && is(out.inputs[1], h.mul)))
    return std::nullopt;
  return h;
}

}  // namespace tfjsi::ops
