// NativeCall and the helpers every native op file shares.
#include <cmath>
#include <stdexcept>

#include "backends/xnnpack/native_op.h"
#include "backends/xnnpack/xnnpack_backend.h"
#include "ops/window.h"

namespace tfjsi::xnnpack {

const void* NativeCall::activation(std::size_t i) {
  auto* d = dynamic_cast<XnnData*>(views_[i].data.get());
  if (!d) throw std::logic_error("xnnpack backend: input of node '" + node.name + "' is not on it");
  const bool was_owned = d->buffer() && d->buffer()->owned();
  inputs_[i].buffer = d->padded();
  if (!was_owned) ++stats_.pads;
  return inputs_[i].buffer->data();
}

bool NativeCall::is_float(std::size_t i, int rank) const {
  if (i >= inputs_.size()) return false;
  const HostTensor& t = inputs_[i];
  return t.dtype == DType::Float32 && (rank < 0 || t.rank() == rank) && t.buffer &&
         t.buffer->size() >= t.byte_size();
}

std::optional<std::vector<std::int64_t>> NativeCall::int_values(std::size_t i) const {
  if (i >= inputs_.size()) return std::nullopt;
  const HostTensor& t = inputs_[i];
  if (!t.buffer || t.buffer->size() < t.byte_size()) return std::nullopt;
  std::vector<std::int64_t> v;
  if (t.dtype == DType::Int32) {
    for (auto x : t.values<std::int32_t>()) v.push_back(x);
  } else if (t.dtype == DType::Float32) {
    for (float x : t.values<float>()) {
      if (!std::isfinite(x) || x != std::floor(x) || std::fabs(x) > 2e9f) return std::nullopt;
      v.push_back(static_cast<std::int64_t>(x));
    }
  } else {
    return std::nullopt;
  }
  return v;
}

bool NativeCall::setup_ok(xnn_status s) {
  ++stats_.setups;
  return s == xnn_status_success;
}

void NativeCall::run(xnn_operator_t op) {
  const xnn_status s = xnn_run_operator(op, pool);
  if (s != xnn_status_success)
    throw std::runtime_error("node '" + node.name + "' (" + node.op +
                             "): XNNPACK failed to run: " + status_name(s));
}

HostTensor new_output(Shape shape, DType dtype) {
  return HostTensor::uninitialized(dtype, std::move(shape));
}

std::vector<HostTensor> one(HostTensor t) {
  std::vector<HostTensor> v;
  v.push_back(std::move(t));
  return v;
}

bool nhwc(const graph::Node& node) {
  return ops::try_data_format(node) == ops::DataFormat::Nhwc;
}

std::optional<ops::Window> window_of(const graph::Node& node, const Shape& input,
                                     const Shape& filter) {
  auto w = ops::try_window(node, input, filter);
  if (!w || w->in_h < 1 || w->in_w < 1 || w->out_h < 1 || w->out_w < 1) return std::nullopt;
  return w;
}

bool float_output(const graph::Node& node) {
  if (node.outputs.empty() || !node.outputs[0].dtype) return true;
  return *node.outputs[0].dtype == DType::Float32;
}

}  // namespace tfjsi::xnnpack
