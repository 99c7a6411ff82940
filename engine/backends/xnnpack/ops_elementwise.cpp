// Elementwise ops on XNNPACK: the nd binary operators (NumPy broadcasting, up to 6 dims), the nc
// unary operators run over a tensor as one contiguous row, Prelu and Softmax over the last axis.
#include <functional>
#include <limits>

#include "backends/xnnpack/ops.h"
#include "ops/attr.h"

namespace tfjsi::xnnpack {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

using BinaryCreate = xnn_status (*)(xnn_operator_t*);
using BinarySetup = xnn_status (*)(xnn_operator_t, std::size_t, const std::size_t*, std::size_t,
                                   const std::size_t*, const float*, const float*, float*,
                                   pthreadpool_t);

NativeResult binary(NativeCall& call, int kind, BinaryCreate create, BinarySetup setup) {
  if (call.num_inputs() != 2 || !call.is_float(0) || !call.is_float(1)) return std::nullopt;
  const HostTensor& a = call.input(0);
  const HostTensor& b = call.input(1);
  if (a.rank() > XNN_MAX_TENSOR_DIMS || b.rank() > XNN_MAX_TENSOR_DIMS) return std::nullopt;
  if (a.num_elements() < 1 || b.num_elements() < 1) return std::nullopt;
  // Broadcast shape (right-aligned); anything else is the cpu kernel's to report.
  const int rank = std::max(a.rank(), b.rank());
  Shape out_shape(static_cast<std::size_t>(rank));
  for (int d = 0; d < rank; ++d) {
    const int da = d - (rank - a.rank()), db = d - (rank - b.rank());
    const std::int64_t x = da >= 0 ? a.shape[da] : 1, y = db >= 0 ? b.shape[db] : 1;
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out_shape[d] = std::max(x, y);
  }
  // Scalars go in as [1].
  std::size_t sa[XNN_MAX_TENSOR_DIMS] = {1}, sb[XNN_MAX_TENSOR_DIMS] = {1};
  for (int d = 0; d < a.rank(); ++d) sa[d] = static_cast<std::size_t>(a.shape[d]);
  for (int d = 0; d < b.rank(); ++d) sb[d] = static_cast<std::size_t>(b.shape[d]);
  OperatorCache::Recipe recipe;
  recipe.params = {kind};
  xnn_operator_t op = call.cache.get(call.node, 0, recipe, create);
  if (!op) return std::nullopt;
  HostTensor out = new_output(std::move(out_shape));
  if (!call.setup_ok(setup(op, static_cast<std::size_t>(std::max(a.rank(), 1)), sa,
                           static_cast<std::size_t>(std::max(b.rank(), 1)), sb,
                           static_cast<const float*>(call.activation(0)),
                           static_cast<const float*>(call.activation(1)),
                           out.mutable_values<float>().data(), call.pool)))
    return std::nullopt;
  call.run(op);
  return one(std::move(out));
}

using UnarySetup = xnn_status (*)(xnn_operator_t, std::size_t, const float*, float*, pthreadpool_t);

// A unary nc operator over the whole tensor: one channel, as many rows as elements, which
// XNNPACK runs as one contiguous vector.
NativeResult unary(NativeCall& call, std::vector<std::int64_t> params,
                   const std::function<xnn_status(xnn_operator_t*)>& create, UnarySetup setup) {
  if (call.num_inputs() != 1 || !call.is_float(0)) return std::nullopt;
  const HostTensor& x = call.input(0);
  if (x.num_elements() < 1) return std::nullopt;
  OperatorCache::Recipe recipe;
  recipe.params = std::move(params);
  xnn_operator_t op = call.cache.get(call.node, 0, recipe, create);
  if (!op) return std::nullopt;
  HostTensor out = new_output(x.shape);
  if (!call.setup_ok(setup(op, static_cast<std::size_t>(x.num_elements()),
                           static_cast<const float*>(call.activation(0)),
                           out.mutable_values<float>().data(), call.pool)))
    return std::nullopt;
  call.run(op);
  return one(std::move(out));
}

// Unary operators whose create takes (channels, input_stride, output_stride, flags, op).
using PlainCreate = xnn_status (*)(std::size_t, std::size_t, std::size_t, std::uint32_t,
                                   xnn_operator_t*);

NativeResult plain_unary(NativeCall& call, PlainCreate create, UnarySetup setup) {
  return unary(
      call, {}, [create](xnn_operator_t* op) { return create(1, 1, 1, 0, op); }, setup);
}

NativeResult clamp(NativeCall& call, float lo, float hi) {
  return unary(
      call, {float_bits(lo), float_bits(hi)},
      [lo, hi](xnn_operator_t* op) {
        return xnn_create_clamp_nc_f32(1, 1, 1, lo, hi, kOperatorFlags, op);
      },
      xnn_setup_clamp_nc_f32);
}

}  // namespace

#define TFJSI_XNN_BINARY(fn, kind, create_expr, setup_fn)                      \
  NativeResult fn(NativeCall& call) {                                          \
    return binary(                                                             \
        call, kind, [](xnn_operator_t* op) { return create_expr; }, setup_fn); \
  }

TFJSI_XNN_BINARY(op_add, 1, xnn_create_add_nd_f32(-kInf, kInf, kOperatorFlags, op),
                 xnn_setup_add_nd_f32)
TFJSI_XNN_BINARY(op_sub, 2, xnn_create_subtract_nd_f32(-kInf, kInf, kOperatorFlags, op),
                 xnn_setup_subtract_nd_f32)
TFJSI_XNN_BINARY(op_mul, 3, xnn_create_multiply_nd_f32(-kInf, kInf, kOperatorFlags, op),
                 xnn_setup_multiply_nd_f32)
TFJSI_XNN_BINARY(op_div, 4, xnn_create_divide_nd_f32(-kInf, kInf, kOperatorFlags, op),
                 xnn_setup_divide_nd_f32)
TFJSI_XNN_BINARY(op_maximum, 5, xnn_create_maximum_nd_f32(kOperatorFlags, op),
                 xnn_setup_maximum_nd_f32)
TFJSI_XNN_BINARY(op_minimum, 6, xnn_create_minimum_nd_f32(kOperatorFlags, op),
                 xnn_setup_minimum_nd_f32)
TFJSI_XNN_BINARY(op_squared_difference, 7, xnn_create_squared_difference_nd_f32(kOperatorFlags, op),
                 xnn_setup_squared_difference_nd_f32)

#undef TFJSI_XNN_BINARY

NativeResult op_relu(NativeCall& call) {
  return clamp(call, 0.f, kInf);
}
NativeResult op_relu6(NativeCall& call) {
  return clamp(call, 0.f, 6.f);
}
NativeResult op_elu(NativeCall& call) {
  return unary(
      call, {},
      [](xnn_operator_t* op) { return xnn_create_elu_nc_f32(1, 1, 1, 1.f, kOperatorFlags, op); },
      xnn_setup_elu_nc_f32);
}
NativeResult op_leaky_relu(NativeCall& call) {
  const auto alpha = ops::try_attr<float>(call.node, "alpha", 0.2f);
  if (!alpha) return std::nullopt;
  const float a = *alpha;
  return unary(
      call, {float_bits(a)},
      [a](xnn_operator_t* op) {
        return xnn_create_leaky_relu_nc_f32(1, 1, 1, a, kOperatorFlags, op);
      },
      xnn_setup_leaky_relu_nc_f32);
}
NativeResult op_sigmoid(NativeCall& call) {
  return plain_unary(call, xnn_create_sigmoid_nc_f32, xnn_setup_sigmoid_nc_f32);
}
NativeResult op_abs(NativeCall& call) {
  return plain_unary(call, xnn_create_abs_nc_f32, xnn_setup_abs_nc_f32);
}
NativeResult op_neg(NativeCall& call) {
  return plain_unary(call, xnn_create_negate_nc_f32, xnn_setup_negate_nc_f32);
}
NativeResult op_square(NativeCall& call) {
  return plain_unary(call, xnn_create_square_nc_f32, xnn_setup_square_nc_f32);
}
NativeResult op_sqrt(NativeCall& call) {
  return plain_unary(call, xnn_create_square_root_nc_f32, xnn_setup_square_root_nc_f32);
}
NativeResult op_floor(NativeCall& call) {
  return plain_unary(call, xnn_create_floor_nc_f32, xnn_setup_floor_nc_f32);
}
NativeResult op_ceil(NativeCall& call) {
  return plain_unary(call, xnn_create_ceiling_nc_f32, xnn_setup_ceiling_nc_f32);
}

// Prelu(x, alpha) with one alpha per channel (the last dim), as Keras PReLU with shared axes
// H and W gives.
NativeResult op_prelu(NativeCall& call) {
  if (call.num_inputs() != 2 || !call.is_float(0) || !call.is_float(1)) return std::nullopt;
  const HostTensor& x = call.input(0);
  const HostTensor& alpha = call.input(1);
  if (x.rank() < 1 || x.num_elements() < 1) return std::nullopt;
  const std::int64_t c = x.shape.back();
  if (alpha.num_elements() != c || alpha.rank() > x.rank()) return std::nullopt;
  // Only alpha's last dim may be other than 1.
  for (int d = 0; d + 1 < alpha.rank(); ++d)
    if (alpha.shape[d] != 1) return std::nullopt;
  if (alpha.rank() >= 1 && alpha.shape.back() != c) return std::nullopt;
  const auto cs = static_cast<std::size_t>(c);
  OperatorCache::Recipe recipe;
  recipe.params = {c};
  recipe.weights = {alpha.buffer};
  recipe.weight_bytes = cs * sizeof(float);
  auto create = [&](xnn_operator_t* op) {
    return xnn_create_prelu_nc_f32(cs, cs, cs, alpha.values<float>().data(), kOperatorFlags, op);
  };
  xnn_operator_t op = call.cache.get(call.node, 0, recipe, create);
  if (!op) return std::nullopt;
  HostTensor out = new_output(x.shape);
  if (!call.setup_ok(xnn_setup_prelu_nc_f32(op, static_cast<std::size_t>(x.num_elements() / c),
                                            static_cast<const float*>(call.activation(0)),
                                            out.mutable_values<float>().data(), call.pool)))
    return std::nullopt;
  call.run(op);
  return one(std::move(out));
}

NativeResult op_softmax(NativeCall& call) {
  if (call.num_inputs() != 1 || !call.is_float(0)) return std::nullopt;
  const HostTensor& x = call.input(0);
  if (x.rank() < 1 || x.num_elements() < 1) return std::nullopt;
  const std::int64_t c = x.shape.back();
  const auto cs = static_cast<std::size_t>(c);
  OperatorCache::Recipe recipe;
  recipe.params = {c};
  auto create = [cs](xnn_operator_t* op) {
    return xnn_create_softmax_nc_f32(cs, cs, cs, kOperatorFlags, op);
  };
  xnn_operator_t op = call.cache.get(call.node, 0, recipe, create);
  if (!op) return std::nullopt;
  HostTensor out = new_output(x.shape);
  if (!call.setup_ok(xnn_setup_softmax_nc_f32(op, static_cast<std::size_t>(x.num_elements() / c),
                                              static_cast<const float*>(call.activation(0)),
                                              out.mutable_values<float>().data(), call.pool)))
    return std::nullopt;
  call.run(op);
  return one(std::move(out));
}

}  // namespace tfjsi::xnnpack
