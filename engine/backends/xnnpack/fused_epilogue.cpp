#include "backends/xnnpack/fused_epilogue.h"
#include "ops/attr.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace tfjsi::xnnpack {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The activation named in fused_ops[1], as bounds or a post op; false for an unknown name.
bool read_activation(const std::string& name, Fused& f) {
  const std::string act = lower(name);
  if (act == "relu") {
    f.min = 0.f;
  } else if (act == "relu6") {
    f.min = 0.f, f.max = 6.f;
  } else if (act == "elu") {
    f.post = PostOp::Elu;
  } else if (act == "leakyrelu") {
    f.post = PostOp::LeakyRelu;
  } else if (act == "prelu") {
    f.post = PostOp::Prelu;
  } else if (act == "sigmoid") {
    f.post = PostOp::Sigmoid;
  } else {
    return false;
  }
  return true;
}

// A float input with `channels` values (or one, repeated).
std::optional<std::vector<float>> per_channel(NativeCall& call, std::size_t i,
                                              std::int64_t channels) {
  if (!call.is_float(i)) return std::nullopt;
  const HostTensor& t = call.input(i);
  const auto v = t.values<float>();
  if (static_cast<std::int64_t>(v.size()) == channels)
    return std::vector<float>(v.begin(), v.end());
  if (v.size() == 1) return std::vector<float>(static_cast<std::size_t>(channels), v[0]);
  return std::nullopt;
}

}  // namespace

void Fused::add_params(std::vector<std::int64_t>& params) const {
  params.push_back(float_bits(min));
  params.push_back(float_bits(max));
  params.push_back(bias.empty() ? 0 : 1);
}

bool fused_ops_fit(const graph::Node& node) {
  const auto fused = ops::try_attr<ops::Strings>(node, "fused_ops", {});
  if (!fused || fused->size() > 2) return false;
  if (fused->empty()) return true;
  if (lower((*fused)[0]) != "biasadd") return false;
  Fused f;
  return fused->size() == 1 || read_activation((*fused)[1], f);
}

std::optional<Fused> read_fused(NativeCall& call, std::int64_t channels) {
  const graph::Node& node = call.node;
  Fused f;
  const auto fused = ops::try_attr<ops::Strings>(node, "fused_ops", {});
  if (!fused || fused->size() > 2) return std::nullopt;
  if (fused->empty()) {
    if (call.num_inputs() != 2) return std::nullopt;
    return f;
  }
  if (lower((*fused)[0]) != "biasadd") return std::nullopt;
  if (fused->size() == 2 && !read_activation((*fused)[1], f)) return std::nullopt;
  const std::size_t want = f.post == PostOp::Prelu ? 4 : 3;
  const auto num_args =
      ops::try_attr<std::int64_t>(node, "num_args", static_cast<std::int64_t>(want) - 2);
  if (call.num_inputs() != want || !num_args || *num_args != static_cast<std::int64_t>(want) - 2)
    return std::nullopt;
  auto bias = per_channel(call, 2, channels);
  if (!bias) return std::nullopt;
  f.bias = std::move(*bias);
  f.bias_buffer = call.input(2).buffer;
  if (f.post == PostOp::Prelu) {
    auto alpha = per_channel(call, 3, channels);
    if (!alpha) return std::nullopt;
    f.alpha = std::move(*alpha);
    f.alpha_buffer = call.input(3).buffer;
  }
  if (f.post == PostOp::LeakyRelu) {
    const auto a = ops::try_attr<float>(node, "leakyrelu_alpha", 0.2f);
    if (!a) return std::nullopt;
    f.leaky_alpha = *a;
  }
  return f;
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
