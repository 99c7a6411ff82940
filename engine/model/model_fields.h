// The fields of model.json other than the weights: kind, topology, signature, metadata.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "model/bundle.h"
#include "model/json_file.h"

namespace tfjsi::model {

// The objects of model.json whose key order read_model_fields needs (the signatures' inputs and
// outputs): pass them to read_json_file / parse_json_text.
const std::vector<JsonPath>& ordered_model_paths();

// Fills kind, format, generated_by, converted_by, topology, signature (and signature_order from
// `orders`, when given), initializer, metadata, training_config, keras_version and keras_backend
// of `bundle` from `root` (the parsed model.json, an object), moving the large values out of it.
// Decides graph vs layers the way TF.js's loaders read the topology. Throws
// ModelError("<file>: <field>: ...").
void read_model_fields(const std::filesystem::path& file, nlohmann::json& root, Bundle& bundle,
                       const KeyOrders* orders = nullptr);

}  // namespace tfjsi::model
