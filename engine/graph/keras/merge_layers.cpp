// Merge layers: Add, Subtract, Multiply, Average, Maximum, Minimum (folded left to right as
// tfjs-layers does, so sums round the same way) and Concatenate.
#include "graph/keras/layers.h"

namespace tfjsi::graph::keras {

namespace {

void check_same_rank(Layer& layer, std::span<const TensorRef> in) {
  const PartialShape first = layer.shape(in[0]);
  for (std::size_t i = 1; i < in.size(); ++i) {
    const PartialShape s = layer.shape(in[i]);
    if (first.rank_known && s.rank_known && first.rank() != s.rank())
      layer.fail("inputs of different ranks (" + first.to_string() + " and " + s.to_string() +
                 ") are not supported");
  }
}

TensorRef fold(Layer& layer, std::span<const TensorRef> in, const char* op) {
  layer.expect_inputs(in, 2, true);
  check_same_rank(layer, in);
  TensorRef acc = in[0];
  for (std::size_t i = 1; i < in.size(); ++i) acc = layer.add(op, {acc, in[i]}, t_attr());
  return acc;
}

}  // namespace

Outputs lower_add(Layer& layer, std::span<const TensorRef> in) {
  return {fold(layer, in, "AddV2")};
}

Outputs lower_subtract(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 2);
  return {fold(layer, in, "Sub")};
}

Outputs lower_multiply(Layer& layer, std::span<const TensorRef> in) {
  return {fold(layer, in, "Mul")};
}

Outputs lower_average(Layer& layer, std::span<const TensorRef> in) {
  const TensorRef sum = fold(layer, in, "AddV2");
  const TensorRef inv = layer.scalar("inv_count", 1.0f / static_cast<float>(in.size()));
  return {layer.add("Mul", {sum, inv}, t_attr())};
}

Outputs lower_maximum(Layer& layer, std::span<const TensorRef> in) {
  return {fold(layer, in, "Maximum")};
}

Outputs lower_minimum(Layer& layer, std::span<const TensorRef> in) {
  return {fold(layer, in, "Minimum")};
}

Outputs lower_concatenate(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 2, true);
  check_same_rank(layer, in);
  const int rank = layer.rank(in[0]);
  std::int64_t axis = layer.int_or("axis", -1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank)
    layer.fail("axis " + std::to_string(layer.int_or("axis", -1)) + " is out of range for rank " +
               std::to_string(rank));
  std::vector<TensorRef> inputs(in.begin(), in.end());
  inputs.push_back(layer.int_const("axis", {static_cast<std::int32_t>(axis)}, Shape{}));
  Attrs a = t_attr(layer.dtype(in[0]).value_or(DType::Float32));
  a.emplace("N", static_cast<std::int64_t>(in.size()));
  a.emplace("Tidx", TypeAttr{"DT_INT32"});
  return {layer.add("ConcatV2", std::move(inputs), std::move(a))};
}

}  // namespace tfjsi::graph::keras
