#include "graph/keras/keras_config.h"

#include "core/error.h"

using nlohmann::json;

namespace tfjsi::graph::keras {

namespace {

std::string quote(std::string_view s) {
  return "'" + std::string(s) + "'";
}

int small_int(const json& j, const std::string& what) {
  if (!j.is_number_integer() || j.get<std::int64_t>() < 0 || j.get<std::int64_t>() > 1 << 20)
    throw ModelError(what + ": expected a small non-negative integer, got " + j.dump());
  return j.get<int>();
}

// ["layer", node, tensor] or ["layer", node, tensor, {kwargs}].
TensorKey key_from_list(const json& j, const std::string& what) {
  if (!j.is_array() || j.size() < 3 || !j[0].is_string())
    throw ModelError(what + ": expected [layer, node_index, tensor_index], got " + j.dump());
  return {j[0].get<std::string>(), small_int(j[1], what), small_int(j[2], what)};
}

// Newer Keras: tensors inside "args" are {"class_name": "__keras_tensor__", "config":
// {"keras_history": [layer, node, tensor]}}, possibly nested in lists.
void collect_keras_tensors(const json& j, std::vector<TensorKey>& out, const std::string& what) {
  if (j.is_array()) {
    for (const auto& item : j) collect_keras_tensors(item, out, what);
    return;
  }
  if (!j.is_object()) return;
  auto cls = j.find("class_name");
  if (cls != j.end() && cls->is_string() && *cls == "__keras_tensor__") {
    auto cfg = j.find("config");
    if (cfg == j.end() || !cfg->is_object() || !cfg->contains("keras_history"))
      throw ModelError(what + ": a __keras_tensor__ has no keras_history");
    out.push_back(key_from_list((*cfg)["keras_history"], what));
  }
}

LayerCall read_call(const json& node, const std::string& what) {
  LayerCall call;
  if (node.is_array()) {
    // tfjs-layers and Keras 2: a list of [layer, node, tensor, kwargs].
    for (const auto& t : node) call.inputs.push_back(key_from_list(t, what));
  } else if (node.is_object()) {
    collect_keras_tensors(node.value("args", json::array()), call.inputs, what);
  } else {
    throw ModelError(what + ": an inbound node is neither a list nor an object");
  }
  if (call.inputs.empty()) throw ModelError(what + ": an inbound node names no input tensor");
  return call;
}

std::string layer_name(const json& layer, const std::string& what) {
  if (auto it = layer.find("name"); it != layer.end() && it->is_string())
    return it->get<std::string>();
  if (auto cfg = layer.find("config"); cfg != layer.end() && cfg->is_object())
    if (auto it = cfg->find("name"); it != cfg->end() && it->is_string())
      return it->get<std::string>();
  throw ModelError(what + ": a layer has no name");
}

std::vector<TensorKey> read_endpoints(const json& config, const char* key,
                                      const std::string& where) {
  auto it = config.find(key);
  if (it == config.end() || it->is_null())
    throw ModelError(where + ": the functional model has no " + key);
  const std::string what = where + ": " + key;
  std::vector<TensorKey> out;
  // A single endpoint may be written as one triple instead of a list of triples.
  if (it->is_array() && !it->empty() && (*it)[0].is_string()) {
    out.push_back(key_from_list(*it, what));
    return out;
  }
  if (!it->is_array()) throw ModelError(what + " is not a list");
  for (const auto& e : *it) {
    if (e.is_object() && e.value("class_name", "") == "__keras_tensor__") {
      collect_keras_tensors(e, out, what);
    } else {
      out.push_back(key_from_list(e, what));
    }
  }
  return out;
}

}  // namespace

bool is_model_class(std::string_view class_name) {
  return class_name == "Sequential" || class_name == "Model" || class_name == "Functional";
}

const json& model_entry(const json& topology, const std::string& where) {
  if (!topology.is_object())
    throw ModelError(where + ": layers models need modelTopology to be an object (a Keras " +
                     "model config), got " + std::string(topology.type_name()));
  if (auto it = topology.find("model_config"); it != topology.end() && it->is_object()) return *it;
  if (!topology.contains("class_name"))
    throw ModelError(where + ": modelTopology has neither class_name nor model_config");
  return topology;
}

ModelSpec parse_model(const json& entry, const std::string& where) {
  static const json kEmpty = json::object();
  ModelSpec spec;
  const std::string cls = entry.value("class_name", "");
  if (!is_model_class(cls))
    throw ModelError(where + ": model class " + quote(cls) +
                     " is not Sequential, Model or Functional");
  spec.sequential = cls == "Sequential";
  const json& config = entry.contains("config") ? entry["config"] : kEmpty;

  // Old Sequential configs are the list of layers itself.
  const json* layers = nullptr;
  if (config.is_array()) {
    layers = &config;
  } else if (config.is_object()) {
    spec.name = config.value("name", "");
    auto it = config.find("layers");
    if (it == config.end() || !it->is_array())
      throw ModelError(where + ": the model config has no layers list");
    layers = &*it;
  } else {
    throw ModelError(where + ": the model config is neither an object nor a list");
  }

  for (const auto& l : *layers) {
    if (!l.is_object()) throw ModelError(where + ": a layer entry is not an object");
    LayerSpec s;
    s.entry = &l;
    s.name = layer_name(l, where);
    s.class_name = l.value("class_name", "");
    if (s.class_name.empty())
      throw ModelError(where + ": layer " + quote(s.name) + " has no class_name");
    auto cfg = l.find("config");
    s.config = cfg != l.end() && (cfg->is_object() || cfg->is_array()) ? &*cfg : &kEmpty;
    if (!spec.sequential) {
      const std::string what = where + ": layer " + quote(s.name) + " inbound_nodes";
      if (auto in = l.find("inbound_nodes"); in != l.end() && !in->is_null()) {
        if (!in->is_array()) throw ModelError(what + " is not a list");
        for (const auto& node : *in) s.calls.push_back(read_call(node, what));
      }
    }
    for (const auto& other : spec.layers)
      if (other.name == s.name) throw ModelError(where + ": two layers are named " + quote(s.name));
    spec.layers.push_back(std::move(s));
  }
  if (spec.layers.empty()) throw ModelError(where + ": the model has no layers");

  if (!spec.sequential) {
    spec.inputs = read_endpoints(config, "input_layers", where);
    spec.outputs = read_endpoints(config, "output_layers", where);
    if (spec.inputs.empty() || spec.outputs.empty())
      throw ModelError(where + ": the functional model has no inputs or no outputs");
  }
  return spec;
}

}  // namespace tfjsi::graph::keras
