// Loading the MODEL argument the way every command does.
#pragma once

#include <string>

#include "analysis/loaded_model.h"

namespace tfjsi::cli {

using analysis::LoadedModel;

// Loads and builds the model (analysis::load_model, not summarized); prints the bundle's warnings
// to stderr.
LoadedModel load_model(const std::string& path);

}  // namespace tfjsi::cli
