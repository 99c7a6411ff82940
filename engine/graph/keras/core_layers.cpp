// Core layers: Dense, Flatten, Reshape, Permute, RepeatVector, Embedding, and the layers that are
// the identity at inference (Dropout and the noise layers).
#include "graph/keras/layers.h"

namespace tfjsi::graph::keras {

namespace {

// [batch] + rest as an int32 tensor, where batch is read from x at run time (Keras leaves the
// batch dim open, so it cannot be a constant).
TensorRef batch_and(Layer& layer, TensorRef x, const std::vector<std::int32_t>& rest) {
  const PartialShape s = layer.shape(x);
  if (s.rank_known && !s.dims.empty() && s.dims[0] >= 0) {
    std::vector<std::int32_t> all{static_cast<std::int32_t>(s.dims[0])};
    all.insert(all.end(), rest.begin(), rest.end());
    return layer.int_const("shape", all);
  }
  Attrs shape_attrs = t_attr(layer.dtype(x).value_or(DType::Float32));
  shape_attrs.emplace("out_type", TypeAttr{"DT_INT32"});
  const TensorRef shape = layer.add("Shape", {x}, std::move(shape_attrs));
  Attrs slice = t_attr(DType::Int32);
  slice.emplace("Index", TypeAttr{"DT_INT32"});
  for (const char* m :
       {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"})
    slice.emplace(m, std::int64_t{0});
  const TensorRef batch =
      layer.add("StridedSlice",
                {shape, layer.int_const("batch_begin", {0}), layer.int_const("batch_end", {1}),
                 layer.int_const("batch_stride", {1})},
                std::move(slice), "batch");
  const TensorRef tail = layer.int_const("rest", rest);
  Attrs concat = t_attr(DType::Int32);
  concat.emplace("N", std::int64_t{2});
  concat.emplace("Tidx", TypeAttr{"DT_INT32"});
  return layer.add("ConcatV2", {batch, tail, layer.int_const("axis", {0}, Shape{})},
                   std::move(concat), "shape");
}

TensorRef reshape(Layer& layer, TensorRef x, TensorRef shape) {
  Attrs a = t_attr(layer.dtype(x).value_or(DType::Float32));
  a.emplace("Tshape", TypeAttr{"DT_INT32"});
  return layer.add("Reshape", {x, shape}, std::move(a));
}

// a * b for sizes, failing (not overflowing) past 2^40.
std::int64_t checked_product(Layer& layer, std::int64_t a, std::int64_t b) {
  constexpr std::int64_t kMax = std::int64_t{1} << 40;
  if (a < 0 || b < 0 || (b != 0 && a > kMax / b)) layer.fail("a shape's size is too large");
  return a * b;
}

std::int32_t dim32(Layer& layer, std::int64_t d) {
  if (d < -1 || d > (std::int64_t{1} << 31) - 1)
    layer.fail("dim " + std::to_string(d) + " is out of range");
  return static_cast<std::int32_t>(d);
}

}  // namespace

TensorRef matmul_last_axis(Layer& layer, TensorRef x, TensorRef kernel, std::int64_t units,
                           const std::string& suffix) {
  const PartialShape s = layer.shape(x);
  Attrs mm = t_attr();
  if (s.rank() == 2) {
    mm.emplace("transpose_a", false);
    mm.emplace("transpose_b", false);
    return layer.add("MatMul", {x, kernel}, std::move(mm), suffix);
  }
  bool known = s.rank_known && s.dims.size() > 2;
  for (std::size_t i = 1; known && i < s.dims.size(); ++i) known = s.dims[i] >= 0;
  if (!known) {
    // The kernel broadcasts over every leading dim.
    mm.emplace("adj_x", false);
    mm.emplace("adj_y", false);
    return layer.add("BatchMatMulV2", {x, kernel}, std::move(mm), suffix);
  }
  // Static dims: [N, ..., C] -> [N * ..., C], a plain MatMul, and back (what tfjs does too).
  std::vector<std::int32_t> out_dims{-1};
  for (std::size_t i = 1; i + 1 < s.dims.size(); ++i) out_dims.push_back(dim32(layer, s.dims[i]));
  out_dims.push_back(dim32(layer, units));
  const TensorRef flat =
      reshape(layer, x, layer.int_const(suffix + "_in_shape", {-1, dim32(layer, s.dims.back())}));
  mm.emplace("transpose_a", false);
  mm.emplace("transpose_b", false);
  const TensorRef y = layer.add("MatMul", {flat, kernel}, std::move(mm), suffix);
  return reshape(layer, y, layer.int_const(suffix + "_out_shape", out_dims));
}

Outputs lower_dense(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  const TensorRef x = in[0];
  const std::int64_t units = layer.int_or("units", -1);
  if (units <= 0) layer.fail("config 'units' must be a positive integer");
  const int rank = layer.rank(x);
  if (rank < 2) layer.fail("its input must have rank >= 2");
  const TensorRef kernel = layer.weight("kernel", {layer.channels(x), units});
  TensorRef y = matmul_last_axis(layer, x, kernel, units, "MatMul");
  // tfjs-layers runs the bias add, and relu, linear or elu, inside its fused matMul kernel; with
  // another activation it stores the product, the sum and the activation each in turn.
  const bool fused = tfjs_fuses_activation(layer);
  if (layer.bool_or("use_bias", true)) {
    if (fused) mark_webgl_in_kernel(layer, y);
    Attrs b = t_attr();
    b.emplace("data_format", std::string("NHWC"));
    y = layer.add("BiasAdd", {y, layer.weight("bias", {units})}, std::move(b));
  }
  if (fused && layer_activation_name(layer) != "linear") mark_webgl_in_kernel(layer, y);
  return {apply_layer_activation(layer, y)};
}

Outputs lower_flatten(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  const TensorRef x = in[0];
  const PartialShape s = layer.shape(x);
  if (!s.rank_known) layer.fail("the rank of its input is not known statically");
  std::int64_t rest = 1;
  bool known = true;
  for (std::size_t i = 1; i < s.dims.size(); ++i) {
    if (s.dims[i] < 0) known = false;
    rest = checked_product(layer, rest, std::max<std::int64_t>(s.dims[i], 1));
  }
  if (s.dims.size() <= 1) return {reshape(layer, x, layer.int_const("shape", {-1, 1}))};
  if (known) return {reshape(layer, x, layer.int_const("shape", {-1, dim32(layer, rest)}))};
  return {reshape(layer, x, batch_and(layer, x, {-1}))};
}

Outputs lower_reshape(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  const TensorRef x = in[0];
  const std::vector<std::int64_t> target = layer.int_list("target_shape");
  if (!layer.has("target_shape")) layer.fail("config 'target_shape' is missing");
  std::vector<std::int32_t> dims;
  int unknown = 0;
  std::int64_t known_product = 1;
  for (std::int64_t d : target) {
    dims.push_back(dim32(layer, d));
    if (d == -1)
      ++unknown;
    else
      known_product = checked_product(layer, known_product, d);
  }
  if (unknown > 1) layer.fail("target_shape has more than one -1");
  if (unknown == 0) {
    std::vector<std::int32_t> all{-1};
    all.insert(all.end(), dims.begin(), dims.end());
    return {reshape(layer, x, layer.int_const("shape", all))};
  }
  // One open dim besides the batch: resolve it from the input's static size when known.
  const PartialShape s = layer.shape(x);
  std::int64_t size = 1;
  bool known = s.rank_known && !s.dims.empty();
  for (std::size_t i = 1; known && i < s.dims.size(); ++i) {
    if (s.dims[i] < 0) known = false;
    if (known) size = checked_product(layer, size, s.dims[i]);
  }
  if (known) {
    if (known_product == 0 || size % known_product != 0)
      layer.fail("cannot reshape " + s.to_string() + " to target_shape with -1");
    for (auto& d : dims)
      if (d == -1) d = dim32(layer, size / known_product);
    std::vector<std::int32_t> all{-1};
    all.insert(all.end(), dims.begin(), dims.end());
    return {reshape(layer, x, layer.int_const("shape", all))};
  }
  return {reshape(layer, x, batch_and(layer, x, dims))};
}

Outputs lower_permute(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  const std::vector<std::int64_t> dims = layer.int_list("dims");
  const int rank = layer.rank(in[0]);
  if (static_cast<int>(dims.size()) != rank - 1)
    layer.fail("config 'dims' must list " + std::to_string(rank - 1) + " axes");
  std::vector<std::int32_t> perm{0};
  std::vector<bool> seen(static_cast<std::size_t>(rank), false);
  for (std::int64_t d : dims) {
    if (d < 1 || d >= rank || seen[static_cast<std::size_t>(d)])
      layer.fail("config 'dims' is not a permutation of 1.." + std::to_string(rank - 1));
    seen[static_cast<std::size_t>(d)] = true;
    perm.push_back(static_cast<std::int32_t>(d));
  }
  Attrs a = t_attr(layer.dtype(in[0]).value_or(DType::Float32));
  a.emplace("Tperm", TypeAttr{"DT_INT32"});
  return {layer.add("Transpose", {in[0], layer.int_const("perm", perm)}, std::move(a))};
}

Outputs lower_identity(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  return {layer.add("Identity", {in[0]}, t_attr(layer.dtype(in[0]).value_or(DType::Float32)))};
}

Outputs lower_repeat_vector(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  const std::int64_t n = layer.int_or("n", -1);
  if (n <= 0) layer.fail("config 'n' must be a positive integer");
  if (layer.rank(in[0]) != 2) layer.fail("its input must have rank 2");
  Attrs e = t_attr();
  e.emplace("Tdim", TypeAttr{"DT_INT32"});
  const TensorRef expanded =
      layer.add("ExpandDims", {in[0], layer.int_const("axis", {1}, Shape{})}, std::move(e));
  Attrs t = t_attr();
  t.emplace("Tmultiples", TypeAttr{"DT_INT32"});
  return {layer.add("Tile", {expanded, layer.int_const("multiples", {1, dim32(layer, n), 1})},
                    std::move(t))};
}

Outputs lower_embedding(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  const std::int64_t input_dim = layer.int_or("input_dim", -1);
  const std::int64_t output_dim = layer.int_or("output_dim", -1);
  if (input_dim <= 0 || output_dim <= 0)
    layer.fail("config 'input_dim' and 'output_dim' must be positive integers");
  const TensorRef table = layer.weight("embeddings", {input_dim, output_dim});
  TensorRef indices = in[0];
  const auto dtype = layer.dtype(indices);
  if (dtype != DType::Int32) {
    // tfjs casts the indices to int32 (floats are truncated).
    Attrs c{{"SrcT", tf_type(dtype.value_or(DType::Float32))},
            {"DstT", TypeAttr{"DT_INT32"}},
            {"Truncate", false}};
    indices = layer.add("Cast", {indices}, std::move(c));
  }
  Attrs g{{"Tparams", TypeAttr{"DT_FLOAT"}},
          {"Tindices", TypeAttr{"DT_INT32"}},
          {"Taxis", TypeAttr{"DT_INT32"}},
          {"batch_dims", std::int64_t{0}}};
  const TensorRef out =
      layer.add("GatherV2", {table, indices, layer.int_const("axis", {0}, Shape{})}, std::move(g));
  if (layer.bool_or("mask_zero", false)) {
    // Index 0 is padding: those time steps are masked for the layers downstream.
    const TensorRef mask =
        layer.add("NotEqual", {indices, layer.int_const("pad_index", {0}, Shape{})},
                  Attrs{{"T", TypeAttr{"DT_INT32"}}, {"incompatible_shape_error", true}}, "mask");
    layer.writer().set_mask(out, mask);
  }
  return {out};
}

Outputs lower_masking(Layer& layer, std::span<const TensorRef> in) {
  layer.expect_inputs(in, 1);
  const TensorRef x = in[0];
  if (layer.rank(x) < 3) layer.fail("its input must have rank >= 3 [batch, time, ...]");
  // A step is kept when any of its features differs from mask_value; the others become 0.
  const auto v = static_cast<float>(layer.number_or("mask_value", 0.0));
  const TensorRef differs =
      layer.add("NotEqual", {x, layer.scalar("mask_value", v)},
                Attrs{{"T", TypeAttr{"DT_FLOAT"}}, {"incompatible_shape_error", true}});
  Attrs any{{"Tidx", TypeAttr{"DT_INT32"}}, {"keep_dims", true}};
  const TensorRef last = layer.int_const("last_axis", {-1});
  const TensorRef keep = layer.add("Any", {differs, last}, any, "keep");
  Attrs cast{{"SrcT", TypeAttr{"DT_BOOL"}}, {"DstT", TypeAttr{"DT_FLOAT"}}, {"Truncate", false}};
  const TensorRef keepf = layer.add("Cast", {keep}, std::move(cast));
  const TensorRef out = layer.add("Mul", {x, keepf}, t_attr());
  Attrs sq{{"T", TypeAttr{"DT_BOOL"}}, {"squeeze_dims", std::vector<std::int64_t>{-1}}};
  layer.writer().set_mask(out, layer.add("Squeeze", {keep}, std::move(sq), "mask"));
  return {out};
}

}  // namespace tfjsi::graph::keras
