// Puts back, at scope exit, what an analysis switches while it runs: the engine's active backend
// and the storage precision, which the gl backend holds in its flag gl.float32_enabled.
#pragma once

#include <optional>
#include <string>

#include "runtime/engine.h"

namespace tfjsi::analysis {

class BackendRestore {
 public:
  explicit BackendRestore(runtime::Engine& engine)
      : engine_(engine), backend_(engine.backend().name()) {
    if (engine.flags().has("gl.float32_enabled"))
      fp32_textures_ = engine.flags().get_bool("gl.float32_enabled");
  }
  BackendRestore(const BackendRestore&) = delete;
  BackendRestore& operator=(const BackendRestore&) = delete;
  ~BackendRestore() {
    if (fp32_textures_) engine_.flags().set_value("gl.float32_enabled", *fp32_textures_);
    try {
      engine_.set_backend(backend_);
    } catch (...) {  // the backend went away during the analysis: the engine keeps the one it has
    }
  }

 private:
  runtime::Engine& engine_;
  std::string backend_;
  std::optional<bool> fp32_textures_;
};

}  // namespace tfjsi::analysis
