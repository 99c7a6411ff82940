// What each kernel of a run costs the GL driver to build, from the sources Mesa dumps:
//   MESA_SHADER_DUMP_PATH=DIR tfjsi bench MODEL --backend gl --runs 1
//   gl_build [--passes N] DIR/*.glsl
// Each pass links every source into a new program and dispatches it once on 3x3 RGBA32F textures
// (llvmpipe builds a program's code at its first dispatch, for the bound formats), with Mesa's
// shader cache off, so every pass builds everything again. Prints per source the process CPU time
// of that first dispatch (where llvmpipe's LLVM code generation runs), min and median over the
// passes, and the sums of both. CPU time, not wall time, and the min beside the median: on a
// machine shared with other work a build's CPU time still moves by up to 1.5x between passes
// (caches, clocks), and the min moves least. Why it exists: the cold first gl result is these
// builds (#19), and their cost follows the kernels' code size in ways that are cheaper to measure
// than to guess (bench/results/gl-cold-2026-11-28.md).
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "backends/gl/gl_context.h"
#include "backends/gl/gl_objects.h"
#include "backends/gl/program_cache.h"

namespace {

double cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

std::string read_file(const char* path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Dispatches the program of `source` once; the dispatch's CPU ms (where llvmpipe builds it).
double build_once(tfjsi::gl::ProgramCache& programs, const std::string& source) {
  bool fresh = false;
  const tfjsi::gl::CachedProgram& p = programs.get(source, fresh);
  glUseProgram(p.program.id());
  const double t0 = cpu_ms();
  glDispatchCompute(1, 1, 1);
  glFinish();
  const double ms = cpu_ms() - t0;
  glUseProgram(0);
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace tfjsi::gl;
  int passes = 3;
  std::vector<const char*> files;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--passes") == 0 && i + 1 < argc)
      passes = std::max(1, std::atoi(argv[++i]));
    else
      files.push_back(argv[i]);
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: gl_build [--passes N] SOURCE.glsl...\n");
    return 2;
  }
  // Read when the first context starts: every pass then builds from nothing.
  setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
  std::string reason;
  auto ctx = GlContext::create(reason);
  if (!ctx) {
    std::fprintf(stderr, "gl_build: no OpenGL 4.3 context: %s\n", reason.c_str());
    return 3;
  }
  // Eight 3x3 RGBA32F textures on every image unit and texture unit a kernel may read or write.
  std::vector<GlObject> textures;
  for (GLuint unit = 0; unit < 8; ++unit) {
    GlObject& t = textures.emplace_back(ctx, GlKind::Texture);
    glBindTexture(GL_TEXTURE_2D, t.id());
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, 3, 3);
    glBindImageTexture(unit, t.id(), 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA32F);
    glActiveTexture(GL_TEXTURE0 + unit);
    glBindTexture(GL_TEXTURE_2D, t.id());
  }
  std::vector<std::string> sources;
  for (const char* f : files) sources.push_back(read_file(f));
  ProgramCache programs(ctx);
  programs.set_disk_dir({});
  std::vector<std::vector<double>> ms(files.size());
  try {
    for (int p = 0; p < passes; ++p) {
      programs.clear_memory();  // every pass links and builds each program anew
      for (std::size_t i = 0; i < files.size(); ++i)
        ms[i].push_back(build_once(programs, sources[i]));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gl_build: %s\n", e.what());
    return 1;
  }
  std::printf("%s, %s; CPU ms of the first dispatch, %d passes\n", ctx->renderer().c_str(),
              ctx->version().c_str(), passes);
  double sum = 0, min_sum = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    std::vector<double> v = ms[i];
    std::sort(v.begin(), v.end());
    const double median = v[v.size() / 2];
    sum += median;
    min_sum += v.front();
    std::printf("%8.1f min %8.1f median  %s\n", v.front(), median, files[i]);
  }
  std::printf("%8.1f min %8.1f median  sum\n", min_sum, sum);
  return 0;
}
