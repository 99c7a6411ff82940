// Type-checked access to fields of untrusted JSON, failing with a ModelError that names the file,
// the field and what was expected instead of what was found.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace tfjsi::model {

// Throws ModelError("<file>: <what>").
[[noreturn]] void fail_model(const std::filesystem::path& file, std::string_view what);

// A JSON number that holds a whole value in int64's range: an integer, or a float such as 3.0
// (Keras and some converters write those); nullopt for anything else. A float is range-checked
// before it is converted, since converting one beyond int64 is undefined behaviour.
std::optional<std::int64_t> whole_int64(const nlohmann::json& value);

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
