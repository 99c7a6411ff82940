// Writing a bundle the way tensorflowjs_converter lays it out: model.json beside the weight
// shards, each manifest group's weights concatenated in order and cut into shards of at most
// 4 MiB named group<G>-shard<K>of<N>.bin (write_weights.py).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/bundle.h"

namespace tfjsi::model {

inline constexpr std::uint64_t kConverterShardBytes = 4ull * 1024 * 1024;

// One weightsManifest entry and the bytes it takes in its group's shards.
struct WeightRecord {
  nlohmann::ordered_json entry;  // {"name", "shape", "dtype", "quantization"?, ...}
  std::vector<std::byte> bytes;
};

// model.json of `bundle` as written on disk, key order kept (TF.js reads the signature's inputs
// and outputs in that order). Throws ModelError naming the file.
nlohmann::ordered_json read_model_json_ordered(const Bundle& bundle);

// The manifest entry of weight `name` as written in `model_json`, or null.
const nlohmann::ordered_json* find_manifest_entry(const nlohmann::ordered_json& model_json,
                                                  const std::string& name);

// The bytes `weight` takes in its shards, exactly as stored (quantized or not).
std::vector<std::byte> read_stored_bytes(const Bundle& bundle, const Weight& weight);

// Writes `dir`/model.json (`model_json` with its weightsManifest replaced by `groups`) and the
// shards. `dir` must exist. Returns the bytes of the shards written. Throws ModelError naming the
// file that could not be written.
std::uint64_t write_bundle(const std::filesystem::path& dir, nlohmann::ordered_json model_json,
                           const std::vector<std::vector<WeightRecord>>& groups,
                           std::uint64_t shard_bytes = kConverterShardBytes);

}  // namespace tfjsi::model
