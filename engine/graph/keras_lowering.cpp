// Keras layers models (as tfjs-layers saves them) lowered to the graph IR: the model walker.
// Sequential models chain their layers; functional models call each layer on the tensors its
// inbound nodes name, in the order tfjs-layers' fromConfig does (a call waits until its inputs
// exist); nested models are inlined with their name as a path prefix. Each layer's own math lives
// in graph/keras/*_layers.cpp, found through the table in layer_table.cpp.
#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <tuple>

#include "core/error.h"
#include "graph/build.h"
#include "graph/keras/keras_config.h"
#include "graph/keras/layers.h"
#include "model/limits.h"

using nlohmann::json;

namespace tfjsi::graph {

namespace {

using keras::GraphWriter;
using keras::LayerSpec;
using keras::ModelSpec;
using keras::Outputs;
using keras::TensorKey;

std::string quote(std::string_view s) {
  return "'" + std::string(s) + "'";
}

// Classes that pass their input's mask through unchanged (Keras supports_masking); recurrent
// layers set their own output mask.
bool passes_mask(std::string_view cls) {
  static constexpr std::string_view kClasses[] = {"Dropout",
                                                  "SpatialDropout1D",
                                                  "GaussianNoise",
                                                  "GaussianDropout",
                                                  "AlphaDropout",
                                                  "ActivityRegularization",
                                                  "Activation",
                                                  "ReLU",
                                                  "LeakyReLU",
                                                  "PReLU",
                                                  "ELU",
                                                  "ThresholdedReLU",
                                                  "Softmax",
                                                  "BatchNormalization",
                                                  "LayerNormalization",
                                                  "Dense"};
  return std::find(std::begin(kClasses), std::end(kClasses), cls) != std::end(kClasses);
}

class Walker {
 public:
  explicit Walker(GraphWriter& w) : w_(w) {}

  // Lowers a model. `inputs` is null for the top-level model (its InputLayers become
  // Placeholders, recorded in `placeholders`); a nested model gets its call's inputs.
  Outputs lower_model(const ModelSpec& spec, const std::string& prefix,
                      const std::vector<TensorRef>* inputs, std::vector<Endpoint>* placeholders) {
    return spec.sequential ? lower_sequential(spec, prefix, inputs, placeholders)
                           : lower_functional(spec, prefix, inputs, placeholders);
  }

 private:
  std::string where(const std::string& path) const { return w_.file() + ": layer " + quote(path); }

  [[noreturn]] void fail_layer(const std::string& path, const std::string& cls,
                               const std::string& what) const {
    throw ModelError(where(path) + " (" + cls + "): " + what);
  }

  static std::optional<DType> parse_dtype(const json& j) {
    if (j.is_string()) return dtype_from_string(j.get<std::string>());
    // Keras 3 writes a dtype policy object.
    if (j.is_object() && j.contains("config") && j["config"].is_object() &&
        j["config"].contains("name") && j["config"]["name"].is_string())
      return dtype_from_string(j["config"]["name"].get<std::string>());
    return std::nullopt;
  }

  // The input shape a layer config declares (InputLayer, or the first layer of a Sequential).
  std::optional<PartialShape> declared_shape(const json& config, const std::string& path,
                                             const std::string& cls) const {
    auto dims_of = [&](const json& list, bool prepend_batch, std::int64_t batch) {
      if (!list.is_array()) fail_layer(path, cls, "the input shape is not a list: " + list.dump());
      std::vector<std::int64_t> dims;
      if (prepend_batch) dims.push_back(batch);
      for (const auto& d : list) {
        if (d.is_null()) {
          dims.push_back(-1);
        } else if (d.is_number_integer() && d.get<std::int64_t>() >= 0) {
          dims.push_back(d.get<std::int64_t>());
        } else {
          fail_layer(path, cls, "the input shape holds " + d.dump() + ", expected a size or null");
        }
      }
      return PartialShape::of(std::move(dims));
    };
    if (!config.is_object()) return std::nullopt;
    for (const char* key : {"batch_input_shape", "batch_shape"})
      if (auto it = config.find(key); it != config.end() && !it->is_null())
        return dims_of(*it, false, -1);
    if (auto it = config.find("input_shape"); it != config.end() && !it->is_null()) {
      std::int64_t batch = -1;
      if (auto b = config.find("batch_size"); b != config.end() && b->is_number_integer())
        batch = b->get<std::int64_t>();
      return dims_of(*it, true, batch);
    }
    if (auto it = config.find("input_dim"); it != config.end() && it->is_number_integer())
      return PartialShape::of({-1, it->get<std::int64_t>()});
    return std::nullopt;
  }

  TensorRef make_placeholder(const std::string& name, const json& config, const std::string& path,
                             const std::string& cls, std::vector<Endpoint>& endpoints) {
    const auto shape = declared_shape(config, path, cls);
    if (!shape) fail_layer(path, cls, "declares no input shape (batch_input_shape)");
    DType dtype = DType::Float32;
    if (config.is_object() && config.contains("dtype") && !config["dtype"].is_null()) {
      const auto d = parse_dtype(config["dtype"]);
      if (!d || *d == DType::String || *d == DType::Complex64)
        fail_layer(path, cls, "input dtype " + config["dtype"].dump() + " is not supported");
      dtype = *d;
    }
    Node n;
    n.name = name;
    n.op = "Placeholder";
    n.group = name;
    n.attrs.emplace("dtype", keras::tf_type(dtype));
    n.attrs.emplace("shape", *shape);
    if (w_.name_taken(name)) fail_layer(path, cls, "its name is used twice");
    const TensorRef ref{w_.add(std::move(n)), 0};
    endpoints.push_back(Endpoint{name, ref, dtype, *shape});
    return ref;
  }

  // One call of one layer (a nested model or a lowered layer).
  Outputs call_layer(const LayerSpec& spec, const std::string& prefix,
                     const std::vector<TensorRef>& inputs) {
    const std::string path = prefix + spec.name;
    if (keras::is_model_class(spec.class_name)) {
      // Each nested model is a recursion here; bound it before the stack is.
      struct Leave {
        int& depth;
        ~Leave() { --depth; }
      } leave{++nesting_};
      if (nesting_ > model::kMaxModelNesting)
        fail_layer(path, spec.class_name,
                   "models nested more than " + std::to_string(model::kMaxModelNesting) +
                       " deep (limit kMaxModelNesting)");
      const ModelSpec inner = keras::parse_model(*spec.entry, where(path));
      return lower_model(inner, path + "/", &inputs, nullptr);
    }
    if (spec.class_name == "InputLayer") fail_layer(path, spec.class_name, "is called on inputs");
    const keras::LowerFn fn = keras::find_lowering(spec.class_name);
    if (!fn)
      fail_layer(path, spec.class_name,
                 "layer class " + quote(spec.class_name) + " is not supported");
    keras::Layer layer(w_, path, spec.name, spec.class_name, *spec.config);
    const std::size_t start = w_.graph().nodes.size();
    Outputs outs = fn(layer, inputs);
    for (auto& o : outs) {
      // Every layer owns the nodes of its outputs, even when its math is the identity.
      if (o.node < static_cast<int>(start)) o = layer.add("Identity", {o}, keras::t_attr());
    }
    // Layers that keep the time axis hand a mask on to the layers after them.
    if (inputs.size() == 1 && outs.size() == 1 && passes_mask(spec.class_name))
      if (auto mask = w_.mask_of(inputs[0]); mask && !w_.mask_of(outs[0]))
        w_.set_mask(outs[0], *mask);
    // The layer's single output node takes the layer's own name, so a user can address it so.
    if (outs.size() == 1 && outs[0].output == 0 && !w_.name_taken(path)) {
      const Node& n = w_.graph().nodes[static_cast<std::size_t>(outs[0].node)];
      if (n.op != "Const") w_.rename(outs[0].node, path);
    }
    return outs;
  }

  Outputs lower_sequential(const ModelSpec& spec, const std::string& prefix,
                           const std::vector<TensorRef>* inputs,
                           std::vector<Endpoint>* placeholders) {
    std::size_t first = 0;
    TensorRef x;
    if (inputs) {
      if (inputs->size() != 1)
        throw ModelError(w_.file() + ": Sequential model " + quote(prefix + spec.name) +
                         " is called on " + std::to_string(inputs->size()) + " inputs");
      x = (*inputs)[0];
      if (spec.layers[0].class_name == "InputLayer") first = 1;
    } else {
      const LayerSpec& l0 = spec.layers[0];
      if (l0.class_name == "InputLayer") {
        x = make_placeholder(l0.name, *l0.config, l0.name, l0.class_name, *placeholders);
        first = 1;
      } else {
        // tfjs-layers names a Sequential's implicit input "<first layer>_input".
        x = make_placeholder(l0.name + "_input", *l0.config, l0.name, l0.class_name, *placeholders);
      }
    }
    if (first >= spec.layers.size())
      throw ModelError(w_.file() + ": Sequential model " + quote(prefix + spec.name) +
                       " has no layers after its input");
    for (std::size_t i = first; i < spec.layers.size(); ++i) {
      const LayerSpec& l = spec.layers[i];
      if (l.class_name == "InputLayer")
        fail_layer(prefix + l.name, l.class_name, "an InputLayer inside a Sequential model");
      const Outputs outs = call_layer(l, prefix, {x});
      if (outs.size() != 1)
        fail_layer(prefix + l.name, l.class_name,
                   "gives " + std::to_string(outs.size()) + " outputs inside a Sequential model");
      x = outs[0];
    }
    last_names_ = {spec.layers.back().name};
    return {x};
  }

  Outputs lower_functional(const ModelSpec& spec, const std::string& prefix,
                           const std::vector<TensorRef>* inputs,
                           std::vector<Endpoint>* placeholders) {
    using Key = std::tuple<std::string, int, int>;
    std::map<Key, TensorRef> tensors;
    std::map<std::string, const LayerSpec*> by_name;
    for (const auto& l : spec.layers) by_name[l.name] = &l;

    if (inputs && inputs->size() != spec.inputs.size())
      throw ModelError(w_.file() + ": model " + quote(prefix + spec.name) + " takes " +
                       std::to_string(spec.inputs.size()) + " inputs but is called on " +
                       std::to_string(inputs->size()));
    for (std::size_t i = 0; i < spec.inputs.size(); ++i) {
      const TensorKey& k = spec.inputs[i];
      auto it = by_name.find(k.layer);
      if (it == by_name.end())
        throw ModelError(w_.file() + ": model " + quote(prefix + spec.name) + " input " +
                         quote(k.layer) + " is not one of its layers");
      const LayerSpec& l = *it->second;
      if (l.class_name != "InputLayer")
        fail_layer(prefix + l.name, l.class_name,
                   "is listed as a model input but is no InputLayer");
      tensors[{k.layer, k.node, k.tensor}] =
          inputs ? (*inputs)[i]
                 : make_placeholder(l.name, *l.config, l.name, l.class_name, *placeholders);
    }

    // Calls wait until every tensor they take exists; node indices count calls as they are made
    // (a nested model's first call is its node 1: node 0 is its own inner one).
    struct Pending {
      const LayerSpec* layer;
      std::size_t call;
    };
    std::vector<Pending> pending;
    std::map<std::string, int> made;
    for (const auto& l : spec.layers) {
      if (l.class_name == "InputLayer") continue;
      for (std::size_t c = 0; c < l.calls.size(); ++c) pending.push_back({&l, c});
    }
    auto resolve = [&](const TensorKey& k) -> std::optional<TensorRef> {
      auto it = tensors.find({k.layer, k.node, k.tensor});
      if (it == tensors.end()) return std::nullopt;
      return it->second;
    };
    while (!pending.empty()) {
      std::vector<Pending> waiting;
      bool progress = false;
      for (const Pending& p : pending) {
        const auto& call = p.layer->calls[p.call];
        std::vector<TensorRef> in;
        bool ready = true;
        for (const auto& k : call.inputs) {
          auto r = resolve(k);
          if (!r) {
            ready = false;
            break;
          }
          in.push_back(*r);
        }
        if (!ready) {
          waiting.push_back(p);
          continue;
        }
        const Outputs outs = call_layer(*p.layer, prefix, in);
        const int base = keras::is_model_class(p.layer->class_name) ? 1 : 0;
        const int node = base + made[p.layer->name]++;
        for (std::size_t t = 0; t < outs.size(); ++t)
          tensors[{p.layer->name, node, static_cast<int>(t)}] = outs[t];
        progress = true;
      }
      if (!progress) {
        // Say which reference can never be satisfied.
        const Pending& p = waiting.front();
        for (const auto& k : p.layer->calls[p.call].inputs) {
          if (resolve(k)) continue;
          if (!by_name.count(k.layer))
            fail_layer(
                prefix + p.layer->name, p.layer->class_name,
                "inbound node names layer " + quote(k.layer) + ", which is not in the model");
          fail_layer(prefix + p.layer->name, p.layer->class_name,
                     "inbound node names output " + std::to_string(k.tensor) + " of call " +
                         std::to_string(k.node) + " of layer " + quote(k.layer) +
                         ", which is never made (a cycle or a bad index)");
        }
        fail_layer(prefix + p.layer->name, p.layer->class_name, "its inputs are never made");
      }
      pending = std::move(waiting);
    }

    Outputs outs;
    last_names_.clear();
    for (const TensorKey& k : spec.outputs) {
      auto r = resolve(k);
      if (!r)
        throw ModelError(w_.file() + ": model " + quote(prefix + spec.name) + " output " +
                         quote(k.layer) + " (call " + std::to_string(k.node) + ", output " +
                         std::to_string(k.tensor) + ") is never made" +
                         (by_name.count(k.layer) ? "" : ": no such layer"));
      outs.push_back(*r);
      last_names_.push_back(k.layer);
    }
    return outs;
  }

 public:
  // The layer names of the outputs of the model lowered last (endpoint names).
  std::vector<std::string> last_names_;

 private:
  GraphWriter& w_;
  int nesting_ = 0;  // nested models being lowered
};

// The whole lowering; lower_keras only adds a safety net around it.
Graph lower(const model::Bundle& bundle) {
  GraphWriter writer(bundle);
  const json& entry = keras::model_entry(bundle.topology, writer.file());
  const ModelSpec spec = keras::parse_model(entry, writer.file());

  Walker walker(writer);
  std::vector<Endpoint> inputs;
  const Outputs outs = walker.lower_model(spec, "", nullptr, &inputs);
  std::vector<std::string> names = walker.last_names_;

  std::vector<Endpoint> outputs;
  std::map<std::string, int> seen;
  for (std::size_t i = 0; i < outs.size(); ++i) {
    std::string name = names[i];
    // TF.js names outputs by layer; a layer giving several outputs gets them numbered.
    if (const int n = seen[name]++; n > 0) name += "_" + std::to_string(n);
    const TensorInfo& info = writer.info(outs[i]);
    outputs.push_back(Endpoint{name, outs[i], info.dtype, info.shape});
  }
  Graph graph = std::move(writer.graph());
  graph.inputs = std::move(inputs);
  graph.outputs = std::move(outputs);
  graph.rebuild_index();
  return graph;
}

}  // namespace

Graph lower_keras(const model::Bundle& bundle) {
  try {
    return lower(bundle);
  } catch (const nlohmann::json::exception& e) {
    // A config member of a JSON type no reader checked by hand.
    throw ModelError(
        (bundle.model_json.empty() ? std::string("model.json") : bundle.model_json.string()) +
        ": malformed Keras model config: " + e.what());
  }
}

}  // namespace tfjsi::graph
