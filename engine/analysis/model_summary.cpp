#include "analysis/model_summary.h"

#include "analysis/node_cost.h"

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

nlohmann::json summarize_cost(const graph::Graph& graph, const GraphCost& cost) {
  nlohmann::json nodes = nlohmann::json::array();
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    const NodeCost& c = cost.nodes[i];
    if (!c.known) continue;
    order.push_back(i);
    nodes.push_back({{"name", graph.nodes[i].name},
                     {"op", graph.nodes[i].op},
                     {"flops", c.flops},
                     {"bytes_read", c.bytes_read},
                     {"bytes_written", c.bytes_written}});
  }
  // The ten costliest, most FLOPs first (ties: run order).
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return cost.nodes[a].flops > cost.nodes[b].flops;
  });
  nlohmann::json top = nlohmann::json::array();
  for (std::size_t k = 0; k < order.size() && k < 10 && cost.nodes[order[k]].flops > 0; ++k)
    top.push_back(graph.nodes[order[k]].name);
  nlohmann::json assumed = nlohmann::json::array();
  for (const auto& [name, shape] : cost.assumed_inputs)
    assumed.push_back({{"name", name}, {"shape", shape}});
  return {{"flops", cost.flops},
          {"inputs_assumed", assumed},
          {"bytes_read", cost.bytes_read},
          {"bytes_written", cost.bytes_written},
          {"unknown_nodes", cost.unknown},
          {"costliest", top},
          {"nodes", nodes}};
}

nlohmann::json summarize_model(const model::Bundle& bundle, const graph::Graph& graph) {
  return summarize_model(bundle, graph, graph_cost(graph));
}

nlohmann::json summarize_model(const model::Bundle& bundle, const graph::Graph& graph,
                               const GraphCost& cost) {
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

  struct Tally {
    std::size_t count = 0;
    std::uint64_t on_disk = 0, decoded = 0;
  };
  std::map<std::string, Tally> by_dtype, by_quant;
  for (const auto& w : bundle.weights) {
    for (Tally* t : {&by_dtype[std::string(to_string(w.dtype))],
                     &by_quant[std::string(model::to_string(w.quantization))]}) {
      ++t->count;
      t->on_disk += w.stored_bytes;
      t->decoded += w.value.byte_size();
    }
  }
  auto tally_json = [](const std::map<std::string, Tally>& m) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [k, t] : m)
      out[k] = {{"count", t.count}, {"bytes_on_disk", t.on_disk}, {"bytes_decoded", t.decoded}};
    return out;
  };
  nlohmann::json by_dtype_json = tally_json(by_dtype), by_quant_json = tally_json(by_quant);
  j["weights"] = {{"count", bundle.weights.size()},
                  {"bytes_on_disk", bundle.bytes_on_disk()},
                  {"bytes_decoded", bundle.bytes_decoded()},
                  {"by_dtype", by_dtype_json},
                  {"by_quantization", by_quant_json}};

  j["shards"] = nlohmann::json::array();
  for (const auto& s : bundle.shards)
    j["shards"].push_back({{"path", s.manifest_path}, {"bytes", s.bytes}, {"group", s.group}});

  nlohmann::json meta = nlohmann::json::object();
  if (!bundle.metadata.is_null()) meta["user_defined"] = bundle.metadata;
  if (!bundle.training_config.is_null()) meta["training_config"] = bundle.training_config;
  j["metadata"] = meta;
  j["warnings"] = bundle.warnings;
  j["cost"] = summarize_cost(graph, cost);
  return j;
}

}  // namespace tfjsi::analysis
