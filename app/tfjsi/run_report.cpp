#include "run_report.h"

#include <map>

#include "analysis/tensor_stats.h"

namespace tfjsi::cli {

nlohmann::json tensor_stats(const HostTensor& t) {
  nlohmann::json j = {{"shape", t.shape}, {"dtype", std::string(to_string(t.dtype))}};
  if (t.dtype == DType::String || t.num_elements() == 0) return j;
  const analysis::TensorStats s = analysis::tensor_stats(t);
  // complex64: min, max and mean over every real and imaginary part.
  if (t.dtype == DType::Complex64) j["stats_over"] = "real and imaginary parts";
  if (s.finite) {
    j["min"] = s.min;
    j["max"] = s.max;
    j["mean"] = s.mean;
  }
  j["nan"] = s.nan;
  j["inf"] = s.inf;
  return j;
}

nlohmann::json placement(const graph::Graph& graph, const runtime::Plan& plan) {
  std::map<std::string, int> per_backend;
  for (int i : plan.order) {
    const auto& n = plan.nodes[static_cast<std::size_t>(i)];
    if (graph.nodes[static_cast<std::size_t>(i)].op == "Const") continue;  // weights, not work
    per_backend[n.executor_op ? std::string("executor")
                              : std::string(n.backend ? n.backend->name() : "?")]++;
  }
  nlohmann::json fallbacks = nlohmann::json::array();
  for (const auto& f : plan.fallbacks)
    fallbacks.push_back({{"node", f.node}, {"op", f.op}, {"message", f.message}});
  return {{"backend", plan.backend},
          {"nodes", per_backend},
          {"fallbacks", fallbacks},
          {"segments", plan.segments.size()},
          {"sync_points", plan.sync_points},
          // Nodes the backend runs inside the kernel of a node before them (a bias add, an
          // activation) unless an observer needs every node's output or the `fuse` flag is off.
          {"fused_nodes", plan.fusions}};
}

nlohmann::json partition_report(const graph::Graph& graph, const runtime::Plan& plan) {
  int inside = 0, outside = 0;
  std::map<std::string, int> outside_ops;
  nlohmann::json sizes = nlohmann::json::array();
  for (const auto& p : plan.partitions) {
    sizes.push_back(p.nodes.size());
    inside += static_cast<int>(p.nodes.size());
  }
  for (int i : plan.order) {
    const auto& n = plan.nodes[static_cast<std::size_t>(i)];
    if (n.executor_op || n.fallback || !n.backend || n.partition >= 0 ||
        std::string_view(n.backend->name()) != plan.backend)
      continue;
    ++outside;
    ++outside_ops[graph.nodes[static_cast<std::size_t>(i)].op];
  }
  return {{"partitions", plan.partitions.size()},
          {"nodes_in_partitions", inside},
          {"nodes_outside", outside},
          {"outside_ops", outside_ops},
          {"fallbacks", plan.fallbacks.size()},
          {"partition_sizes", sizes}};
}

}  // namespace tfjsi::cli
