#include "backends/gl/gl_backend.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "backends/gl/gl_op.h"
#include "backends/gl/shader_library.h"
#include "core/error.h"

namespace tfjsi::gl {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Float constants up to this many elements also keep their host copy at upload (for kernels that
// read scalar parameters on the host).
constexpr std::int64_t kKeepHostElements = 16;

bool flag_bool(const runtime::Flags* f, std::string_view name, bool fallback) {
  return f && f->has(name) ? f->get_bool(name) : fallback;
}

// GLSL for the texel of (n, h, w, s) of a tensor whose #defines start with `p` (gl_tensor.h).
std::string texel_expr(const TexLayout& l, const std::string& p) {
  const std::string row = "((n * " + p + "_C4 + s) * " + p + "_H + h)";
  if (l.panel_rows <= 0) return "ivec2(w, " + row + ")";
  const std::string r = std::to_string(l.panel_rows);
  return "ivec2(w + (" + row + " / " + r + ") * " + p + "_W, " + row + " % " + r + ")";
}

// llvmpipe compiles a variant of a program for each pattern of power-of-two texture sides it is
// dispatched on (part of its texture state), and Mesa's disk cache found only a program's first
// variant again in a later process (emotion: a later variant took 870 ms in every process). So on
// llvmpipe the pattern is part of the source: each program has one variant, found again.
std::string llvmpipe_variant_note(const KernelCall& call, const GlLimits& limits) {
  if (!limits.variant_per_pow2_sides) return {};
  auto pot = [](std::int64_t v) { return std::has_single_bit(static_cast<std::uint64_t>(v)); };
  std::string s = "// llvmpipe texture sides, power of two:";
  auto add = [&](const TexLayout& l) {
    s += ' ';
    s += pot(l.tex_width()) ? '1' : '0';
    s += pot(l.tex_height()) ? '1' : '0';
  };
  for (const GlTensorData* in : call.inputs) add(in->layout());
  add(call.output->layout());
  return s + "\n";
}

// A work group of 64 invocations (a multiple of every GPU's SIMD width) shaped after `grid`: 8x8
// over an image, as it always was, but a grid one texel high gets a row of 64 and one a texel
// wide and high ([1,1,1,C]: 1x1xC4) a column of 64 along z, where a fixed 8x8x1 would leave 56
// or 63 of every 64 invocations idle.
std::array<int, 3> group_for(const std::array<std::int64_t, 3>& grid) {
  std::array<int, 3> local{1, 1, 1};
  int room = 64;
  for (std::size_t i = 0; i < 3; ++i) {
    const auto want = std::bit_ceil(static_cast<std::uint64_t>(std::max<std::int64_t>(1, grid[i])));
    const int cap = i == 0 && grid[1] > 1 ? 8 : room;
    local[i] = static_cast<int>(std::min<std::uint64_t>(want, static_cast<std::uint64_t>(cap)));
    room /= local[i];
  }
  return local;
}

// Everything a kernel's source begins with: version, work group size, the bound textures and the
// helpers that turn NHWC coordinates into texels (see gl_tensor.h for the mapping).
// The source does not depend on the textures' precision (RGBA16F or RGBA32F) where the driver
// lets it: the output is a writeonly image without a format qualifier (GLSL 4.30, "Format Layout
// Qualifiers": only images that are read need one), inputs read through samplers, or through
// images without a format under GL_EXT_shader_image_load_formatted. Without that extension
// (llvmpipe) imageLoad needs the format, and the input images keep it: imageLoad costs llvmpipe
// half a texelFetch, and llvmpipe builds a variant of the program per bound texture format at
// dispatch anyway, so a sampler would buy it no reuse across precisions.
// Shapes are uniforms (`uniforms` holds them after the call's own) unless the call asks for
// #defines (KernelCall::static_shapes).
std::string prelude(const KernelCall& call, std::array<int, 3> local, bool images,
                    bool load_formatted, const std::vector<UniformValue>& uniforms) {
  std::string s = "#version 430 core\n";
  if (images && load_formatted) s += "#extension GL_EXT_shader_image_load_formatted : require\n";
  s += "layout(local_size_x = " + std::to_string(local[0]) +
       ", local_size_y = " + std::to_string(local[1]) +
       ", local_size_z = " + std::to_string(local[2]) + ") in;\n";
  // A grid larger than the driver's work-group count limit runs as several dispatches; each says
  // where its groups start, and kernels take their ids from these helpers, never from the
  // built-ins.
  s += R"(uniform ivec3 tfjsi_group_base;
ivec3 group_id() { return ivec3(gl_WorkGroupID) + tfjsi_group_base; }
ivec3 global_id() { return ivec3(gl_GlobalInvocationID) + tfjsi_group_base * ivec3(gl_WorkGroupSize); }
)";
  for (const UniformValue& u : uniforms)
    s += std::string(u.is_float ? "uniform float " : "uniform int ") + u.name + ";\n";
  for (std::size_t i = 0; i < call.inputs.size(); ++i) {
    const GlTensorData& in = *call.inputs[i];
    const std::string n = "in" + std::to_string(i);
    const std::string up = "IN" + std::to_string(i);
    if (call.static_shapes) s += def_layout(up, in.layout());
    if (images) {
      const std::string format =
          load_formatted ? "" : std::string(in.fp16() ? "rgba16f, " : "rgba32f, ");
      s += "layout(" + format + "binding = " + std::to_string(i + 1) +
           ") readonly uniform image2D " + n + ";\n";
      s += "vec4 load_" + n + "(int n, int h, int w, int s) { return imageLoad(" + n + ", " +
           texel_expr(in.layout(), up) + "); }\n";
    } else {
      s += "layout(binding = " + std::to_string(i) + ") uniform sampler2D " + n + ";\n";
      s += "vec4 load_" + n + "(int n, int h, int w, int s) { return texelFetch(" + n + ", " +
           texel_expr(in.layout(), up) + ", 0); }\n";
    }
    s += "float lane_" + n + "(int n, int h, int w, int c) { return load_" + n +
         "(n, h, w, c >> 2)[c & 3]; }\n";
  }
  const TexLayout& o = call.output->layout();
  if (call.static_shapes) s += def_layout("OUT", o);
  s += "layout(binding = 0) writeonly uniform image2D out0;\n";
  s += R"(void store_out(int n, int h, int w, int s, vec4 v) {
  // Lanes past C stay 0: kernels rely on zero padding.
  v = mix(v, vec4(0.0), greaterThanEqual(ivec4(4 * s) + ivec4(0, 1, 2, 3), ivec4(OUT_C)));
  imageStore(out0, )" +
       texel_expr(o, "OUT") + R"(, v);
}
// The output texel of this invocation for the default grid (W, H, N*C4); false past the end.
bool out_texel(out int n, out int h, out int w, out int s) {
  ivec3 g = global_id();
  w = g.x; h = g.y; n = g.z / OUT_C4; s = g.z - n * OUT_C4;
  return w < OUT_W && h < OUT_H && n < OUT_N;
}
)";
  s += shader_source("common.glsl");
  return s;
}

}  // namespace

bool PendingRead::ready() {
  return host.has_value() || fence.wait(0);
}

GlBackend::GlBackend() = default;

GlBackend::~GlBackend() {
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
  try {
    float32_capable_ = probe_float32();
  } catch (const std::exception& e) {
    availability_ = {false, std::string("OpenGL compute does not work: ") + e.what()};
    programs_.reset();
    ctx_.reset();
    return;
  }
  availability_ = {true, ""};
  ctx_->release();  // the thread that drives the engine takes it at its first call
}

bool GlBackend::probe_float32() {
  // Write a value that half floats cannot hold into an RGBA32F image and read it back: a driver
  // that stores fp32 textures at lower precision fails this.
  const float probe = 1.0f + 1.0f / 1048576.0f;
  // Not from the pool: the probe's texture is no tensor's, and no run should find it there.
  const TexLayout layout{1, 1, 1, 4};
  auto tex = std::make_shared<GlTensorData>(make_texture(ctx_, layout, false), layout, false);
  KernelCall call;
  call.shader = "fill.comp";
  call.defines = def("VALUE", probe);
  call.output = tex.get();
  dispatch(call);
  HostTensor back = download({tex, DType::Float32, {1, 1, 1, 4}});
  const auto v = back.values<float>();
  stats_ = {};
  return v[0] == probe && v[3] == probe;
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
               "gl textures are RGBA32F (true) or RGBA16F (false, as on many mobile GPUs)");
  flags.define("gl.program_cache", true, "keep compiled gl programs on disk between runs");
  flags.define("gl.model_token", std::string(),
               "hash of the model bundle that keys the gl program cache on disk");
  flags.define("gl.timer_queries", false, "time each gl kernel on the GPU (GL_TIME_ELAPSED)");
}

bool GlBackend::fp16_under(const runtime::Flags* flags) const {
  return !float32_capable_ || !flag_bool(flags, "gl.float32_enabled", true);
}

bool GlBackend::fp16_active() const {
  return fp16_under(flags_);
}

void GlBackend::set_precision(runtime::Flags& flags, runtime::Precision p) {
  if (flags.has("gl.float32_enabled"))
    flags.set_value("gl.float32_enabled", p == runtime::Precision::Fp32);
}

runtime::Precision GlBackend::precision(const runtime::Flags& flags) const {
  return fp16_under(&flags) ? runtime::Precision::Fp16 : runtime::Precision::Fp32;
}

void GlBackend::set_model_token(std::string token) {
  if (programs_) programs_->set_model_token(std::move(token));
}

void GlBackend::set_model(const model::Bundle& bundle) {
  std::vector<std::filesystem::path> files{bundle.model_json};
  for (const model::Shard& s : bundle.shards) files.push_back(s.path);
  set_model_token(model_token_of_files(files));
}

void GlBackend::set_program_cache_dir(std::filesystem::path dir) {
  cache_dir_ = std::move(dir);
  cache_dir_set_ = true;
  if (programs_) programs_->set_disk_dir(cache_dir_);
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
  if (const auto* t = node.attr("T")) {
    const auto* ta = std::get_if<graph::TypeAttr>(t);
    if (!ta || ta->tf != "DT_FLOAT") return false;
  }
  const std::string format = node_string(node, "data_format", "NHWC");
  if (format != "NHWC") return false;
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
    textures_->trim();
  }
  throw BackendUnavailable("gl backend is not available: " + availability_.reason);
}

std::shared_ptr<GlTensorData> GlBackend::new_texture(const Shape& shape, bool fp16) {
  if (fault_hits(GlFault::Alloc)) {
    // One texel wider than the driver allows: the real glTexStorage2D failure path.
    TexLayout wide{1, 1, ctx_->limits().max_texture_size + std::int64_t{1}, 4};
    make_texture(ctx_, wide, fp16);
  }
  auto l = layout_of(shape);
  if (l && fits(shape, ctx_->limits())) l = with_panels(*l, ctx_->limits().max_texture_size);
  if (!l || !fits(shape, ctx_->limits()))
    throw BackendLimit("gl backend: tensor of shape " + shape_to_string(shape) +
                       " does not fit a texture (rank <= 4, sides <= " +
                       std::to_string(ctx_->limits().max_texture_size) + " with panels)");
  return std::make_shared<GlTensorData>(textures_->take(ctx_, *l, fp16), *l, fp16, textures_);
}

std::shared_ptr<runtime::BackendData> GlBackend::upload(const HostTensor& host) {
  start();
  if (!availability_.available)
    throw BackendUnavailable("gl backend is not available: " + availability_.reason);
  if (host.dtype != DType::Float32) return std::make_shared<GlTensorData>(host);
  if (!host.buffer || host.buffer->size() < host.byte_size())
    throw ModelError("gl backend: upload of a float32 tensor " + shape_to_string(host.shape) +
                     " without data");
  ctx_->make_current();
  const auto t0 = Clock::now();
  auto data = new_texture(host.shape, fp16_active());
  const std::vector<float> texels = pack_phwc4(host, data->layout());
  if (host.num_elements() > 0) {
    glBindTexture(GL_TEXTURE_2D, data->texture());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, static_cast<GLsizei>(data->layout().tex_width()),
                    static_cast<GLsizei>(data->layout().tex_height()), GL_RGBA, GL_FLOAT,
                    texels.data());
    glBindTexture(GL_TEXTURE_2D, 0);
  }
  if (host.num_elements() <= kKeepHostElements) data->set_host(host);
  stats_.upload_ms += ms_since(t0);
  ++stats_.uploads;
  stats_.upload_bytes += static_cast<std::int64_t>(host.byte_size());
  return data;
}

PendingRead GlBackend::begin_read(const runtime::TensorView& tensor) {
  const auto* d = dynamic_cast<const GlTensorData*>(tensor.data.get());
  if (!d) throw std::logic_error("gl backend: download of data from another backend");
  PendingRead r;
  r.shape = tensor.shape;
  if (d->on_host()) {
    HostTensor h = *d->host();
    h.shape = tensor.shape;  // a reshape shares the data under another shape
    r.host = std::move(h);
    return r;
  }
  check_lost(current_node_);
  ctx_->make_current();
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
  current_node_ = &node;
  struct ClearNode {
    const graph::Node*& slot;
    ~ClearNode() { slot = nullptr; }
  } clear_node{current_node_};
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
    if (ctx.flags.has("gl.model_token") && !ctx.flags.get_string("gl.model_token").empty())
      programs_->set_model_token(ctx.flags.get_string("gl.model_token"));
  }
  const bool fp16 = fp16_under(&ctx.flags);
  const bool time_it =
      ctx_->limits().timer_queries && flag_bool(&ctx.flags, "gl.timer_queries", false);
  GlObject query;
  if (time_it) {
    query = GlObject(ctx_, GlKind::Query);
    glBeginQuery(GL_TIME_ELAPSED, query.id());
  }
  OpContext op(*this, node, inputs, fp16);
  std::vector<runtime::TensorView> out;
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
      stats_.kernel_gpu_ms[t.op] += static_cast<double>(ns) / 1e6;
    } else {
      if (kept != i) timings_[kept] = std::move(t);  // no self-move: it would empty the name
      ++kept;
    }
  }
  timings_.resize(kept);
}

const GlStats& GlBackend::stats() {
  if (ctx_ && !timings_.empty() && ctx_->try_make_current()) resolve_timings(true);
  return stats_;
}

void GlBackend::dispatch(const KernelCall& call) {
  const GlLimits& lim = ctx_->limits();
  if (!call.output) throw std::logic_error("gl backend: " + call.shader + " has no output image");
  std::array<std::int64_t, 3> grid = call.grid;
  if (grid == std::array<std::int64_t, 3>{0, 0, 0}) {
    const TexLayout& o = call.output->layout();
    grid = {o.w, o.h, o.n * o.c4()};
  }
  // Every GL 4.3 driver runs groups of 1024 invocations and 64 along z; smaller only if the
  // limits say so.
  std::array<int, 3> local =
      call.local == std::array<int, 3>{0, 0, 0} ? group_for(grid) : call.local;
  for (int i = 0; i < 3; ++i) local[i] = std::max(1, std::min(local[i], lim.max_group_size[i]));
  while (local[0] * local[1] * local[2] > lim.max_group_invocations) {
    int& l = local[2] > 1 ? local[2] : local[1] > 1 ? local[1] : local[0];
    l = std::max(1, l / 2);
  }
  const bool fp16 = call.output->fp16();
  // Inputs are read as images where the driver has the units (the output takes unit 0): on Mesa's
  // llvmpipe an imageLoad costs half a texelFetch, and on GPUs the two are alike. Samplers
  // otherwise, so that a kernel with many inputs still runs.
  const auto images_wanted = static_cast<GLint>(call.inputs.size()) + 1;
  const bool images = !hooks_.inputs_as_samplers && images_wanted <= lim.max_compute_images &&
                      images_wanted <= lim.max_image_units;
  if (!images && static_cast<GLint>(call.inputs.size()) > lim.max_compute_texture_units)
    throw BackendLimit("gl backend: a kernel reads " + std::to_string(call.inputs.size()) +
                       " textures, more than the driver's " +
                       std::to_string(lim.max_compute_texture_units));
  std::vector<UniformValue> uniforms = call.uniforms;
  if (!call.static_shapes) {
    for (std::size_t i = 0; i < call.inputs.size(); ++i)
      add_layout_uniforms(uniforms, "IN" + std::to_string(i), call.inputs[i]->layout());
    add_layout_uniforms(uniforms, "OUT", call.output->layout());
  }
  const std::string body = call.extra + std::string(shader_source(call.shader));
  std::string source = prelude(call, local, images, lim.image_load_formatted, uniforms) +
                       llvmpipe_variant_note(call, lim) + call.defines + body;
  if (fault_hits(GlFault::Compile)) source += "\n#error forced compile failure (gl test hook)\n";
  const auto t0 = Clock::now();
  bool fresh = false;
  CachedProgram& prog = programs_->get(source, fresh);
  std::array<std::int64_t, 3> groups{}, limit{};
  bool split = false;
  for (std::size_t i = 0; i < 3; ++i) {
    groups[i] = (grid[i] + local[i] - 1) / local[i];
    limit[i] = lim.max_group_count[i];
    if (hooks_.max_group_count[i] > 0) limit[i] = std::min(limit[i], hooks_.max_group_count[i]);
    if (limit[i] < 1) throw std::runtime_error("gl backend: the driver allows no work groups");
    split = split || groups[i] > limit[i];
  }
  // Only the prelude's group_id() and global_id() know about the cut.
  if (split && (body.find("gl_GlobalInvocationID") != std::string::npos ||
                body.find("gl_WorkGroupID") != std::string::npos))
    throw std::logic_error("gl backend: " + call.shader +
                           " reads the built-in invocation ids, so its grid cannot be split");
  if (prog.group_base_location == -2)
    prog.group_base_location = glGetUniformLocation(prog.program.id(), "tfjsi_group_base");
  glUseProgram(prog.program.id());
  if (prog.uniform_locations.size() != uniforms.size()) {
    prog.uniform_locations.clear();
    for (const UniformValue& u : uniforms)
      prog.uniform_locations.push_back(glGetUniformLocation(prog.program.id(), u.name.c_str()));
  }
  for (std::size_t i = 0; i < uniforms.size(); ++i) {
    const GLint loc = prog.uniform_locations[i];
    if (loc < 0) continue;  // not read by this kernel: the compiler dropped it
    if (uniforms[i].is_float)
      glUniform1f(loc, uniforms[i].f);
    else
      glUniform1i(loc, static_cast<GLint>(uniforms[i].i));
  }
  for (std::size_t i = 0; i < call.inputs.size(); ++i) {
    const GlTensorData& in = *call.inputs[i];
    if (images) {
      glBindImageTexture(static_cast<GLuint>(i + 1), in.texture(), 0, GL_FALSE, 0, GL_READ_ONLY,
                         in.fp16() ? GL_RGBA16F : GL_RGBA32F);
    } else {
      glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(i));
      glBindTexture(GL_TEXTURE_2D, in.texture());
    }
  }
  glBindImageTexture(0, call.output->texture(), 0, GL_FALSE, 0, GL_WRITE_ONLY,
                     fp16 ? GL_RGBA16F : GL_RGBA32F);
  // The uniform keeps its value in the program: set it on every dispatch, 0 when not cut.
  for (std::int64_t z = 0; z < groups[2]; z += limit[2])
    for (std::int64_t y = 0; y < groups[1]; y += limit[1])
      for (std::int64_t x = 0; x < groups[0]; x += limit[0]) {
        if (prog.group_base_location >= 0)
          glUniform3i(prog.group_base_location, static_cast<GLint>(x), static_cast<GLint>(y),
                      static_cast<GLint>(z));
        glDispatchCompute(static_cast<GLuint>(std::min(limit[0], groups[0] - x)),
                          static_cast<GLuint>(std::min(limit[1], groups[1] - y)),
                          static_cast<GLuint>(std::min(limit[2], groups[2] - z)));
      }
  if (split) ++stats_.split_dispatches;
  // The next kernel samples what this one stored; readback goes through a pixel buffer.
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                  GL_TEXTURE_UPDATE_BARRIER_BIT | GL_PIXEL_BUFFER_BARRIER_BIT);
  ++stats_.dispatches;
  if (!prog.dispatched) {
    prog.dispatched = true;
    // llvmpipe compiles at the first dispatch: the program's cost ends when that one finishes.
    glFinish();
    if (fresh) {
      stats_.compile_ms += ms_since(t0);
      ++stats_.new_programs;
      // How many programs the run will meet is not known ahead: the count so far.
      if (progress_) progress_->report_progress("compiling", ++programs_this_run_, 0);
    }
    programs_->save(prog);
  }
  for (std::size_t i = 0; i < call.inputs.size(); ++i) {
    if (images) {
      glBindImageTexture(static_cast<GLuint>(i + 1), 0, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA32F);
    } else {
      glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(i));
      glBindTexture(GL_TEXTURE_2D, 0);
    }
  }
  glActiveTexture(GL_TEXTURE0);
  if (GLenum err = glGetError(); err != GL_NO_ERROR) {
    if (err == GL_CONTEXT_LOST) ctx_->mark_lost("GL_CONTEXT_LOST");
    check_lost(current_node_);
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%04X", err);
    throw std::runtime_error("gl backend: GL error " + std::string(hex) + " in " + call.shader);
  }
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
  if (ctx_ && ctx_->try_make_current()) glFinish();
}

void GlBackend::end_run() {
  programs_this_run_ = 0;
  textures_->end_round();
}

void GlBackend::trim_caches() {
  textures_->trim();
}

std::unique_ptr<runtime::Backend> make_gl_backend() {
  return std::make_unique<GlBackend>();
}

void use_model(runtime::Engine& engine, const model::Bundle& bundle) {
  auto* gl = dynamic_cast<GlBackend*>(engine.find_backend("gl"));
  if (gl && gl->availability().available) gl->set_model(bundle);
}

}  // namespace tfjsi::gl
