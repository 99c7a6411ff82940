#include "model/bundle.h"

#include <algorithm>

#include "core/error.h"
#include "model/json_fields.h"
#include "model/json_file.h"
#include "model/limits.h"
#include "model/manifest.h"
#include "model/model_fields.h"
#include "model/shard_path.h"
#include "model/shard_sequence.h"
#include "model/weight_decoder.h"

namespace tfjsi::model {
namespace {

namespace fs = std::filesystem;

// MODEL is a model.json file under any name, or a folder holding model.json.
fs::path locate_model_json(const fs::path& path) {
  std::error_code ec;
  const auto st = fs::status(path, ec);
  if (ec || !fs::exists(st))
    throw ModelError(path.string() +
                     ": no such file or folder (expected model.json or its folder)");
  if (!fs::is_directory(st)) return path;
  auto file = path / "model.json";
  if (!fs::exists(file, ec)) throw ModelError(path.string() + ": folder holds no model.json");
  return file;
}

// Bytes of a group's shards worth reading: what its weights take, or everything (up to the
// decoded-size limit) when a string weight's size is known only from its data.
std::uint64_t group_budget(const ManifestGroup& group) {
  std::uint64_t n = 0;
  for (const auto& w : group.weights) {
    if (w.dtype == DType::String) return kMaxWeightBytes;
    n = std::min(n + w.fixed_bytes, kMaxWeightBytes);
  }
  return n;
}

void load_weights(Bundle& b, const std::vector<ManifestGroup>& groups) {
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& group = groups[g];
    std::uint64_t budget = group_budget(group);
    std::uint64_t on_disk = 0;
    std::vector<std::shared_ptr<const ShardFile>> files;
    for (const auto& p : group.paths) {
      auto real = resolve_shard_path(b.model_json, b.dir, p);
      files.push_back(ShardFile::read(real, budget));
      budget -= files.back()->size();
      on_disk += files.back()->size_on_disk();
      b.shards.push_back(Shard{p, std::move(real), files.back()->size_on_disk(), g});
    }
    const ShardSequence data(std::move(files));
    const std::uint64_t used = decode_group(b.model_json, group, g, data, b.weights);
    if (used < on_disk) {
      const auto& last = group.paths.back();
      b.warnings.push_back(b.model_json.string() + ": weightsManifest[" + std::to_string(g) +
                           "]: its weight files hold " + std::to_string(on_disk) +
                           " bytes but the weights use " + std::to_string(used) + "; the last " +
                           std::to_string(on_disk - used) + " bytes (in '" + last +
                           "') are ignored");
    }
  }
}

}  // namespace

std::string_view to_string(ModelKind kind) {
  switch (kind) {
    case ModelKind::Graph:
      return "graph-model";
    case ModelKind::Layers:
      return "layers-model";
  }
  return "?";
}

std::string_view to_string(Quantization q) {
  switch (q) {
    case Quantization::None:
      return "none";
    case Quantization::Uint8:
      return "uint8";
    case Quantization::Uint16:
      return "uint16";
    case Quantization::Float16:
      return "float16";
  }
  return "?";
}

const Weight* Bundle::find_weight(std::string_view name) const {
  const auto it =
      std::find_if(weights.begin(), weights.end(), [&](const Weight& w) { return w.name == name; });
  return it == weights.end() ? nullptr : &*it;
}

std::uint64_t Bundle::bytes_on_disk() const {
  std::uint64_t n = 0;
  for (const auto& w : weights) n += w.stored_bytes;
  return n;
}

std::uint64_t Bundle::bytes_decoded() const {
  std::uint64_t n = 0;
  for (const auto& w : weights) n += w.value.buffer || w.value.strings ? w.value.byte_size() : 0;
  return n;
}

Bundle load_bundle(const fs::path& path) {
  Bundle b;
  b.model_json = locate_model_json(path);
  std::error_code ec;
  auto parent = fs::absolute(b.model_json, ec).parent_path();
  if (!ec) b.dir = fs::canonical(parent, ec);
  if (ec)
    throw ModelError(b.model_json.string() + ": cannot resolve its folder (" + ec.message() + ")");

  KeyOrders orders;
  auto root = read_json_file(b.model_json, ordered_model_paths(), &orders);
  if (!root.is_object())
    fail_model(b.model_json, "expected a JSON object at the top, found " + json_kind(root));
  read_model_fields(b.model_json, root, b, &orders);

  nlohmann::json manifest;
  if (auto it = root.find("weightsManifest"); it != root.end()) manifest = std::move(*it);
  const auto groups = parse_manifest(b.model_json, manifest, b.warnings);
  load_weights(b, groups);
  return b;
}

}  // namespace tfjsi::model
