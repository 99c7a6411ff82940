// LSTM, GRU and SimpleRNN, unrolled over the static number of time steps. The input projection
// x W + b is one MatMul for every step, split per step with Unpack; each step then adds
// h W_rec and applies the cell's gates (tfjs-layers 4.22 math: LSTM gates i, f, c, o; GRU gates
// z, r, h with the reset gate applied before the recurrent product). The initial state is zero,
// so the first step skips the recurrent terms.
#include "graph/keras/layers.h"

namespace tfjsi::graph::keras {

namespace {

struct Unrolled {
  std::int64_t units = 0;
  std::vector<TensorRef> steps;  // projected inputs x_t W + b, in processing order
  TensorRef recurrent_kernel;
  TensorRef split_axis;  // scalar 1, shared by the layer's Split nodes
  std::string activation, recurrent_activation;
  // With a Keras mask: per step (processing order) 1 where the step is real, 0 where masked, as
  // [batch, 1] floats, and 1 - that.
  std::optional<TensorRef> mask;
  std::vector<TensorRef> keep, drop;
};

Unrolled prepare(Layer& layer, std::span<const TensorRef> in, std::int64_t gates) {
  if (in.size() != 1) layer.fail("initial states given as inputs are not supported");
  if (layer.bool_or("stateful", false)) layer.fail("stateful RNNs are not supported");
  const TensorRef x = in[0];
  const PartialShape s = layer.shape(x);
  if (!s.rank_known || s.rank() != 3)
    layer.fail("its input must have rank 3 [batch, time, features], got " + s.to_string());
  const std::int64_t steps = s.dims[1];
  if (steps < 0)
    layer.fail("the number of time steps is not static (input shape " + s.to_string() +
               "); it cannot be unrolled");
  if (steps == 0) layer.fail("the input has no time steps");
  // Each step becomes a dozen nodes; a longer sequence is more than unrolling should attempt.
  constexpr std::int64_t kMaxSteps = 4096;
  if (steps > kMaxSteps)
    layer.fail(std::to_string(steps) + " time steps are too many to unroll (at most " +
               std::to_string(kMaxSteps) + ")");
  Unrolled u;
  u.units = layer.int_or("units", -1);
  if (u.units <= 0) layer.fail("config 'units' must be a positive integer");
  u.activation = layer.string_or("activation", "tanh");
  u.recurrent_activation = layer.string_or("recurrent_activation", "hard_sigmoid");

  const std::int64_t width = gates * u.units;
  const TensorRef kernel = layer.weight("kernel", {layer.channels(x), width});
  u.recurrent_kernel = layer.weight("recurrent_kernel", {u.units, width});
  TensorRef xw = matmul_last_axis(layer, x, kernel, width, "input_projection");
  if (layer.bool_or("use_bias", true)) {
    Attrs b = t_attr();
    b.emplace("data_format", std::string("NHWC"));
    xw = layer.add("BiasAdd", {xw, layer.weight("bias", {width})}, std::move(b));
  }
  Attrs un = t_attr();
  un.emplace("num", steps);
  un.emplace("axis", std::int64_t{1});
  const TensorRef unpacked = layer.add("Unpack", {xw}, std::move(un), "steps");
  for (std::int64_t t = 0; t < steps; ++t) u.steps.push_back({unpacked.node, static_cast<int>(t)});
  if (layer.bool_or("go_backwards", false)) std::reverse(u.steps.begin(), u.steps.end());
  u.split_axis = layer.int_const("split_axis", {1}, Shape{});

  if (auto mask = layer.writer().mask_of(x)) {
    u.mask = mask;
    Attrs cast{{"SrcT", TypeAttr{"DT_BOOL"}}, {"DstT", TypeAttr{"DT_FLOAT"}}, {"Truncate", false}};
    const TensorRef m = layer.add("Cast", {*mask}, std::move(cast), "mask_float");
    Attrs e = t_attr();
    e.emplace("Tdim", TypeAttr{"DT_INT32"});
    const TensorRef m3 = layer.add("ExpandDims", {m, layer.int_const("mask_axis", {2}, Shape{})},
                                   std::move(e), "mask_expand");
    Attrs mu = t_attr();
    mu.emplace("num", steps);
    mu.emplace("axis", std::int64_t{1});
    const TensorRef per_step = layer.add("Unpack", {m3}, std::move(mu), "mask_steps");
    const TensorRef one = layer.scalar("mask_one", 1.0f);
    for (std::int64_t t = 0; t < steps; ++t) u.keep.push_back({per_step.node, static_cast<int>(t)});
    if (layer.bool_or("go_backwards", false)) std::reverse(u.keep.begin(), u.keep.end());
    for (std::size_t k = 0; k < u.keep.size(); ++k)
      u.drop.push_back(
          layer.add("Sub", {one, u.keep[k]}, t_attr(), "t" + std::to_string(k) + "/mask_drop"));
  }
  return u;
}

// Under a mask, a masked step keeps the previous state (zero before the first step), as tfjs's
// rnn does: new * keep + previous * (1 - keep).
TensorRef blend(Layer& layer, const Unrolled& u, std::size_t k, TensorRef fresh,
                std::optional<TensorRef> previous, const std::string& name) {
  if (!u.mask) return fresh;
  const Attrs t = t_attr();
  const TensorRef kept = layer.add("Mul", {fresh, u.keep[k]}, t, name + "_kept");
  if (!previous) return kept;
  const TensorRef held = layer.add("Mul", {*previous, u.drop[k]}, t, name + "_held");
  return layer.add("AddV2", {kept, held}, t, name + "_masked");
}

std::vector<TensorRef> split(Layer& layer, const Unrolled& u, TensorRef v, std::int64_t parts,
                             const std::string& prefix) {
  Attrs a = t_attr();
  a.emplace("num_split", parts);
  const TensorRef s = layer.add("Split", {u.split_axis, v}, std::move(a), prefix + "Split");
  std::vector<TensorRef> out;
  for (int k = 0; k < parts; ++k) out.push_back({s.node, k});
  return out;
}

TensorRef matmul(Layer& layer, TensorRef a, TensorRef b, const std::string& name) {
  Attrs m = t_attr();
  m.emplace("transpose_a", false);
  m.emplace("transpose_b", false);
  return layer.add("MatMul", {a, b}, std::move(m), name);
}

// The layer's outputs: the last h or every h stacked on axis 1, then the states when asked for.
Outputs finish(Layer& layer, const Unrolled& u, const std::vector<TensorRef>& hs,
               std::vector<TensorRef> states) {
  Outputs out;
  if (layer.bool_or("return_sequences", false)) {
    Attrs p = t_attr();
    p.emplace("N", static_cast<std::int64_t>(hs.size()));
    p.emplace("axis", std::int64_t{1});
    out.push_back(layer.add("Pack", hs, std::move(p), "sequences"));
    if (u.mask) layer.writer().set_mask(out.back(), *u.mask);
  } else {
    out.push_back(hs.back());
  }
  if (layer.bool_or("return_state", false))
    for (TensorRef s : states) out.push_back(s);
  return out;
}

std::string step_prefix(std::size_t t) {
  return "t" + std::to_string(t) + "/";
}

}  // namespace

Outputs lower_lstm(Layer& layer, std::span<const TensorRef> in) {
  const Unrolled u = prepare(layer, in, 4);
  const Attrs t = t_attr();
  std::optional<TensorRef> h, c;
  std::vector<TensorRef> hs;
  for (std::size_t k = 0; k < u.steps.size(); ++k) {
    const std::string p = step_prefix(k);
    TensorRef z = u.steps[k];
    if (h)
      z = layer.add("AddV2", {z, matmul(layer, *h, u.recurrent_kernel, p + "MatMul")}, t,
                    p + "AddV2");
    const auto g = split(layer, u, z, 4, p);
    const TensorRef i = apply_activation(layer, g[0], u.recurrent_activation, p + "i/");
    const TensorRef f = apply_activation(layer, g[1], u.recurrent_activation, p + "f/");
    const TensorRef cand = apply_activation(layer, g[2], u.activation, p + "g/");
    const TensorRef o = apply_activation(layer, g[3], u.recurrent_activation, p + "o/");
    const TensorRef ig = layer.add("Mul", {i, cand}, t, p + "input_gate");
    const TensorRef c_new =
        c ? layer.add("AddV2", {layer.add("Mul", {f, *c}, t, p + "forget_gate"), ig}, t, p + "c")
          : ig;
    const TensorRef h_new =
        layer.add("Mul", {o, apply_activation(layer, c_new, u.activation, p + "c/")}, t, p + "h");
    c = blend(layer, u, k, c_new, c, p + "c");
    h = blend(layer, u, k, h_new, h, p + "h");
    hs.push_back(*h);
  }
  return finish(layer, u, hs, {*h, *c});
}

Outputs lower_gru(Layer& layer, std::span<const TensorRef> in) {
  if (layer.bool_or("reset_after", false))
    layer.fail("reset_after=true is not supported (tfjs-layers does not implement it either)");
  const Unrolled u = prepare(layer, in, 3);
  const Attrs t = t_attr();
  // recurrent_kernel = [z and r columns | h columns].
  Attrs sv = t_attr();
  sv.emplace("num_split", std::int64_t{2});
  sv.emplace("Tlen", TypeAttr{"DT_INT32"});
  const auto units32 = static_cast<std::int32_t>(u.units);
  const TensorRef rk =
      layer.add("SplitV",
                {u.recurrent_kernel, layer.int_const("recurrent_split", {2 * units32, units32}),
                 u.split_axis},
                std::move(sv), "recurrent_kernel_split");
  const TensorRef rk_zr{rk.node, 0}, rk_h{rk.node, 1};
  const TensorRef one = layer.scalar("one", 1.0f);

  std::optional<TensorRef> h;
  std::vector<TensorRef> hs;
  for (std::size_t k = 0; k < u.steps.size(); ++k) {
    const std::string p = step_prefix(k);
    const auto x = split(layer, u, u.steps[k], 3, p);
    TensorRef pre_z = x[0], pre_r = x[1], pre_h = x[2];
    if (h) {
      const auto inner = split(layer, u, matmul(layer, *h, rk_zr, p + "MatMul"), 2, p + "inner/");
      pre_z = layer.add("AddV2", {x[0], inner[0]}, t, p + "z_in");
      pre_r = layer.add("AddV2", {x[1], inner[1]}, t, p + "r_in");
    }
    const TensorRef z = apply_activation(layer, pre_z, u.recurrent_activation, p + "z/");
    if (h) {
      const TensorRef r = apply_activation(layer, pre_r, u.recurrent_activation, p + "r/");
      const TensorRef rh = layer.add("Mul", {r, *h}, t, p + "reset");
      pre_h = layer.add("AddV2", {x[2], matmul(layer, rh, rk_h, p + "MatMul_h")}, t, p + "h_in");
    }
    const TensorRef cand = apply_activation(layer, pre_h, u.activation, p + "h/");
    const TensorRef keep = layer.add("Sub", {one, z}, t, p + "update");
    const TensorRef fresh = layer.add("Mul", {keep, cand}, t, p + "fresh");
    const TensorRef h_new =
        h ? layer.add("AddV2", {layer.add("Mul", {z, *h}, t, p + "carry"), fresh}, t, p + "h")
          : fresh;
    h = blend(layer, u, k, h_new, h, p + "h");
    hs.push_back(*h);
  }
  return finish(layer, u, hs, {*h});
}

Outputs lower_simple_rnn(Layer& layer, std::span<const TensorRef> in) {
  const Unrolled u = prepare(layer, in, 1);
  const Attrs t = t_attr();
  std::optional<TensorRef> h;
  std::vector<TensorRef> hs;
  for (std::size_t k = 0; k < u.steps.size(); ++k) {
    const std::string p = step_prefix(k);
    TensorRef z = u.steps[k];
    if (h)
      z = layer.add("AddV2", {z, matmul(layer, *h, u.recurrent_kernel, p + "MatMul")}, t,
                    p + "AddV2");
    TensorRef y = apply_activation(layer, z, u.activation, p);
    if (y == z) y = layer.add("Identity", {z}, t, p + "h");
    h = blend(layer, u, k, y, h, p + "h");
    hs.push_back(*h);
  }
  return finish(layer, u, hs, {*h});
}

}  // namespace tfjsi::graph::keras
