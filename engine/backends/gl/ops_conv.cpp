// Convolutions and matrix products: Conv2D, Conv1D, _FusedConv2D, DepthwiseConv2dNative (and
// DepthwiseConv2d), FusedDepthwiseConv2dNative, Conv2DBackpropInput, MatMul, _FusedMatMul.
#include <algorithm>

#include "backends/gl/gl_op.h"
#include "backends/gl/shader_library.h"
#include "backends/gl/window.h"
#include "ops/attr.h"
#include "ops/fusion.h"

namespace tfjsi::gl {
namespace {

// What fused nodes add after the main op (ops::FusedEpilogue), with a bias and Prelu alpha per
// output channel.
bool fused_supported(const graph::Node& n, InputInfos inputs) {
  const std::optional<ops::FusedEpilogue> e = ops::try_fused_epilogue(n, n.inputs.size());
  if (!e) return false;
  if (!e->bias || inputs.empty()) return true;  // nothing known of the inputs: run() checks them
  const std::int64_t c = out_channels(n);
  if (!per_channel(known_shape(inputs, ops::FusedEpilogue::kBiasInput), c)) return false;
  return !e->prelu() || per_channel(known_shape(inputs, ops::FusedEpilogue::kAlphaInput), c);
}

// Loop turns of one invocation of conv_direct.comp and conv_transpose.comp: the window, and
// under each tap the input's channel texels (loops of constant length inside are unrolled).
std::int64_t conv_iterations(std::int64_t kh, std::int64_t kw, std::int64_t in_channels) {
  return nested_iterations(kh, nested_iterations(kw, (in_channels + 3) / 4));
}
// Of the matrix products: the shared dimension's texels (gemm_tiled.comp takes them four at a
// time; counted one at a time, the bound stays simple and on the safe side).
std::int64_t product_iterations(std::int64_t k) {
  return (k + 3) / 4;
}

// The loop bound (window.h) as supports() can judge it from the filter [KH][KW][IC][M], when
// shape inference knows it; otherwise run() checks.
bool filter_loops_fit(InputInfos inputs, bool depthwise) {
  const PartialShape* f = known_shape(inputs, 1);
  if (!f || f->rank() != 4) return true;
  const auto& d = f->dims;
  if (d[0] < 0 || d[1] < 0) return true;
  if (depthwise) return nested_iterations(d[0], d[1]) <= kMaxLoopIterations;
  return d[2] < 0 || conv_iterations(d[0], d[1], d[2]) <= kMaxLoopIterations;
}

// Binds a bias (input `k` of the node, one value per channel or one for all) as the call's next
// input, under the uniform HAS_BIAS. One value for every channel is splatted: a code path, so a
// #define (BIAS_SPLAT), but not for one output channel, whose one lane reads it as it is (one
// program less). No bias: the first input stands in for it, its value never used (llvmpipe may
// still load it under a mask), so that a kernel with and one without a bias are one program: one
// build less on a cold start (llvmpipe: 0.2-0.4 s for a convolution's), and none at a precision
// switch where fp16 adds the bias apart.
void bind_bias(OpContext& c, KernelCall& call, std::optional<std::size_t> k,
               std::int64_t channels) {
  bool splat = false;
  if (k) {
    call.inputs.push_back(&c.per_channel_tex(*k, channels, "bias"));
    splat = call.inputs.back()->layout().c == 1 && channels > 1;
  } else {
    call.inputs.push_back(call.inputs.front());
  }
  call.set_int("HAS_BIAS", k ? 1 : 0);
  call.defines += def("BIAS_SPLAT", std::int64_t{splat});
}

// Fills the epilogue's #defines and uniforms and binds bias (in2), Prelu alpha (in3) and the
// addend (the last input), which must have the output's shape.
void add_epilogue(OpContext& c, KernelCall& call, const Shape& out_shape, bool fused) {
  const std::int64_t channels = out_shape.empty() ? 1 : out_shape.back();
  const ops::FusedEpilogue e =
      fused ? ops::fused_epilogue(c.node(), c.num_inputs()) : ops::FusedEpilogue{};
  const std::size_t want = 2 + e.extra_inputs();
  c.expect_inputs(want, want);
  bind_bias(c, call,
            e.bias ? std::optional<std::size_t>(ops::FusedEpilogue::kBiasInput) : std::nullopt,
            channels);
  // Without the activation that fp32 fuses here (fp16 following webgl runs it apart): fp32's
  // program, the activation off by a uniform (computed and dropped: llvmpipe would run both
  // sides of a branch anyway), so that a precision switch builds no kernel for it.
  Activation act = activation_code(e.activation);
  bool apply = true;
  if (const auto twin = ops::try_attr<std::int64_t>(c.node(), kProgramActivation);
      twin && e.activation == ops::Activation::None) {
    act = static_cast<Activation>(*twin);
    apply = false;
  }
  // Prelu's alpha, splatted as the bias is (ALPHA_SPLAT); without it (fp32's Prelu program run
  // with the activation off) the first input stands in, as for the bias.
  bool alpha_splat = false;
  if (e.prelu()) {
    call.inputs.push_back(
        &c.per_channel_tex(ops::FusedEpilogue::kAlphaInput, channels, "prelu alpha"));
    alpha_splat = call.inputs.back()->layout().c == 1 && channels > 1;
  } else if (act == Activation::Prelu) {
    call.inputs.push_back(call.inputs.front());
    alpha_splat = ops::attr<bool>(c.node(), kProgramAlphaSplat, false);
  }
  // The addend is a #define: it adds an input, so a kernel with one is another program anyway.
  set_addend(c, call, e.addend ? std::optional(e.addend_input()) : std::nullopt,
             e.addend_after_activation, out_shape);
  call.defines += def("ALPHA_SPLAT", std::int64_t{alpha_splat});
  // A hard swish (no transcendental) is one of ACT_LINEAR's: chosen by the uniform
  // ACT_HARD_SWISH_ON (its formula's result computed and kept, or not), so a MobileNet v3's
  // convolutions with and without one share a program (selfie: 17 -> 16 builds).
  const bool hard_swish = act == Activation::HardSwish;
  const bool linear = set_activation(call, hard_swish ? Activation::None : act, e.leaky_alpha);
  if (linear) {
    call.set_int("ACT_HARD_SWISH_ON", hard_swish && apply);
    call.set_float("HARD_SWISH_SCALE", hard_swish ? e.hard_swish_scale : 0.f);
    call.set_float("HARD_SWISH_SHIFT", hard_swish ? e.hard_swish_shift : 0.f);
  }
  // Where fp16 following webgl would run the bias add or this activation apart, their kernels
  // are built ahead too: a Prelu's and a hard swish's steps are binary kernels (a hard swish's
  // clip is fused into one), the others their own activation's.
  const bool ahead = c.follow_webgl() && !c.half_between();
  if (switched_by_uniform(act)) {
    // ACT_LINEAR's uniforms switch it off themselves; the other ACT macros read ACT_APPLY.
    if (!linear) call.set_int("ACT_APPLY", apply);
    if (apply && ahead) {
      if (act == Activation::Prelu || act == Activation::HardSwish)
        call.apart_binary = true;
      else
        call.apart = act;
    }
  }
  if (e.bias && ahead && ops::attr<bool>(c.node(), kBiasApartInFp16, false))
    call.apart_binary = true;
  call.extra += shader_source("epilogue.glsl");
}

// The invocations of gemm_tiled.comp: 8x8 per work group, each group 32 rows x 32 columns.
std::array<std::int64_t, 3> gemm_grid(std::int64_t rows, std::int64_t cols, std::int64_t batch) {
  return {(rows + 31) / 32 * 8, ((cols + 3) / 4 + 7) / 8 * 8, batch};
}

// conv_direct.comp and depthwise_direct.comp split their tile index with divmod (common.glsl),
// exact below 2^24: a larger map (a side past 4096 texels at least) stays on cpu.
void require_tiles_fit(OpContext& c, std::int64_t tiles) {
  if (tiles >= (std::int64_t{1} << 24))
    c.unsupported("an output of " + std::to_string(tiles) +
                  " pixel tiles, more than the tile index of the gl kernel splits exactly");
}

// Layers of at most this many output texels are small: a small depthwise or convolution layer
// (the last of a backbone, a tiny model) takes the program made for its window when there is one
// (`variant`, its kernel's shader and #defines, noted by the layers that made it), else the one
// program its kernel shares among small layers, with the window as uniforms: one build where
// each window would cost its own (0.25-0.5 s on llvmpipe), and taps in the same order, so the
// same values. The smallest layers of the corpus's real models reuse their windows' programs.
constexpr std::int64_t kSmallLayerTexels = 512;
bool uses_shared_program(const OpContext& c, std::int64_t texels, const std::string& variant) {
  using Small = GlTestHooks::SmallLayers;
  const Small hook = c.small_layers();
  return texels <= kSmallLayerTexels && hook != Small::Specialised &&
         (hook == Small::Shared || !c.has_variant(variant));
}

// Products with at most this many rows take gemv.comp instead of gemm_tiled.comp.
constexpr std::int64_t kGemvRows = 4;

// conv_direct.comp's tile: output pixels along a row and output slices per invocation. Two
// slices also for convolutions to four channels or fewer, which compute a slice of zeros then:
// those are small (heads to 1-4 channels), and one tile less is one program (one build) less.
constexpr std::int64_t kConvPixels = 4;
constexpr std::int64_t kConvSlices = 2;

// The filter [KH][KW][IC][OC] as pack_conv_weights.comp packs it, written on the host into the
// texels of the packed tensor [1, KH * KW * ICP, OC4P, 4] (layout `l`): texel row
// tap * ICP + ci holds filter[kh][kw][ci][0 .. OC - 1], then zeros (tap = kh * KW + kw).
// A Conv1D filter [KW][IC][OC] is packed as the Conv2D filter [1][KW][IC][OC] it is read as.
void pack_conv_filter(const HostTensor& f, const TexLayout& l, std::vector<float>& texels) {
  texels.assign(static_cast<std::size_t>(l.tex_width() * l.tex_height() * 4), 0.f);
  const Shape s = f.shape.size() == 3 ? Shape{1, f.shape[0], f.shape[1], f.shape[2]} : f.shape;
  const std::int64_t taps = s[0] * s[1], ic = s[2], oc = s[3];
  const std::int64_t icp = l.h / taps;
  const float* src = f.values<float>().data();
  for (std::int64_t t = 0; t < taps; ++t)
    for (std::int64_t ci = 0; ci < ic; ++ci)
      std::copy_n(src + (t * ic + ci) * oc, oc, texels.data() + l.texel_index(0, t * icp + ci) * 4);
}

// The depthwise filter [KH][KW][C][1] as pack_depthwise_weights.comp packs it, likewise into the
// texels of [1, KH * KW, C4, 4]: texel row `tap` holds filter[kh][kw][0 .. C - 1][0], then zeros.
void pack_depthwise_filter(const HostTensor& f, const TexLayout& l, std::vector<float>& texels) {
  texels.assign(static_cast<std::size_t>(l.tex_width() * l.tex_height() * 4), 0.f);
  const std::int64_t taps = f.shape[0] * f.shape[1], ch = f.shape[2];
  const float* src = f.values<float>().data();
  for (std::int64_t t = 0; t < taps; ++t)
    std::copy_n(src + t * ch, ch, texels.data() + l.texel_index(0, t) * 4);
}

// A copy of input 1 (a filter) repacked into a texture of `shape` (at the filter's precision),
// made at the first run and kept with the filter's data; null when the driver's textures cannot
// hold it (or a test says so). A filter whose upload is still deferred (a weight) is packed on
// the host by `host_pack` and gets no texture of its own; one already on the GPU (a computed
// filter, or a weight another kernel read as it is) is packed there by `shader`.
const GlTensorData* packed_weights(OpContext& c, const std::string& key, const std::string& shader,
                                   const Shape& shape, std::vector<UniformValue> uniforms,
                                   void (*host_pack)(const HostTensor&, const TexLayout&,
                                                     std::vector<float>&)) {
  if (c.no_packed_weights() || !fits(shape, c.limits())) return nullptr;
  const GlTensorData& filter = c.data(1);
  if (const GlTensorData* p = filter.packed(key)) return p;
  if (filter.deferred()) {
    const HostTensor& host = *filter.host();
    return &filter.set_packed(
        key, c.upload_texels(shape, filter.storage(), static_cast<std::int64_t>(host.byte_size()),
                             [&](const TexLayout& l, std::vector<float>& texels) {
                               host_pack(host, l, texels);
                             }));
  }
  auto packed = c.output(shape, filter.fp16());
  KernelCall pack;
  pack.shader = shader;
  pack.inputs = {&c.tex(1)};
  pack.uniforms = std::move(uniforms);
  pack.output = packed.get();
  c.dispatch(pack);
  return &filter.set_packed(key, std::move(packed));
}

// The filter [KH][KW][IC][OC] as conv_direct.comp reads it (pack_conv_weights.comp says how).
const GlTensorData* packed_conv_weights(OpContext& c, const Shape& f, std::int64_t slices) {
  const std::int64_t icp = (f[2] + 3) / 4 * 4, oc4 = (f[3] + 3) / 4;
  const std::int64_t oc4p = (oc4 + slices - 1) / slices * slices;
  return packed_weights(c, "conv_direct:" + std::to_string(slices), "pack_conv_weights.comp",
                        {1, f[0] * f[1] * icp, oc4p, 4}, {{"KW", false, f[1]}, {"ICP", false, icp}},
                        pack_conv_filter);
}

std::vector<runtime::TensorView> conv(OpContext& c, bool fused) {
  if (c.num_inputs() < 2) c.fail("needs input and filter");
  // Conv1D: its input [batch, width, in] lies in its texture as [1, batch, width, in] and its
  // filter [kw, in, out] as [1, kw, in, out]: a Conv2D whose window has height 1 and whose rows
  // are the batch.
  const bool conv1d = c.node().op == "Conv1D";
  const std::size_t rank = conv1d ? 3 : 4;
  if (c.shape(0).size() != rank || c.shape(1).size() != rank)
    c.fail("input and filter must have rank " + std::to_string(rank));
  const auto as4 = [&](const Shape& s) { return conv1d ? Shape{1, s[0], s[1], s[2]} : s; };
  const Shape x = as4(c.shape(0)), f = as4(c.shape(1));
  if (f[2] != x[3])
    c.fail("filter " + shape_to_string(c.shape(1)) + " does not match the input channels of " +
           shape_to_string(c.shape(0)));
  ops::Window w = ops::window(c.node(), c.shape(0), c.shape(1));
  if (conv1d) w.in_h = w.out_h = x[1];
  const Shape out_shape = conv1d ? Shape{x[1], w.out_w, f[3]} : Shape{x[0], w.out_h, w.out_w, f[3]};
  require_loops_fit(c, conv_iterations(f[0], f[1], f[2]),
                    "a " + std::to_string(f[0]) + "x" + std::to_string(f[1]) + " window over " +
                        std::to_string(f[2]) + " channels");
  const std::int64_t slices = kConvSlices;
  if (const GlTensorData* weights = packed_conv_weights(c, f, slices)) {
    // The stems (fewer than four input channels) skip the empty lanes and run each tap as straight
    // code, their window loops kept as loops by uniform bounds (the shader says why). Other windows
    // keep their taps unrolled and take strides and dilations as uniforms (measured: the tap loops
    // as uniforms cost 5-15% of warm runs), but for small layers, which share one program with the
    // whole window as uniforms where their window has no program yet (uses_shared_program).
    const bool stem = x[3] < 4;
    auto kernel = [&](bool shared) {
      KernelCall call;
      call.shader = "conv_direct.comp";
      // in1 is the packed filter, so the epilogue's bias and alpha stay in2 and in3.
      call.inputs = {&c.tex(0), weights};
      if (stem) {
        set_window(call, w);
        call.set_int("KH_RUN", w.k_h);
        call.set_int("KW_RUN", w.k_w);
      } else if (shared)
        set_window_uniforms(call, w);
      else
        set_window_taps(call, w);
      call.defines += def("PW", kConvPixels) + def("PS", slices) +
                      def("IN0_FEW_LANES", stem ? x[3] : std::int64_t{0});
      add_epilogue(c, call, out_shape, fused);
      return call;
    };
    KernelCall call = kernel(false);
    const std::int64_t texels = out_shape[0] * w.out_h * w.out_w * ((f[3] + 3) / 4);
    if (!stem && uses_shared_program(c, texels, call.shader + call.defines))
      call = kernel(true);
    else
      c.note_variant(call.shader + call.defines);
    auto out = c.output(out_shape);
    call.output = out.get();
    // 64 invocations per group over (slice block, tile) (the shader says why).
    call.local = {64, 1, 1};
    const std::int64_t tiles = w.out_h * ((w.out_w + kConvPixels - 1) / kConvPixels);
    const std::int64_t blocks = ((f[3] + 3) / 4 + slices - 1) / slices;
    require_tiles_fit(c, tiles * blocks);
    call.grid = {tiles * blocks, 1, x[0]};
    c.dispatch(call);
    return OpContext::result(out, out_shape);
  }
  KernelCall call;
  call.shader = "gemm_tiled.comp";
  call.local = {8, 8, 1};  // the tile loads of gemm_tiled.comp are laid out for 8x8
  call.inputs = {&c.tex(0), &c.tex(1)};
  // Shapes as #defines: its implicit im2col divides by them for every element it stages.
  call.static_shapes = true;
  call.defines = window_defines(w) + def("CONV", std::int64_t{1});
  add_epilogue(c, call, out_shape, fused);
  auto out = c.output(out_shape);
  call.output = out.get();
  call.grid = gemm_grid(x[0] * w.out_h * w.out_w, f[3], 1);
  c.dispatch(call);
  return OpContext::result(out, out_shape);
}

// depthwise_direct.comp's tile: output pixels along a row per invocation.
constexpr std::int64_t kDepthwisePixels = 4;

// A depthwise filter [KH][KW][C][1] as depthwise_direct.comp reads it
// (pack_depthwise_weights.comp says how).
const GlTensorData* packed_depthwise_weights(OpContext& c, const Shape& f) {
  return packed_weights(c, "depthwise_direct", "pack_depthwise_weights.comp",
                        {1, f[0] * f[1], (f[2] + 3) / 4, 4}, {{"KW", false, f[1]}},
                        pack_depthwise_filter);
}

std::vector<runtime::TensorView> depthwise(OpContext& c, bool fused) {
  if (c.num_inputs() < 2) c.fail("needs input and filter");
  const Shape &x = c.shape(0), &f = c.shape(1);
  if (x.size() != 4 || f.size() != 4) c.fail("input and filter must have rank 4");
  if (f[2] != x[3])
    c.fail("filter " + shape_to_string(f) + " does not match the input channels of " +
           shape_to_string(x));
  const ops::Window w = ops::window(c.node(), x, f);
  const Shape out_shape{x[0], w.out_h, w.out_w, f[2] * f[3]};
  require_loops_fit(c, nested_iterations(f[0], f[1]),
                    "a " + std::to_string(f[0]) + "x" + std::to_string(f[1]) + " window");
  // depthwise_direct.comp (multiplier 1, the filter packed), depthwise.comp specialised for the
  // window and multiplier, or depthwise.comp with both as uniforms (SMALL).
  enum class Path { Direct, PerTexel, Small };
  auto kernel = [&](Path path) {
    KernelCall call;
    // in1 is the filter, packed or not (set below), so that the epilogue's bias and alpha are in2
    // and in3.
    call.inputs = {&c.tex(0), &c.data(1)};
    if (path == Path::Small) {
      set_window_uniforms(call, w);
      call.set_int("MULT", f[3]);
    } else {
      set_window(call, w);
    }
    if (path == Path::Direct) {
      call.shader = "depthwise_direct.comp";
      call.defines += def("PW", kDepthwisePixels);
      // Emulated fp16: its store rounds (OUT_HALF), so the convolution after it, which cannot
      // round what it loads, needs no rounding pass (blazeface: 32 passes a run fewer).
      c.add_lazy_rounding(call, 0);
    } else {
      call.shader = "depthwise.comp";
      call.defines += def("SMALL", std::int64_t{path == Path::Small});
      if (path == Path::PerTexel) call.defines += def("MULT", f[3]);
    }
    add_epilogue(c, call, out_shape, fused);
    return call;
  };
  Path path = f[3] == 1 ? Path::Direct : Path::PerTexel;
  KernelCall call = kernel(path);
  const std::int64_t texels = out_shape[0] * w.out_h * w.out_w * ((out_shape[3] + 3) / 4);
  const GlTensorData* weights = nullptr;
  if (uses_shared_program(c, texels, call.shader + call.defines)) {
    path = Path::Small;
    call = kernel(path);
  } else if (path == Path::Direct && !(weights = packed_depthwise_weights(c, f))) {
    path = Path::PerTexel;
    call = kernel(path);
  }
  if (path != Path::Small) c.note_variant(call.shader + call.defines);
  call.inputs[1] = weights ? weights : &c.tex(1);
  if (path == Path::Direct) {
    const std::int64_t tiles = w.out_h * ((w.out_w + kDepthwisePixels - 1) / kDepthwisePixels);
    const std::int64_t slices = (f[2] + 3) / 4;
    require_tiles_fit(c, tiles * slices);
    // 64 invocations per group over (slice, tile), fixed, for one program per window (fitted to
    // small grids, they made a program per size for no measurable speed), and full on any map.
    call.local = {64, 1, 1};
    call.grid = {tiles * slices, 1, x[0]};
  }
  auto out = c.output(out_shape);
  call.output = out.get();
  c.dispatch(call);
  return OpContext::result(out, out_shape);
}

std::vector<runtime::TensorView> conv2d(OpContext& c) {
  return conv(c, false);
}
std::vector<runtime::TensorView> fused_conv2d(OpContext& c) {
  return conv(c, true);
}
std::vector<runtime::TensorView> depthwise2d(OpContext& c) {
  return depthwise(c, false);
}
std::vector<runtime::TensorView> fused_depthwise2d(OpContext& c) {
  return depthwise(c, true);
}

std::vector<runtime::TensorView> conv2d_backprop_input(OpContext& c) {
  // A fused bias (runtime::kFusedBias) is input 3.
  const bool bias = ops::attr<bool>(c.node(), runtime::kFusedBias, false);
  c.expect_inputs(bias ? 4 : 3, bias ? 4 : 3);
  const auto sizes = c.ints(0);
  const Shape &f = c.shape(1), &dy = c.shape(2);
  if (sizes.size() != 4 || f.size() != 4 || dy.size() != 4)
    c.fail("input_sizes, filter and out_backprop must describe rank-4 tensors");
  const Shape out_shape(sizes.begin(), sizes.end());
  if (f[2] != out_shape[3] || f[3] != dy[3] || dy[0] != out_shape[0])
    c.fail("filter " + shape_to_string(f) + " does not match input_sizes " +
           shape_to_string(out_shape) + " and out_backprop " + shape_to_string(dy));
  // The window of the forward convolution whose input gradient this is (no dilations, as TF.js).
  const ops::Window w = ops::window(c.node(), out_shape, f);
  if (w.out_h != dy[1] || w.out_w != dy[2])
    c.fail("out_backprop " + shape_to_string(dy) + " does not match the forward output " +
           std::to_string(w.out_h) + "x" + std::to_string(w.out_w));
  require_loops_fit(c, conv_iterations(f[0], f[1], dy[3]),
                    "a " + std::to_string(f[0]) + "x" + std::to_string(f[1]) + " window over " +
                        std::to_string(dy[3]) + " channels");
  KernelCall call;
  call.shader = "conv_transpose.comp";
  call.inputs = {&c.tex(2), &c.tex(1)};
  bind_bias(c, call, bias ? std::optional<std::size_t>(3) : std::nullopt, out_shape[3]);
  // fp16 following webgl adds the bias apart (TF.js stores the transposed convolution's sum).
  call.apart_binary = bias && c.follow_webgl() && !c.half_between();
  set_window_uniforms(call, w);
  auto out = c.output(out_shape);
  call.output = out.get();
  c.dispatch(call);
  return OpContext::result(out, out_shape);
}

std::vector<runtime::TensorView> matmul(OpContext& c, bool fused) {
  if (c.num_inputs() < 2) c.fail("needs two inputs");
  const Shape &a = c.shape(0), &b = c.shape(1);
  const bool batched = c.node().op == "BatchMatMulV2" || c.node().op == "BatchMatMul";
  if (!batched && (a.size() != 2 || b.size() != 2)) c.fail("MatMul takes rank-2 inputs");
  if (a.size() < 2 || b.size() < 2) c.fail("operands must have rank 2 or more");
  const bool ta = ops::attr<bool>(c.node(), batched ? "adj_x" : "transpose_a", false);
  const bool tb = ops::attr<bool>(c.node(), batched ? "adj_y" : "transpose_b", false);
  const std::size_t ra = a.size(), rb = b.size();
  const std::int64_t m = ta ? a[ra - 1] : a[ra - 2], k = ta ? a[ra - 2] : a[ra - 1];
  const std::int64_t kb = tb ? b[rb - 1] : b[rb - 2], n = tb ? b[rb - 2] : b[rb - 1];
  if (k != kb)
    c.fail("inner dimensions differ: " + shape_to_string(a) + " x " + shape_to_string(b));
  // Batch dims broadcast like numpy.
  const std::size_t rank = std::max(ra, rb);
  Shape out_shape(rank);
  for (std::size_t i = 0; i + 2 < rank; ++i) {
    const std::int64_t da = i + ra >= rank ? a[i + ra - rank] : 1;
    const std::int64_t db = i + rb >= rank ? b[i + rb - rank] : 1;
    if (da != db && da != 1 && db != 1)
      c.fail("batch dims of " + shape_to_string(a) + " and " + shape_to_string(b) +
             " do not broadcast");
    out_shape[i] = da == 1 ? db : da;
  }
  out_shape[rank - 2] = m;
  out_shape[rank - 1] = n;
  require_loops_fit(c, product_iterations(k), "a sum over " + std::to_string(k) + " products");
  KernelCall call;
  call.inputs = {&c.tex(0), &c.tex(1)};
  add_epilogue(c, call, out_shape, fused);
  auto out = c.output(out_shape);
  call.output = out.get();
  if (!ta && !tb && m <= kGemvRows) {
    call.shader = "gemv.comp";
    call.defines += def("M", m);  // the size of its accumulator arrays
    const std::int64_t slices = (n + 3) / 4;
    call.local = {64, 1, 1};  // fixed, as depthwise_direct.comp's
    call.grid = {slices, out->layout().n * out->layout().h, 1};
  } else if (!ta && !tb) {
    call.shader = "gemm_tiled.comp";
    call.local = {8, 8, 1};  // the tile loads of gemm_tiled.comp are laid out for 8x8
    call.defines += def("CONV", std::int64_t{0});
    call.grid = gemm_grid(m, n, out->layout().n * out->layout().h);
  } else {
    call.shader = "matmul.comp";
    call.defines += def("TA", std::int64_t{ta}) + def("TB", std::int64_t{tb});
    call.set_int("K", k);
  }
  c.dispatch(call);
  return OpContext::result(out, out_shape);
}

std::vector<runtime::TensorView> matmul_plain(OpContext& c) {
  return matmul(c, false);
}
std::vector<runtime::TensorView> matmul_fused(OpContext& c) {
  return matmul(c, true);
}

bool two_inputs(const graph::Node& n, InputInfos) {
  return n.inputs.size() == 2;
}

bool conv_supported(const graph::Node& n, InputInfos inputs) {
  return two_inputs(n, inputs) && filter_loops_fit(inputs, false);
}
bool fused_conv_supported(const graph::Node& n, InputInfos inputs) {
  return fused_supported(n, inputs) && filter_loops_fit(inputs, false);
}
bool depthwise_supported(const graph::Node& n, InputInfos inputs) {
  return two_inputs(n, inputs) && filter_loops_fit(inputs, true);
}
bool fused_depthwise_supported(const graph::Node& n, InputInfos inputs) {
  return fused_supported(n, inputs) && filter_loops_fit(inputs, true);
}

// MatMul on gl takes rank-2 operands, BatchMatMulV2 ranks 2 to 4.
bool matmul_supported(const graph::Node& n, InputInfos inputs) {
  const bool batched = n.op != "MatMul" && n.op != "_FusedMatMul";
  for (std::size_t i = 0; i < 2 && i < inputs.size(); ++i)
    if (const PartialShape* s = known_shape(inputs, i);
        s && (batched ? s->rank() < 2 : s->rank() != 2))
      return false;
  // The shared dimension, from the left operand when its shape is known (the loop bound).
  if (const PartialShape* a = known_shape(inputs, 0); a && a->rank() >= 2) {
    const bool ta = ops::attr<bool>(n, batched ? "adj_x" : "transpose_a", false);
    const std::int64_t k = a->dims[static_cast<std::size_t>(a->rank() - (ta ? 2 : 1))];
    if (k >= 0 && product_iterations(k) > kMaxLoopIterations) return false;
  }
  return n.op == "_FusedMatMul" ? fused_supported(n, inputs) : two_inputs(n, inputs);
}

}  // namespace

extern const GlOpEntry kConvOps[];
extern const std::size_t kNumConvOps;
const GlOpEntry kConvOps[] = {
    {"Conv1D", conv2d, conv_supported},
    {"Conv2D", conv2d, conv_supported},
    {"_FusedConv2D", fused_conv2d, fused_conv_supported},
    {"DepthwiseConv2d", depthwise2d, depthwise_supported},
    {"DepthwiseConv2dNative", depthwise2d, depthwise_supported},
    {"FusedDepthwiseConv2dNative", fused_depthwise2d, fused_depthwise_supported},
    {"Conv2DBackpropInput", conv2d_backprop_input, nullptr},
    {"MatMul", matmul_plain, matmul_supported},
    {"_FusedMatMul", matmul_fused, matmul_supported},
    {"BatchMatMulV2", matmul_plain, matmul_supported},
};
const std::size_t kNumConvOps = std::size(kConvOps);

}  // namespace tfjsi::gl
