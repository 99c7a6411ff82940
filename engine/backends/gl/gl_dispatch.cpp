// Compute dispatches: the source of a kernel call (prelude + shader), its program from the cache,
// and issuing it. Compiling ahead (flag gl.compile_ahead, on): a dispatch whose program is new is
// linked here and then kept, in order with every dispatch after it, so that the engine's thread
// goes on to the next nodes and meets every new program of the run before building any; they are
// issued when something reads a texture back or the run ends (flush_pending), each new program
// built at its first dispatch. A run so reports "compiling N of M" with M the programs met so far:
// all of them when the graph has no read-back before its outputs. Where the driver builds code at
// the first dispatch and keeps it in a shader cache on disk (Mesa's llvmpipe), worker threads can
// build the kept programs meanwhile (flag gl.compile_threads, program_warmer.h): one per core by
// default, as the engine's thread only waits for them. Measured on a quiet 2-core machine, two
// workers cut cold first results by 30-50% (bench/results/gl-cold-2026-11-27.md); on one loaded
// by other work they made them slower (gl-live-2026-11-26.md), as any parallel build would.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <stdexcept>
#include <string_view>
#include <thread>

#include "backends/gl/gl_backend.h"
#include "backends/gl/gl_op.h"
#include "backends/gl/prepared_dispatch.h"
#include "backends/gl/shader_library.h"
#include "core/error.h"
#include "core/scoped_value.h"

namespace tfjsi::gl {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

bool pot(std::int64_t v) {
  return std::has_single_bit(static_cast<std::uint64_t>(v));
}

WarmTexture warm_texture(const TexLayout& l, bool rgba16f) {
  return {rgba16f, pot(l.tex_width()), pot(l.tex_height())};
}

// A worker's warm-up of `prog` as `d` (prepared from `call`) dispatches it.
WarmJob warm_job(const CachedProgram& prog, const PreparedDispatch& d, const KernelCall& call) {
  WarmJob job;
  job.program = prog.program.id();
  job.images = d.images;
  for (const UniformValue& u : d.uniforms) job.uniforms.push_back({u.name, u.is_float, u.i, u.f});
  for (const GlTensorData* in : call.inputs)
    job.inputs.push_back(warm_texture(in->layout(), in->rgba16f()));
  job.output = warm_texture(call.output->layout(), d.output.rgba16f);
  return job;
}

// What a kernel's #defines specialise, as NAME=VALUE: its window, tile, activation... The
// half-float rounding constants (the same in every kernel) and function aliases are left out.
std::string variant_of(std::string_view defines) {
  std::string out;
  constexpr std::string_view kDefine = "#define ";
  for (std::size_t at = 0; at < defines.size();) {
    std::size_t end = defines.find('\n', at);
    if (end == std::string_view::npos) end = defines.size();
    std::string_view line = defines.substr(at, end - at);
    at = end + 1;
    if (!line.starts_with(kDefine)) continue;
    line.remove_prefix(kDefine.size());
    const std::size_t space = line.find(' ');
    const std::string_view name = line.substr(0, space);
    const bool macro = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
      return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
    if (!macro || name.starts_with("HALF_")) continue;
    if (!out.empty()) out += ' ';
    out += name;
    if (space != std::string_view::npos) out += "=" + std::string(line.substr(space + 1));
  }
  return out;
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
// variant again in a later process (emotion: a later variant took 870 ms in every process). Its
// textures therefore have no side a power of two (without_pow2_sides), so that one variant
// serves every dispatch; a texture where that could not be (a side at the size limit) makes
// the pattern part of the source, so that each program still has one variant, found again.
std::string llvmpipe_variant_note(const KernelCall& call, const GlLimits& limits) {
  if (!limits.variant_per_pow2_sides) return {};
  std::string s = "// llvmpipe texture sides, power of two:";
  bool any = false;
  auto add = [&](const TexLayout& l) {
    const bool w = pot(l.tex_width()), h = pot(l.tex_height());
    any = any || w || h;
    s += ' ';
    s += w ? '1' : '0';
    s += h ? '1' : '0';
  };
  for (const GlTensorData* in : call.inputs) add(in->layout());
  add(call.output->layout());
  return any ? s + "\n" : std::string();
}

// The work group of a kernel that does not choose one: a row of 64 invocations (a multiple of
// every GPU's SIMD width), fixed, because the size is part of the program: shaped after each grid
// (8x8 over an image, 64 along z for [1,1,1,C], smaller for small grids) it gave movenet ten
// programs of gather_lanes.comp, each a build on llvmpipe. Kernels on the default grid then run
// one invocation per output texel in a line (out_texel), so that no shape leaves most of a group
// idle; grids of this many texels or more keep (W, H, N * C4) (their rows are long).
constexpr std::array<int, 3> kDefaultGroup{64, 1, 1};
constexpr std::int64_t kMaxLinearTexels = std::int64_t{1} << 21;

// Everything a kernel's source begins with: version, work group size, the bound textures and the
// helpers that turn NHWC coordinates into texels (see gl_tensor.h for the mapping).
// The source does not depend on the textures' precision (RGBA16F or RGBA32F) where the driver
// lets it: the output is a writeonly image without a format qualifier (GLSL 4.30, "Format Layout
// Qualifiers": only images that are read need one), inputs read through samplers, or through
// images without a format under GL_EXT_shader_image_load_formatted. Without that extension
// (llvmpipe) imageLoad needs the format, and the input images keep it: imageLoad costs llvmpipe
// half a texelFetch, and llvmpipe builds a variant of the program per bound texture format at
// dispatch anyway, so a sampler would buy it no reuse across precisions. What does is fp16
// storage emulated in RGBA32F (fp16_storage.h, flag gl.fp16_storage): every format is rgba32f.
// Shapes are uniforms (`uniforms` holds them after the call's own) unless the call asks for
// #defines (KernelCall::static_shapes).
std::string prelude(const KernelCall& call, std::array<int, 3> local, bool images,
                    bool load_formatted, bool sums_in_fma,
                    const std::vector<UniformValue>& uniforms) {
  std::string s = "#version 430 core\n";
  if (images && load_formatted) s += "#extension GL_EXT_shader_image_load_formatted : require\n";
  s += sums_in_fma ? "#define SUMS_IN_FMA 1\n" : "#define SUMS_IN_FMA 0\n";
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
          load_formatted ? "" : std::string(in.rgba16f() ? "rgba16f, " : "rgba32f, ");
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
// The output texel of this invocation for the default grid; false past the end. The grid is
// (W, H, N*C4), or, with tfjsi_linear, x over every texel (w fastest, then h, then n*C4 + s):
// the divisions are products with the reciprocals tfjsi_inv_w and tfjsi_inv_h, exact below 2^21
// texels (the +0.5 keeps each quotient 0.5 / W from an integer, more than the float error there).
bool out_texel(out int n, out int h, out int w, out int s) {
  ivec3 g = global_id();
  if (tfjsi_linear != 0) {
    int i = g.x;
    int r = int((float(i) + 0.5) * tfjsi_inv_w);
    int z = int((float(r) + 0.5) * tfjsi_inv_h);
    g = ivec3(i - r * OUT_W, r - z * OUT_H, z);
  }
  w = g.x; h = g.y; n = g.z / OUT_C4; s = g.z - n * OUT_C4;
  return w < OUT_W && h < OUT_H && n < OUT_N;
}
)";
  s += activation_defines();
  s += shader_source("common.glsl");
  return s;
}

}  // namespace

bool GlBackend::sums_in_fma() const {
  // Where fma() rounds once it is the exact sum too; elsewhere it is TF.js webgl's fp32 sum.
  return fma_rounds_once_ || !flags_ || !flags_->has("gl.exact_sums") ||
         !flags_->get_bool("gl.exact_sums");
}

bool GlBackend::compile_ahead_on() const {
  if (timing_now_) return false;
  return !flags_ || !flags_->has("gl.compile_ahead") || flags_->get_bool("gl.compile_ahead");
}

std::int64_t GlBackend::warmer_threads() const {
  const GlLimits& lim = ctx_->limits();
  // llvmpipe only: it builds at the first dispatch and finds the build again in Mesa's disk
  // cache, which exists when program binary formats do (MESA_SHADER_CACHE_DISABLE leaves none).
  if (!lim.variant_per_pow2_sides || lim.num_binary_formats <= 0) return 0;
  return std::max<std::int64_t>(0, flags_ && flags_->has("gl.compile_threads")
                                       ? flags_->get_int("gl.compile_threads")
                                       : default_compile_threads());
}

ProgramWarmer* GlBackend::warmer() {
  const std::int64_t threads = warmer_threads();
  if (threads <= 0) return nullptr;
  if (!warmer_ || warmer_threads_ != threads) {
    if (warmer_) {
      // Jobs in flight refer to programs: they finish (or go back) before the workers go.
      warmer_->cancel_all();
      for (auto& [t, prog] : run_tickets_) prog->warm.reset();
      for (auto& [t, prog] : background_) prog->warm.reset();
      background_.clear();
    }
    warmer_.reset();
    warmer_ = std::make_unique<ProgramWarmer>(*ctx_, static_cast<int>(threads));
    warmer_threads_ = threads;
    ctx_->make_current();  // making shared contexts may have touched the current binding
    if (warmer_->workers() == 0) warmer_.reset();
  }
  return warmer_.get();
}

void GlBackend::report_compiling() {
  if (!progress_) return;
  if (!ahead_this_run_) {
    // Without compiling ahead the total is not known: the count so far.
    progress_->report_progress("compiling", programs_built_this_run_, 0);
    return;
  }
  // Built: first dispatched here, or built by a worker and not dispatched yet.
  std::int64_t done = programs_built_this_run_;
  for (const auto& [t, prog] : run_tickets_)
    if (!prog->dispatched && t->state == WarmTicket::State::Done) ++done;
  progress_->report_progress("compiling", std::min(done, programs_this_run_), programs_this_run_);
}

PreparedDispatch GlBackend::prepare(const KernelCall& call) {
  const GlLimits& lim = ctx_->limits();
  if (!call.output) throw std::logic_error("gl backend: " + call.shader + " has no output image");
  std::array<std::int64_t, 3> grid = call.grid;
  std::vector<UniformValue> uniforms = call.uniforms;
  // out_texel's line (kDefaultGroup): its switch and reciprocals, 0 where not used.
  std::int64_t linear = 0;
  float inv_w = 0, inv_h = 0;
  if (grid == std::array<std::int64_t, 3>{0, 0, 0}) {
    const TexLayout& o = call.output->layout();
    grid = {o.w, o.h, o.n * o.c4()};
    if (grid[0] * grid[1] * grid[2] < kMaxLinearTexels) {
      linear = 1;
      inv_w = 1.0f / static_cast<float>(std::max<std::int64_t>(1, o.w));
      inv_h = 1.0f / static_cast<float>(std::max<std::int64_t>(1, o.h));
      grid = {grid[0] * grid[1] * grid[2], 1, 1};
    }
  }
  uniforms.push_back({"tfjsi_linear", false, linear});
  uniforms.push_back({"tfjsi_inv_w", true, 0, inv_w});
  uniforms.push_back({"tfjsi_inv_h", true, 0, inv_h});
  // Every GL 4.3 driver runs groups of 1024 invocations and 64 along z; smaller only if the
  // limits say so.
  std::array<int, 3> local = call.local == std::array<int, 3>{0, 0, 0} ? kDefaultGroup : call.local;
  for (int i = 0; i < 3; ++i) local[i] = std::max(1, std::min(local[i], lim.max_group_size[i]));
  while (local[0] * local[1] * local[2] > lim.max_group_invocations) {
    int& l = local[2] > 1 ? local[2] : local[1] > 1 ? local[1] : local[0];
    l = std::max(1, l / 2);
  }
  const bool out_rgba16f = call.output->rgba16f();
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
  if (!call.static_shapes) {
    for (std::size_t i = 0; i < call.inputs.size(); ++i)
      add_layout_uniforms(uniforms, "IN" + std::to_string(i), call.inputs[i]->layout());
    add_layout_uniforms(uniforms, "OUT", call.output->layout());
  }
  const std::string body = call.extra + std::string(shader_source(call.shader));
  std::string source =
      prelude(call, local, images, lim.image_load_formatted, sums_in_fma(), uniforms) +
      llvmpipe_variant_note(call, lim) + call.defines + body;
  if (fault_hits(GlFault::Compile)) source += "\n#error forced compile failure (gl test hook)\n";
  const auto t0 = Clock::now();
  bool fresh = false;
  CachedProgram& prog = programs_->get(source, fresh);
  if (fresh) {
    prog.kernel = call.shader;
    prog.variant = variant_of(call.defines);
    if (current_node_) prog.op = current_node_->op, prog.node = current_node_->name;
    prog.link_ms = ms_since(t0);
  }
  // Built for a later run and not finished when this run needs it: it is this run's new program
  // after all (counted, and built ahead with the others rather than at its first dispatch).
  bool building = false;  // its build for later is on a worker now: this run waits for that one
  if (!fresh && !prebuilding_) {
    if (prog.for_later) {  // linked, its build not handed out yet (end_run does)
      prog.for_later = false;
      std::erase_if(later_, [&](const auto& job) { return job.first == &prog; });
      fresh = true;
    } else if (prog.warm && prog.warm->job.for_later && warmer_) {
      if (warmer_->take_back(*prog.warm)) {  // still queued: submitted again below, as this run's
        prog.warm.reset();
        fresh = true;
      } else if (prog.warm->state != WarmTicket::State::Done) {
        prog.warm->job.for_later = false;  // the worker does not read it; counted as built ahead
        fresh = building = true;
      }
    }
  }
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
  PreparedDispatch d;
  d.prog = &prog;
  d.fresh = fresh;
  d.images = images;
  d.shader = call.shader;
  d.uniforms = std::move(uniforms);
  for (const GlTensorData* in : call.inputs) d.inputs.push_back({in->texture(), in->rgba16f()});
  d.output = {call.output->texture(), out_rgba16f};
  d.groups = groups, d.limit = limit, d.split = split;
  if (fresh && prebuilding_) {
    // For a later run at the other precision: not this run's program, so neither counted nor
    // kept; its build waits for the run's end (end_run), where it takes no core from this run.
    if (!prog.from_disk) {
      prog.for_later = true;
      later_.emplace_back(&prog, warm_job(prog, d, call));
    }
    return d;
  }
  if (fresh) {
    stats_.compile_ms += ms_since(t0);
    ++stats_.new_kernels;
    if (progress_) ++programs_this_run_;  // counts of an engine's run (not of a probe's node)
    // A program loaded from the disk cache has nothing to build: keeping its dispatches would
    // only hold the run's textures longer (measured: blazeface's warm-cache first result 0.36 s
    // -> 0.63 s when they were kept).
    if (compile_ahead_on() && !prog.from_disk) {
      // Kept for later with what follows, so that the run meets every program before any is
      // built; a worker builds it meanwhile when there are workers (flag gl.compile_threads).
      ahead_this_run_ = true;
      d.ahead = true;
      if (ProgramWarmer* w = warmer()) {
        if (!building) {
          glFlush();  // the program is linked before a worker uses it
          prog.warm = w->submit(warm_job(prog, d, call));
        }
        if (progress_) run_tickets_.emplace_back(prog.warm, &prog);
      }
      report_compiling();
    }
  }
  return d;
}

void GlBackend::prebuild(const KernelCall& call) {
  // Where workers build: the build lands in the driver's shader cache (a later process at the
  // other precision finds it there; program_warmer.h), the program in this process's cache.
  // Linked now (a few ms), built on a worker once the run has ended (end_run). The workers are
  // not started for it: with every program on disk, a run starts none.
  if (!compile_ahead_on() || warmer_threads() <= 0) return;
  const ScopedValue<bool> prebuilding(prebuilding_, true, false);
  try {
    prepare(call);
  } catch (const std::runtime_error&) {
    // Only a head start: the run that needs the kernel builds it and says what is wrong.
  }
}

void GlBackend::start_later_builds() {
  if (later_.empty()) return;
  std::vector<std::pair<CachedProgram*, WarmJob>> jobs;
  jobs.swap(later_);
  ProgramWarmer* w = warmer();
  if (!w) return;  // no workers (gl.compile_threads 0): a later run builds them itself
  glFlush();       // the programs are linked before a worker uses them
  for (auto& [prog, job] : jobs) {
    prog->for_later = false;
    job.for_later = true;
    prog->warm = w->submit(std::move(job));
    background_.emplace_back(prog->warm, prog);
    ++stats_.prebuilt;
  }
}

void GlBackend::settle() {
  std::vector<std::pair<std::shared_ptr<WarmTicket>, CachedProgram*>> jobs;
  jobs.swap(background_);
  if (!warmer_) return;
  for (auto& [t, prog] : jobs) {
    while (!warmer_->wait_for(*t, 100)) {
    }
    // Built: its dispatches need not be kept to wait for it.
    if (prog->warm == t) prog->warm.reset();
  }
  // Their binaries to the disk cache too, as a dispatch would save them: a later process then
  // loads them instead of compiling the source.
  if (!programs_ || !ctx_ || !ctx_->try_make_current()) return;
  for (auto& [t, prog] : jobs)
    if (t->state == WarmTicket::State::Done && t->error.empty()) programs_->save(*prog);
}

bool GlBackend::stores_halves(const KernelCall& call) {
  using Stores = KernelCall::Stores;
  return call.stores == Stores::Halves ||
         (call.stores == Stores::InputValues &&
          std::all_of(call.inputs.begin(), call.inputs.end(),
                      [](const GlTensorData* in) { return in->fp16(); }));
}

void GlBackend::round_now(const GlTensorData& t) {
  if (!t.unrounded()) return;
  // In place: the texture is the tensor's; only const access reaches here (inputs).
  dispatch_one(half_round_call(const_cast<GlTensorData&>(t), half_rules_->store));
  t.set_unrounded(false);
}

void GlBackend::dispatch(const KernelCall& call) {
  // Emulated fp16 rounds lazily: an output is marked unrounded, and its rounding pass runs
  // before the first kernel that reads it and cannot round it as it loads (most kernels: the
  // rounding code in every program made llvmpipe's builds ~1.65x slower, blazeface measured), or
  // before a download. The elementwise kernels that follow a convolution round their operands
  // and their store themselves (add_lazy_rounding): a residual add after a convolution costs no
  // pass at all.
  const bool emulated_out = call.output && call.output->storage() == Storage::Fp16Emulated &&
                            half_rules_ && !stores_halves(call);
  bool any_unrounded = false;
  for (const GlTensorData* in : call.inputs) any_unrounded = any_unrounded || in->unrounded();
  // As it is (its rounding uniforms are 0) unless an input or the store needs rounding: no
  // copy of the call at fp32.
  if (!any_unrounded && !(call.rounds_store && emulated_out)) {
    dispatch_one(call);
    if (emulated_out) call.output->set_unrounded(true);
    return;
  }
  KernelCall c = call;
  auto set = [&](std::string_view name, std::int64_t v) {
    for (UniformValue& u : c.uniforms)
      if (u.name == name) u.i = v;
  };
  for (std::size_t k = 0; k < c.inputs.size(); ++k) {
    const GlTensorData& in = *c.inputs[k];
    if (!in.unrounded()) continue;
    if (k < 32 && (c.rounds_inputs >> k & 1u) && &in != c.output)
      set("IN" + std::to_string(k) + "_HALF", 1);
    else
      round_now(in);
  }
  if (c.rounds_store) set("OUT_HALF", emulated_out ? 1 : 0);
  dispatch_one(c);
  if (emulated_out && !c.rounds_store) c.output->set_unrounded(true);
}

void GlBackend::dispatch_one(const KernelCall& call) {
  PreparedDispatch d = prepare(call);
  // fp16 following webgl runs this activation or a binary kernel on its own after the kernel
  // (GlBackend::unfused_form): its program, on the output's texture, built ahead after fp32's
  // run. Once per kind (not on every run): another node's kernel may be the fresh one.
  auto first_of_kind = [&](unsigned bit) {
    const bool first = (prebuilt_kinds_ & bit) == 0;
    prebuilt_kinds_ |= bit;
    return first;
  };
  if (call.apart != Activation::None && first_of_kind(1u << static_cast<unsigned>(call.apart)))
    prebuild(unary_call("OP_ACT", call.apart, 0.f, *call.output, *call.output));
  // Every op of binary.comp is one program: the output stands in for both operands.
  if (call.apart_binary && first_of_kind(1u << 31))
    prebuild(binary_call(*this, "OP_ADD", Activation::None, 0.f, *call.output, *call.output,
                         *call.output));
  if (pending_.empty() && !d.ahead && !d.prog->warm) {
    issue(d);
    return;
  }
  // Kept for later: its tensors stay alive until then. Data not held by a shared_ptr (none is
  // made so today) cannot be kept: everything kept is issued first, then this.
  auto hold = [&](const GlTensorData* t) {
    auto p = t->weak_from_this().lock();
    if (!p) return false;
    d.keep.push_back(std::move(p));
    return true;
  };
  bool held = hold(call.output);
  // (Once each: drop_pending reads the output's count of owners.)
  for (const GlTensorData* in : call.inputs) held = (in == call.output || hold(in)) && held;
  if (!held) {
    flush_pending();
    await_warm(*d.prog, true);
    issue(d);
    return;
  }
  pending_.push_back(std::move(d));
}

void GlBackend::await_warm(CachedProgram& prog, bool report) {
  if (!prog.warm) return;
  const auto t0 = Clock::now();
  if (!warmer_) {  // no workers (gl.compile_threads 0): built at its dispatch
    prog.warm.reset();
    return;
  }
  WarmTicket& t = *prog.warm;
  // Built for a later run, and done: nothing of it is this run's.
  if (t.job.for_later && t.state == WarmTicket::State::Done) {
    prog.warm.reset();
    return;
  }
  // Not started yet: this thread builds it at its dispatch instead of waiting for a worker.
  if (!warmer_->take_back(t)) {
    while (!warmer_->wait_for(t, 100))
      if (report) report_compiling();
    if (t.error.empty() && !t.job.for_later) {
      ++stats_.built_ahead;
      stats_.ahead_ms += t.ms;
      note_build(prog, t.ms, true);
    }
  }
  stats_.compile_ms += ms_since(t0);
  prog.warm.reset();
}

void GlBackend::note_build(CachedProgram& prog, double ms, bool ahead) {
  if (prog.build_noted || prog.from_disk) return;
  prog.build_noted = true;
  stats_.builds.push_back(
      {prog.kernel, prog.variant, prog.op, prog.node, prog.link_ms + ms, ahead});
}

void GlBackend::flush_pending() {
  if (pending_.empty()) return;
  std::vector<PreparedDispatch> work;
  work.swap(pending_);
  std::size_t i = 0;
  try {
    for (; i < work.size(); ++i) {
      await_warm(*work[i].prog, true);
      issue(work[i]);
    }
  } catch (...) {
    // What was not issued stays kept, in order (end_run decides what becomes of it).
    pending_.assign(std::make_move_iterator(work.begin() + static_cast<std::ptrdiff_t>(i)),
                    std::make_move_iterator(work.end()));
    throw;
  }
}

void GlBackend::drop_pending() noexcept {
  std::vector<PreparedDispatch> work;
  work.swap(pending_);
  // What the run made dies with it; a texture someone else still holds (a weight's repacked
  // copy, kept for later runs) must get its contents all the same.
  try {
    for (PreparedDispatch& d : work) {
      if (d.keep.empty() || d.keep.front().use_count() <= 1) continue;
      await_warm(*d.prog, false);
      issue(d);
    }
  } catch (...) {
    // The context went: nothing of it can be used again.
  }
}

void GlBackend::issue(PreparedDispatch& d) {
  CachedProgram& prog = *d.prog;
  const auto t0 = Clock::now();
  if (prog.group_base_location == -2)
    prog.group_base_location = glGetUniformLocation(prog.program.id(), "tfjsi_group_base");
  glUseProgram(prog.program.id());
  const std::vector<UniformValue>& uniforms = d.uniforms;
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
  for (std::size_t i = 0; i < d.inputs.size(); ++i) {
    const PreparedDispatch::Bound& in = d.inputs[i];
    if (d.images) {
      glBindImageTexture(static_cast<GLuint>(i + 1), in.texture, 0, GL_FALSE, 0, GL_READ_ONLY,
                         in.rgba16f ? GL_RGBA16F : GL_RGBA32F);
    } else {
      glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(i));
      glBindTexture(GL_TEXTURE_2D, in.texture);
    }
  }
  glBindImageTexture(0, d.output.texture, 0, GL_FALSE, 0, GL_WRITE_ONLY,
                     d.output.rgba16f ? GL_RGBA16F : GL_RGBA32F);
  const auto& groups = d.groups;
  const auto& limit = d.limit;
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
  if (d.split) ++stats_.split_dispatches;
  // The next kernel samples what this one stored; readback goes through a pixel buffer.
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                  GL_TEXTURE_UPDATE_BARRIER_BIT | GL_PIXEL_BUFFER_BARRIER_BIT);
  ++stats_.dispatches;
  if (!prog.dispatched) {
    prog.dispatched = true;
    // llvmpipe builds at the first dispatch (or finds a warm-up's build in its disk cache): the
    // program's cost ends when that one finishes.
    glFinish();
    if (d.fresh) {
      const double ms = ms_since(t0);
      stats_.compile_ms += ms;
      note_build(prog, ms, false);
      if (progress_) ++programs_built_this_run_;
      report_compiling();
    }
    programs_->save(prog);
  }
  for (std::size_t i = 0; i < d.inputs.size(); ++i) {
    if (d.images) {
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
    throw std::runtime_error("gl backend: GL error " + std::string(hex) + " in " + d.shader);
  }
}

}  // namespace tfjsi::gl
