// Reading and parsing a JSON file that may be hostile: errors carry the file and parse position,
// and nesting and string lengths are bounded (model/limits.h) so that later recursive walks
// cannot overflow the stack.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string_view>

#include "model/limits.h"

namespace tfjsi::model {

// Reads and parses `file`. Throws ModelError naming the file (and the line and column of a
// syntax error).
nlohmann::json read_json_file(const std::filesystem::path& file);

// Parses `text` already in memory with the same checks; `file` names it in errors.
nlohmann::json parse_json_text(std::string_view text, const std::filesystem::path& file);

}  // namespace tfjsi::model
