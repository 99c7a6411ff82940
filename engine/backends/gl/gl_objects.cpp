#include "backends/gl/gl_objects.h"

namespace tfjsi::gl {

GlObject::GlObject(std::shared_ptr<GlContext> ctx, GlKind kind, GLenum shader_type)
    : ctx_(std::move(ctx)), kind_(kind) {
  ctx_->make_current();
  switch (kind_) {
    case GlKind::Texture:
      glGenTextures(1, &id_);
      break;
    case GlKind::Buffer:
      glGenBuffers(1, &id_);
      break;
    case GlKind::Shader:
      id_ = glCreateShader(shader_type);
      break;
    case GlKind::Program:
      id_ = glCreateProgram();
      break;
    case GlKind::Query:
      glGenQueries(1, &id_);
      break;
  }
}

void GlObject::reset() noexcept {
  if (id_ == 0 || !ctx_) return;
  // Without the context current the object cannot be deleted here; it then dies with the context.
  if (ctx_->try_make_current()) {
    switch (kind_) {
      case GlKind::Texture:
        glDeleteTextures(1, &id_);
        break;
      case GlKind::Buffer:
        glDeleteBuffers(1, &id_);
        break;
      case GlKind::Shader:
        glDeleteShader(id_);
        break;
      case GlKind::Program:
        glDeleteProgram(id_);
        break;
      case GlKind::Query:
        glDeleteQueries(1, &id_);
        break;
    }
  }
  id_ = 0;
  ctx_.reset();
}

GlFence::GlFence(std::shared_ptr<GlContext> ctx) : ctx_(std::move(ctx)) {
  ctx_->make_current();
  sync_ = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  glFlush();  // the fence must reach the GPU, or a wait with a timeout may never see it pass
}

bool GlFence::wait(GLuint64 timeout_ns) {
  if (!sync_) return true;
  ctx_->make_current();
  const GLenum r = glClientWaitSync(sync_, GL_SYNC_FLUSH_COMMANDS_BIT, timeout_ns);
  return r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED;
}

void GlFence::reset() noexcept {
  if (sync_ && ctx_ && ctx_->try_make_current()) glDeleteSync(sync_);
  sync_ = nullptr;
  ctx_.reset();
}

}  // namespace tfjsi::gl
