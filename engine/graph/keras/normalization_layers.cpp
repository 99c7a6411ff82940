// BatchNormalization (inference: moving statistics) and LayerNormalization.
#include <vector>

#include "graph/keras/layers.h"

namespace tfjsi::graph::keras {

namespace {

std::int64_t one_axis(Layer& layer, int rank, std::int64_t fallback) {
  const auto axes = layer.ints("axis", 1, std::vector<std::int64_t>{fallback});
  if (axes.size() != 1) layer.fail("normalizing over several axes is not supported");
  const std::int64_t axis = axes[0] < 0 ? axes[0] + rank : axes[0];
  if (axis < 1 || axis >= rank) layer.fail("axis " + std::to_string(axes[0]) + " is out of range");
  return axis;
}

// A [C] parameter reshaped so it broadcasts along `axis` of a rank-`rank` tensor.
TensorRef along_axis(Layer& layer, TensorRef p, int rank, std::int64_t axis, std::int64_t c,
                     const std::string& name) {
  if (axis == rank - 1) return p;
  std::vector<std::int32_t> shape(static_cast<std::size_t>(rank), 1);
  shape[static_cast<std::size_t>(axis)] = static_cast<std::int32_t>(c);
  Attrs a = t_attr();
  a.emplace("Tshape", TypeAttr{"DT_INT32"});
  return layer.add("Reshape", {p, layer.int_const(name + "_shape", shape)}, std::move(a),
                   name + "_broadcast");
}

}  // namespace

Outputs lower_batch_normalization(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  const TensorRef x = in[0];
  const int rank = layer.rank(x);
  const std::int64_t axis = one_axis(layer, rank, -1);
  const std::int64_t c = layer.shape(x).dims[static_cast<std::size_t>(axis)];
  if (c < 0) layer.fail("the size of the normalized axis is not known statically");
  const double eps = layer.number_or("epsilon", 1e-3);
  const bool scale = layer.bool_or("scale", true), center = layer.bool_or("center", true);
  const TensorRef mean = layer.weight("moving_mean", {c});
  const TensorRef var = layer.weight("moving_variance", {c});
  std::optional<TensorRef> gamma, beta;
  if (scale) gamma = layer.weight("gamma", {c});
  if (center) beta = layer.weight("beta", {c});

  // (x - mean) * (rsqrt(var + eps) * gamma) + beta, parameters broadcast along the axis. Plain
  // elementwise ops rather than FusedBatchNormV3: every backend has them, and they take any rank
  // and axis.
  const Attrs t = t_attr();
  TensorRef inv = layer.add(
      "Rsqrt",
      {layer.add("AddV2", {var, layer.scalar("epsilon", static_cast<float>(eps))}, t, "var_eps")},
      t);
  mark_webgl_in_kernel(layer,
                       layer.writer().graph().nodes[static_cast<std::size_t>(inv.node)].inputs[0]);
  if (gamma) {
    mark_webgl_in_kernel(layer, inv);
    inv = layer.add("Mul", {inv, *gamma}, t, "scale");
  }
  inv = along_axis(layer, inv, rank, axis, c, "scale");
  const TensorRef m = along_axis(layer, mean, rank, axis, c, "mean");
  const TensorRef centered = layer.add("Sub", {x, m}, t, "centered");
  TensorRef y = layer.add("Mul", {centered, inv}, t);
  // TF.js runs all of it as one batchNorm kernel reading x and the four parameters: only the
  // last node's values are stored.
  mark_webgl_in_kernel(layer, inv);
  mark_webgl_in_kernel(layer, centered);
  if (beta) {
    mark_webgl_in_kernel(layer, y);
    y = layer.add("AddV2", {y, along_axis(layer, *beta, rank, axis, c, "beta")}, t);
  }
  return {y};
}

Outputs lower_layer_normalization(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  const TensorRef x = in[0];
  const int rank = layer.rank(x);
  const std::int64_t axis = one_axis(layer, rank, -1);
  if (axis != rank - 1) layer.fail("only the last axis is supported");
  const std::int64_t c = layer.channels(x);
  const double eps = layer.number_or("epsilon", 1e-3);
  const Attrs t = t_attr();
  Attrs mean_attrs = t_attr();
  mean_attrs.emplace("Tidx", TypeAttr{"DT_INT32"});
  mean_attrs.emplace("keep_dims", true);
  const TensorRef axes = layer.int_const("axes", {static_cast<std::int32_t>(axis)});
  const TensorRef mean = layer.add("Mean", {x, axes}, mean_attrs, "mean");
  const TensorRef diff = layer.add("Sub", {x, mean}, t, "centered");
  const TensorRef var =
      layer.add("Mean", {layer.add("Square", {diff}, t), axes}, mean_attrs, "variance");
  const TensorRef inv = layer.add(
      "Rsqrt",
      {layer.add("AddV2", {var, layer.scalar("epsilon", static_cast<float>(eps))}, t, "var_eps")},
      t);
  TensorRef y = layer.add("Mul", {diff, inv}, t, "normalized");
  if (layer.bool_or("scale", true)) y = layer.add("Mul", {y, layer.weight("gamma", {c})}, t);
  if (layer.bool_or("center", true)) y = layer.add("AddV2", {y, layer.weight("beta", {c})}, t);
  return {y};
}

}  // namespace tfjsi::graph::keras
