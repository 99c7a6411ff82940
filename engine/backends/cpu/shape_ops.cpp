// Ops that only change how a buffer is viewed (Reshape, Squeeze, ExpandDims: no copy), ops that
// pass their input through (EnsureShape, Print, FakeQuantWithMinMaxVars) and ops that report a
// shape (Shape, ShapeN, Size, Rank, BroadcastArgs: int32, as TF.js narrows out_type int64).
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

// One shape per input. TF.js builds them with tensor1d(shape) and no dtype, which makes float32
// whatever out_type says; we give what TF.js gives.
std::vector<HostTensor> ShapeN(const KernelContext& ctx) {
  require_inputs(ctx, 1);
  std::vector<HostTensor> out;
  for (std::size_t i = 0; i < ctx.inputs.size(); ++i) {
    const Shape& s = any_input(ctx, i).shape;
    HostTensor t = HostTensor::zeros(DType::Float32, {static_cast<std::int64_t>(s.size())});
    auto o = t.mutable_values<float>();
    for (std::size_t d = 0; d < s.size(); ++d) o[d] = static_cast<float>(s[d]);
    out.push_back(std::move(t));
  }
  return out;
}

// The shape two shapes broadcast to (NumPy rules), as an int32 vector.
std::vector<HostTensor> BroadcastArgs(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  for (std::size_t i = 0; i < 2; ++i)
    if (input(ctx, i).rank() != 1)
      fail(ctx, "input " + std::to_string(i) + " must be a shape vector, got shape " +
                    shape_to_string(input(ctx, i).shape));
  const auto s0 = read_ints(ctx, 0, "s0"), s1 = read_ints(ctx, 1, "s1");
  const auto& a = s0.size() >= s1.size() ? s0 : s1;
  const auto& b = s0.size() >= s1.size() ? s1 : s0;
  std::vector<std::int64_t> out = a;
  const std::size_t lead = a.size() - b.size();
  for (std::size_t i = 0; i < b.size(); ++i) {
    const std::int64_t x = a[lead + i], y = b[i];
    if (x != y && x != 1 && y != 1)
      fail(ctx,
           "shapes " + shape_to_string(s0) + " and " + shape_to_string(s1) + " do not broadcast");
    out[lead + i] = x == 1 ? y : x;
  }
  return {int_vector(out)};
}

std::vector<HostTensor> Size(const KernelContext& ctx) {
  require_inputs(ctx, 1, 1);
  return {int_scalar(num_elements(any_input(ctx, 0).shape))};
}

std::vector<HostTensor> Rank(const KernelContext& ctx) {
  require_inputs(ctx, 1, 1);
  return {int_scalar(any_input(ctx, 0).rank())};
}

// x itself when its shape is the one given (input 1 as TF.js reads it, else attribute shape;
// -1 matches any size).
std::vector<HostTensor> EnsureShape(const KernelContext& ctx) {
  require_inputs(ctx, 1, 2);
  const HostTensor& x = any_input(ctx, 0);
  std::vector<std::int64_t> want;
  if (ctx.inputs.size() > 1) {
    want = read_ints(ctx, 1, "shape");
  } else {
    const auto s = ops::attr<PartialShape>(ctx.node, "shape", PartialShape::unknown());
    if (!s.rank_known) return {x};
    want = s.dims;
  }
  bool ok = want.size() == x.shape.size();
  for (std::size_t d = 0; ok && d < want.size(); ++d) ok = want[d] < 0 || want[d] == x.shape[d];
  if (!ok)
    fail(ctx,
         "the shape of the input " + shape_to_string(x.shape) + " is not " + shape_to_string(want));
  return {x};
}

// Its first input; TF.js logs the others to the console, we do not.
std::vector<HostTensor> Print(const KernelContext& ctx) {
  require_inputs(ctx, 1);
  return {any_input(ctx, 0)};
}

// x unchanged: TF.js's converter ignores this op (graph_executor returns a clone of x) instead of
// quantizing to [min, max] as TF does, and we give what TF.js gives.
std::vector<HostTensor> FakeQuantWithMinMaxVars(const KernelContext& ctx) {
  require_inputs(ctx, 1, 3);
  return {any_input(ctx, 0)};
}

}  // namespace tfjsi::cpu::tensor_ops
