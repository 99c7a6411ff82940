#include "model/shard_path.h"

#include <string>

#include "model/json_fields.h"

namespace tfjsi::model {
namespace {

bool inside(const std::filesystem::path& dir, const std::filesystem::path& p) {
  auto d = dir.begin();
  auto q = p.begin();
  for (; d != dir.end(); ++d, ++q) {
    if (q == p.end() || *d != *q) return false;
  }
  return q != p.end();  // strictly below dir, not dir itself
}

}  // namespace

std::filesystem::path resolve_shard_path(const std::filesystem::path& model_json,
                                         const std::filesystem::path& dir,
                                         std::string_view manifest_path) {
  const std::string quoted = "weight file '" + std::string(manifest_path) + "'";
  const auto fail = [&](const std::string& what) { fail_model(model_json, quoted + ": " + what); };
  if (manifest_path.empty()) fail("expected a file name, found an empty path");
  if (manifest_path.find('\0') != std::string_view::npos) fail("path holds a NUL byte");
  const std::filesystem::path rel(manifest_path);
  if (rel.is_absolute() || rel.has_root_name() || rel.has_root_directory())
    fail("absolute paths are refused: a shard must lie in the model's folder");
  for (const auto& part : rel)
    if (part == "..") fail("'..' is refused: a shard must lie in the model's folder");

  const auto joined = dir / rel;
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(joined, ec);
  if (ec || !std::filesystem::exists(status)) fail("missing: expected it at " + joined.string());
  const auto real = std::filesystem::canonical(joined, ec);
  if (ec) fail("cannot resolve " + joined.string() + " (" + ec.message() + ")");
  if (!inside(dir, real))
    fail("resolves to " + real.string() + ", outside the model's folder " + dir.string());
  if (!std::filesystem::is_regular_file(real, ec))
    fail("expected a regular file at " + real.string());
  return real;
}

}  // namespace tfjsi::model
