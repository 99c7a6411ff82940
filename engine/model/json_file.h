// Reading and parsing a JSON file that may be hostile: errors carry the file and parse position,
// and nesting and string lengths are bounded (model/limits.h) so that later recursive walks
// cannot overflow the stack.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "model/limits.h"

namespace tfjsi::model {

// An object inside a document: the member names from the root down to it.
using JsonPath = std::vector<std::string>;
// The keys of objects in the order the text writes them, for the paths asked: nlohmann::json keeps
// keys sorted, where JavaScript walks them as written. An asked path that is not an object with
// keys in the text (or lies inside an array) has no entry.
using KeyOrders = std::map<JsonPath, std::vector<std::string>>;

// Reads and parses `file`; fills `orders` (when given) for the paths in `keep_order`. Throws
// ModelError naming the file (and the line and column of a syntax error).
nlohmann::json read_json_file(const std::filesystem::path& file,
                              const std::vector<JsonPath>& keep_order = {},
                              KeyOrders* orders = nullptr);

// Parses `text` already in memory with the same checks; `file` names it in errors.
nlohmann::json parse_json_text(std::string_view text, const std::filesystem::path& file,
                               const std::vector<JsonPath>& keep_order = {},
                               KeyOrders* orders = nullptr);

}  // namespace tfjsi::model
