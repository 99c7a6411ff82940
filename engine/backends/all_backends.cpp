#include "backends/all_backends.h"

#include "backends/cpu/cpu_backend.h"
#include "backends/gl/gl_backend.h"
#include "backends/xnnpack/xnnpack_backend.h"

namespace tfjsi::backends {

std::unique_ptr<runtime::Backend> make_reference_backend() {
  return std::make_unique<cpu::CpuBackend>();
}

void add_all_backends(runtime::Engine& engine) {
  engine.add_backend(gl::make_gl_backend());
  engine.add_backend(xnnpack::make_xnnpack_backend());
}

}  // namespace tfjsi::backends
