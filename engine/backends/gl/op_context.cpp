#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "backends/gl/fp16_storage.h"
#include "backends/gl/gl_op.h"
#include "core/error.h"

namespace tfjsi::gl {

void OpContext::add_half_between(KernelCall& call) const {
  // The driver's store rule where the probe found it; IEEE's otherwise (native RGBA16F storage
  // on a driver the probe could not explain).
  const auto& rules = gl_.half_rules();
  add_half_round(call, rules ? rules->store : HalfRule{});
  call.set_int("HALF_BETWEEN", half_between_);
}

void add_lazy_rounding(const GlBackend& gl, KernelCall& call, int inputs) {
  const auto& rules = gl.half_rules();
  const bool lazy = rules && gl.fp16_emulated();
  call.defines += def("LAZY_HALF", std::int64_t{lazy});
  if (!lazy) return;
  add_half_round(call, rules->store);
  for (int k = 0; k < inputs; ++k) {
    call.set_int("IN" + std::to_string(k) + "_HALF", 0);
    call.rounds_inputs |= 1u << k;
  }
  call.set_int("OUT_HALF", 0);
  call.rounds_store = true;
}

void set_addend(OpContext& c, KernelCall& call, std::optional<std::size_t> k, bool after_activation,
                const Shape& out_shape) {
  if (k) {
    if (c.shape(*k) != out_shape)
      c.unsupported("an addend " + shape_to_string(c.shape(*k)) +
                    " that is not of the output's shape " + shape_to_string(out_shape));
    call.inputs.push_back(&c.tex(*k));
    call.defines += "#define load_addend load_in" + std::to_string(call.inputs.size() - 1) + "\n";
  }
  call.defines += def("ADDEND", std::int64_t{k ? (after_activation ? 2 : 1) : 0});
}

bool set_activation(KernelCall& call, Activation a, float alpha) {
  const float inf = std::numeric_limits<float>::infinity();
  float slope = 1, ceiling = inf;
  bool zero_neg = false;
  switch (a) {
    case Activation::None:
      break;
    case Activation::Relu:
      zero_neg = true;
      break;
    case Activation::Relu6:
      zero_neg = true, ceiling = 6;
      break;
    case Activation::Leaky:
      slope = alpha;
      break;
    default:
      call.defines += def_symbol("ACT", glsl_macro(a));
      return false;
  }
  call.defines += def_symbol("ACT", glsl_macro(Activation::Linear));
  call.set_float("ACT_SLOPE", slope);
  call.set_float("ACT_CEILING", ceiling);
  call.set_int("ACT_ZERO_NEG", zero_neg);
  return true;
}

std::string def_symbol(std::string_view name, std::string_view symbol) {
  return "#define " + std::string(name) + " " + std::string(symbol) + "\n";
}

std::string def(std::string_view name, std::int64_t value) {
  return "#define " + std::string(name) + " " + std::to_string(value) + "\n";
}

std::string def(std::string_view name, float value) {
  // Nine significant digits round-trip a float exactly; non-finite values have no GLSL literal.
  char buf[48];
  if (std::isnan(value))
    std::snprintf(buf, sizeof buf, "(0.0 / 0.0)");
  else if (std::isinf(value))
    std::snprintf(buf, sizeof buf, "(%s1.0 / 0.0)", value < 0 ? "-" : "");
  else
    std::snprintf(buf, sizeof buf, "%.9e", static_cast<double>(value));
  return "#define " + std::string(name) + " " + buf + "\n";
}

std::string def_layout(std::string_view prefix, const TexLayout& l) {
  const std::string p(prefix);
  return def(p + "_N", l.n) + def(p + "_H", l.h) + def(p + "_W", l.w) + def(p + "_C", l.c) +
         def(p + "_C4", l.c4());
}

void add_layout_uniforms(std::vector<UniformValue>& out, std::string_view prefix,
                         const TexLayout& l) {
  const std::string p(prefix);
  out.push_back({p + "_N", false, l.n});
  out.push_back({p + "_H", false, l.h});
  out.push_back({p + "_W", false, l.w});
  out.push_back({p + "_C", false, l.c});
  out.push_back({p + "_C4", false, l.c4()});
}

const PartialShape* known_shape(InputInfos inputs, std::size_t i) {
  if (i >= inputs.size() || !inputs[i] || !inputs[i]->shape.rank_known) return nullptr;
  return &inputs[i]->shape;
}

bool per_channel(const PartialShape* s, std::int64_t channels) {
  if (!s || s->dims.empty()) return s != nullptr;  // a scalar broadcasts
  for (std::size_t i = 0; i + 1 < s->dims.size(); ++i)
    if (s->dims[i] != 1) return false;
  const std::int64_t c = s->dims.back();
  return c == 1 || (channels >= 0 && c == channels);
}

std::int64_t out_channels(const graph::Node& n) {
  if (n.outputs.empty() || !n.outputs[0].shape.rank_known || n.outputs[0].shape.dims.empty())
    return -1;
  return n.outputs[0].shape.dims.back();
}

void OpContext::fail(std::string_view what) const {
  throw ModelError("node '" + node_.name + "' (" + node_.op + ") on gl: " + std::string(what));
}

void OpContext::unsupported(std::string_view what) const {
  throw BackendLimit("node '" + node_.name + "' (" + node_.op + ") on gl: " + std::string(what));
}

void OpContext::expect_inputs(std::size_t min, std::size_t max) const {
  if (inputs_.size() < min || inputs_.size() > max)
    fail("expected " + std::to_string(min) + (min == max ? "" : " to " + std::to_string(max)) +
         " inputs, got " + std::to_string(inputs_.size()));
}

const Shape& OpContext::shape(std::size_t i) const {
  if (i >= inputs_.size()) fail("missing input " + std::to_string(i));
  return inputs_[i].shape;
}

const GlTensorData& OpContext::tex(std::size_t i) const {
  const GlTensorData& d = data(i);
  gl_.realize(d);
  return d;
}

const GlTensorData& OpContext::data(std::size_t i) const {
  if (i >= inputs_.size()) fail("missing input " + std::to_string(i));
  const auto* d = dynamic_cast<const GlTensorData*>(inputs_[i].data.get());
  if (!d || d->on_host() || inputs_[i].dtype != DType::Float32)
    unsupported("input " + std::to_string(i) + " must be a float32 tensor, got " +
                std::string(to_string(inputs_[i].dtype)));
  // A reshape may share the data under another shape of the same padded layout only.
  const auto l = layout_of(inputs_[i].shape);
  if (!l || !(*l == d->layout()))
    unsupported("input " + std::to_string(i) + " of shape " + shape_to_string(inputs_[i].shape) +
                " does not match its texture");
  return *d;
}

const GlTensorData& OpContext::per_channel_tex(std::size_t i, std::int64_t channels,
                                               std::string_view what) const {
  const auto l = layout_of(shape(i));
  if (!l || l->n != 1 || l->h != 1 || l->w != 1 || (l->c != 1 && l->c != channels))
    unsupported(std::string(what) + " of shape " + shape_to_string(shape(i)) +
                " is not per output channel (" + std::to_string(channels) + ")");
  return tex(i);
}

DType OpContext::dtype(std::size_t i) const {
  if (i >= inputs_.size()) fail("missing input " + std::to_string(i));
  return inputs_[i].dtype;
}

const GlTensorData* OpContext::host_ready(std::size_t i) const {
  if (i >= inputs_.size()) fail("missing input " + std::to_string(i));
  const auto* d = dynamic_cast<const GlTensorData*>(inputs_[i].data.get());
  if (!d) unsupported("input " + std::to_string(i) + " is not gl data");
  // A deferred fp16 tensor's host values are not rounded yet (small constants' host copies were
  // never rounded: those stay as they are).
  if (d->deferred() && d->fp16() && d->host()->num_elements() > kKeepHostElements) gl_.realize(*d);
  return d;
}

HostTensor OpContext::host(std::size_t i) const {
  const GlTensorData* d = host_ready(i);
  HostTensor h = d->host() ? *d->host() : gl_.download(inputs_[i]);
  h.shape = inputs_[i].shape;
  if (!h.buffer || h.buffer->size() < h.byte_size())
    unsupported("input " + std::to_string(i) + " has no data");
  return h;
}

std::vector<std::int64_t> OpContext::ints(std::size_t i) const {
  const GlTensorData* d = host_ready(i);
  HostTensor h = d->host() ? *d->host() : gl_.download(inputs_[i]);
  std::vector<std::int64_t> out;
  if (!h.buffer || h.buffer->size() < h.byte_size())
    unsupported("input " + std::to_string(i) + " has no data");
  if (h.dtype == DType::Int32) {
    for (auto v : h.values<std::int32_t>()) out.push_back(v);
  } else if (h.dtype == DType::Float32) {
    for (float v : h.values<float>()) {
      if (!std::isfinite(v) || v != std::floor(v) || std::fabs(v) > 2e9f)
        fail("input " + std::to_string(i) + " must hold integers");
      out.push_back(static_cast<std::int64_t>(v));
    }
  } else {
    fail("input " + std::to_string(i) + " must be int32");
  }
  return out;
}

float OpContext::scalar(std::size_t i) const {
  const GlTensorData* d = host_ready(i);
  HostTensor h = d->host() ? *d->host() : gl_.download(inputs_[i]);
  if (h.num_elements() != 1) fail("input " + std::to_string(i) + " must be a scalar");
  if (h.dtype == DType::Int32) return static_cast<float>(h.values<std::int32_t>()[0]);
  if (h.dtype == DType::Float32) return h.values<float>()[0];
  fail("input " + std::to_string(i) + " must be a number");
}

std::shared_ptr<GlTensorData> OpContext::output(const Shape& shape, bool fp16) const {
  for (auto v : shape)
    if (v < 0) fail("output shape " + shape_to_string(shape) + " is invalid");
  try {
    return gl_.new_texture(shape, fp16);
  } catch (const ModelError& e) {
    unsupported(e.what());
  }
}

}  // namespace tfjsi::gl
