// Spatial ops on XNNPACK: max and average pooling, Mean over height and width (global average
// pooling), ResizeBilinear, DepthToSpace and constant Pad.
#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

#include "backends/xnnpack/ops.h"
#include "ops/attr.h"

namespace tfjsi::xnnpack {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

std::size_t z(std::int64_t v) {
  return static_cast<std::size_t>(v);
}
std::uint32_t u(std::int64_t v) {
  return static_cast<std::uint32_t>(v);
}

enum class PoolKind { Max, Avg };

NativeResult pooling(NativeCall& call, PoolKind kind) {
  const graph::Node& node = call.node;
  if (call.num_inputs() != 1 || !call.is_float(0, 4) || !nhwc(node)) return std::nullopt;
  const HostTensor& x = call.input(0);
  const std::int64_t n = x.shape[0], in_h = x.shape[1], in_w = x.shape[2], c = x.shape[3];
  if (n < 1 || c < 1) return std::nullopt;
  const auto g = window_of(node, x.shape);
  if (!g) return std::nullopt;
  // Explicit pads (SAME's included): XNNPACK leaves padded positions out of both the maximum and
  // the average's divisor, as TF does.
  OperatorCache::Recipe recipe;
  recipe.params = {static_cast<std::int64_t>(kind),
                   g->k_h,
                   g->k_w,
                   g->stride_h,
                   g->stride_w,
                   g->pad_top,
                   g->pad_bottom,
                   g->pad_left,
                   g->pad_right,
                   c};
  auto create = [&](xnn_operator_t* op) {
    if (kind == PoolKind::Max)
      return xnn_create_max_pooling2d_nhwc_f32(
          u(g->pad_top), u(g->pad_right), u(g->pad_bottom), u(g->pad_left), u(g->k_h), u(g->k_w),
          u(g->stride_h), u(g->stride_w), 1, 1, z(c), z(c), z(c), -kInf, kInf, kOperatorFlags, op);
    return xnn_create_average_pooling2d_nhwc_f32(
        u(g->pad_top), u(g->pad_right), u(g->pad_bottom), u(g->pad_left), u(g->k_h), u(g->k_w),
        u(g->stride_h), u(g->stride_w), z(c), z(c), z(c), -kInf, kInf, kOperatorFlags, op);
  };
  xnn_operator_t op = call.cache.get(node, 0, recipe, create);
  if (!op) return std::nullopt;
  HostTensor out = new_output({n, g->out_h, g->out_w, c});
  const auto* in = static_cast<const float*>(call.activation(0));
  float* o = out.mutable_values<float>().data();
  const xnn_status s =
      kind == PoolKind::Max
          ? xnn_setup_max_pooling2d_nhwc_f32(op, z(n), z(in_h), z(in_w), in, o, call.pool)
          : xnn_setup_average_pooling2d_nhwc_f32(op, z(n), z(in_h), z(in_w), in, o, call.pool);
  if (!call.setup_ok(s)) return std::nullopt;
  call.run(op);
  return one(std::move(out));
}

}  // namespace

NativeResult op_max_pool(NativeCall& call) {
  return pooling(call, PoolKind::Max);
}
NativeResult op_avg_pool(NativeCall& call) {
  return pooling(call, PoolKind::Avg);
}

// Mean of an NHWC tensor over axes {1, 2}: global average pooling over H*W pixels.
NativeResult op_mean(NativeCall& call) {
  const graph::Node& node = call.node;
  if (call.num_inputs() != 2 || !call.is_float(0, 4)) return std::nullopt;
  const auto axes = call.int_values(1);
  const auto keep = node.attr("keep_dims") ? ops::try_attr<bool>(node, "keep_dims", false)
                                           : ops::try_attr<bool>(node, "keepDims", false);
  if (!axes || !keep) return std::nullopt;
  std::set<std::int64_t> set;
  for (auto a : *axes) set.insert(a < 0 ? a + 4 : a);
  if (set != std::set<std::int64_t>{1, 2}) return std::nullopt;
  const HostTensor& x = call.input(0);
  const std::int64_t n = x.shape[0], pixels = x.shape[1] * x.shape[2], c = x.shape[3];
  if (n < 1 || pixels < 1 || c < 1) return std::nullopt;
  OperatorCache::Recipe recipe;
  recipe.params = {c};
  auto create = [&](xnn_operator_t* op) {
    return xnn_create_global_average_pooling_nwc_f32(z(c), z(c), z(c), -kInf, kInf, kOperatorFlags,
                                                     op);
  };
  xnn_operator_t op = call.cache.get(node, 0, recipe, create);
  if (!op) return std::nullopt;
  HostTensor out = new_output(*keep ? Shape{n, 1, 1, c} : Shape{n, c});
  if (!call.setup_ok(xnn_setup_global_average_pooling_nwc_f32(
          op, z(n), z(pixels), static_cast<const float*>(call.activation(0)),
          out.mutable_values<float>().data(), call.pool)))
    return std::nullopt;
  call.run(op);
  return one(std::move(out));
}

// ResizeBilinear: TF's default coordinates (neither flag) are XNNPACK's TF legacy mode.
NativeResult op_resize_bilinear(NativeCall& call) {
  const graph::Node& node = call.node;
  if (call.num_inputs() != 2 || !call.is_float(0, 4)) return std::nullopt;
  const auto size = call.int_values(1);
  const auto align = ops::try_attr<bool>(node, "align_corners", false);
  const auto half = ops::try_attr<bool>(node, "half_pixel_centers", false);
  if (!size || size->size() != 2 || !align || !half || (*align && *half)) return std::nullopt;
  const HostTensor& x = call.input(0);
  const std::int64_t n = x.shape[0], in_h = x.shape[1], in_w = x.shape[2], c = x.shape[3];
  const std::int64_t out_h = (*size)[0], out_w = (*size)[1];
  if (n < 1 || in_h < 1 || in_w < 1 || c < 1 || out_h < 1 || out_w < 1 || out_h > (1 << 24) ||
      out_w > (1 << 24))
    return std::nullopt;
  const std::uint32_t flags = *align  ? XNN_FLAG_ALIGN_CORNERS
                              : *half ? 0u
                                      : XNN_FLAG_TENSORFLOW_LEGACY_MODE;
  OperatorCache::Recipe recipe;
  recipe.params = {c, flags};
  auto create = [&](xnn_operator_t* op) {
    return xnn_create_resize_bilinear2d_nhwc_f32(z(c), z(c), z(c), flags | kOperatorFlags, op);
  };
  xnn_operator_t op = call.cache.get(node, 0, recipe, create);
  if (!op) return std::nullopt;
  HostTensor out = new_output({n, out_h, out_w, c});
  if (!call.setup_ok(
          xnn_setup_resize_bilinear2d_nhwc_f32(op, z(n), z(in_h), z(in_w), z(out_h), z(out_w),
                                               static_cast<const float*>(call.activation(0)),
                                               out.mutable_values<float>().data(), call.pool)))
    return std::nullopt;
  call.run(op);
  return one(std::move(out));
}

// DepthToSpace (NHWC, TF's DCR order), for any 32-bit dtype.
NativeResult op_depth_to_space(NativeCall& call) {
  const graph::Node& node = call.node;
  if (call.num_inputs() != 1 || !nhwc(node)) return std::nullopt;
  const HostTensor& x = call.input(0);
  if ((x.dtype != DType::Float32 && x.dtype != DType::Int32) || x.rank() != 4 || !x.buffer ||
      x.buffer->size() < x.byte_size())
    return std::nullopt;
  const auto block = ops::try_attr<std::int64_t>(node, "block_size", 0);
  if (!block || *block < 2 || *block > (1 << 12)) return std::nullopt;
  const std::int64_t b = *block;
  const std::int64_t n = x.shape[0], h = x.shape[1], w = x.shape[2], c = x.shape[3];
  if (n < 1 || h < 1 || w < 1 || c < 1 || c % (b * b) != 0) return std::nullopt;
  const std::int64_t out_c = c / (b * b);
  OperatorCache::Recipe recipe;
  recipe.params = {b, out_c};
  auto create = [&](xnn_operator_t* op) {
    return xnn_create_depth_to_space_nhwc_x32(z(out_c), z(c), z(out_c), u(b), kOperatorFlags, op);
  };
  xnn_operator_t op = call.cache.get(node, 0, recipe, create);
  if (!op) return std::nullopt;
  HostTensor out = new_output({n, h * b, w * b, out_c}, x.dtype);
  if (!call.setup_ok(xnn_setup_depth_to_space_nhwc_x32(op, z(n), z(h), z(w), call.activation(0),
                                                       out.buffer->mutable_data(), call.pool)))
    return std::nullopt;
  call.run(op);
  return one(std::move(out));
}

// Pad and PadV2 with a constant, for any 32-bit dtype.
NativeResult op_pad(NativeCall& call) {
  const graph::Node& node = call.node;
  const bool v2 = node.op == "PadV2";
  if (call.num_inputs() != (v2 ? 3u : 2u)) return std::nullopt;
  const HostTensor& x = call.input(0);
  if ((x.dtype != DType::Float32 && x.dtype != DType::Int32) || !x.buffer ||
      x.buffer->size() < x.byte_size())
    return std::nullopt;
  const int rank = x.rank();
  if (rank < 1 || rank > XNN_MAX_TENSOR_DIMS || x.num_elements() < 1) return std::nullopt;
  const auto pads = call.int_values(1);
  if (!pads || pads->size() != static_cast<std::size_t>(2 * rank)) return std::nullopt;
  std::uint32_t value = 0;  // the constant's bit pattern
  if (v2) {
    const HostTensor& c = call.input(2);
    if (c.dtype != x.dtype || c.num_elements() != 1 || !c.buffer || c.buffer->size() < 4)
      return std::nullopt;
    std::memcpy(&value, c.buffer->data(), 4);
  }
  std::size_t shape[XNN_MAX_TENSOR_DIMS], pre[XNN_MAX_TENSOR_DIMS], post[XNN_MAX_TENSOR_DIMS];
  Shape out_shape(static_cast<std::size_t>(rank));
  for (int d = 0; d < rank; ++d) {
    const std::int64_t p0 = (*pads)[2 * d], p1 = (*pads)[2 * d + 1];
    if (p0 < 0 || p1 < 0 || p0 > (1 << 24) || p1 > (1 << 24)) return std::nullopt;
    shape[d] = z(x.shape[d]), pre[d] = z(p0), post[d] = z(p1);
    out_shape[d] = x.shape[d] + p0 + p1;
  }
  OperatorCache::Recipe recipe;
  recipe.params = {static_cast<std::int64_t>(value)};
  auto create = [&](xnn_operator_t* op) {
    return xnn_create_constant_pad_nd_x32(&value, kOperatorFlags, op);
  };
  xnn_operator_t op = call.cache.get(node, 0, recipe, create);
  if (!op) return std::nullopt;
  HostTensor out = new_output(std::move(out_shape), x.dtype);
  if (!call.setup_ok(xnn_setup_constant_pad_nd_x32(op, z(rank), shape, pre, post,
                                                   call.activation(0), out.buffer->mutable_data(),
                                                   call.pool)))
    return std::nullopt;
  call.run(op);
  return one(std::move(out));
}

}  // namespace tfjsi::xnnpack
