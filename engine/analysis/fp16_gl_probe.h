// Asks the gl driver once what an RGBA16F store does: values past 65504, values between half
// steps, values in and under half's subnormal range are written (by upload and by a compute
// shader's image store) and read back, and the readings are matched against the known rules.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/fp16_rounding.h"
#include "runtime/engine.h"

namespace tfjsi::analysis {

struct GlHalfPath {
  HalfRule rule;
  bool exact = false;                            // every probe value read back as `rule` predicts
  std::vector<std::pair<float, float>> samples;  // written, read back
};

struct GlHalfProbe {
  bool available = false;
  std::string reason;  // why not, when not
  GlHalfPath upload;   // host -> RGBA16F texture
  GlHalfPath store;    // a compute shader writing an RGBA16F image (what kernels do)
};

// Leaves the engine's flags as it found them.
GlHalfProbe probe_gl_half(runtime::Engine& engine);

nlohmann::json to_json(const GlHalfProbe& p);

}  // namespace tfjsi::analysis
