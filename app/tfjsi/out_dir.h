// The --out DIR of the commands that write a bundle (quantize, reduce).
#pragma once

#include <filesystem>

#include "model/bundle.h"

namespace tfjsi::cli {

// --out must be a new or empty folder, not the model's own: a bundle written over its input
// would lose the weights it was made from. Creates it. UsageError for a folder that will not do,
// ModelError when it cannot be made.
void prepare_out_dir(const std::filesystem::path& out, const model::Bundle& bundle);

}  // namespace tfjsi::cli
