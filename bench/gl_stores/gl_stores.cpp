// What writing a texel and waiting for a kernel cost on this machine's GL driver: a compute
// kernel that stores one RGBA32F texel per invocation (nothing else, a copy, the sum of two
// images) over a 128x768 image in groups of 8x8, 64x1 and 16x16, in ns per texel; and one work
// group of 64, waited for three ways: glFinish, glFinish after a memory barrier, and the result of
// a GL_TIME_ELAPSED query around it. Each figure is the fastest of 15 dispatches after one that
// compiles; a 100 us pause before each, as between the nodes of a model.
// Why it exists: on Mesa 22.3's llvmpipe waiting for a query's result costs about three times a
// glFinish, more than a small kernel itself, which is why `tfjsi bench --profile` waits for gl
// kernels with glFinish and takes the timer queries in runs of their own.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "backends/gl/gl_context.h"
#include "backends/gl/gl_objects.h"
#include "backends/gl/program_cache.h"

namespace {

constexpr int kWidth = 128, kHeight = 768;

std::string source(const char* what, int lx, int ly) {
  return "#version 430 core\nlayout(local_size_x = " + std::to_string(lx) +
         ", local_size_y = " + std::to_string(ly) + ") in;\n#define " + what + "\n" + R"(
layout(rgba32f, binding = 1) readonly uniform image2D a;
layout(rgba32f, binding = 2) readonly uniform image2D b;
layout(rgba32f, binding = 0) writeonly uniform image2D o;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
#if defined(STORE)
  imageStore(o, p, vec4(p.x));
#elif defined(COPY)
  imageStore(o, p, imageLoad(a, p));
#elif defined(ADD)
  imageStore(o, p, imageLoad(a, p) + imageLoad(b, p));
#endif
}
)";
}

enum class Wait { Finish, BarrierFinish, Query };

// Fastest of 15 runs of `dispatch` then the wait, in ms.
template <class F>
double fastest(F dispatch, Wait wait) {
  double best = 1e300;
  for (int r = 0; r < 16; ++r) {
    std::this_thread::sleep_for(std::chrono::microseconds(100));
    const auto t0 = std::chrono::steady_clock::now();
    GLuint q = 0;
    if (wait == Wait::Query) {
      glGenQueries(1, &q);
      glBeginQuery(GL_TIME_ELAPSED, q);
    }
    dispatch();
    if (wait == Wait::Query) {
      glEndQuery(GL_TIME_ELAPSED);
      GLuint64 ns = 0;
      glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
      glDeleteQueries(1, &q);
    } else {
      if (wait == Wait::BarrierFinish)
        glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
      glFinish();
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (r > 0) best = std::min(best, ms);  // the first compiles (llvmpipe builds at dispatch)
  }
  return best;
}

}  // namespace

int main() {
  using namespace tfjsi::gl;
  std::string reason;
  auto ctx = GlContext::create(reason);
  if (!ctx) {
    std::fprintf(stderr, "gl_stores: no OpenGL 4.3 context: %s\n", reason.c_str());
    return 3;
  }
  std::printf("%s, %s\n", ctx->renderer().c_str(), ctx->version().c_str());
  const std::vector<float> data(kWidth * kHeight * 4, 0.5f);
  GlObject ta(ctx, GlKind::Texture), tb(ctx, GlKind::Texture), out(ctx, GlKind::Texture);
  for (GLuint t : {ta.id(), tb.id(), out.id()}) {
    glBindTexture(GL_TEXTURE_2D, t);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, kWidth, kHeight);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kWidth, kHeight, GL_RGBA, GL_FLOAT, data.data());
  }
  ProgramCache programs(ctx);
  programs.set_disk_dir({});
  auto use = [&](const char* what, int lx, int ly) {
    bool fresh = false;
    glUseProgram(programs.get(source(what, lx, ly), fresh).program.id());
    glBindImageTexture(1, ta.id(), 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA32F);
    glBindImageTexture(2, tb.id(), 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA32F);
    glBindImageTexture(0, out.id(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA32F);
  };
  std::printf("\nns per texel, %dx%d texels:\n%-6s %8s %8s %8s\n", kWidth, kHeight, "group",
              "store", "copy", "add");
  for (const auto& group : {std::pair{8, 8}, std::pair{64, 1}, std::pair{16, 16}}) {
    // Plain variables: clang before 16 cannot capture structured bindings in a lambda.
    const int lx = group.first, ly = group.second;
    std::printf("%2dx%-3d", lx, ly);
    for (const char* what : {"STORE", "COPY", "ADD"}) {
      use(what, lx, ly);
      const double ms =
          fastest([&] { glDispatchCompute(kWidth / lx, kHeight / ly, 1); }, Wait::Finish);
      std::printf(" %8.2f", ms * 1e6 / (kWidth * kHeight));
    }
    std::printf("\n");
  }
  std::printf("\none group of 64 (ADD), ms:\n");
  use("ADD", 8, 8);
  const auto one = [] { glDispatchCompute(1, 1, 1); };
  std::printf("  glFinish                  %.3f\n", fastest(one, Wait::Finish));
  std::printf("  barrier, glFinish         %.3f\n", fastest(one, Wait::BarrierFinish));
  if (ctx->limits().timer_queries)
    std::printf("  GL_TIME_ELAPSED result    %.3f\n", fastest(one, Wait::Query));
  else
    std::printf("  GL_TIME_ELAPSED: the driver has no timer queries\n");
  return 0;
}
