#include "model/json_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include "core/error.h"
#include "model/json_fields.h"

namespace tfjsi::model {
namespace {

// Thrown from the parser callback to stop at the first too-deep value.
struct TooDeep {};

std::string strip_json_prefix(std::string msg) {
  // nlohmann prefixes "[json.exception.parse_error.101] "; the user does not need it.
  if (!msg.empty() && msg.front() == '[') {
    const auto end = msg.find("] ");
    if (end != std::string::npos) msg.erase(0, end + 2);
  }
  return msg;
}

}  // namespace

nlohmann::json read_json_file(const std::filesystem::path& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    fail_model(file, "expected a JSON file, found a folder");
  // A FIFO or device in place of model.json would block or never end.
  if (!std::filesystem::is_regular_file(file, ec)) fail_model(file, "expected a regular JSON file");
  const auto size = std::filesystem::file_size(file, ec);
  if (ec) fail_model(file, "cannot read its size: " + ec.message());
  if (size > kMaxJsonBytes)
    fail_model(file, "is " + std::to_string(size) + " bytes; model.json files over " +
                         std::to_string(kMaxJsonBytes) + " bytes are refused");
  std::ifstream in(file, std::ios::binary);
  if (!in) fail_model(file, std::string("cannot open: ") + std::strerror(errno));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) fail_model(file, "read error");
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    fail_model(file, "empty file, expected a model.json object");

  const auto depth_guard = [](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
    if (depth > kMaxJsonDepth) throw TooDeep{};
    return true;
  };
  try {
    return nlohmann::json::parse(text, depth_guard);
  } catch (const TooDeep&) {
    fail_model(file, "JSON nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
  } catch (const nlohmann::json::parse_error& e) {
    fail_model(file, "not valid JSON: " + strip_json_prefix(e.what()));
  } catch (const nlohmann::json::exception& e) {
    fail_model(file, "not valid JSON: " + strip_json_prefix(e.what()));
  }
}

}  // namespace tfjsi::model
