#include "model/json_fields.h"

#include <cmath>
#include <limits>

#include "core/error.h"

namespace tfjsi::model {

void fail_model(const std::filesystem::path& file, std::string_view what) {
  throw ModelError(file.string() + ": " + std::string(what));
}

std::optional<std::int64_t> whole_int64(const nlohmann::json& v) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return std::nullopt;
    return static_cast<std::int64_t>(u);
  }
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    // 9.2e18 is just under 2^63: every whole double up to it converts exactly.
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) <= 9.2e18)
      return static_cast<std::int64_t>(d);
  }
  return std::nullopt;
}

std::string json_kind(const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::object:
      return "an object";
    case nlohmann::json::value_t::array:
      return "an array";
    case nlohmann::json::value_t::string:
      return "a string";
    case nlohmann::json::value_t::boolean:
      return "a boolean";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float:
      return "a number";
    case nlohmann::json::value_t::binary:
      return "binary data";
    case nlohmann::json::value_t::discarded:
      return "nothing";
  }
  return "something else";
}

const nlohmann::json* find_field(const nlohmann::json& obj, std::string_view key) {
  if (!obj.is_object()) return nullptr;
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

std::string optional_string(const std::filesystem::path& file, const nlohmann::json& obj,
                            std::string_view key, std::string_view where) {
  const auto* v = find_field(obj, key);
  if (!v) return {};
  if (!v->is_string())
    fail_model(file, std::string(where) + ": expected a string, found " + json_kind(*v));
  return v->get<std::string>();
}

nlohmann::json optional_object(const std::filesystem::path& file, const nlohmann::json& obj,
                               std::string_view key, std::string_view where) {
  const auto* v = find_field(obj, key);
  if (!v) return nullptr;
  if (!v->is_object())
    fail_model(file, std::string(where) + ": expected an object, found " + json_kind(*v));
  return *v;
}

}  // namespace tfjsi::model
