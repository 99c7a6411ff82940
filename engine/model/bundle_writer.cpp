#include "model/bundle_writer.h"

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <string_view>

#include "core/error.h"
#include "io/safe_write.h"

namespace tfjsi::model {

namespace fs = std::filesystem;

nlohmann::ordered_json read_model_json_ordered(const Bundle& bundle) {
  std::ifstream in(bundle.model_json, std::ios::binary);
  if (!in) throw ModelError(bundle.model_json.string() + ": cannot read it again");
  try {
    return nlohmann::ordered_json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw ModelError(bundle.model_json.string() + ": " + e.what());
  }
}

const nlohmann::ordered_json* find_manifest_entry(const nlohmann::ordered_json& model_json,
                                                  const std::string& name) {
  const auto it = model_json.find("weightsManifest");
  if (it == model_json.end() || !it->is_array()) return nullptr;
  for (const auto& group : *it) {
    const auto ws = group.find("weights");
    if (ws == group.end() || !ws->is_array()) continue;
    for (const auto& w : *ws) {
      const auto n = w.find("name");
      if (n != w.end() && n->is_string() && n->get_ref<const std::string&>() == name) return &w;
    }
  }
  return nullptr;
}

std::vector<std::byte> read_stored_bytes(const Bundle& bundle, const Weight& weight) {
  std::vector<std::byte> out(weight.stored_bytes);
  std::uint64_t start = 0;  // of the current shard in the group's concatenated bytes
  std::uint64_t done = 0;
  for (const Shard& s : bundle.shards) {
    if (s.group != weight.group) continue;
    const std::uint64_t end = start + s.bytes;
    const std::uint64_t from = weight.offset + done;
    if (done < out.size() && from >= start && from < end) {
      const std::uint64_t n = std::min<std::uint64_t>(end - from, out.size() - done);
      std::ifstream in(s.path, std::ios::binary);
      in.seekg(static_cast<std::streamoff>(from - start));
      in.read(reinterpret_cast<char*>(out.data() + done), static_cast<std::streamsize>(n));
      if (!in)
        throw ModelError(s.path.string() + ": cannot read the bytes of weight '" + weight.name +
                         "' again");
      done += n;
    }
    start = end;
  }
  if (done != out.size())
    throw ModelError(bundle.model_json.string() + ": weight '" + weight.name +
                     "' runs past its group's shards");
  return out;
}

std::uint64_t write_bundle(const fs::path& dir, nlohmann::ordered_json model_json,
                           const std::vector<std::vector<WeightRecord>>& groups,
                           std::uint64_t shard_bytes) {
  auto write = [](const fs::path& file, std::string_view bytes) {
    try {
      io::write_file_replacing(file, bytes);
    } catch (const std::runtime_error& e) {
      throw ModelError(e.what());
    }
  };
  nlohmann::ordered_json manifest = nlohmann::ordered_json::array();
  std::uint64_t written = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    std::string data;
    nlohmann::ordered_json weights = nlohmann::ordered_json::array();
    for (const WeightRecord& w : groups[g]) {
      data.append(reinterpret_cast<const char*>(w.bytes.data()), w.bytes.size());
      weights.push_back(w.entry);
    }
    // ceil(total / shard size) shards, the last one holding the rest; none for an empty group.
    const std::uint64_t count = (data.size() + shard_bytes - 1) / shard_bytes;
    nlohmann::ordered_json paths = nlohmann::ordered_json::array();
    for (std::uint64_t k = 0; k < count; ++k) {
      const std::string name = "group" + std::to_string(g + 1) + "-shard" + std::to_string(k + 1) +
                               "of" + std::to_string(count) + ".bin";
      const std::uint64_t from = k * shard_bytes;
      const std::uint64_t n = std::min<std::uint64_t>(shard_bytes, data.size() - from);
      write(dir / name, std::string_view(data).substr(from, n));
      paths.push_back(name);
    }
    written += data.size();
    nlohmann::ordered_json group;
    group["paths"] = std::move(paths);
    group["weights"] = std::move(weights);
    manifest.push_back(std::move(group));
  }
  model_json["weightsManifest"] = std::move(manifest);
  write(dir / "model.json", model_json.dump());
  return written;
}

}  // namespace tfjsi::model
