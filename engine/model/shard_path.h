// Turning a shard path written in the manifest into a file inside the bundle's folder, refusing
// any path that would reach outside it.
#pragma once

#include <filesystem>
#include <string_view>

namespace tfjsi::model {

// `dir` is the canonical folder of `model_json`. Returns the canonical path of the shard. Throws
// ModelError naming `model_json` and the manifest path when the path is absolute, climbs with
// "..", resolves (through symlinks) outside `dir`, does not exist or is not a regular file.
std::filesystem::path resolve_shard_path(const std::filesystem::path& model_json,
                                         const std::filesystem::path& dir,
                                         std::string_view manifest_path);

}  // namespace tfjsi::model
