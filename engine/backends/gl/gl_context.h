// The backend's own headless OpenGL 4.3 core context (EGL, surfaceless where the driver offers it,
// else a 1x1 pbuffer), with entry points through libepoxy, and the limits it reports. Made on the
// thread that drives the engine; every GL call of the backend happens with it current.
#pragma once

#include <epoxy/egl.h>
#include <epoxy/gl.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace tfjsi::gl {

// What the driver allows, queried once; kernels size their work groups from it.
struct GlLimits {
  std::array<GLint, 3> max_group_size{};
  std::array<GLint, 3> max_group_count{};
  GLint max_group_invocations = 0;
  GLint max_shared_bytes = 0;
  GLint max_texture_size = 0;
  GLint max_image_units = 0;
  GLint max_compute_images = 0;         // images a compute shader may declare
  GLint max_compute_texture_units = 0;  // samplers a compute shader may read
  GLint num_binary_formats = 0;         // 0: program binaries cannot be saved
  bool timer_queries = false;           // GL_TIME_ELAPSED works (GL_QUERY_COUNTER_BITS > 0)
  // GL_EXT_shader_image_load_formatted: imageLoad from an image declared without a format, so
  // one program reads RGBA16F and RGBA32F alike (Mesa 22.3's llvmpipe does not offer it).
  bool image_load_formatted = false;
  // Mesa's llvmpipe: it compiles a variant of a program per pattern of power-of-two texture
  // sides, so its textures have none (without_pow2_sides in gl_tensor.h). Read off
  // GL_RENDERER once.
  bool variant_per_pow2_sides = false;
  // A program's build depends on the formats of the textures bound to it, so that fp16 in RGBA16F
  // textures builds every program again (fp16_storage.h): wherever image reads name the format in
  // the source (no image_load_formatted, detected), and on llvmpipe, which builds its code at the
  // first dispatch for the bound formats (measured: bench/results/gl-live-2026-11-26.md).
  bool build_per_format = false;
  // The context was made with LOSE_CONTEXT_ON_RESET and the driver reports resets
  // (glGetGraphicsResetStatus of GL 4.5 / KHR_robustness / ARB_robustness).
  bool reset_notification = false;
};

class GlContext {
 public:
  // Starts a context; on failure returns null and says why in `reason` (never throws).
  static std::shared_ptr<GlContext> create(std::string& reason);
  // A context sharing `parent`'s objects (programs, textures), for a worker thread: made current
  // on no thread (the worker takes it), with the parent's limits and driver strings. Null on
  // failure, `reason` saying why.
  static std::shared_ptr<GlContext> create_shared(const GlContext& parent, std::string& reason);
  ~GlContext();
  GlContext(const GlContext&) = delete;
  GlContext& operator=(const GlContext&) = delete;

  // Makes the context current on this thread when it is not; throws std::runtime_error if EGL
  // refuses (e.g. it is current on another thread).
  void make_current();
  // Same without throwing; false on failure (destructors use it).
  bool try_make_current() noexcept;

  // Leaves the context current on no thread, so that another thread can take it (the backend
  // starts wherever it is registered; the engine may be driven from a worker thread).
  void release() noexcept;

  const GlLimits& limits() const { return limits_; }
  const std::string& vendor() const { return vendor_; }
  const std::string& renderer() const { return renderer_; }
  const std::string& version() const { return version_; }
  // "surfaceless" or "pbuffer".
  const std::string& surface_kind() const { return surface_kind_; }

  // Why the context is gone, empty while it works: a reset the driver reported
  // (GL_GUILTY_CONTEXT_RESET, ...), EGL_CONTEXT_LOST from eglMakeCurrent, or a loss a test forced.
  // Once lost, it stays lost: every object in it is gone.
  std::string lost_reason();
  // Marks the context lost (tests; or a caller that saw GL_CONTEXT_LOST from glGetError).
  void mark_lost(std::string why) {
    if (lost_.empty()) lost_ = std::move(why);
  }

 private:
  GlContext() = default;
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
  EGLSurface surface_ = EGL_NO_SURFACE;
  EGLConfig config_ = nullptr;
  std::vector<EGLint> attribs_;  // what the context was made with, for shared ones
  GlLimits limits_;
  std::string vendor_, renderer_, version_, surface_kind_;
  std::string lost_;
};

}  // namespace tfjsi::gl
