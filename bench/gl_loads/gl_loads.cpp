// What one vec4 load costs a compute shader on this machine's GL driver, by where the data lives:
// a shader storage buffer, a uniform block, a texture through texelFetch, an image through
// imageLoad, shared memory, and no load at all (the loop's own cost). Every invocation of a
// 64-wide group reads the same address in the same step (as conv_direct.comp reads its weights),
// or with --per-lane neighbouring addresses (as kernels read their inputs). Prints the fastest of
// 7 dispatches of 4096 invocations x 960 loads, and ns per load per invocation.
// Why it exists: on Mesa 22.3's llvmpipe the storage buffer and shared memory loads cost about 20
// times an image load, which decided how the gl kernels read their weights.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "backends/gl/gl_context.h"
#include "backends/gl/gl_objects.h"
#include "backends/gl/program_cache.h"

namespace {

constexpr int kTexels = 1024;  // data, vec4s
constexpr int kLoads = 960;    // per invocation
constexpr int kInvocations = 4096;

std::string source(const std::string& where, bool per_lane) {
  return "#version 430 core\nlayout(local_size_x = 64) in;\n#define " + where + "\n" +
         (per_lane ? "#define PER_LANE\n" : "") + "#define N " + std::to_string(kTexels) + "\n" +
         "#define LOADS " + std::to_string(kLoads) + "\n" + R"(
layout(std430, binding = 0) readonly buffer B { vec4 b[]; };
layout(std140, binding = 0) uniform U { vec4 u[N]; };
layout(binding = 0) uniform sampler2D t;
layout(rgba32f, binding = 1) readonly uniform image2D im;
layout(rgba32f, binding = 0) writeonly uniform image2D o;
shared vec4 sh[64];
void main() {
  int x = int(gl_GlobalInvocationID.x);
#ifdef PER_LANE
  int base = int(gl_LocalInvocationID.x);
#else
  int base = int(gl_WorkGroupID.x) & 1;  // the same for the group, unknown to the compiler
#endif
#ifdef SHARED
  sh[gl_LocalInvocationID.x] = vec4(1.0);
  barrier();
#endif
  vec4 acc = vec4(float(x));
  for (int k = 0; k < LOADS; ++k) {
#if defined(STORAGE_BUFFER)
    vec4 v = b[k + base];
#elif defined(UNIFORM_BLOCK)
    vec4 v = u[k + base];
#elif defined(TEXEL_FETCH)
    vec4 v = texelFetch(t, ivec2(k + base, 0), 0);
#elif defined(IMAGE_LOAD)
    vec4 v = imageLoad(im, ivec2(k + base, 0));
#elif defined(SHARED)
    vec4 v = sh[(k + base) & 63];
#else
    vec4 v = vec4(float(k));
#endif
    acc = acc * 0.999 + v;
  }
  imageStore(o, ivec2(x, 0), acc);
}
)";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tfjsi::gl;
  const bool per_lane = argc > 1 && std::strcmp(argv[1], "--per-lane") == 0;
  std::string reason;
  auto ctx = GlContext::create(reason);
  if (!ctx) {
    std::fprintf(stderr, "gl_loads: no OpenGL 4.3 context: %s\n", reason.c_str());
    return 3;
  }
  std::printf("%s, %s; %s addresses\n", ctx->renderer().c_str(), ctx->version().c_str(),
              per_lane ? "per-lane" : "group-uniform");
  const std::vector<float> data(kTexels * 4, 0.5f);
  GlObject storage(ctx, GlKind::Buffer), uniform(ctx, GlKind::Buffer);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, storage.id());
  glBufferData(GL_SHADER_STORAGE_BUFFER, data.size() * 4, data.data(), GL_STATIC_DRAW);
  glBindBuffer(GL_UNIFORM_BUFFER, uniform.id());
  glBufferData(GL_UNIFORM_BUFFER, data.size() * 4, data.data(), GL_STATIC_DRAW);
  GlObject tex(ctx, GlKind::Texture), out(ctx, GlKind::Texture);
  glBindTexture(GL_TEXTURE_2D, tex.id());
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, kTexels, 1);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kTexels, 1, GL_RGBA, GL_FLOAT, data.data());
  glBindTexture(GL_TEXTURE_2D, out.id());
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, kInvocations, 1);
  ProgramCache programs(ctx);
  programs.set_disk_dir({});
  for (const char* where :
       {"STORAGE_BUFFER", "UNIFORM_BLOCK", "TEXEL_FETCH", "IMAGE_LOAD", "SHARED", "NO_LOAD"}) {
    bool fresh = false;
    const CachedProgram& p = programs.get(source(where, per_lane), fresh);
    glUseProgram(p.program.id());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, storage.id());
    glBindBufferBase(GL_UNIFORM_BUFFER, 0, uniform.id());
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, tex.id());
    glBindImageTexture(1, tex.id(), 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA32F);
    glBindImageTexture(0, out.id(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA32F);
    double best = 1e300;
    for (int r = 0; r < 8; ++r) {  // the first compiles (llvmpipe builds at the first dispatch)
      const auto t0 = std::chrono::steady_clock::now();
      glDispatchCompute(kInvocations / 64, 1, 1);
      glFinish();
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (r > 0 && ms < best) best = ms;
    }
    std::printf("%-15s %8.2f ms  %6.2f ns per load\n", where, best,
                best * 1e6 / (double(kInvocations) * kLoads));
  }
  return 0;
}
