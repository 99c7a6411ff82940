// The Keras model_config of a layers model, read into plain structs: which layers there are, how
// each is called (inbound nodes, in both the nested-list form tfjs-layers writes and the
// args/kwargs form of newer Keras), and which tensors are the model's inputs and outputs.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace tfjsi::graph::keras {

// One tensor of the model: output `tensor` of call `node` of layer `layer`.
struct TensorKey {
  std::string layer;
  int node = 0;
  int tensor = 0;
  bool operator==(const TensorKey&) const = default;
};

// One call of a layer (an inbound node): the tensors it takes, in order.
struct LayerCall {
  std::vector<TensorKey> inputs;
};

struct LayerSpec {
  std::string name;
  std::string class_name;
  const nlohmann::json* entry = nullptr;   // the layer's whole entry (class_name, config, ...)
  const nlohmann::json* config = nullptr;  // its "config" object (never null; may be empty)
  std::vector<LayerCall> calls;            // functional models only
};

struct ModelSpec {
  std::string name;
  bool sequential = false;
  std::vector<LayerSpec> layers;
  std::vector<TensorKey> inputs, outputs;  // functional models only
};

// Sequential, Model, Functional: classes that are whole models (and may be nested as layers).
bool is_model_class(std::string_view class_name);

// Reads a model entry ({"class_name", "config"}). `where` prefixes error messages (the file, and
// for nested models the layer path). Throws ModelError on anything malformed.
ModelSpec parse_model(const nlohmann::json& entry, const std::string& where);

// The model entry inside modelTopology: modelTopology itself, or its "model_config" member
// (bundles converted from Keras .h5 files wrap it so).
const nlohmann::json& model_entry(const nlohmann::json& topology, const std::string& where);

}  // namespace tfjsi::graph::keras
