#include "backends/cpu/nn_util.h"

#include <cmath>

#include "core/error.h"
#include "ops/window.h"

namespace tfjsi::cpu::nn {

void fail(const graph::Node& node, std::string_view what) {
  throw ModelError("node '" + node.name + "' (" + node.op + "): " + std::string(what));
}

void expect_inputs(const KernelContext& ctx, std::size_t min, std::size_t max) {
  const std::size_t n = ctx.inputs.size();
  if (n >= min && n <= max) return;
  std::string want =
      min == max ? std::to_string(min) : std::to_string(min) + " to " + std::to_string(max);
  fail(ctx.node, "expected " + want + " inputs, got " + std::to_string(n));
}

const HostTensor& float_input(const KernelContext& ctx, std::size_t i, int rank,
                              std::string_view what) {
  if (i >= ctx.inputs.size()) fail(ctx.node, "missing input " + std::string(what));
  const HostTensor& t = ctx.inputs[i];
  if (t.dtype != DType::Float32)
    fail(ctx.node, std::string(what) + " must be float32, got " + std::string(to_string(t.dtype)));
  if (rank >= 0 && t.rank() != rank)
    fail(ctx.node, std::string(what) + " must have rank " + std::to_string(rank) + ", got shape " +
                       shape_to_string(t.shape));
  if (!t.buffer || t.buffer->size() < t.byte_size())
    fail(ctx.node, std::string(what) + " has no data");
  return t;
}

std::vector<std::int64_t> int_input_values(const KernelContext& ctx, std::size_t i,
                                           std::string_view what) {
  if (i >= ctx.inputs.size()) fail(ctx.node, "missing input " + std::string(what));
  const HostTensor& t = ctx.inputs[i];
  if (!t.buffer || t.buffer->size() < t.byte_size())
    fail(ctx.node, std::string(what) + " has no data");
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(t.num_elements()));
  if (t.dtype == DType::Int32) {
    for (auto v : t.values<std::int32_t>()) out.push_back(v);
  } else if (t.dtype == DType::Float32) {
    for (float v : t.values<float>()) {
      if (!std::isfinite(v) || v != std::floor(v) || std::fabs(v) > 2e9f)
        fail(ctx.node, std::string(what) + " must hold integers");
      out.push_back(static_cast<std::int64_t>(v));
    }
  } else {
    fail(ctx.node, std::string(what) + " must be int32, got " + std::string(to_string(t.dtype)));
  }
  return out;
}

void expect_nhwc(const graph::Node& node) {
  if (ops::data_format(node) != ops::DataFormat::Nhwc)
    fail(node, "data_format 'NCHW' is not supported on cpu (only NHWC)");
}

namespace {

void check_output_shape(const graph::Node& node, const Shape& shape) {
  constexpr std::int64_t kMaxElements = std::int64_t{1} << 31;
  const auto n = checked_num_elements(shape);
  if (!n || *n > kMaxElements)
    fail(node, "output shape " + shape_to_string(shape) + " is invalid or too large");
}

}  // namespace

HostTensor new_output(const graph::Node& node, Shape shape, DType dtype) {
  check_output_shape(node, shape);
  return HostTensor::zeros(dtype, std::move(shape));
}

HostTensor new_output_uninitialized(const graph::Node& node, Shape shape, DType dtype) {
  check_output_shape(node, shape);
  return HostTensor::uninitialized(dtype, std::move(shape));
}

std::vector<float> broadcast_period(const graph::Node& node, const HostTensor& param,
                                    std::span<const std::int64_t> shape, std::string_view what) {
  // Leading 1s of the parameter broadcast trivially; what remains lines up with the trailing
  // dims of `shape`.
  std::span<const std::int64_t> pdims(param.shape);
  while (!pdims.empty() && pdims.front() == 1) pdims = pdims.subspan(1);
  auto mismatch = [&] {
    fail(node, std::string(what) + " of shape " + shape_to_string(param.shape) +
                   " does not broadcast to " + shape_to_string(shape));
  };
  if (pdims.size() > shape.size()) mismatch();
  const std::span<const std::int64_t> tail = shape.subspan(shape.size() - pdims.size());
  bool same = true;
  for (std::size_t d = 0; d < pdims.size(); ++d) {
    if (pdims[d] != tail[d] && pdims[d] != 1) mismatch();
    same = same && pdims[d] == tail[d];
  }
  const auto src = param.values<float>();
  if (same) return {src.begin(), src.end()};
  const std::int64_t period = num_elements(tail);
  std::vector<float> out(static_cast<std::size_t>(period));
  std::vector<std::int64_t> index(tail.size(), 0);
  for (std::int64_t i = 0; i < period; ++i) {
    std::int64_t p = 0;
    for (std::size_t d = 0; d < tail.size(); ++d) p = p * pdims[d] + (pdims[d] == 1 ? 0 : index[d]);
    out[static_cast<std::size_t>(i)] = src[static_cast<std::size_t>(p)];
    for (std::size_t d = tail.size(); d-- > 0;) {
      if (++index[d] < tail[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

}  // namespace tfjsi::cpu::nn
