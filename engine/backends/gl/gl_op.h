// What a gl kernel sees: its node, its inputs as textures (or host ints for shape-like parameters)
// and a way to make outputs and run compute dispatches. Each op family lives in its own ops_*.cpp;
// op_registry.cpp lists them all.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/gl/activation.h"
#include "backends/gl/gl_backend.h"
#include "graph/ir.h"

namespace tfjsi::gl {

// A value a kernel reads from a uniform set at each dispatch: one program then serves every node
// whose calls differ only in such values (a #define would make one program per value).
struct UniformValue {
  std::string name;
  bool is_float = false;
  std::int64_t i = 0;
  float f = 0;
};

// One compute dispatch: the shader file, its specialisation, the textures it reads and writes.
struct KernelCall {
  std::string shader;   // "binary.comp"
  std::string defines;  // "#define OP 2\n..." (code paths, loop sizes): part of the program's key
  // Declared by the prelude as `uniform int NAME;` or `uniform float NAME;`, so shaders use them
  // as they would a #define of that name (but not in #if or array sizes).
  std::vector<UniformValue> uniforms;
  // The tensors' layouts (IN0_N .. OUT_C4) as #defines instead of uniforms: only for kernels whose
  // specialised code was measured faster (the shader's header comment says so).
  bool static_shapes = false;
  std::string extra;  // generated GLSL placed between the prelude and the shader body
  std::vector<const GlTensorData*> inputs;  // bound as samplers in0, in1, ...
  // Bound as image out0; null only for a kernel that gives `grid` and writes nothing (none yet).
  GlTensorData* output = nullptr;
  // Invocations along x, y, z; zeros mean one per output texel (W, H, N*C4).
  std::array<std::int64_t, 3> grid{0, 0, 0};
  // Work group size along x, y and z, shrunk to the driver's limits when they are lower. Zeros:
  // the backend shapes a group of 64 after the grid (kernels whose invocations share nothing),
  // so that a grid one texel high or one texel wide does not leave most of each group idle.
  std::array<int, 3> local{0, 0, 0};
  // What the kernel stores, for an fp16 output in emulated storage (fp16_storage.h), whose
  // rounding pass is skipped where it would change nothing: values a half holds whatever the
  // inputs (Halves), or only the inputs' own values (InputValues: halves when every input is).
  enum class Stores { Any, Halves, InputValues };
  Stores stores = Stores::Any;
  // An activation fp16 following webgl runs on its own after this kernel (a sigmoid that fp32
  // fuses): its program is built ahead at fp32 (GlBackend::prebuild), so that a switch to fp16
  // builds nothing. None otherwise.
  Activation apart = Activation::None;
  // The same for binary.comp (one program for every op), which fp16 runs on this kernel's output
  // where fp32 takes the bias add TF.js makes after the product, a Prelu or a hard swish in.
  bool apart_binary = false;
  // Emulated fp16 storage rounds lazily (GlBackend::dispatch): a kernel's output is left
  // unrounded and the rounding pass runs only before a kernel that reads it and cannot round it
  // itself. A kernel that can (OpContext::add_lazy_rounding: its uniforms INk_HALF round input k
  // as it loads, OUT_HALF its store) lists those inputs here (a bit each) and rounds its store.
  unsigned rounds_inputs = 0;
  bool rounds_store = false;

  void set_int(std::string name, std::int64_t v) {
    uniforms.push_back({std::move(name), false, v});
  }
  void set_float(std::string name, float v) { uniforms.push_back({std::move(name), true, 0, v}); }
};

// Lets `call` round inputs 0 .. inputs-1 as it loads them and its store (KernelCall::
// rounds_inputs; binary.comp's LAZY_HALF) where `gl` emulates fp16 storage; nothing elsewhere.
void add_lazy_rounding(const GlBackend& gl, KernelCall& call, int inputs);

class OpContext {
 public:
  OpContext(GlBackend& gl, const graph::Node& node, std::span<const runtime::TensorView> inputs,
            bool fp16)
      : gl_(gl), node_(node), inputs_(inputs), fp16_(fp16) {}

  const graph::Node& node() const { return node_; }
  const GlBackend& backend() const { return gl_; }
  // Whether new textures are RGBA16F.
  bool fp16() const { return fp16_; }
  // fp16 that follows TF.js webgl (runtime/fp16_follow.h), set at either precision so that fp32
  // and fp16 run the same programs (a precision switch builds none): Mean, Sum and Softmax
  // compute TF.js's stages, whose partial results are rounded to half where `half_between`
  // (fp16 is on), as TF.js stores them.
  bool follow_webgl() const { return follow_webgl_; }
  bool half_between() const { return half_between_; }
  void set_follow_webgl(bool on, bool half_between) {
    follow_webgl_ = on;
    half_between_ = on && half_between;
  }
  // Gives `call` half_round() and the uniform HALF_BETWEEN: 1 where the values TF.js stores
  // inside its kernels are rounded now, else 0. A uniform, so that the program is the same at
  // either precision.
  void add_half_between(KernelCall& call) const;
  // add_lazy_rounding (below) on this backend.
  void add_lazy_rounding(KernelCall& call, int inputs) const {
    gl::add_lazy_rounding(gl_, call, inputs);
  }
  std::size_t num_inputs() const { return inputs_.size(); }
  const Shape& shape(std::size_t i) const;
  // Input i as a float texture (made now if its upload was deferred); throws naming the node
  // otherwise.
  const GlTensorData& tex(std::size_t i) const;
  // The same without making a deferred texture (for kernels that read a repacked copy).
  const GlTensorData& data(std::size_t i) const;
  // A new float texture of `storage` for `shape`, its texels written on the host (GlBackend::
  // upload_texels).
  std::shared_ptr<GlTensorData> upload_texels(const Shape& shape, Storage storage,
                                              std::int64_t bytes,
                                              const GlBackend::TexelFill& fill) const {
    return gl_.upload_texels(shape, storage, bytes, fill);
  }
  // Input i as a texture of one value per output channel (of `channels`) or one for all, as
  // epilogues read a bias or Prelu alpha; fails naming `what` otherwise.
  const GlTensorData& per_channel_tex(std::size_t i, std::int64_t channels,
                                      std::string_view what) const;
  // Input i's data, for outputs that only change the view (Reshape).
  std::shared_ptr<runtime::BackendData> input_data(std::size_t i) const {
    tex(i);  // checks it is a float texture
    return inputs_[i].data;
  }
  DType dtype(std::size_t i) const;
  // Input i's values on the host (its host copy, or read back from its texture).
  HostTensor host(std::size_t i) const;
  // A new float texture holding `t`.
  std::shared_ptr<runtime::BackendData> upload(const HostTensor& t) const { return gl_.upload(t); }
  // Input i's values as integers (int32 inputs, or float holding integers).
  std::vector<std::int64_t> ints(std::size_t i) const;
  // A float scalar input (PadV2's value), read from its host copy or the GPU.
  float scalar(std::size_t i) const;
  // A new output texture; checks it fits the driver's limits.
  std::shared_ptr<GlTensorData> output(const Shape& shape) const { return output(shape, fp16_); }
  // The same at a given precision (copies of an input keep the input's).
  std::shared_ptr<GlTensorData> output(const Shape& shape, bool fp16) const;
  void dispatch(const KernelCall& call) const { gl_.dispatch(call); }
  // The driver's limits.
  const GlLimits& limits() const { return gl_.context()->limits(); }
  // The program cache's specialised variants (ProgramCache::note_variant).
  bool has_variant(const std::string& key) const { return gl_.programs()->has_variant(key); }
  void note_variant(std::string key) const { gl_.programs()->note_variant(std::move(key)); }
  // A test hook: which program small layers take (GlTestHooks::small_layers).
  GlTestHooks::SmallLayers small_layers() const { return gl_.test_hooks().small_layers; }
  // A test hook: kernels that read repacked weights take their other path.
  bool no_packed_weights() const { return gl_.test_hooks().no_packed_weights; }
  // One output view.
  static std::vector<runtime::TensorView> result(std::shared_ptr<GlTensorData> d, Shape shape) {
    return {runtime::TensorView{std::move(d), DType::Float32, std::move(shape)}};
  }

  // The node is wrong (ModelError): no backend could run it.
  [[noreturn]] void fail(std::string_view what) const;
  // The node is right but gl cannot run it as given (BackendLimit): cpu does instead.
  [[noreturn]] void unsupported(std::string_view what) const;
  void expect_inputs(std::size_t min, std::size_t max) const;

 private:
  // Input i's data, ready for its host values to be read (host() or a download).
  const GlTensorData* host_ready(std::size_t i) const;

  GlBackend& gl_;
  const graph::Node& node_;
  std::span<const runtime::TensorView> inputs_;
  bool fp16_;
  bool follow_webgl_ = false;
  bool half_between_ = false;
};

using GlOpRun = std::vector<runtime::TensorView> (*)(OpContext& ctx);
// What shape inference knows of a node's data inputs: one entry per input, null when unknown; an
// empty span when the caller knows nothing (supports(node) without the graph).
using InputInfos = std::span<const graph::TensorInfo* const>;
// Static checks on the node's attributes and on what is known of its input shapes: false keeps
// the node on cpu. Unknown inputs pass, except where a kernel cannot take some shapes at all.
using GlOpSupports = bool (*)(const graph::Node& node, InputInfos inputs);

// Input i's statically known shape, or null when the caller does not know its rank.
const PartialShape* known_shape(InputInfos inputs, std::size_t i);
// Whether a bias or Prelu alpha of shape `s` is one value per output channel (or one for all):
// epilogues read it by channel slice only. Unknown shapes do not pass.
bool per_channel(const PartialShape* s, std::int64_t channels);
// The node's output channels, from static shape inference; -1 when unknown.
std::int64_t out_channels(const graph::Node& n);

struct GlOpEntry {
  std::string_view op;
  GlOpRun run;
  GlOpSupports supports;  // null: every node of this op
};

std::span<const GlOpEntry> gl_op_registry();
const GlOpEntry* find_gl_op(std::string_view op);

// "#define NAME value\n".
std::string def(std::string_view name, std::int64_t value);
std::string def(std::string_view name, float value);
// The #defines for a tensor layout: PREFIX_N, _H, _W, _C, _C4.
std::string def_layout(std::string_view prefix, const TexLayout& l);
// The same as uniforms (appended to `out`).
void add_layout_uniforms(std::vector<UniformValue>& out, std::string_view prefix,
                         const TexLayout& l);

// "#define NAME SYMBOL\n": a code named by its shader macro (OP_EXP, ACT_RELU). The numbers
// behind those macros are written once, in the shaders (OP_*) or in activation.h's table (ACT_*);
// C++ only names them.
std::string def_symbol(std::string_view name, std::string_view symbol);

// The activation `a` of a kernel that applies ACT (epilogue.glsl, binary.comp, unary.comp):
// #define ACT ACT_LINEAR with its uniforms for none, relu, relu6 and leaky (slope `alpha`), so that
// they share one program (true); the macro of `a` otherwise (Prelu: the caller binds the alpha).
bool set_activation(KernelCall& call, Activation a, float alpha);
// unary.comp applying `op` (OP_EXP, ...; OP_ACT applies `act` with `alpha`) to x into `out`.
KernelCall unary_call(std::string_view op, Activation act, float alpha, const GlTensorData& x,
                      GlTensorData& out);
// binary.comp applying `op` (OP_ADD, ...) to a and b (broadcast as binary.comp does) into `out`,
// then `act`, with emulated fp16's lazy rounding where `gl` has it (add_lazy_rounding).
KernelCall binary_call(const GlBackend& gl, std::string_view op, Activation act, float alpha,
                       const GlTensorData& a, const GlTensorData& b, GlTensorData& out);
// On a convolution or product run without the activation fp32 fuses into it (fp16 following
// webgl, GlBackend::unfused_form): that activation's code (an int, Activation), so that the
// kernel is fp32's program with the activation off (ACT_APPLY 0, epilogue.glsl).
inline constexpr std::string_view kProgramActivation = "_tfjsi_gl_program_activation";
// Beside kProgramActivation = Prelu: whether fp32's program splats a single alpha (ALPHA_SPLAT),
// so that the stand-in bound for it makes the same program.
inline constexpr std::string_view kProgramAlphaSplat = "_tfjsi_gl_program_alpha_splat";
// On a convolution or product into which fp32 took the bias add after it, where fp16 following
// webgl runs that add apart (TF.js stores the product first): its binary kernel is built ahead.
inline constexpr std::string_view kBiasApartInFp16 = "_tfjsi_gl_bias_apart_in_fp16";
// A fused addend (ops::kFusedAddend): binds input `k` of the node, which must have the output's
// shape (else BackendLimit), as the kernel's next input and #defines ADDEND (1 before the
// activation, 2 after it; 0 for none) and load_addend, as epilogue.glsl and binary.comp read them.
void set_addend(OpContext& c, KernelCall& call, std::optional<std::size_t> k, bool after_activation,
                const Shape& out_shape);

}  // namespace tfjsi::gl
