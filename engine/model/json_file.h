// Reading and parsing a JSON file that may be hostile: errors carry the file and parse position,
// and nesting is bounded so that later recursive walks cannot overflow the stack.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace tfjsi::model {

// Deeper nesting than this is refused; real GraphDef and Keras JSON stays far below it.
inline constexpr int kMaxJsonDepth = 256;
// Larger files are refused rather than read whole into memory (real ones are a few MB).
inline constexpr std::uintmax_t kMaxJsonBytes = std::uintmax_t{1} << 30;

// Reads and parses `file`. Throws ModelError naming the file (and the line and column of a
// syntax error).
nlohmann::json read_json_file(const std::filesystem::path& file);

}  // namespace tfjsi::model
