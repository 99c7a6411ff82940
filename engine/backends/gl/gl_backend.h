// The `gl` backend: tensors in OpenGL textures (gl_tensor.h), ops as OpenGL 4.3 compute shaders
// compiled lazily per op variant (code paths and window sizes; shapes, paddings and most
// parameters are uniforms, so nodes of one variant share a program) and, on llvmpipe, built ahead
// on worker threads while the run goes on (gl_dispatch.cpp), a program-binary cache on disk, lazy
// upload and fenced readback. Nodes it does not support fall back to cpu through the
// executor.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "backends/gl/fp16_storage.h"
#include "backends/gl/gl_tensor.h"
#include "backends/gl/program_cache.h"
#include "model/bundle.h"
#include "runtime/backend.h"
#include "runtime/engine.h"

namespace tfjsi::gl {

// The counters gl keeps are the engine's common ones (runtime::BackendStats).
using GlStats = runtime::BackendStats;

// One readback in flight: the texels go to a pixel buffer; a fence says when they are there.
class PendingRead {
 public:
  // True once the data can be mapped without waiting (polls; never blocks).
  bool ready();

 private:
  friend class GlBackend;
  GlObject pbo;
  GlFence fence;
  TexLayout layout;
  Shape shape;
  std::optional<HostTensor> host;  // int32/bool data: no GPU work at all
};

struct KernelCall;
struct PreparedDispatch;

// Test-only faults: each makes the real failure happen at a chosen node, so that the fallback
// paths can be exercised on a driver that never fails by itself (tests/gl/gl_fault_test.cpp).
enum class GlFault {
  None,
  Compile,      // the node's shader gets a line the compiler rejects
  Alloc,        // the node's output texture is asked wider than GL_MAX_TEXTURE_SIZE
  LostContext,  // the context reports a reset when the node starts (as glGetGraphicsResetStatus)
};

struct GlTestHooks {
  GlFault fault = GlFault::None;
  std::string fault_node;  // the node the fault hits; empty: every node
  // Work-group count limits below the driver's, per axis (0: the driver's), so that tests can
  // force a dispatch to be cut into several.
  std::array<std::int64_t, 3> max_group_count{0, 0, 0};
  // Kernels that read weights repacked for them (conv_direct, depthwise_direct) take the path of
  // a driver whose textures cannot hold the packed copy (gemm_tiled, depthwise), so that tests
  // cover it.
  bool no_packed_weights = false;
  // Kernels read their inputs through samplers even where image units would do, so that tests
  // cover the path of kernels with more inputs than the driver has image units.
  bool inputs_as_samplers = false;
  // upload() makes the texture at once instead of at the first use, so that tests cover the
  // repacking of filters that are already textures (pack_conv_weights.comp on the GPU).
  bool eager_uploads = false;
  // The program small depthwise and convolution layers take: as the backend chooses (their
  // window's where one is made, else the one they share), always the shared one, or always their
  // window's, so that tests cover both programs on small shapes.
  enum class SmallLayers { Choose, Shared, Specialised };
  SmallLayers small_layers = SmallLayers::Choose;
};

class GlBackend : public runtime::Backend {
 public:
  GlBackend();
  ~GlBackend() override;

  std::string_view name() const override { return "gl"; }
  int priority() const override { return 300; }
  runtime::Availability availability() override;
  void declare_flags(runtime::Flags& flags) override;
  bool supports(const graph::Node& node) const override;
  std::vector<std::string_view> native_ops() const override;
  bool supports_inputs(const graph::Node& node,
                       std::span<const graph::TensorInfo* const> inputs) const override;
  std::optional<graph::Node> fuse(
      const graph::Node& producer, const graph::Node& next, int through,
      std::span<const graph::TensorInfo* const> next_inputs) const override;
  std::optional<graph::Node> unfused_form(const graph::Node& producer,
                                          std::span<const ChainLink> declined) const override;
  std::shared_ptr<runtime::BackendData> upload(const HostTensor& host) override;
  HostTensor download(const runtime::TensorView& tensor) override;
  std::vector<runtime::TensorView> run(const graph::Node& node,
                                       std::span<const runtime::TensorView> inputs,
                                       const runtime::RunContext& ctx) override;
  runtime::BackendMemory memory() const override;
  void finish() override;
  void end_run() override;
  // Waits for the kernels built ahead for the other precision after the last run (prebuild).
  void settle() override;
  void trim_caches() override;

  // Asynchronous readback: start it, poll ready() from a UI loop, then finish (which waits only
  // if it is not ready yet).
  PendingRead begin_read(const runtime::TensorView& tensor);
  HostTensor finish_read(PendingRead& read);

  // The model about to run: the disk cache's key becomes a hash of the bundle's files (model.json
  // and its weight shards). The only place that sets the key.
  void model_opened(const model::Bundle& bundle) override;
  // Folder of the disk cache (default ProgramCache::default_dir(); empty turns it off).
  void set_program_cache_dir(std::filesystem::path dir);

  runtime::BackendStats stats() override;
  void reset_stats() override;
  runtime::DeviceObjectCounts live_objects() const override;
  std::optional<runtime::DeviceInfo> device() override;
  // Null until availability() succeeded.
  ProgramCache* programs() { return programs_.get(); }
  const std::shared_ptr<GlContext>& context() const { return ctx_; }
  bool float32_capable() const { return float32_capable_; }
  // Whether new tensors are fp16 (flag gl.float32_enabled off, or fp32 not capable).
  bool fp16_active() const;
  // Whether fp16 is active and follows TF.js webgl (flag gl.fp16_follow): every output TF.js
  // stores is stored, rounded to half.
  bool follows_webgl() const;
  // Whether fp16 tensors are RGBA32F textures holding half values (flag gl.fp16_storage; by
  // default where GlLimits::build_per_format and the probe found the driver's rounding).
  bool fp16_emulated() const { return emulate_under(flags_); }
  // The driver's RGBA16F rounding, probed at start; nullopt when it matched no known rule
  // (then fp16 storage is native only).
  const std::optional<HalfStorageRules>& half_rules() const { return half_rules_; }
  // Tests only: emulate another rule than the probe found (to show that only the driver's is
  // exact).
  void set_half_rules(HalfStorageRules rules) { half_rules_ = rules; }
  void set_precision(runtime::Flags& flags, runtime::Precision p) override;
  runtime::Precision precision(const runtime::Flags& flags) const override;

  // Tests only: forced faults and lowered limits.
  GlTestHooks& test_hooks() { return hooks_; }

  // For kernels (gl_op.h): runs one compute dispatch (or keeps it, in order, while programs are
  // built ahead). A grid with more work groups along an axis than the driver allows runs as
  // several dispatches, each told its first group by a uniform. An emulated fp16 output is then
  // marked unrounded, and unrounded inputs are rounded first or as they are read (fp16_storage.h).
  void dispatch(const KernelCall& call);
  // Builds `call`'s program ahead (workers, where there are) without running it: a kernel a later
  // run at the other precision will need (KernelCall::apart, apart_binary). Linked now, built on
  // a worker after the run (end_run), not counted as the run's. Nothing when compiling ahead is
  // off.
  void prebuild(const KernelCall& call);
  // Issues every dispatch kept for later, waiting for their programs' builds.
  void flush_pending();
  // A new float tensor's texture: fp32, or fp16 native or emulated as gl.fp16_storage says.
  std::shared_ptr<GlTensorData> new_texture(const Shape& shape, bool fp16);
  // Makes and fills the texture of data that upload() deferred (nothing for other data).
  void realize(const GlTensorData& data);
  // Writes a texture's texels (RGBA, tex_width x tex_height of the layout) into the vector.
  using TexelFill = std::function<void(const TexLayout&, std::vector<float>&)>;
  // A new texture of `storage` for a float tensor of `shape`, its texels written by `fill` on the
  // host (a filter repacked there), uploaded now; `bytes` counts as uploaded.
  std::shared_ptr<GlTensorData> upload_texels(const Shape& shape, Storage storage,
                                              std::int64_t bytes, const TexelFill& fill);
  const TexturePool& texture_pool() const { return *textures_; }

 private:
  // fuse() as it decides with fp16 following webgl (`follow`) or not.
  std::optional<graph::Node> fuse_as(const graph::Node& producer, const graph::Node& next,
                                     int through,
                                     std::span<const graph::TensorInfo* const> next_inputs,
                                     bool follow) const;
  // The disk cache's key (model_opened's hash of the bundle).
  void set_model_token(std::string token);
  // New textures are RGBA16F under these flags (gl.float32_enabled off) or on a driver without
  // exact float32 images.
  bool fp16_under(const runtime::Flags* flags) const;
  // fp16 tensors are emulated under these flags (gl.fp16_storage; its default without flags).
  bool emulate_under(const runtime::Flags* flags) const;
  bool emulate_by_default() const;
  // fp16_storage.cpp: finds half_rules_ (or says in half_rules_note_ why not).
  void probe_half_rules();
  // The layout and storage of a float tensor of `shape`; BackendLimit when no texture holds it.
  std::pair<TexLayout, Storage> texture_for(const Shape& shape, bool fp16) const;
  // `texels` (pack_phwc4's) into `texture`, of `layout`.
  void write_texels(GLuint texture, const TexLayout& layout, const std::vector<float>& texels);
  // A texture from the pool for `layout`, filled by `fill` (rounded as `storage` keeps values).
  GlObject filled_texture(const TexLayout& layout, Storage storage, std::int64_t bytes,
                          const TexelFill& fill);
  void write_texels(const GlTensorData& data, const std::vector<float>& texels) {
    write_texels(data.texture(), data.layout(), texels);
  }
  // One kernel call's dispatch (dispatch() adds the rounding).
  void dispatch_one(const KernelCall& call);
  void start();
  // Sets float32_capable_ and fma_rounds_once_ from one kernel's output.
  void probe_driver();
  void resolve_timings(bool wait);
  bool fault_hits(GlFault f) const;
  // Throws BackendUnavailable and marks the backend unavailable (for good) when the context is
  // lost; `node` names where it was noticed.
  void check_lost(const graph::Node* node);
  // gl_dispatch.cpp: a call's source and program (built or loaded here, its build handed to a
  // worker when compiling ahead), and issuing it.
  PreparedDispatch prepare(const KernelCall& call);
  void issue(PreparedDispatch& d);
  // Waits for the program's build ahead (reporting progress when `report`), or takes it back.
  void await_warm(CachedProgram& prog, bool report);
  // Puts a program built from source on the run's list of builds (once), its build `ms` after
  // its link.
  void note_build(CachedProgram& prog, double ms, bool ahead);
  // Hands the run's prebuilds (later_) to the workers (end_run).
  void start_later_builds();
  // Forgets kept dispatches (the run failed), issuing those that write a texture someone else
  // still holds.
  void drop_pending() noexcept;
  // The kernels' multiply-adds run through fma() (the prelude's SUMS_IN_FMA): where it rounds
  // once, or when flag gl.exact_sums is off; else in doubles (each product exact, each sum
  // rounded once, as TF.js cpu rounds).
  bool sums_in_fma() const;
  // Whether `call` stores only halves into an fp16 output (nothing to round).
  static bool stores_halves(const KernelCall& call);
  // Runs the rounding pass over `t` if a kernel left it unrounded (lazy rounding, dispatch()).
  void round_now(const GlTensorData& t);
  // Whether a new program's dispatch is kept, so that the run meets all its new programs before
  // building them (flag gl.compile_ahead; never under a timer query).
  bool compile_ahead_on() const;
  // gl.compile_threads' default, one worker per core: the engine's thread only waits for them.
  static std::int64_t default_compile_threads();
  // The workers that build programs ahead (llvmpipe with its disk cache, flag
  // gl.compile_threads > 0), started or resized on demand; null without.
  ProgramWarmer* warmer();
  // How many workers warmer() has (0: none on this driver or under these flags).
  std::int64_t warmer_threads() const;
  // "compiling N of M" to the engine's observers (M 0 when not known).
  void report_compiling();
  void reset_run_counts();

  bool started_ = false;
  runtime::Availability availability_;
  std::shared_ptr<GlContext> ctx_;
  std::unique_ptr<ProgramCache> programs_;
  // Textures of tensors that died, for the next run's tensors of the same size.
  std::shared_ptr<TexturePool> textures_ = std::make_shared<TexturePool>();
  std::filesystem::path cache_dir_;
  bool cache_dir_set_ = false;
  bool float32_capable_ = false;
  // fma() rounds once (GPUs; llvmpipe rounds the product first).
  bool fma_rounds_once_ = false;
  // upload()'s texels, its memory kept from one upload to the next (the first run uploads every
  // weight: fresh memory for each cost page faults).
  std::vector<float> upload_texels_;
  std::optional<HalfStorageRules> half_rules_;
  std::string half_rules_note_;            // why there are none
  const runtime::Flags* flags_ = nullptr;  // the Engine's, which outlives its backends
  GlStats stats_;
  // The disk key: the last model's token, applied once programs_ exists. A model opened before
  // gl started leaves its files here, hashed at start(): a cpu-only session hashes nothing.
  std::string model_token_;
  std::vector<std::filesystem::path> model_files_;
  ProgramCacheStats programs_at_reset_;  // the program cache's counts at reset_stats()
  struct PendingTiming {
    std::string op;
    GlObject query;
  };
  std::vector<PendingTiming> timings_;
  const graph::Node* current_node_ = nullptr;  // the node run() is in, for messages and hooks
  runtime::Engine* progress_ = nullptr;        // the running Engine, told of each new program
  std::int64_t programs_this_run_ = 0;         // new programs met since the run started
  std::int64_t programs_built_this_run_ = 0;   // of those, first dispatched on this thread
  bool ahead_this_run_ = false;                // some were handed to the warmer
  bool timing_now_ = false;                    // a node under a timer query: nothing kept
  // This run's builds ahead, with their programs.
  std::vector<std::pair<std::shared_ptr<WarmTicket>, CachedProgram*>> run_tickets_;
  std::vector<PreparedDispatch> pending_;  // kept dispatches, in order
  bool prebuilding_ = false;               // prepare() makes a program for a later run
  // What was prebuilt: a bit per Activation (unary.comp) and bit 31 for binary.comp.
  std::uint32_t prebuilt_kinds_ = 0;
  // This run's prebuilds, to be built after it; then those being built (settle() waits for them).
  std::vector<std::pair<CachedProgram*, WarmJob>> later_;
  std::vector<std::pair<std::shared_ptr<WarmTicket>, CachedProgram*>> background_;
  std::unique_ptr<ProgramWarmer> warmer_;  // declared after programs_: it goes first
  std::int64_t warmer_threads_ = 0;
  GlTestHooks hooks_;
};

std::unique_ptr<runtime::Backend> make_gl_backend();

}  // namespace tfjsi::gl
