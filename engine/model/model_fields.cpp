#include "model/model_fields.h"

#include <string>

#include "model/json_fields.h"
#include "model/limits.h"

namespace tfjsi::model {
namespace {

bool has(const nlohmann::json& obj, const char* key) {
  return find_field(obj, key) != nullptr;
}

ModelKind decide_kind(const std::filesystem::path& file, const nlohmann::json& topology,
                      const std::string& format, std::vector<std::string>& warnings) {
  // tfjs-layers reads model_config (Keras converter) or a bare {class_name, config} (model.save);
  // tfjs-converter reads a GraphDef: node, versions, library.
  const bool keras = has(topology, "model_config") || has(topology, "class_name");
  const bool graph = has(topology, "node") || has(topology, "versions") || has(topology, "library");
  if (format == "graph-model") {
    if (keras && !graph)
      fail_model(file,
                 "modelTopology: format is \"graph-model\" but the topology is a Keras model "
                 "config (model_config/class_name), not a GraphDef");
    return ModelKind::Graph;
  }
  if (format == "layers-model") {
    if (!keras)
      fail_model(file,
                 "modelTopology: format is \"layers-model\" but the topology has neither "
                 "'model_config' nor 'class_name'");
    return ModelKind::Layers;
  }
  if (!format.empty())
    warnings.push_back(file.string() + ": unknown format \"" + format +
                       "\"; telling graph from layers model by modelTopology");
  if (keras) return ModelKind::Layers;
  if (graph) return ModelKind::Graph;
  fail_model(file,
             "modelTopology: expected a GraphDef (with 'node') or a Keras model config "
             "(with 'model_config' or 'class_name'), found neither");
}

void check_layers_topology(const std::filesystem::path& file, const nlohmann::json& topology) {
  const nlohmann::json* config = &topology;
  std::string where = "modelTopology";
  if (const auto* mc = find_field(topology, "model_config")) {
    if (!mc->is_object())
      fail_model(file, "modelTopology.model_config: expected an object, found " + json_kind(*mc));
    config = mc;
    where += ".model_config";
  }
  const auto* cls = find_field(*config, "class_name");
  if (!cls || !cls->is_string())
    fail_model(file, where + ".class_name: expected a string naming the Keras model class, found " +
                         (cls ? json_kind(*cls) : std::string("none")));
}

void check_graph_topology(const std::filesystem::path& file, const nlohmann::json& topology) {
  if (const auto* node = find_field(topology, "node"); node && !node->is_array())
    fail_model(file, "modelTopology.node: expected an array of nodes, found " + json_kind(*node));
  if (const auto* node = find_field(topology, "node"); node && node->size() > kMaxNodes)
    fail_model(file, "modelTopology.node: " + std::to_string(node->size()) +
                         " nodes, more than the limit of " + std::to_string(kMaxNodes) +
                         " (kMaxNodes)");
}

}  // namespace

const std::vector<JsonPath>& ordered_model_paths() {
  static const std::vector<JsonPath> paths{
      {"signature", "inputs"},
      {"signature", "outputs"},
      {"userDefinedMetadata", "signature", "inputs"},
      {"userDefinedMetadata", "signature", "outputs"},
  };
  return paths;
}

void read_model_fields(const std::filesystem::path& file, nlohmann::json& root, Bundle& b,
                       const KeyOrders* orders) {
  b.format = optional_string(file, root, "format", "'format'");
  b.generated_by = optional_string(file, root, "generatedBy", "'generatedBy'");
  b.converted_by = optional_string(file, root, "convertedBy", "'convertedBy'");

  auto it = root.find("modelTopology");
  if (it == root.end() || it->is_null())
    fail_model(file, "missing 'modelTopology': expected the model's GraphDef or Keras config");
  if (!it->is_object())
    fail_model(file, "'modelTopology': expected an object, found " + json_kind(*it));
  b.topology = std::move(*it);
  b.kind = decide_kind(file, b.topology, b.format, b.warnings);

  b.metadata = optional_object(file, root, "userDefinedMetadata", "'userDefinedMetadata'");
  b.signature = optional_object(file, root, "signature", "'signature'");
  // As in tfjs-converter: a signature inside userDefinedMetadata wins over the top-level one.
  JsonPath sig{"signature"};
  if (b.metadata.is_object()) {
    auto md = optional_object(file, b.metadata, "signature", "'userDefinedMetadata.signature'");
    if (!md.is_null()) {
      b.signature = std::move(md);
      sig = {"userDefinedMetadata", "signature"};
    }
  }
  if (orders) {
    auto side = [&](const char* name) {
      JsonPath p = sig;
      p.emplace_back(name);
      const auto it = orders->find(p);
      return it == orders->end() ? std::vector<std::string>{} : it->second;
    };
    b.signature_order = {side("inputs"), side("outputs")};
  }
  b.initializer = optional_object(file, root, "modelInitializer", "'modelInitializer'");

  if (b.kind == ModelKind::Layers) {
    check_layers_topology(file, b.topology);
    b.keras_version =
        optional_string(file, b.topology, "keras_version", "'modelTopology.keras_version'");
    b.keras_backend = optional_string(file, b.topology, "backend", "'modelTopology.backend'");
    // model.save writes trainingConfig at the top; the Keras converter nests training_config.
    b.training_config = optional_object(file, root, "trainingConfig", "'trainingConfig'");
    if (b.training_config.is_null())
      b.training_config =
          optional_object(file, b.topology, "training_config", "'modelTopology.training_config'");
  } else {
    check_graph_topology(file, b.topology);
  }
}

}  // namespace tfjsi::model
