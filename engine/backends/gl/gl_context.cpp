#include "backends/gl/gl_context.h"

#include <stdexcept>
#include <vector>

namespace tfjsi::gl {
namespace {

std::string egl_error_text() {
  return "EGL error 0x" + [] {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%04X", static_cast<unsigned>(eglGetError()));
    return std::string(buf);
  }();
}

EGLDisplay open_display(std::string& reason) {
  // The surfaceless platform needs neither X nor a GPU device node; eglGetDisplay is the fallback
  // for drivers without it (it may need an X server).
  if (epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless") &&
      epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_EXT_platform_base")) {
    EGLDisplay d =
        eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (d != EGL_NO_DISPLAY) return d;
  }
  EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (d == EGL_NO_DISPLAY) reason = "no EGL display (" + egl_error_text() + ")";
  return d;
}

}  // namespace

std::shared_ptr<GlContext> GlContext::create(std::string& reason) {
  std::shared_ptr<GlContext> c(new GlContext());
  c->display_ = open_display(reason);
  if (c->display_ == EGL_NO_DISPLAY) return nullptr;
  EGLint major = 0, minor = 0;
  if (!eglInitialize(c->display_, &major, &minor)) {
    reason = "no EGL display: eglInitialize failed (" + egl_error_text() + ")";
    c->display_ = EGL_NO_DISPLAY;
    return nullptr;
  }
  if (!eglBindAPI(EGL_OPENGL_API)) {
    reason = "EGL cannot bind desktop OpenGL (" + egl_error_text() + ")";
    return nullptr;
  }
  const bool surfaceless = epoxy_has_egl_extension(c->display_, "EGL_KHR_surfaceless_context");
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE,
                                   surfaceless ? 0 : EGL_PBUFFER_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint num_configs = 0;
  if (!eglChooseConfig(c->display_, config_attribs, &config, 1, &num_configs) || num_configs < 1) {
    reason = "no EGL config for desktop OpenGL";
    return nullptr;
  }
  // Ask for reset notification where EGL offers it, so a GPU reset shows up as a lost context
  // (glGetGraphicsResetStatus) instead of silently wrong results; without it, a plain context.
  const bool robust_ext = epoxy_has_egl_extension(c->display_, "EGL_EXT_create_context_robustness");
  for (const bool robust : {robust_ext, false}) {
    std::vector<EGLint> attribs = {
        EGL_CONTEXT_MAJOR_VERSION,       4,
        EGL_CONTEXT_MINOR_VERSION,       3,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT};
    if (robust)
      attribs.insert(attribs.end(), {EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT,
                                     EGL_LOSE_CONTEXT_ON_RESET_EXT});
    attribs.push_back(EGL_NONE);
    c->context_ = eglCreateContext(c->display_, config, EGL_NO_CONTEXT, attribs.data());
    c->attribs_ = attribs;
    if (c->context_ != EGL_NO_CONTEXT || !robust) break;
  }
  if (c->context_ == EGL_NO_CONTEXT) {
    // Say which version the driver has, so the user learns why compute shaders are missing.
    std::string have = "unknown version";
    EGLContext any = eglCreateContext(c->display_, config, EGL_NO_CONTEXT, nullptr);
    if (any != EGL_NO_CONTEXT) {
      EGLSurface pb = EGL_NO_SURFACE;
      if (!surfaceless) {
        const EGLint pb_attribs[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
        pb = eglCreatePbufferSurface(c->display_, config, pb_attribs);
      }
      if (eglMakeCurrent(c->display_, pb, pb, any)) {
        const auto* v = reinterpret_cast<const char*>(glGetString(GL_VERSION));
        if (v) have = v;
        eglMakeCurrent(c->display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      }
      if (pb != EGL_NO_SURFACE) eglDestroySurface(c->display_, pb);
      eglDestroyContext(c->display_, any);
    }
    reason = "OpenGL " + have + " only: compute shaders need a 4.3 core context";
    return nullptr;
  }
  c->config_ = config;
  if (!surfaceless) {
    const EGLint pb_attribs[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
    c->surface_ = eglCreatePbufferSurface(c->display_, config, pb_attribs);
    if (c->surface_ == EGL_NO_SURFACE) {
      reason = "no EGL pbuffer surface (" + egl_error_text() + ")";
      return nullptr;
    }
  }
  c->surface_kind_ = surfaceless ? "surfaceless" : "pbuffer";
  if (!c->try_make_current()) {
    reason = "eglMakeCurrent failed (" + egl_error_text() + ")";
    return nullptr;
  }
  GLint gl_major = 0, gl_minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &gl_major);
  glGetIntegerv(GL_MINOR_VERSION, &gl_minor);
  auto str = [](GLenum e) {
    const auto* s = reinterpret_cast<const char*>(glGetString(e));
    return std::string(s ? s : "");
  };
  c->vendor_ = str(GL_VENDOR), c->renderer_ = str(GL_RENDERER), c->version_ = str(GL_VERSION);
  if (gl_major * 10 + gl_minor < 43) {
    reason = "OpenGL " + std::to_string(gl_major) + "." + std::to_string(gl_minor) +
             " only: compute shaders need 4.3";
    return nullptr;
  }
  GlLimits& l = c->limits_;
  for (GLuint i = 0; i < 3; ++i) {
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, i, &l.max_group_size[i]);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, i, &l.max_group_count[i]);
  }
  glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &l.max_group_invocations);
  glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &l.max_shared_bytes);
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &l.max_texture_size);
  glGetIntegerv(GL_MAX_IMAGE_UNITS, &l.max_image_units);
  glGetIntegerv(GL_MAX_COMPUTE_IMAGE_UNIFORMS, &l.max_compute_images);
  glGetIntegerv(GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS, &l.max_compute_texture_units);
  glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &l.num_binary_formats);
  GLint bits = 0;
  glGetQueryiv(GL_TIME_ELAPSED, GL_QUERY_COUNTER_BITS, &bits);
  l.timer_queries = bits > 0;
  l.image_load_formatted = epoxy_has_gl_extension("GL_EXT_shader_image_load_formatted");
  l.variant_per_pow2_sides = c->renderer_.find("llvmpipe") != std::string::npos;
  l.build_per_format = !l.image_load_formatted || l.variant_per_pow2_sides;
  if (gl_major * 10 + gl_minor >= 45 || epoxy_has_gl_extension("GL_KHR_robustness") ||
      epoxy_has_gl_extension("GL_ARB_robustness")) {
    GLint strategy = 0;
    glGetIntegerv(GL_RESET_NOTIFICATION_STRATEGY, &strategy);
    l.reset_notification = strategy == GL_LOSE_CONTEXT_ON_RESET;
  }
  while (glGetError() != GL_NO_ERROR) {
    // A driver without the query above raises INVALID_ENUM: not an error of the backend's kernels.
  }
  if (l.max_group_invocations < 64 || l.max_image_units < 1 || l.max_compute_texture_units < 4) {
    reason = "OpenGL compute limits too small (" + std::to_string(l.max_group_invocations) +
             " invocations, " + std::to_string(l.max_compute_texture_units) + " texture units)";
    return nullptr;
  }
  return c;
}

std::shared_ptr<GlContext> GlContext::create_shared(const GlContext& parent, std::string& reason) {
  std::shared_ptr<GlContext> c(new GlContext());
  c->display_ = parent.display_;
  c->config_ = parent.config_;
  c->attribs_ = parent.attribs_;
  // Not made current here: eglMakeCurrent on this thread would take the caller's context away.
  c->context_ = eglCreateContext(c->display_, c->config_, parent.context_, c->attribs_.data());
  if (c->context_ == EGL_NO_CONTEXT) {
    reason = "no shared EGL context (" + egl_error_text() + ")";
    return nullptr;
  }
  if (parent.surface_ != EGL_NO_SURFACE) {
    const EGLint pb_attribs[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
    c->surface_ = eglCreatePbufferSurface(c->display_, c->config_, pb_attribs);
    if (c->surface_ == EGL_NO_SURFACE) {
      reason = "no EGL pbuffer surface for a shared context (" + egl_error_text() + ")";
      return nullptr;
    }
  }
  c->limits_ = parent.limits_;
  c->vendor_ = parent.vendor_, c->renderer_ = parent.renderer_, c->version_ = parent.version_;
  c->surface_kind_ = parent.surface_kind_;
  return c;
}

GlContext::~GlContext() {
  if (display_ == EGL_NO_DISPLAY) return;
  if (eglGetCurrentContext() == context_)
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (context_ != EGL_NO_CONTEXT) eglDestroyContext(display_, context_);
  if (surface_ != EGL_NO_SURFACE) eglDestroySurface(display_, surface_);
  // The display is shared by every user in the process; eglTerminate would pull it from under
  // other contexts (the GUI's), so it stays initialised.
}

bool GlContext::try_make_current() noexcept {
  if (context_ == EGL_NO_CONTEXT) return false;
  if (eglGetCurrentContext() == context_) return true;
  if (eglMakeCurrent(display_, surface_, surface_, context_) == EGL_TRUE) return true;
  if (eglGetError() == EGL_CONTEXT_LOST && lost_.empty()) lost_ = "EGL_CONTEXT_LOST";
  return false;
}

std::string GlContext::lost_reason() {
  if (!lost_.empty() || !limits_.reset_notification || !try_make_current()) return lost_;
  switch (glGetGraphicsResetStatus()) {
    case GL_NO_ERROR:
      break;
    case GL_GUILTY_CONTEXT_RESET:
      lost_ = "GL_GUILTY_CONTEXT_RESET: a kernel of this context caused a GPU reset";
      break;
    case GL_INNOCENT_CONTEXT_RESET:
      lost_ = "GL_INNOCENT_CONTEXT_RESET: another program caused a GPU reset";
      break;
    default:
      lost_ = "GL_UNKNOWN_CONTEXT_RESET: the GPU was reset";
      break;
  }
  return lost_;
}

void GlContext::release() noexcept {
  if (context_ != EGL_NO_CONTEXT && eglGetCurrentContext() == context_)
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

void GlContext::make_current() {
  if (!try_make_current())
    throw std::runtime_error("gl backend: cannot make the OpenGL context current on this thread (" +
                             egl_error_text() + ")");
}

}  // namespace tfjsi::gl
