#include "backends/xnnpack/fused_epilogue.h"

namespace tfjsi::xnnpack {

std::optional<std::vector<float>> per_channel(const HostTensor* t, std::int64_t channels) {
  if (!t || t->dtype != DType::Float32 || !t->buffer || t->buffer->size() < t->byte_size())
    return std::nullopt;
  const auto v = t->values<float>();
  if (static_cast<std::int64_t>(v.size()) == channels)
    return std::vector<float>(v.begin(), v.end());
  if (v.size() == 1) return std::vector<float>(static_cast<std::size_t>(channels), v[0]);
  return std::nullopt;
}

void Fused::add_params(std::vector<std::int64_t>& params) const {
  params.push_back(float_bits(min));
  params.push_back(float_bits(max));
  params.push_back(bias.empty() ? 0 : 1);
}

Fused fused_activation(const ops::FusedEpilogue& e) {
  Fused f;
  switch (e.activation) {
    case ops::Activation::None:
      break;
    case ops::Activation::Relu:
      f.min = 0.f;
      break;
    case ops::Activation::Relu6:
      f.min = 0.f, f.max = 6.f;
      break;
    case ops::Activation::Elu:
      f.post = PostOp::Elu;
      break;
    case ops::Activation::LeakyRelu:
      f.post = PostOp::LeakyRelu;
      f.leaky_alpha = e.leaky_alpha;
      break;
    case ops::Activation::Prelu:
      f.post = PostOp::Prelu;
      break;
    case ops::Activation::Sigmoid:
      f.post = PostOp::Sigmoid;
      break;
    case ops::Activation::HardSwish:  // only gl's fusion makes it; declined below
      break;
  }
  return f;
}

namespace {

// What only gl's fusion makes (an addend, a hard swish) is not taken.
bool made_for_gl(const ops::FusedEpilogue& e) {
  return e.addend || e.activation == ops::Activation::HardSwish;
}

}  // namespace

bool fused_ops_fit(const graph::Node& node) {
  const auto e = ops::try_fused_epilogue(node, node.inputs.size());
  return e && !made_for_gl(*e);
}

std::optional<Fused> read_fused(const graph::Node& node, std::size_t num_inputs,
                                std::int64_t channels,
                                const std::function<const HostTensor*(std::size_t)>& input) {
  const auto e = ops::try_fused_epilogue(node, num_inputs);
  if (!e || made_for_gl(*e)) return std::nullopt;
  Fused f = fused_activation(*e);
  if (!e->bias) return f;
  const HostTensor* bias = input(ops::FusedEpilogue::kBiasInput);
  auto b = per_channel(bias, channels);
  if (!b) return std::nullopt;
  f.bias = std::move(*b);
  f.bias_buffer = bias->buffer;
  if (e->prelu()) {
    const HostTensor* alpha = input(ops::FusedEpilogue::kAlphaInput);
    auto a = per_channel(alpha, channels);
    if (!a) return std::nullopt;
    f.alpha = std::move(*a);
    f.alpha_buffer = alpha->buffer;
  }
  return f;
}

std::optional<Fused> read_fused(NativeCall& call, std::int64_t channels) {
  return read_fused(call.node, call.num_inputs(), channels,
                    [&](std::size_t i) { return call.is_float(i) ? &call.input(i) : nullptr; });
}

bool apply_post(NativeCall& call, const Fused& f, HostTensor& out, std::int64_t channels) {
  if (f.post == PostOp::None || out.num_elements() == 0) return true;
  OperatorCache::Recipe r;
  r.params = {static_cast<std::int64_t>(f.post)};
  std::size_t batch = static_cast<std::size_t>(out.num_elements());
  std::function<xnn_status(xnn_operator_t*)> create;
  switch (f.post) {
    case PostOp::None:
      return true;
    case PostOp::Elu:
      create = [](xnn_operator_t* op) {
        return xnn_create_elu_nc_f32(1, 1, 1, 1.f, kOperatorFlags, op);
      };
      break;
    case PostOp::LeakyRelu:
      r.params.push_back(float_bits(f.leaky_alpha));
      create = [&](xnn_operator_t* op) {
        return xnn_create_leaky_relu_nc_f32(1, 1, 1, f.leaky_alpha, kOperatorFlags, op);
      };
      break;
    case PostOp::Sigmoid:
      create = [](xnn_operator_t* op) {
        return xnn_create_sigmoid_nc_f32(1, 1, 1, kOperatorFlags, op);
      };
      break;
    case PostOp::Prelu: {
      const auto c = static_cast<std::size_t>(channels);
      if (c == 0) return false;
      r.params.push_back(channels);
      r.weights.push_back(f.alpha_buffer);
      r.weight_bytes = c * sizeof(float);
      batch /= c;
      create = [&, c](xnn_operator_t* op) {
        return xnn_create_prelu_nc_f32(c, c, c, f.alpha.data(), kOperatorFlags, op);
      };
      break;
    }
  }
  xnn_operator_t op = call.cache.get(call.node, 1, r, create);
  if (!op) return false;
  float* data = out.mutable_values<float>().data();
  xnn_status s = xnn_status_invalid_parameter;
  switch (f.post) {
    case PostOp::Elu:
      s = xnn_setup_elu_nc_f32(op, batch, data, data, call.pool);
      break;
    case PostOp::LeakyRelu:
      s = xnn_setup_leaky_relu_nc_f32(op, batch, data, data, call.pool);
      break;
    case PostOp::Sigmoid:
      s = xnn_setup_sigmoid_nc_f32(op, batch, data, data, call.pool);
      break;
    case PostOp::Prelu:
      s = xnn_setup_prelu_nc_f32(op, batch, data, data, call.pool);
      break;
    case PostOp::None:
      break;
  }
  if (!call.setup_ok(s)) return false;
  call.run(op);
  return true;
}

}  // namespace tfjsi::xnnpack
