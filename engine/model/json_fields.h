// Type-checked access to fields of untrusted JSON, failing with a ModelError that names the file,
// the field and what was expected instead of what was found.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace tfjsi::model {

// Throws ModelError("<file>: <what>").
[[noreturn]] void fail_model(const std::filesystem::path& file, std::string_view what);

// "a string", "null", "an array", ... for messages.
std::string json_kind(const nlohmann::json& value);

// obj[key] when it is present and not null; nullptr otherwise. `obj` must be an object.
const nlohmann::json* find_field(const nlohmann::json& obj, std::string_view key);

// A string field; "" when absent or null. `where` names the field in messages ("'format'").
std::string optional_string(const std::filesystem::path& file, const nlohmann::json& obj,
                            std::string_view key, std::string_view where);

// An object field; null json when absent or null.
nlohmann::json optional_object(const std::filesystem::path& file, const nlohmann::json& obj,
                               std::string_view key, std::string_view where);

}  // namespace tfjsi::model
