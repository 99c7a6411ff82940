// The fields of model.json other than the weights: kind, topology, signature, metadata.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

#include "model/bundle.h"

namespace tfjsi::model {

// Fills kind, format, generated_by, converted_by, topology, signature, initializer, metadata,
// training_config, keras_version and keras_backend of `bundle` from `root` (the parsed
// model.json, an object), moving the large values out of it. Decides graph vs layers the way
// TF.js's loaders read the topology. Throws ModelError("<file>: <field>: ...").
void read_model_fields(const std::filesystem::path& file, nlohmann::json& root, Bundle& bundle);

}  // namespace tfjsi::model
