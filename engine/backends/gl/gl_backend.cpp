#include "backends/gl/gl_backend.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "backends/gl/gl_op.h"
#include "backends/gl/prepared_dispatch.h"
#include "backends/gl/shader_library.h"
#include "core/error.h"
#include "core/scoped_value.h"
#include "graph/webgl_mark.h"
#include "ops/attr.h"
#include "ops/window.h"
#include "runtime/fp16_follow.h"

namespace tfjsi::gl {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

bool flag_bool(const runtime::Flags* f, std::string_view name, bool fallback) {
  return f && f->has(name) ? f->get_bool(name) : fallback;
}

}  // namespace

bool PendingRead::ready() {
  return host.has_value() || fence.wait(0);
}

GlBackend::GlBackend() = default;

GlBackend::~GlBackend() {
  // Kept dispatches and the workers' jobs refer to programs: they go before the programs do.
  pending_.clear();
  // Kernels built for a later run finish first, so that a later process finds them in the
  // driver's cache (a few, each well under a second); queued run builds are dropped.
  try {
    settle();
  } catch (...) {
  }
  warmer_.reset();
  run_tickets_.clear();
  timings_.clear();
  programs_.reset();
}

void GlBackend::start() {
  if (started_) return;
  started_ = true;
  std::string reason;
  try {
    ctx_ = GlContext::create(reason);
  } catch (const std::exception& e) {
    ctx_ = nullptr;
    reason = std::string("OpenGL start failed: ") + e.what();
  }
  if (!ctx_) {
    availability_ = {false, reason};
    return;
  }
  programs_ = std::make_unique<ProgramCache>(ctx_);
  programs_->set_disk_dir(cache_dir_set_ ? cache_dir_ : ProgramCache::default_dir());
  if (!model_files_.empty())
    set_model_token(model_token_of_files(model_files_));
  else
    programs_->set_model_token(model_token_);
  try {
    probe_driver();
  } catch (const std::exception& e) {
    availability_ = {false, std::string("OpenGL compute does not work: ") + e.what()};
    programs_.reset();
    ctx_.reset();
    return;
  }
  // Emulated fp16 stores RGBA32F: only where that is exact, and only with the driver's rule.
  if (float32_capable_) {
    try {
      probe_half_rules();
    } catch (const std::exception& e) {
      half_rules_note_ = std::string("the probe failed: ") + e.what();
    }
    stats_ = {};
    reset_run_counts();
  } else {
    half_rules_note_ = "the driver's RGBA32F textures are not exact";
  }
  availability_ = {true, ""};
  ctx_->release();  // the thread that drives the engine takes it at its first call
}

void GlBackend::probe_driver() {
  // Write a value that half floats cannot hold into an RGBA32F image and read it back: a driver
  // that stores fp32 textures at lower precision fails this. Lane 1 says how fma() rounds.
  const float probe = 1.0f + 1.0f / 1048576.0f;
  // Not from the pool: the probe's texture is no tensor's, and no run should find it there.
  const TexLayout layout{1, 1, 1, 4};
  auto tex =
      std::make_shared<GlTensorData>(make_texture(ctx_, layout, false), layout, Storage::Fp32);
  KernelCall call;
  call.shader = "probe.comp";
  call.defines = def("VALUE", probe);
  call.output = tex.get();
  dispatch(call);
  HostTensor back = download({tex, DType::Float32, {1, 1, 1, 4}});
  const auto v = back.values<float>();
  stats_ = {};
  reset_run_counts();  // the probe is no run's
  float32_capable_ = v[0] == probe && v[3] == probe;
  fma_rounds_once_ = v[1] == 1.0f;
}

runtime::Availability GlBackend::availability() {
  start();
  return availability_;
}

void GlBackend::declare_flags(runtime::Flags& flags) {
  flags_ = &flags;
  start();
  flags.define("gl.float32_capable", float32_capable_,
               "the driver stores and reads float32 textures exactly (detected)", true);
  flags.set_value("gl.float32_capable", float32_capable_, true);
  flags.define("gl.float32_enabled", true,
               "gl tensors are fp32 (true) or fp16 (false, as on many mobile GPUs; stored as "
               "gl.fp16_storage says)");
  flags.define("gl.fp16_storage", std::string(emulate_by_default() ? "emulated" : "native"),
               "fp16 tensors in RGBA16F textures (native) or in RGBA32F ones holding values "
               "rounded bit for bit as RGBA16F would (emulated: twice the memory, a rounding "
               "pass before a kernel that reads values it cannot round itself; fp16 then runs "
               "fp32's programs, so a precision switch builds none). Default: emulated where the "
               "driver builds per texture format (llvmpipe)");
  const std::string rounding =
      half_rules_ ? rule_text(half_rules_->store) + " (probed)"
                  : "unknown: " + (half_rules_note_.empty() ? std::string("gl did not start")
                                                            : half_rules_note_);
  flags.define("gl.fp16_rounding", rounding,
               "what the driver's RGBA16F stores do with values between half steps and past "
               "65504 (detected); emulated fp16 storage rounds the same way",
               true);
  flags.set_value("gl.fp16_rounding", rounding, true);
  flags.define("gl.exact_sums", false,
               "where fma() rounds the product first (llvmpipe), sum convolutions and products in "
               "doubles: each product exact and each sum rounded once, as TF.js cpu rounds (1.2-2x "
               "slower there); off, they multiply-add in fp32 as TF.js webgl does on that driver");
  flags.define("gl.program_cache", true, "keep compiled gl programs on disk between runs");
  flags.define("gl.timer_queries", false, "time each gl kernel on the GPU (GL_TIME_ELAPSED)");
  flags.define("gl.compile_ahead", true,
               "meet every new gl program of a run before building them (the total is known)");
  flags.define("gl.compile_threads", default_compile_threads(),
               "worker threads that build new gl programs while the run goes on (llvmpipe; "
               "default: one per core; 0: each built at its first dispatch)");
}

std::int64_t GlBackend::default_compile_threads() {
  return std::max<std::int64_t>(1, std::thread::hardware_concurrency());
}

bool GlBackend::fp16_under(const runtime::Flags* flags) const {
  return !float32_capable_ || !flag_bool(flags, "gl.float32_enabled", true);
}

bool GlBackend::fp16_active() const {
  return fp16_under(flags_);
}

bool GlBackend::emulate_by_default() const {
  return half_rules_ && ctx_ && ctx_->limits().build_per_format;
}

bool GlBackend::emulate_under(const runtime::Flags* flags) const {
  if (!half_rules_) return false;
  if (!flags || !flags->has("gl.fp16_storage")) return emulate_by_default();
  const std::string& v = flags->get_string("gl.fp16_storage");
  if (v == "native") return false;
  if (v == "emulated") return true;
  throw UsageError("flag gl.fp16_storage is '" + v + "': use native or emulated");
}

void GlBackend::set_precision(runtime::Flags& flags, runtime::Precision p) {
  if (flags.has("gl.float32_enabled"))
    flags.set_value("gl.float32_enabled", p == runtime::Precision::Fp32);
}

runtime::Precision GlBackend::precision(const runtime::Flags& flags) const {
  return fp16_under(&flags) ? runtime::Precision::Fp16 : runtime::Precision::Fp32;
}

void GlBackend::set_model_token(std::string token) {
  model_token_ = std::move(token);
  model_files_.clear();
  if (programs_) programs_->set_model_token(model_token_);
  // Prebuilds are saved under the model's key on disk: another model's make them again.
  prebuilt_kinds_ = 0;
}

void GlBackend::model_opened(const model::Bundle& bundle) {
  std::vector<std::filesystem::path> files{bundle.model_json};
  for (const model::Shard& s : bundle.shards) files.push_back(s.path);
  // Started: hashed now, before any timed run (the files were just read, so from the page
  // cache). Not started: at start(), if gl is ever used.
  if (programs_)
    set_model_token(model_token_of_files(files));
  else
    model_files_ = std::move(files);
}

void GlBackend::set_program_cache_dir(std::filesystem::path dir) {
  cache_dir_ = std::move(dir);
  cache_dir_set_ = true;
  if (programs_) programs_->set_disk_dir(cache_dir_);
}

std::vector<std::string_view> GlBackend::native_ops() const {
  std::vector<std::string_view> ops;
  for (const GlOpEntry& e : gl_op_registry()) ops.push_back(e.op);
  return ops;
}

bool GlBackend::supports(const graph::Node& node) const {
  return supports_inputs(node, {});
}

bool GlBackend::supports_inputs(const graph::Node& node,
                                std::span<const graph::TensorInfo* const> inputs) const {
  if (!availability_.available) return false;
  const GlOpEntry* e = find_gl_op(node.op);
  if (!e) return false;
  if (node.outputs.empty()) return false;
  auto fits_texture = [&](const PartialShape& s) {
    if (!s.rank_known) return true;
    if (s.rank() > 4) return false;
    return !s.fully_known() || fits(s.dims, ctx_->limits());
  };
  for (const graph::TensorInfo& out : node.outputs) {
    if (out.dtype != DType::Float32) return false;
    if (!fits_texture(out.shape)) return false;
  }
  // Float inputs become textures: rank 5 or a side past the driver's limit cannot.
  for (const graph::TensorInfo* in : inputs)
    if (in && in->dtype == DType::Float32 && !fits_texture(in->shape)) return false;
  // TF's "T" names the data type of the float inputs; anything but float stays on cpu.
  if (node.attr("T") && ops::try_attr<DType>(node, "T") != DType::Float32) return false;
  if (ops::try_data_format(node) != ops::DataFormat::Nhwc) return false;
  return !e->supports || e->supports(node, inputs);
}

bool GlBackend::fault_hits(GlFault f) const {
  return hooks_.fault == f && current_node_ &&
         (hooks_.fault_node.empty() || hooks_.fault_node == current_node_->name);
}

void GlBackend::check_lost(const graph::Node* node) {
  if (!ctx_) return;
  const std::string why = ctx_->lost_reason();
  if (why.empty()) return;
  if (availability_.available) {
    // Every texture and program went with the context: nothing of it can be used again.
    availability_ = {false, "OpenGL context lost (" + why + ")" +
                                (node ? " at node '" + node->name + "' (" + node->op + ")" : "")};
    timings_.clear();
    pending_.clear();  // their textures and programs went with the context
    textures_->trim();
  }
  throw BackendUnavailable("gl backend is not available: " + availability_.reason);
}

std::pair<TexLayout, Storage> GlBackend::texture_for(const Shape& shape, bool fp16) const {
  const GlLimits& lim = ctx_->limits();
  auto l = layout_of(shape);
  if (l && fits(shape, lim)) l = with_panels(*l, lim.max_texture_size);
  if (!l || !fits(shape, lim))
    throw BackendLimit("gl backend: tensor of shape " + shape_to_string(shape) +
                       " does not fit a texture (rank <= 4, sides <= " +
                       std::to_string(lim.max_texture_size) + " with panels)");
  if (lim.variant_per_pow2_sides) l = without_pow2_sides(*l, lim.max_texture_size);
  const Storage storage = !fp16                   ? Storage::Fp32
                          : emulate_under(flags_) ? Storage::Fp16Emulated
                                                  : Storage::Fp16;
  return {*l, storage};
}

std::shared_ptr<GlTensorData> GlBackend::new_texture(const Shape& shape, bool fp16) {
  if (fault_hits(GlFault::Alloc)) {
    // One texel wider than the driver allows: the real glTexStorage2D failure path.
    TexLayout wide{1, 1, ctx_->limits().max_texture_size + std::int64_t{1}, 4};
    make_texture(ctx_, wide, fp16);
  }
  auto [l, storage] = texture_for(shape, fp16);
  GlObject tex = textures_->take_fitting(ctx_, l, storage == Storage::Fp16);
  return std::make_shared<GlTensorData>(std::move(tex), l, storage, textures_);
}

std::shared_ptr<runtime::BackendData> GlBackend::upload(const HostTensor& host) {
  start();
  if (!availability_.available)
    throw BackendUnavailable("gl backend is not available: " + availability_.reason);
  if (host.dtype != DType::Float32) return std::make_shared<GlTensorData>(host);
  if (!host.buffer || host.buffer->size() < host.byte_size())
    throw ModelError("gl backend: upload of a float32 tensor " + shape_to_string(host.shape) +
                     " without data");
  // Made and filled at its first use (realize): a filter read only repacked never is.
  const auto [l, storage] = texture_for(host.shape, fp16_active());
  auto data = std::make_shared<GlTensorData>(host, l, storage, textures_);
  if (hooks_.eager_uploads) realize(*data);
  return data;
}

void GlBackend::realize(const GlTensorData& data) {
  if (!data.deferred()) return;
  const HostTensor& host = *data.host();
  data.set_texture(filled_texture(
      data.layout(), data.storage(), static_cast<std::int64_t>(host.byte_size()),
      [&](const TexLayout& l, std::vector<float>& texels) { pack_phwc4(host, l, texels); }));
  // Small constants keep their host copy, for kernels that read scalar parameters on the host.
  if (host.num_elements() > kKeepHostElements) data.drop_host();
}

std::shared_ptr<GlTensorData> GlBackend::upload_texels(const Shape& shape, Storage storage,
                                                       std::int64_t bytes, const TexelFill& fill) {
  const TexLayout l = texture_for(shape, storage != Storage::Fp32).first;
  return std::make_shared<GlTensorData>(filled_texture(l, storage, bytes, fill), l, storage,
                                        textures_);
}

GlObject GlBackend::filled_texture(const TexLayout& layout, Storage storage, std::int64_t bytes,
                                   const TexelFill& fill) {
  check_lost(current_node_);
  ctx_->make_current();
  const auto t0 = Clock::now();
  GlObject tex = textures_->take(ctx_, layout, storage == Storage::Fp16);
  std::vector<float>& texels = upload_texels_;
  fill(layout, texels);
  // What the driver's RGBA16F upload would have kept.
  if (storage == Storage::Fp16Emulated) round_to_half(texels, half_rules_->upload);
  write_texels(tex.id(), layout, texels);
  // A large one is not kept: a model's inputs and weights are mostly under 4 MB.
  if (texels.capacity() > (std::size_t{1} << 20)) std::vector<float>().swap(texels);
  stats_.upload_ms += ms_since(t0);
  ++stats_.uploads;
  stats_.upload_bytes += bytes;
  return tex;
}

void GlBackend::write_texels(GLuint texture, const TexLayout& layout,
                             const std::vector<float>& texels) {
  glBindTexture(GL_TEXTURE_2D, texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, static_cast<GLsizei>(layout.tex_width()),
                  static_cast<GLsizei>(layout.tex_height()), GL_RGBA, GL_FLOAT, texels.data());
  glBindTexture(GL_TEXTURE_2D, 0);
}

PendingRead GlBackend::begin_read(const runtime::TensorView& tensor) {
  const auto* d = dynamic_cast<const GlTensorData*>(tensor.data.get());
  if (!d) throw std::logic_error("gl backend: download of data from another backend");
  PendingRead r;
  r.shape = tensor.shape;
  // Deferred fp32 values are the host's as they are; fp16 ones go through the texture, whose
  // upload rounds them.
  if (d->deferred() && d->fp16()) realize(*d);
  if (d->on_host() || d->deferred()) {
    HostTensor h = *d->host();
    h.shape = tensor.shape;  // a reshape shares the data under another shape
    r.host = std::move(h);
    return r;
  }
  check_lost(current_node_);
  ctx_->make_current();
  round_now(*d);    // a kernel may have left it unrounded (lazy rounding)
  flush_pending();  // the texture's contents may come from a kept dispatch
  r.layout = d->layout();
  const auto bytes = static_cast<GLsizeiptr>(r.layout.tex_width() * r.layout.tex_height() * 16);
  r.pbo = GlObject(ctx_, GlKind::Buffer);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, r.pbo.id());
  glBufferData(GL_PIXEL_PACK_BUFFER, bytes, nullptr, GL_STREAM_READ);
  glBindTexture(GL_TEXTURE_2D, d->texture());
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, nullptr);
  glBindTexture(GL_TEXTURE_2D, 0);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  r.fence = GlFence(ctx_);
  return r;
}

HostTensor GlBackend::finish_read(PendingRead& r) {
  if (r.host) return *r.host;
  const auto t0 = Clock::now();
  while (!r.fence.wait(1'000'000'000)) {
    // A long kernel on a slow (software) GPU: keep waiting; GL has no way to cancel it. A reset
    // ends the wait: a lost context never signals.
    check_lost(current_node_);
  }
  ctx_->make_current();
  check_lost(current_node_);
  const auto n = static_cast<std::size_t>(r.layout.tex_width() * r.layout.tex_height() * 4);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, r.pbo.id());
  const void* p =
      glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, static_cast<GLsizeiptr>(n * 4), GL_MAP_READ_BIT);
  if (!p) {
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    throw std::runtime_error("gl backend: cannot map the readback buffer");
  }
  HostTensor out =
      unpack_phwc4(std::span<const float>(static_cast<const float*>(p), n), r.layout, r.shape);
  glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  r.pbo.reset();
  r.fence.reset();
  stats_.download_ms += ms_since(t0);
  ++stats_.downloads;
  return out;
}

HostTensor GlBackend::download(const runtime::TensorView& tensor) {
  PendingRead r = begin_read(tensor);
  return finish_read(r);
}

std::vector<runtime::TensorView> GlBackend::run(const graph::Node& node,
                                                std::span<const runtime::TensorView> inputs,
                                                const runtime::RunContext& ctx) {
  start();
  if (!availability_.available)
    throw BackendUnavailable("gl backend is not available: " + availability_.reason);
  const GlOpEntry* e = find_gl_op(node.op);
  if (!e)
    throw BackendLimit("node '" + node.name + "' (" + node.op + "): no gl kernel for this op");
  // No texture holds (real, imag) pairs: cpu runs what reads complex64 (the plan sends such
  // nodes there when it knows their dtypes; this is for the ones it did not).
  for (const auto& in : inputs)
    if (in.dtype == DType::Complex64)
      throw BackendLimit("node '" + node.name + "' (" + node.op +
                         "): gl does not hold complex64 tensors");
  const ScopedValue<const graph::Node*> in_node(current_node_, &node, nullptr);
  if (!ctx_->try_make_current()) check_lost(&node);  // EGL_CONTEXT_LOST, or another EGL error:
  ctx_->make_current();                              // that one throws with its code
  if (fault_hits(GlFault::LostContext))
    ctx_->mark_lost("GL_UNKNOWN_CONTEXT_RESET, forced by the gl test hook");
  check_lost(&node);
  if (flags_ == nullptr) flags_ = &ctx.flags;
  progress_ = ctx.engine;
  if (programs_) {
    const bool disk = flag_bool(&ctx.flags, "gl.program_cache", true);
    programs_->set_disk_dir(!disk ? std::filesystem::path()
                                  : (cache_dir_set_ ? cache_dir_ : ProgramCache::default_dir()));
  }
  // Following TF.js webgl, what TF.js computes inside one kernel is not stored in half floats
  // here either (graph::kWebglInKernel): that node's output stays fp32.
  const bool half = fp16_under(&ctx.flags);
  const bool follow = runtime::fp16_follow(&ctx.flags) == runtime::Fp16Follow::Webgl;
  const bool fp16 = half && !(follow && graph::webgl_in_kernel(node));
  const bool time_it =
      ctx_->limits().timer_queries && flag_bool(&ctx.flags, "gl.timer_queries", false);
  GlObject query;
  if (time_it) {
    // The query times what the node issues: nothing may be kept for later inside it.
    flush_pending();
    query = GlObject(ctx_, GlKind::Query);
    glBeginQuery(GL_TIME_ELAPSED, query.id());
  }
  OpContext op(*this, node, inputs, fp16);
  op.set_follow_webgl(follow, half);
  std::vector<runtime::TensorView> out;
  const ScopedValue<bool> timing(timing_now_, time_it, false);
  try {
    out = e->run(op);
  } catch (...) {
    if (time_it) glEndQuery(GL_TIME_ELAPSED);
    check_lost(&node);  // a kernel that failed because the context went: say that instead
    throw;
  }
  if (time_it) {
    glEndQuery(GL_TIME_ELAPSED);
    timings_.push_back({node.op, std::move(query)});
    resolve_timings(false);  // the rest when stats() asks
  }
  check_lost(&node);
  return out;
}

void GlBackend::resolve_timings(bool wait) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < timings_.size(); ++i) {
    PendingTiming& t = timings_[i];
    GLuint available = GL_FALSE;
    if (!wait) glGetQueryObjectuiv(t.query.id(), GL_QUERY_RESULT_AVAILABLE, &available);
    if (wait || available) {
      GLuint64 ns = 0;
      glGetQueryObjectui64v(t.query.id(), GL_QUERY_RESULT, &ns);
      stats_.device_ms_by_op[t.op] += static_cast<double>(ns) / 1e6;
    } else {
      if (kept != i) timings_[kept] = std::move(t);  // no self-move: it would empty the name
      ++kept;
    }
  }
  timings_.resize(kept);
}

runtime::BackendStats GlBackend::stats() {
  if (ctx_ && !timings_.empty() && ctx_->try_make_current()) resolve_timings(true);
  runtime::BackendStats s = stats_;
  if (programs_) {
    s.kernels_built = programs_->stats().compiled - programs_at_reset_.compiled;
    s.kernels_loaded = programs_->stats().disk_loaded - programs_at_reset_.disk_loaded;
  }
  return s;
}

void GlBackend::reset_stats() {
  stats_ = {};
  programs_at_reset_ = programs_ ? programs_->stats() : ProgramCacheStats{};
}

runtime::DeviceObjectCounts GlBackend::live_objects() const {
  return live_gl_objects();
}

std::optional<runtime::DeviceInfo> GlBackend::device() {
  if (!availability().available || !ctx_) return std::nullopt;
  runtime::DeviceInfo d;
  d.vendor = ctx_->vendor();
  d.renderer = ctx_->renderer();
  d.version = ctx_->version();
  d.surface = ctx_->surface_kind();
  d.max_texture_size = ctx_->limits().max_texture_size;
  d.timer_queries = ctx_->limits().timer_queries;
  return d;
}

runtime::BackendMemory GlBackend::memory() const {
  runtime::BackendMemory m;
  if (!programs_) return m;
  m.bytes = programs_->binary_bytes() + textures_->cached_bytes();
  m.details = std::to_string(programs_->size()) + " compute programs, " +
              std::to_string(textures_->cached_textures()) + " free textures kept for reuse (" +
              std::to_string(textures_->cached_bytes() / 1024) + " KB)";
  return m;
}

// glFinish, not a fence or a timer query's result: on llvmpipe, waiting for a query costs a tiny
// node several times its kernel.
void GlBackend::finish() {
  if (!ctx_ || !ctx_->try_make_current()) return;
  flush_pending();
  glFinish();
}

void GlBackend::end_run() {
  // A run that read its outputs issued everything. One that failed may leave dispatches kept:
  // they are issued all the same (a texture they write may outlive the run), unless that fails
  // too or the run is being cancelled (an observer throws from the progress report): then only
  // those whose output someone still holds.
  if (!pending_.empty() && ctx_ && ctx_->try_make_current()) {
    try {
      flush_pending();
    } catch (...) {
      drop_pending();
    }
  }
  pending_.clear();
  if (!later_.empty() && ctx_ && ctx_->try_make_current()) start_later_builds();
  later_.clear();
  reset_run_counts();
  textures_->end_round();
}

void GlBackend::reset_run_counts() {
  programs_this_run_ = 0;
  programs_built_this_run_ = 0;
  ahead_this_run_ = false;
  run_tickets_.clear();
}

void GlBackend::trim_caches() {
  textures_->trim();
}

std::unique_ptr<runtime::Backend> make_gl_backend() {
  return std::make_unique<GlBackend>();
}

}  // namespace tfjsi::gl
