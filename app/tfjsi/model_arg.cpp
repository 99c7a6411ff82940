#include "model_arg.h"

#include <iostream>

#include "core/terminal_text.h"

namespace tfjsi::cli {

LoadedModel load_model(const std::string& path) {
  LoadedModel m = analysis::load_model(path, false);
  for (const auto& w : m.bundle.warnings)
    std::cerr << "tfjsi: warning: " << terminal_safe(w) << '\n';
  return m;
}

}  // namespace tfjsi::cli
