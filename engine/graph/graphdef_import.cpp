// GraphDef JSON to IR: nodes, attributes, references, Const values, endpoints (the way TF.js 4.22
// GraphModel derives inputNodes/outputNodes), library functions and the model initializer.
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <unordered_set>

#include "core/error.h"
#include "graph/attr_decode.h"
#include "graph/build.h"
#include "graph/input_name.h"

namespace tfjsi::graph {
namespace {

using nlohmann::json;

std::string quote(std::string_view s) {
  return "'" + std::string(s) + "'";
}

std::string node_label(std::string_view file, const Node& n) {
  return std::string(file) + ": node " + quote(n.name) + " (" + n.op + ")";
}

// JavaScript visits an object's integer-like keys ("0", "17") first, in numeric order, then the
// rest in insertion order. TF.js walks its node and signature maps that way, so we do too.
bool is_js_array_index(std::string_view s) {
  if (s.empty() || s.size() > 10) return false;
  if (s.size() > 1 && s[0] == '0') return false;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return v <= 4294967294ull;
}

std::vector<std::size_t> js_key_order(const std::vector<std::string>& keys) {
  std::vector<std::size_t> numeric, other;
  for (std::size_t i = 0; i < keys.size(); ++i)
    (is_js_array_index(keys[i]) ? numeric : other).push_back(i);
  std::stable_sort(numeric.begin(), numeric.end(), [&](std::size_t a, std::size_t b) {
    return std::stoull(keys[a]) < std::stoull(keys[b]);
  });
  numeric.insert(numeric.end(), other.begin(), other.end());
  return numeric;
}

std::string group_of(std::string_view name) {
  const auto slash = name.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(name.substr(0, slash));
}

const json& member_array(const json& obj, std::string_view key, std::string_view what) {
  static const json kEmpty = json::array();
  if (!obj.is_object()) return kEmpty;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return kEmpty;
  if (!it->is_array())
    throw ModelError(std::string(what) + ": '" + std::string(key) + "' is not an array");
  return *it;
}

std::string string_member(const json& obj, std::string_view key) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return {};
  if (!it->is_string()) throw ModelError("'" + std::string(key) + "' is not a string");
  return it->get<std::string>();
}

struct RawInputs {
  std::vector<detail::InputName> names;
  std::vector<std::string> texts;
};

// One NodeDef, attributes decoded; inputs are resolved once every node is known.
Node read_node(const json& j, std::string_view file, RawInputs& raw) {
  if (!j.is_object()) throw ModelError(std::string(file) + ": a node is not an object");
  Node n;
  try {
    n.name = string_member(j, "name");
    n.op = string_member(j, "op");
    n.device = string_member(j, "device");
  } catch (const ModelError& e) {
    throw ModelError(std::string(file) + ": node " + quote(n.name) + ": " + e.what());
  }
  if (n.name.empty()) throw ModelError(std::string(file) + ": a node has no name");
  if (n.op.empty()) throw ModelError(node_label(file, n) + ": the node has no op");
  n.group = group_of(n.name);

  for (const auto& in : member_array(j, "input", node_label(file, n))) {
    if (!in.is_string()) throw ModelError(node_label(file, n) + ": an input is not a string");
    const auto& text = in.get_ref<const std::string&>();
    try {
      raw.names.push_back(detail::parse_input_name(text));
    } catch (const ModelError& e) {
      throw ModelError(node_label(file, n) + ": " + e.what());
    }
    raw.texts.push_back(text);
  }

  if (auto it = j.find("attr"); it != j.end() && !it->is_null()) {
    if (!it->is_object()) throw ModelError(node_label(file, n) + ": 'attr' is not an object");
    for (const auto& [key, value] : it->items()) {
      // The converter moves a Const's data to the weights manifest and leaves dtype and shape
      // behind; decoding that would only make zeros. The weight is attached later.
      if (n.op == "Const" && key == "value" && value.is_object() && value.contains("tensor") &&
          !detail::tensor_has_content(value["tensor"]))
        continue;
      // The engine's own markers (fusion's "_tfjsi_activation", "_tfjsi_addend", the webgl
      // marks) mean what the engine decided; a file that carries them is not believed.
      if (key.starts_with("_tfjsi_")) continue;
      try {
        if (auto v = detail::decode_attr(value, key)) n.attrs.emplace(key, std::move(*v));
      } catch (const ModelError& e) {
        throw ModelError(node_label(file, n) + ": attribute " + quote(key) + ": " + e.what());
      }
    }
  }
  return n;
}

// Nodes of one GraphDef (or function body) with references resolved, in file order.
struct Imported {
  Graph graph;
  std::vector<bool> has_children;  // any node names it as a data or control input
  std::vector<int> placeholders;   // op starts with "Placeholder", file order
};

void add_nodes(Imported& im, const json& node_list, std::string_view file,
               std::vector<RawInputs>& raw) {
  for (const auto& j : node_list) {
    RawInputs r;
    im.graph.nodes.push_back(read_node(j, file, r));
    raw.push_back(std::move(r));
  }
}

void resolve(Imported& im, std::vector<RawInputs>& raw, std::string_view file, bool in_function) {
  Graph& g = im.graph;
  g.rebuild_index();
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.find(g.nodes[i].name) != static_cast<int>(i))
      throw ModelError(node_label(file, g.nodes[i]) + ": another node has the same name");
  }
  im.has_children.assign(g.nodes.size(), false);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    Node& n = g.nodes[i];
    if (n.op.starts_with("Placeholder")) im.placeholders.push_back(static_cast<int>(i));
    for (std::size_t k = 0; k < raw[i].names.size(); ++k) {
      const auto& in = raw[i].names[k];
      const int src = g.find(in.node);
      if (src < 0)
        throw ModelError(node_label(file, n) + ": input " + quote(raw[i].texts[k]) +
                         " names node " + quote(in.node) + ", which is not in the graph");
      im.has_children[static_cast<std::size_t>(src)] = true;
      if (in.control) {
        n.control_inputs.push_back(src);
        continue;
      }
      int output = in.output;
      if (!in.output_arg.empty()) {
        if (!in_function)
          throw ModelError(node_label(file, n) + ": input " + quote(raw[i].texts[k]) +
                           " uses the function-body form outside a function");
        output = detail::resolve_output_arg(g.nodes[static_cast<std::size_t>(src)].op,
                                            in.output_arg, in.output);
      }
      n.inputs.push_back(TensorRef{src, output});
    }
  }
}

void attach_const_values(Graph& g, const model::Bundle& bundle, std::string_view file) {
  for (Node& n : g.nodes) {
    if (n.op != "Const") continue;
    if (const model::Weight* w = bundle.find_weight(n.name)) {
      n.value = w->value;
      n.attrs.insert_or_assign("value", AttrValue(w->value));
    } else if (const auto* v = n.attr("value"); v && std::holds_alternative<HostTensor>(*v)) {
      n.value = std::get<HostTensor>(*v);
    } else {
      throw ModelError(node_label(file, n) +
                       ": the Const has no weight of that name in the weights manifest and no "
                       "value of its own");
    }
  }
}

void collect_const_names(const Graph& g, std::unordered_set<std::string>& names) {
  for (const Node& n : g.nodes)
    if (n.op == "Const") names.insert(n.name);
  for (const Node& n : g.initializer)
    if (n.op == "Const") names.insert(n.name);
  for (const auto& [name, body] : g.functions) collect_const_names(*body, names);
}

// A manifest weight that no Const node takes means the topology and the weights do not belong
// together (a model.json paired with another model's shards, or an edited one): refuse it rather
// than run a model whose weights may be misplaced.
void check_every_weight_used(const Graph& g, const model::Bundle& bundle, std::string_view file) {
  std::unordered_set<std::string> names;
  collect_const_names(g, names);
  for (const auto& w : bundle.weights)
    if (!names.count(w.name))
      throw ModelError(std::string(file) + ": weight " + quote(w.name) +
                       " of the weights manifest is used by no node of the graph (no Const node "
                       "of that name)");
}

PartialShape merge_dims(const PartialShape& primary, const PartialShape& extra) {
  if (!primary.rank_known) return extra;
  if (!extra.rank_known || extra.dims.size() != primary.dims.size()) return primary;
  PartialShape out = primary;
  for (std::size_t i = 0; i < out.dims.size(); ++i)
    if (out.dims[i] < 0) out.dims[i] = extra.dims[i];
  return out;
}

// A signature entry's TensorInfo: {name, dtype, tensorShape}.
struct SignatureEntry {
  std::string key, tensor;
  std::optional<DType> dtype;
  PartialShape shape;
};

// nlohmann::json keeps object keys sorted, but TF.js walks a signature in the file's order, which
// the loader noted (Bundle::signature_order); `written` is empty when it is not known.
std::vector<SignatureEntry> read_signature_side(const json& sig, std::string_view side,
                                                const std::vector<std::string>& written,
                                                std::string_view file) {
  std::vector<SignatureEntry> out;
  if (!sig.is_object()) return out;
  auto it = sig.find(side);
  if (it == sig.end() || it->is_null()) return out;
  if (!it->is_object())
    throw ModelError(std::string(file) + ": signature " + std::string(side) + " is not an object");
  std::vector<std::string> keys;
  for (const auto& [key, value] : it->items()) keys.push_back(key);
  if (written.size() == keys.size() &&
      std::all_of(written.begin(), written.end(), [&](const auto& k) { return it->contains(k); }))
    keys = written;
  for (std::size_t idx : js_key_order(keys)) {
    const json& info = (*it)[keys[idx]];
    SignatureEntry e;
    e.key = keys[idx];
    try {
      if (!info.is_object()) throw ModelError("is not an object");
      e.tensor = string_member(info, "name");
      if (auto d = info.find("dtype"); d != info.end() && !d->is_null())
        e.dtype = dtype_from_tf(detail::json_tf_type(*d));
      if (auto s = info.find("tensorShape"); s != info.end() && !s->is_null())
        e.shape = detail::decode_shape(*s);
    } catch (const ModelError& err) {
      throw ModelError(std::string(file) + ": signature " + std::string(side) + " " + quote(e.key) +
                       ": " + err.what());
    }
    out.push_back(std::move(e));
  }
  return out;
}

// TF.js maps tensor name -> signature key (a later key for the same tensor wins, in the place of
// the first) and walks that map in JS key order.
std::vector<std::pair<std::string, const SignatureEntry*>> by_tensor_name(
    const std::vector<SignatureEntry>& entries) {
  std::vector<std::string> names;
  std::vector<const SignatureEntry*> chosen;
  for (const auto& e : entries) {
    auto it = std::find(names.begin(), names.end(), e.tensor);
    if (it == names.end()) {
      names.push_back(e.tensor);
      chosen.push_back(&e);
    } else {
      chosen[static_cast<std::size_t>(it - names.begin())] = &e;
    }
  }
  std::vector<std::pair<std::string, const SignatureEntry*>> out;
  for (std::size_t i : js_key_order(names)) out.emplace_back(names[i], chosen[i]);
  return out;
}

std::pair<std::string, int> split_tensor_name(std::string_view tensor) {
  const auto colon = tensor.rfind(':');
  if (colon != std::string_view::npos) {
    int idx = 0;
    auto digits = tensor.substr(colon + 1);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), idx);
    if (ec == std::errc() && end == digits.data() + digits.size() && !digits.empty() && idx >= 0 &&
        idx <= 65535)
      return {std::string(tensor.substr(0, colon)), idx};
  }
  return {std::string(tensor), 0};
}

Endpoint input_endpoint(const Graph& g, int node, int output, std::string name,
                        const SignatureEntry* sig) {
  const Node& n = g.nodes[static_cast<std::size_t>(node)];
  Endpoint e{std::move(name), TensorRef{node, output}, std::nullopt, PartialShape::unknown()};
  if (const auto* t = n.attr("dtype"); t && std::holds_alternative<TypeAttr>(*t))
    e.dtype = std::get<TypeAttr>(*t).dtype();
  if (const auto* s = n.attr("shape"); s && std::holds_alternative<PartialShape>(*s))
    e.shape = std::get<PartialShape>(*s);
  if (sig) {
    if (!e.dtype) e.dtype = sig->dtype;
    e.shape = merge_dims(e.shape, sig->shape);
  }
  return e;
}

// TF.js: model.inputNodes / model.outputNodes, in their order.
void derive_endpoints(Imported& im, const json& signature, const model::Bundle::KeyOrder& written,
                      std::string_view file) {
  Graph& g = im.graph;
  const auto sig_inputs = read_signature_side(signature, "inputs", written.inputs, file);
  const auto sig_outputs = read_signature_side(signature, "outputs", written.outputs, file);

  const auto in_map = by_tensor_name(sig_inputs);
  if (!in_map.empty()) {
    // A node named by several entries keeps the last key TF.js assigned to it.
    std::map<int, const SignatureEntry*> key_of;
    std::vector<int> order;
    for (const auto& [tensor, entry] : in_map) {
      const int node = g.find(split_tensor_name(tensor).first);
      if (node < 0) continue;  // TF.js drops entries naming no node
      key_of[node] = entry;
      order.push_back(node);
    }
    for (int node : order) {
      const SignatureEntry* entry = key_of[node];
      const int output = split_tensor_name(entry->tensor).second;
      g.inputs.push_back(input_endpoint(g, node, output, entry->key, entry));
    }
  } else {
    for (int node : im.placeholders)
      g.inputs.push_back(
          input_endpoint(g, node, 0, g.nodes[static_cast<std::size_t>(node)].name, nullptr));
  }

  const auto out_map = by_tensor_name(sig_outputs);
  if (!out_map.empty()) {
    std::map<int, const SignatureEntry*> key_of;
    std::vector<int> order;
    for (const auto& [tensor, entry] : out_map) {
      const int node = g.find(split_tensor_name(tensor).first);
      if (node < 0) continue;
      key_of[node] = entry;
      order.push_back(node);
    }
    for (int node : order) {
      // TF.js runs an output by its key, which it maps back to that key's tensor.
      const SignatureEntry* entry = key_of[node];
      const int output = split_tensor_name(entry->tensor).second;
      g.outputs.push_back(
          Endpoint{entry->key, TensorRef{node, output}, entry->dtype, entry->shape});
    }
  } else {
    std::vector<std::string> names;
    for (const auto& n : g.nodes) names.push_back(n.name);
    for (std::size_t i : js_key_order(names)) {
      if (im.has_children[i]) continue;
      g.outputs.push_back(
          Endpoint{g.nodes[i].name, TensorRef{static_cast<int>(i), 0}, std::nullopt, {}});
    }
  }
}

std::shared_ptr<const Graph> import_function(const json& fn, const model::Bundle& bundle,
                                             std::string_view file, std::string& name_out) {
  if (!fn.is_object())
    throw ModelError(std::string(file) + ": a library function is not an object");
  const json sig = fn.value("signature", json::object());
  if (!sig.is_object())
    throw ModelError(std::string(file) + ": a function signature is not an object");
  name_out = sig.contains("name") && sig["name"].is_string() ? sig["name"].get<std::string>() : "";
  if (name_out.empty()) throw ModelError(std::string(file) + ": a library function has no name");
  const std::string where = std::string(file) + ": function " + quote(name_out);

  Imported im;
  std::vector<RawInputs> raw;
  // Arguments become Placeholders, as TF.js's mapFunction makes them.
  std::vector<std::pair<std::string, std::optional<DType>>> args;
  for (const auto& arg : member_array(sig, "inputArg", where)) {
    if (!arg.is_object() || !arg.contains("name") || !arg["name"].is_string())
      throw ModelError(where + ": an input argument has no name");
    Node n;
    n.name = arg["name"].get<std::string>();
    n.op = "Placeholder";
    if (auto t = arg.find("type"); t != arg.end() && !t->is_null()) {
      try {
        n.attrs.emplace("dtype", AttrValue(TypeAttr{detail::json_tf_type(*t)}));
      } catch (const ModelError& e) {
        throw ModelError(where + ": argument " + quote(n.name) + ": " + e.what());
      }
    }
    im.graph.nodes.push_back(std::move(n));
    raw.emplace_back();
  }
  const std::size_t num_args = im.graph.nodes.size();
  add_nodes(im, member_array(fn, "nodeDef", where), where, raw);
  resolve(im, raw, where, /*in_function=*/true);
  attach_const_values(im.graph, bundle, where);

  Graph& g = im.graph;
  for (std::size_t i = 0; i < num_args; ++i)
    g.inputs.push_back(input_endpoint(g, static_cast<int>(i), 0, g.nodes[i].name, nullptr));
  const json ret = fn.value("ret", json::object());
  for (const auto& arg : member_array(sig, "outputArg", where)) {
    if (!arg.is_object() || !arg.contains("name") || !arg["name"].is_string())
      throw ModelError(where + ": an output argument has no name");
    const auto out_name = arg["name"].get<std::string>();
    if (!ret.is_object() || !ret.contains(out_name) || !ret[out_name].is_string())
      throw ModelError(where + ": output " + quote(out_name) + " has no 'ret' entry");
    const auto text = ret[out_name].get<std::string>();
    detail::InputName in;
    try {
      in = detail::parse_input_name(text);
    } catch (const ModelError& e) {
      throw ModelError(where + ": output " + quote(out_name) + ": " + e.what());
    }
    const int node = g.find(in.node);
    if (node < 0 || in.control)
      throw ModelError(where + ": output " + quote(out_name) + " names " + quote(text) +
                       ", which is not a node of the function");
    const int output = in.output_arg.empty()
                           ? in.output
                           : detail::resolve_output_arg(g.nodes[static_cast<std::size_t>(node)].op,
                                                        in.output_arg, in.output);
    std::optional<DType> dtype;
    if (auto t = arg.find("type"); t != arg.end() && !t->is_null())
      dtype = dtype_from_tf(detail::json_tf_type(*t));
    g.outputs.push_back(Endpoint{out_name, TensorRef{node, output}, dtype, {}});
  }
  return std::make_shared<const Graph>(std::move(g));
}

std::string file_label(const model::Bundle& bundle) {
  return bundle.model_json.empty() ? std::string("model.json") : bundle.model_json.string();
}

}  // namespace

Graph import_graphdef(const model::Bundle& bundle) {
  const std::string file = file_label(bundle);
  const json& topo = bundle.topology;
  if (!topo.is_object()) throw ModelError(file + ": modelTopology is not a GraphDef object");

  Imported im;
  std::vector<RawInputs> raw;
  add_nodes(im, member_array(topo, "node", file + ": modelTopology"), file, raw);
  resolve(im, raw, file, /*in_function=*/false);
  attach_const_values(im.graph, bundle, file);

  // The loader chose the signature (userDefinedMetadata's over the top-level one, as TF.js).
  derive_endpoints(im, bundle.signature, bundle.signature_order, file);

  if (auto lib = topo.find("library"); lib != topo.end() && lib->is_object()) {
    for (const auto& fn : member_array(*lib, "function", file + ": library")) {
      std::string name;
      auto body = import_function(fn, bundle, file, name);
      im.graph.functions.insert_or_assign(name, std::move(body));
    }
  }

  if (bundle.initializer.is_object()) {
    Imported init;
    std::vector<RawInputs> init_raw;
    const std::string where = file + ": modelInitializer";
    add_nodes(init, member_array(bundle.initializer, "node", where), where, init_raw);
    resolve(init, init_raw, where, /*in_function=*/false);
    attach_const_values(init.graph, bundle, where);
    sort_topologically(init.graph);
    im.graph.initializer = std::move(init.graph.nodes);
  }
  check_every_weight_used(im.graph, bundle, file);
  return std::move(im.graph);
}

}  // namespace tfjsi::graph
