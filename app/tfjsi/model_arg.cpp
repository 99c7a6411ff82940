#include "model_arg.h"

#include <chrono>
#include <iostream>

#include "core/terminal_text.h"
#include "graph/build.h"

namespace tfjsi::cli {

LoadedModel load_model(const std::string& path) {
  const auto t0 = std::chrono::steady_clock::now();
  LoadedModel m;
  m.bundle = model::load_bundle(path);
  m.graph = graph::build_graph(m.bundle);
  m.load_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  for (const auto& w : m.bundle.warnings)
    std::cerr << "tfjsi: warning: " << terminal_safe(w) << '\n';
  return m;
}

}  // namespace tfjsi::cli
