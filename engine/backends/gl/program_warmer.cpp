#include "backends/gl/program_warmer.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <tuple>

#include "backends/gl/gl_objects.h"
#include "backends/gl/gl_tensor.h"

namespace tfjsi::gl {
namespace {

// Textures a worker binds, made once per format and side pattern: 1 texel for a power-of-two
// side, 3 for any other (the driver's code depends on the pattern, not on the sizes).
class WarmTextures {
 public:
  explicit WarmTextures(std::shared_ptr<GlContext> ctx) : ctx_(std::move(ctx)) {}
  GLuint get(const WarmTexture& t, int slot) {
    // A slot per binding: a kernel may read two inputs of one pattern (they are distinct
    // textures in the run, and the output never aliases an input).
    const auto key = std::make_tuple(t.fp16, t.pot_width, t.pot_height, slot);
    auto it = textures_.find(key);
    if (it == textures_.end()) {
      const TexLayout l{1, t.pot_height ? 1 : 3, t.pot_width ? 1 : 3, 4};
      it = textures_.emplace(key, make_texture(ctx_, l, t.fp16)).first;
    }
    return it->second.id();
  }

 private:
  std::shared_ptr<GlContext> ctx_;
  std::map<std::tuple<bool, bool, bool, int>, GlObject> textures_;
};

void warm(const WarmJob& job, WarmTextures& textures) {
  glUseProgram(job.program);
  for (const WarmJob::Uniform& u : job.uniforms) {
    const GLint loc = glGetUniformLocation(job.program, u.name.c_str());
    if (loc < 0) continue;
    if (u.is_float)
      glUniform1f(loc, u.f);
    else
      glUniform1i(loc, static_cast<GLint>(u.i));
  }
  for (std::size_t i = 0; i < job.inputs.size(); ++i) {
    const WarmTexture& in = job.inputs[i];
    const GLuint tex = textures.get(in, static_cast<int>(i) + 1);
    if (job.images) {
      glBindImageTexture(static_cast<GLuint>(i + 1), tex, 0, GL_FALSE, 0, GL_READ_ONLY,
                         in.fp16 ? GL_RGBA16F : GL_RGBA32F);
    } else {
      glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(i));
      glBindTexture(GL_TEXTURE_2D, tex);
    }
  }
  glBindImageTexture(0, textures.get(job.output, 0), 0, GL_FALSE, 0, GL_WRITE_ONLY,
                     job.output.fp16 ? GL_RGBA16F : GL_RGBA32F);
  glDispatchCompute(1, 1, 1);
  glFinish();  // the build happens inside this dispatch; done means the code is in the cache
  for (std::size_t i = 0; i < job.inputs.size(); ++i) {
    if (job.images) {
      glBindImageTexture(static_cast<GLuint>(i + 1), 0, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA32F);
    } else {
      glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(i));
      glBindTexture(GL_TEXTURE_2D, 0);
    }
  }
  glBindImageTexture(0, 0, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA32F);
  glActiveTexture(GL_TEXTURE0);
  glUseProgram(0);
}

}  // namespace

ProgramWarmer::ProgramWarmer(const GlContext& engine_ctx, int threads) {
  for (int i = 0; i < threads; ++i) {
    std::string reason;
    auto ctx = GlContext::create_shared(engine_ctx, reason);
    if (!ctx) break;  // the driver gives no more contexts: fewer workers
    threads_.emplace_back([this, ctx = std::move(ctx)]() mutable { work(std::move(ctx), false); });
  }
  if (threads_.empty()) return;
  std::string reason;
  if (auto ctx = GlContext::create_shared(engine_ctx, reason)) {
    has_background_ = true;
    background_ =
        std::thread([this, ctx = std::move(ctx)]() mutable { work(std::move(ctx), true); });
  }
}

ProgramWarmer::~ProgramWarmer() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    drop_queued();
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
  if (background_.joinable()) background_.join();
}

std::shared_ptr<WarmTicket> ProgramWarmer::submit(WarmJob job) {
  auto t = std::make_shared<WarmTicket>();
  t->job = std::move(job);
  {
    std::lock_guard lock(mutex_);
    (t->job.for_later && has_background_ ? later_queue_ : queue_).push_back(t);
  }
  // All: a worker of the other kind may be the one woken.
  wake_.notify_all();
  return t;
}

bool ProgramWarmer::take_back(WarmTicket& t) {
  std::lock_guard lock(mutex_);
  if (t.state != WarmTicket::State::Queued) return t.state == WarmTicket::State::TakenBack;
  for (auto* q : {&queue_, &later_queue_})
    std::erase_if(*q, [&](const std::shared_ptr<WarmTicket>& p) { return p.get() == &t; });
  t.state = WarmTicket::State::TakenBack;
  return true;
}

bool ProgramWarmer::wait_for(const WarmTicket& t, int timeout_ms) {
  std::unique_lock lock(mutex_);
  return done_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] {
    return t.state == WarmTicket::State::Done || t.state == WarmTicket::State::TakenBack;
  });
}

void ProgramWarmer::drop_queued() {
  for (auto* q : {&queue_, &later_queue_}) {
    for (auto& t : *q) t->state = WarmTicket::State::TakenBack;
    q->clear();
  }
}

void ProgramWarmer::cancel_all() {
  std::unique_lock lock(mutex_);
  drop_queued();
  done_.wait(lock, [&] { return running_ == 0; });
}

void ProgramWarmer::work(std::shared_ptr<GlContext> ctx, bool background) {
  int nice = 0;
#ifdef __linux__
  // Linux gives each thread its own nice value (PRIO_PROCESS with a thread id); elsewhere this
  // would lower the whole process, so the background worker keeps the default there.
  const auto tid = static_cast<id_t>(gettid());
  if (background) setpriority(PRIO_PROCESS, tid, 19);
  nice = getpriority(PRIO_PROCESS, tid);
#endif
  auto& queue = background ? later_queue_ : queue_;
  // The bound client API is per thread (OpenGL ES on a new one): without this, EGL and libepoxy
  // would find no current desktop GL context here.
  const bool current = eglBindAPI(EGL_OPENGL_API) && ctx->try_make_current();
  {
    WarmTextures textures(ctx);
    for (;;) {
      std::shared_ptr<WarmTicket> t;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || !queue.empty(); });
        if (stop_) break;
        t = std::move(queue.front());
        queue.pop_front();
        t->state = WarmTicket::State::Running;
        ++running_;
      }
      const auto t0 = std::chrono::steady_clock::now();
      std::string error;
      if (!current) {
        error = "the worker's shared context cannot be made current";
      } else {
        try {
          warm(t->job, textures);
          while (const GLenum err = glGetError()) {
            if (error.empty()) error = "GL error " + std::to_string(err) + " in a warm-up";
          }
        } catch (const std::exception& e) {
          error = e.what();
        }
      }
      {
        std::lock_guard lock(mutex_);
        t->ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count();
        t->error = std::move(error);
        t->nice = nice;
        t->state = WarmTicket::State::Done;
        --running_;
      }
      done_.notify_all();
    }
  }  // the worker's textures go with its context current
  ctx->release();
  eglReleaseThread();
}

}  // namespace tfjsi::gl
