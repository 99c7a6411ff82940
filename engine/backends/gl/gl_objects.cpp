#include "backends/gl/gl_objects.h"

#include <array>
#include <atomic>

namespace tfjsi::gl {
namespace {

// One counter per GlKind, then fences. Atomic: handles may die on any thread.
constexpr std::size_t kFenceSlot = 5;
std::array<std::atomic<std::int64_t>, 6> g_live{};

std::atomic<std::int64_t>& live_slot(GlKind kind) {
  return g_live[static_cast<std::size_t>(kind)];
}

}  // namespace

GlObjectCounts live_gl_objects() {
  auto at = [](std::size_t i) { return g_live[i].load(std::memory_order_relaxed); };
  return {at(0), at(1), at(2), at(3), at(4), at(kFenceSlot)};
}

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
  if (id_) live_slot(kind_).fetch_add(1, std::memory_order_relaxed);
}

void GlObject::reset() noexcept {
  if (id_ == 0 || !ctx_) return;
  live_slot(kind_).fetch_sub(1, std::memory_order_relaxed);
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
  if (sync_) g_live[kFenceSlot].fetch_add(1, std::memory_order_relaxed);
  glFlush();  // the fence must reach the GPU, or a wait with a timeout may never see it pass
}

bool GlFence::wait(GLuint64 timeout_ns) {
  if (!sync_) return true;
  ctx_->make_current();
  const GLenum r = glClientWaitSync(sync_, GL_SYNC_FLUSH_COMMANDS_BIT, timeout_ns);
  return r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED;
}

void GlFence::reset() noexcept {
  if (sync_) g_live[kFenceSlot].fetch_sub(1, std::memory_order_relaxed);
  if (sync_ && ctx_ && ctx_->try_make_current()) glDeleteSync(sync_);
  sync_ = nullptr;
  ctx_.reset();
}

}  // namespace tfjsi::gl
