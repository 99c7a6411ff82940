// Owning handles for every GL object the backend makes (textures, buffers, shaders, programs,
// queries, fences). Each keeps its context alive and deletes its object with that context current,
// so a tensor that outlives the backend still frees its texture correctly.
#pragma once

#include <epoxy/gl.h>

#include <cstdint>
#include <memory>
#include <utility>

#include "backends/gl/gl_context.h"
#include "runtime/backend.h"

namespace tfjsi::gl {

enum class GlKind { Texture, Buffer, Shader, Program, Query };

// GL objects alive in this process, per kind: handles that made an object and have not deleted it
// yet (an object whose context was gone at deletion still counts as gone). The soak test and
// `tfjsi memcheck` watch these for growth.
using GlObjectCounts = runtime::DeviceObjectCounts;
GlObjectCounts live_gl_objects();

class GlObject {
 public:
  GlObject() = default;
  // Makes a new object of `kind` (for shaders, `shader_type` is GL_COMPUTE_SHADER).
  GlObject(std::shared_ptr<GlContext> ctx, GlKind kind, GLenum shader_type = GL_COMPUTE_SHADER);
  ~GlObject() { reset(); }
  GlObject(GlObject&& o) noexcept
      : ctx_(std::move(o.ctx_)), kind_(o.kind_), id_(std::exchange(o.id_, 0)) {}
  GlObject& operator=(GlObject&& o) noexcept {
    if (this != &o) {
      reset();
      ctx_ = std::move(o.ctx_), kind_ = o.kind_, id_ = std::exchange(o.id_, 0);
    }
    return *this;
  }
  GlObject(const GlObject&) = delete;
  GlObject& operator=(const GlObject&) = delete;

  GLuint id() const { return id_; }
  explicit operator bool() const { return id_ != 0; }
  void reset() noexcept;

 private:
  std::shared_ptr<GlContext> ctx_;
  GlKind kind_ = GlKind::Texture;
  GLuint id_ = 0;
};

// A fence after the commands issued so far.
class GlFence {
 public:
  GlFence() = default;
  explicit GlFence(std::shared_ptr<GlContext> ctx);
  ~GlFence() { reset(); }
  GlFence(GlFence&& o) noexcept : ctx_(std::move(o.ctx_)), sync_(std::exchange(o.sync_, nullptr)) {}
  GlFence& operator=(GlFence&& o) noexcept {
    if (this != &o) reset(), ctx_ = std::move(o.ctx_), sync_ = std::exchange(o.sync_, nullptr);
    return *this;
  }
  GlFence(const GlFence&) = delete;
  GlFence& operator=(const GlFence&) = delete;

  // Waits up to `timeout_ns` (0: just polls); true once the GPU has passed the fence.
  bool wait(GLuint64 timeout_ns);
  void reset() noexcept;

 private:
  std::shared_ptr<GlContext> ctx_;
  GLsync sync_ = nullptr;
};

}  // namespace tfjsi::gl
