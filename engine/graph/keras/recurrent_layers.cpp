// LSTM, GRU and SimpleRNN, unrolled over the static number of time steps. The input projection
// x W + b is one BatchMatMulV2 for every step, split per step with Unpack; each step then adds
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
  Unrolled u;
  u.units = layer.int_or("units", -1);
  if (u.units <= 0) layer.fail("config 'units' must be a positive integer");
  u.activation = layer.string_or("activation", "tanh");
  u.recurrent_activation = layer.string_or("recurrent_activation", "hard_sigmoid");

  const std::int64_t width = gates * u.units;
  const TensorRef kernel = layer.weight("kernel", {layer.channels(x), width});
  u.recurrent_kernel = layer.weight("recurrent_kernel", {u.units, width});
  Attrs mm = t_attr();
  mm.emplace("adj_x", false);
  mm.emplace("adj_y", false);
  TensorRef xw = layer.add("BatchMatMulV2", {x, kernel}, std::move(mm), "input_projection");
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
  return u;
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
Outputs finish(Layer& layer, const std::vector<TensorRef>& hs, std::vector<TensorRef> states) {
  Outputs out;
  if (layer.bool_or("return_sequences", false)) {
    Attrs p = t_attr();
    p.emplace("N", static_cast<std::int64_t>(hs.size()));
    p.emplace("axis", std::int64_t{1});
    out.push_back(layer.add("Pack", hs, std::move(p), "sequences"));
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
    c = c ? layer.add("AddV2", {layer.add("Mul", {f, *c}, t, p + "forget_gate"), ig}, t, p + "c")
          : ig;
    h = layer.add("Mul", {o, apply_activation(layer, *c, u.activation, p + "c/")}, t, p + "h");
    hs.push_back(*h);
  }
  return finish(layer, hs, {*h, *c});
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
    h = h ? layer.add("AddV2", {layer.add("Mul", {z, *h}, t, p + "carry"), fresh}, t, p + "h")
          : fresh;
    hs.push_back(*h);
  }
  return finish(layer, hs, {*h});
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
    h = y;
    hs.push_back(y);
  }
  return finish(layer, hs, {*h});
}

}  // namespace tfjsi::graph::keras
