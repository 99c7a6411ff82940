#include "analysis/reduce_subgraph.h"

#include <cstring>
#include <map>
#include <set>
#include <unordered_set>

#include "core/error.h"
#include "graph/build.h"
#include "graph/graphdef_export.h"
#include "graph/webgl_mark.h"
#include "model/bundle_writer.h"

namespace tfjsi::analysis {
namespace {

using nlohmann::ordered_json;

bool uses_functions(const graph::Node& n) {
  for (const auto& [key, v] : n.attrs)
    if (std::holds_alternative<graph::FuncAttr>(v) ||
        std::holds_alternative<std::vector<graph::FuncAttr>>(v))
      return true;
  return false;
}

void collect_function_consts(const graph::Graph& g, std::vector<const graph::Node*>& out) {
  for (const auto& [name, body] : g.functions) {
    if (!body) continue;
    for (const auto& n : body->nodes)
      if (n.op == "Const") out.push_back(&n);
    collect_function_consts(*body, out);
  }
}

// The bytes TF.js reads for a weight written unquantized: the values, little endian; strings
// as a 4-byte length and the bytes, one after the other.
std::vector<std::byte> raw_bytes(const HostTensor& t) {
  std::vector<std::byte> out;
  if (t.dtype == DType::String) {
    for (const auto& s : *t.strings) {
      const auto n = static_cast<std::uint32_t>(s.size());
      for (int k = 0; k < 4; ++k) out.push_back(static_cast<std::byte>((n >> (8 * k)) & 0xff));
      for (char c : s) out.push_back(static_cast<std::byte>(c));
    }
    return out;
  }
  out.resize(t.byte_size());
  if (!out.empty()) std::memcpy(out.data(), t.buffer->data(), out.size());
  return out;
}

}  // namespace

runtime::NamedTensors Subgraph::feeds() const {
  runtime::NamedTensors f;
  for (const auto& in : inputs) f.emplace(in.name, in.value);
  return f;
}

graph::Graph Subgraph::build() const {
  model::Bundle b;
  b.model_json = "reduced model.json";
  b.kind = model::ModelKind::Graph;
  b.format = "graph-model";
  b.topology = nlohmann::json(model_json.at("modelTopology"));
  for (const auto& w : weights) {
    model::Weight mw;
    mw.name = w.name;
    mw.shape = w.value.shape;
    mw.dtype = w.value.dtype;
    mw.value = w.value;
    b.weights.push_back(std::move(mw));
  }
  return graph::build_graph(b);
}

SubgraphMaker::SubgraphMaker(const model::Bundle& bundle, const graph::Graph& graph)
    : bundle_(bundle), graph_(graph), model_json_(model::read_model_json_ordered(bundle)) {
  if (bundle.kind != model::ModelKind::Graph) return;
  const auto topo = model_json_.find("modelTopology");
  if (topo == model_json_.end() || !topo->is_object()) return;
  const auto nodes = topo->find("node");
  if (nodes == topo->end() || !nodes->is_array()) return;
  for (const auto& n : *nodes)
    if (n.is_object() && n.contains("name") && n["name"].is_string())
      node_json_.emplace(n["name"].get<std::string>(), &n);
}

const model::Weight* SubgraphMaker::stored_weight(const graph::Node& n) const {
  const model::Weight* w = bundle_.find_weight(n.name);
  if (!w || !n.value || w->shape != n.value->shape || w->dtype != n.value->dtype) return nullptr;
  return w;
}

ordered_json SubgraphMaker::node_json(const graph::Node& n) const {
  if (auto it = node_json_.find(n.name); it != node_json_.end()) return *it->second;
  // A lowered node (layers models): written from the IR.
  ordered_json j = {{"name", n.name}, {"op", n.op}};
  ordered_json attrs = ordered_json::object();
  if (n.op == "Const" && n.value) {
    // The data goes to the weights manifest, as the converter writes a Const.
    const std::string type(tfjsi::tf_name(n.value->dtype));
    attrs["dtype"] = {{"type", type}};
    attrs["value"] = {
        {"tensor",
         {{"dtype", type}, {"tensorShape", graph::shape_to_json({true, n.value->shape})}}}};
  } else {
    for (const auto& [key, v] : n.attrs)
      // A graph model runs each node as its own kernel in TF.js: the lowering's mark is not true
      // of the repro.
      if (key != graph::kWebglInKernel) attrs[key] = graph::attr_to_json(v);
  }
  if (!attrs.empty()) j["attr"] = attrs;
  return j;
}

Subgraph SubgraphMaker::make(const std::vector<int>& keep, const RecordedValues& values) const {
  const auto& nodes = graph_.nodes;
  std::vector<char> kept(nodes.size(), 0), consts(nodes.size(), 0);
  for (int i : keep) kept[static_cast<std::size_t>(i)] = 1;
  bool functions = false;
  for (int i : keep) {
    const auto& n = nodes[static_cast<std::size_t>(i)];
    functions = functions || uses_functions(n);
    for (const auto& in : n.inputs)
      if (nodes[static_cast<std::size_t>(in.node)].op == "Const")
        consts[static_cast<std::size_t>(in.node)] = 1;
  }
  const auto in_subgraph = [&](int i) {
    return kept[static_cast<std::size_t>(i)] || consts[static_cast<std::size_t>(i)];
  };

  Subgraph s;
  // Cut-in tensors, by (node, output), become Placeholders named after what they replace.
  std::map<std::pair<int, int>, std::string> cut_names;
  std::set<std::string> taken;
  ordered_json placeholders = ordered_json::array(), body = ordered_json::array();
  const auto cut_in = [&](const graph::TensorRef& ref) -> const std::string& {
    auto it = cut_names.find({ref.node, ref.output});
    if (it != cut_names.end()) return it->second;
    const auto& src = nodes[static_cast<std::size_t>(ref.node)];
    const auto& v = values[static_cast<std::size_t>(ref.node)];
    if (static_cast<std::size_t>(ref.output) >= v.size() || !v[ref.output])
      throw ModelError("no value was recorded for tensor '" +
                       graph::tensor_name(src.name, ref.output) + "' (" + src.op +
                       ") to feed the reduced model with");
    std::string name = ref.output == 0 ? src.name : src.name + "_" + std::to_string(ref.output);
    while (ref.output != 0 && (graph_.find(name) >= 0 || taken.count(name))) name += "_";
    taken.insert(name);
    const HostTensor& value = *v[ref.output];
    placeholders.push_back({{"name", name},
                            {"op", "Placeholder"},
                            {"attr",
                             {{"dtype", {{"type", std::string(tfjsi::tf_name(value.dtype))}}},
                              {"shape", {{"shape", graph::shape_to_json({true, value.shape})}}}}}});
    s.inputs.push_back({name, value});
    return cut_names.emplace(std::make_pair(ref.node, ref.output), name).first->second;
  };

  const auto rewire = [&](const graph::Node& n, ordered_json j) {
    ordered_json ins = ordered_json::array();
    for (const auto& in : n.inputs)
      ins.push_back(
          in_subgraph(in.node)
              ? graph::tensor_name(nodes[static_cast<std::size_t>(in.node)].name, in.output)
              : cut_in(in));
    // Control edges to nodes left out go: what they ordered is not in the model any more.
    for (int c : n.control_inputs)
      if (in_subgraph(c)) ins.push_back("^" + nodes[static_cast<std::size_t>(c)].name);
    if (ins.empty())
      j.erase("input");
    else
      j["input"] = ins;
    return j;
  };

  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (!consts[i]) continue;
    body.push_back(rewire(nodes[i], node_json(nodes[i])));
    if (!nodes[i].value) continue;
    if (const model::Weight* w = stored_weight(nodes[i]))
      s.weights.push_back({nodes[i].name, w, w->value});
    else if (!node_json_.count(nodes[i].name))  // a lowered Const: its value becomes a weight
      s.weights.push_back({nodes[i].name, nullptr, *nodes[i].value});
  }
  for (int i : keep)
    body.push_back(
        rewire(nodes[static_cast<std::size_t>(i)], node_json(nodes[static_cast<std::size_t>(i)])));

  ordered_json topo = ordered_json::object();
  for (auto& p : placeholders) topo["node"].push_back(std::move(p));
  for (auto& n : body) topo["node"].push_back(std::move(n));
  s.nodes = static_cast<int>(topo["node"].size());
  const auto src_topo = model_json_.find("modelTopology");
  if (functions && src_topo != model_json_.end() && src_topo->contains("library")) {
    topo["library"] = (*src_topo)["library"];
    std::vector<const graph::Node*> fconsts;
    collect_function_consts(graph_, fconsts);
    std::unordered_set<std::string> seen;
    for (const auto* n : fconsts)
      if (const model::Weight* w = bundle_.find_weight(n->name); w && seen.insert(n->name).second)
        s.weights.push_back({n->name, w, w->value});
  }
  // TF.js reads versions.producer of every graph model.
  if (src_topo != model_json_.end() && src_topo->contains("versions"))
    topo["versions"] = (*src_topo)["versions"];
  else
    topo["versions"] = ordered_json::object();

  s.model_json = {
      {"format", "graph-model"},
      {"generatedBy", bundle_.generated_by.empty() ? "tfjsi reduce" : bundle_.generated_by},
      {"convertedBy", "tfjsi reduce"},
      {"modelTopology", std::move(topo)}};
  return s;
}

std::uint64_t SubgraphMaker::write(const Subgraph& s, const std::filesystem::path& dir) const {
  std::vector<model::WeightRecord> group;
  for (const auto& w : s.weights) {
    model::WeightRecord r;
    if (w.stored) {
      const auto* entry = model::find_manifest_entry(model_json_, w.name);
      if (!entry)
        throw ModelError(bundle_.model_json.string() + ": weight '" + w.name +
                         "' is not in the weights manifest any more");
      r.entry = *entry;
      r.bytes = model::read_stored_bytes(bundle_, *w.stored);
    } else {
      ordered_json shape = ordered_json::array();
      for (auto d : w.value.shape) shape.push_back(d);
      r.entry = {{"name", w.name}, {"shape", shape}, {"dtype", to_string(w.value.dtype)}};
      r.bytes = raw_bytes(w.value);
    }
    group.push_back(std::move(r));
  }
  std::vector<std::vector<model::WeightRecord>> groups;
  if (!group.empty()) groups.push_back(std::move(group));
  return model::write_bundle(dir, s.model_json, groups);
}

}  // namespace tfjsi::analysis
