// Ops that only change how a buffer is viewed (Reshape, Squeeze, ExpandDims: no copy) and ops that
// report a shape (Shape, Size, Rank: int32, as TF.js narrows out_type int64).
#include <algorithm>
#include <vector>

#include "backends/cpu/tensor_util.h"
#include "ops/attr.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

const HostTensor& any_input(const KernelContext& ctx, std::size_t i) {
  if (i >= ctx.inputs.size()) fail(ctx, "input " + std::to_string(i) + " is missing");
  return ctx.inputs[i];
}

HostTensor int_vector(const std::vector<std::int64_t>& v) {
  HostTensor t = HostTensor::zeros(DType::Int32, {static_cast<std::int64_t>(v.size())});
  auto o = t.mutable_values<std::int32_t>();
  for (std::size_t i = 0; i < v.size(); ++i) o[i] = static_cast<std::int32_t>(v[i]);
  return t;
}

HostTensor int_scalar(std::int64_t v) {
  HostTensor t = HostTensor::zeros(DType::Int32, {});
  t.mutable_values<std::int32_t>()[0] = static_cast<std::int32_t>(v);
  return t;
}

}  // namespace

std::vector<HostTensor> Reshape(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const HostTensor& x = any_input(ctx, 0);
  const auto dims = read_ints(ctx, 1, "shape");
  Shape shape(dims.begin(), dims.end());
  int unknown = -1;
  std::int64_t known = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (unknown >= 0) fail(ctx, "shape " + shape_to_string(shape) + " has more than one -1");
      unknown = static_cast<int>(i);
    } else if (shape[i] < 0) {
      fail(ctx, "shape " + shape_to_string(shape) + " has a negative dim");
    } else {
      known *= shape[i];
    }
  }
  const std::int64_t n = x.num_elements();
  if (unknown >= 0) {
    if (known == 0 || n % known != 0)
      fail(ctx, "cannot reshape " + shape_to_string(x.shape) + " into " + shape_to_string(dims));
    shape[unknown] = n / known;
  } else if (known != n) {
    fail(ctx, "cannot reshape " + shape_to_string(x.shape) + " (" + std::to_string(n) +
                  " elements) into " + shape_to_string(shape));
  }
  return {view_as(x, std::move(shape))};
}

std::vector<HostTensor> Squeeze(const KernelContext& ctx) {
  require_inputs(ctx, 1, 1);
  const HostTensor& x = any_input(ctx, 0);
  const int rank = x.rank();
  std::vector<std::int64_t> dims =
      ops::attr<std::vector<std::int64_t>>(ctx.node, "squeeze_dims", {});
  if (dims.empty()) dims = ops::attr<std::vector<std::int64_t>>(ctx.node, "axis", {});
  std::vector<bool> drop(rank, false);
  if (dims.empty()) {
    for (int d = 0; d < rank; ++d) drop[d] = x.shape[d] == 1;
  } else {
    for (auto a : dims) {
      const int d = normalize_axis(ctx, a, rank);
      if (x.shape[d] != 1)
        fail(ctx, "cannot squeeze dim " + std::to_string(d) + " of shape " +
                      shape_to_string(x.shape) + ": its size is not 1");
      drop[d] = true;
    }
  }
  Shape shape;
  for (int d = 0; d < rank; ++d)
    if (!drop[d]) shape.push_back(x.shape[d]);
  return {view_as(x, std::move(shape))};
}

std::vector<HostTensor> ExpandDims(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const HostTensor& x = any_input(ctx, 0);
  const int axis = normalize_axis(ctx, read_int(ctx, 1, "axis"), x.rank() + 1);
  Shape shape = x.shape;
  shape.insert(shape.begin() + axis, 1);
  return {view_as(x, std::move(shape))};
}

std::vector<HostTensor> ShapeOp(const KernelContext& ctx) {
  require_inputs(ctx, 1, 1);
  return {int_vector(any_input(ctx, 0).shape)};
}

std::vector<HostTensor> Size(const KernelContext& ctx) {
  require_inputs(ctx, 1, 1);
  return {int_scalar(num_elements(any_input(ctx, 0).shape))};
}

std::vector<HostTensor> Rank(const KernelContext& ctx) {
  require_inputs(ctx, 1, 1);
  return {int_scalar(any_input(ctx, 0).rank())};
}

}  // namespace tfjsi::cpu::tensor_ops
