// The weightsManifest of model.json, parsed and validated but not yet tied to any bytes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/shape.h"
#include "model/bundle.h"

namespace tfjsi::model {

struct WeightSpec {
  std::string name;
  Shape shape;
  std::uint64_t elements = 0;
  DType dtype = DType::Float32;  // as decoded
  Quantization quantization = Quantization::None;
  double scale = 0.0, min = 0.0;
  // Bytes per stored element: 1 or 2 when quantized, element_size(dtype) otherwise; 0 for
  // strings, whose size is known only from their data.
  std::size_t stored_element_size = 0;
  // elements * stored_element_size, checked for overflow (0 for strings).
  std::uint64_t fixed_bytes = 0;
};

struct ManifestGroup {
  std::vector<std::string> paths;   // shard paths as written, in order
  std::vector<WeightSpec> weights;  // in manifest order
};

// Parses weightsManifest (`manifest` may be null: no weights). Weight names must be unique across
// all groups. Throws ModelError("<file>: weightsManifest[g]...: ..."); appends harmless oddities
// to `warnings`.
std::vector<ManifestGroup> parse_manifest(const std::filesystem::path& file,
                                          const nlohmann::json& manifest,
                                          std::vector<std::string>& warnings);

}  // namespace tfjsi::model
