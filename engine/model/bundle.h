// A TF.js model bundle as it is on disk: model.json, its weights manifest and the weight shards,
// read, validated and with every weight decoded (dequantized once, here).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/host_tensor.h"

namespace tfjsi::model {

enum class ModelKind { Graph, Layers };
std::string_view to_string(ModelKind kind);  // "graph-model", "layers-model"

// How a weight is stored in its shard.
enum class Quantization { None, Uint8, Uint16, Float16 };
std::string_view to_string(Quantization q);  // "none", "uint8", "uint16", "float16"

// One entry of weightsManifest.
struct Weight {
  std::string name;
  Shape shape;
  DType dtype = DType::Float32;  // the dtype once decoded (original_dtype for quantized weights)
  Quantization quantization = Quantization::None;
  double scale = 0.0, min = 0.0;   // uint8/uint16: value = q * scale + min
  std::size_t group = 0;           // index of the manifest group holding it
  std::uint64_t offset = 0;        // byte offset in the group's shards, concatenated in order
  std::uint64_t stored_bytes = 0;  // bytes it takes in the shards
  HostTensor value;                // decoded data; float32 data that needs no conversion borrows
                                   // the shard's bytes, read into memory at load
};

// One weight file.
struct Shard {
  std::string manifest_path;   // as written in the manifest
  std::filesystem::path path;  // resolved, inside the bundle's folder
  std::uint64_t bytes = 0;     // size on disk
  std::size_t group = 0;
};

struct Bundle {
  std::filesystem::path model_json;  // the file that was opened
  std::filesystem::path dir;         // its folder; every shard lies inside it
  ModelKind kind = ModelKind::Graph;
  std::string format;  // the "format" field as written (may be empty in old bundles)
  std::string generated_by, converted_by;
  nlohmann::json topology;   // modelTopology as written
  nlohmann::json signature;  // graph models: "signature" (or the one inside
                             // userDefinedMetadata); null when absent
  // The keys of signature.inputs and .outputs in the order model.json writes them (TF.js walks
  // them in that order; nlohmann::json sorts them). Empty when unknown (a bundle not read from
  // text).
  struct KeyOrder {
    std::vector<std::string> inputs, outputs;
  } signature_order;
  nlohmann::json initializer;      // modelInitializer (a GraphDef) or null
  nlohmann::json metadata;         // userDefinedMetadata or null
  nlohmann::json training_config;  // layers models, kept as metadata only; null when absent
  std::string keras_version, keras_backend;  // layers models
  std::vector<Weight> weights;               // in manifest order
  std::vector<Shard> shards;                 // in manifest order
  std::vector<std::string> warnings;         // things that load but deserve a word (long shard...)

  const Weight* find_weight(std::string_view name) const;
  std::uint64_t bytes_on_disk() const;  // sum of stored_bytes
  std::uint64_t bytes_decoded() const;  // sum of decoded value sizes
};

// Reads the bundle at `path`: a model.json file (any name) or a folder holding model.json.
// Throws ModelError naming the file, weight or field at fault.
Bundle load_bundle(const std::filesystem::path& path);

}  // namespace tfjsi::model
