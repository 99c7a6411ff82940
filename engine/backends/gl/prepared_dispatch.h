// One compute dispatch worked out and ready to issue: its program and what it binds. The backend
// issues it at once, or, while new programs are being built ahead on worker threads, keeps it in
// order until their code is ready (GlBackend::flush_pending).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/gl/gl_op.h"
#include "backends/gl/program_cache.h"

namespace tfjsi::gl {

struct PreparedDispatch {
  CachedProgram* prog = nullptr;
  bool fresh = false;  // the program was built or loaded for this dispatch
  bool ahead = false;  // kept so that the run meets its other new programs first
  bool images = true;  // inputs bound as images (units 1..n), else samplers (units 0..n-1)
  std::string shader;  // for messages
  std::vector<UniformValue> uniforms;
  struct Bound {
    GLuint texture = 0;
    bool rgba16f = false;  // else RGBA32F
  };
  std::vector<Bound> inputs;
  Bound output;
  std::array<std::int64_t, 3> groups{}, limit{};
  bool split = false;
  // The tensors it reads and writes, kept alive (their textures not recycled) until it is issued.
  std::vector<std::shared_ptr<const GlTensorData>> keep;
};

}  // namespace tfjsi::gl
