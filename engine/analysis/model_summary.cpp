#include "analysis/model_summary.h"

#include <map>

namespace tfjsi::analysis {
namespace {

nlohmann::json endpoint_json(const graph::Graph& graph, const graph::Endpoint& e) {
  nlohmann::json j;
  j["name"] = e.name;
  j["node"] = (e.ref.node >= 0 && e.ref.node < static_cast<int>(graph.nodes.size()))
                  ? graph.nodes[static_cast<std::size_t>(e.ref.node)].name
                  : std::string();
  j["output_index"] = e.ref.output;
  j["dtype"] = e.dtype ? nlohmann::json(std::string(to_string(*e.dtype))) : nlohmann::json();
  j["shape"] = e.shape.rank_known ? nlohmann::json(e.shape.dims) : nlohmann::json();
  return j;
}

}  // namespace

nlohmann::json summarize_model(const model::Bundle& bundle, const graph::Graph& graph) {
  nlohmann::json j;
  j["file"] = bundle.model_json.string();
  j["format"] = bundle.format;
  j["kind"] = std::string(model::to_string(bundle.kind));
  nlohmann::json producer;
  producer["generated_by"] = bundle.generated_by;
  producer["converted_by"] = bundle.converted_by;
  if (bundle.kind == model::ModelKind::Layers) {
    producer["keras_version"] = bundle.keras_version;
    producer["backend"] = bundle.keras_backend;
  }
  j["producer"] = producer;

  j["inputs"] = nlohmann::json::array();
  for (const auto& e : graph.inputs) j["inputs"].push_back(endpoint_json(graph, e));
  j["outputs"] = nlohmann::json::array();
  for (const auto& e : graph.outputs) j["outputs"].push_back(endpoint_json(graph, e));

  std::map<std::string, int> ops;
  for (const auto& n : graph.nodes) ++ops[n.op];
  j["node_count"] = graph.nodes.size();
  j["op_histogram"] = ops;
  j["function_count"] = graph.functions.size();
  j["initializer_node_count"] = graph.initializer.size();

  nlohmann::json by_dtype = nlohmann::json::object();
  nlohmann::json by_quant = nlohmann::json::object();
  for (const auto& w : bundle.weights) {
    auto& d = by_dtype[std::string(to_string(w.dtype))];
    d["count"] = d.value("count", 0) + 1;
    d["bytes_decoded"] = d.value("bytes_decoded", std::uint64_t{0}) + w.value.byte_size();
    auto& q = by_quant[std::string(model::to_string(w.quantization))];
    q["count"] = q.value("count", 0) + 1;
    q["bytes_on_disk"] = q.value("bytes_on_disk", std::uint64_t{0}) + w.stored_bytes;
    q["bytes_decoded"] = q.value("bytes_decoded", std::uint64_t{0}) + w.value.byte_size();
  }
  j["weights"] = {{"count", bundle.weights.size()},
                  {"bytes_on_disk", bundle.bytes_on_disk()},
                  {"bytes_decoded", bundle.bytes_decoded()},
                  {"by_dtype", by_dtype},
                  {"by_quantization", by_quant}};

  j["shards"] = nlohmann::json::array();
  for (const auto& s : bundle.shards)
    j["shards"].push_back({{"path", s.manifest_path}, {"bytes", s.bytes}, {"group", s.group}});

  nlohmann::json meta = nlohmann::json::object();
  if (!bundle.metadata.is_null()) meta["user_defined"] = bundle.metadata;
  if (!bundle.training_config.is_null()) meta["training_config"] = bundle.training_config;
  j["metadata"] = meta;
  j["warnings"] = bundle.warnings;
  return j;
}

}  // namespace tfjsi::analysis
