#include "run_report.h"

#include <cmath>
#include <limits>
#include <map>

namespace tfjsi::cli {

nlohmann::json tensor_stats(const HostTensor& t) {
  nlohmann::json j = {{"shape", t.shape}, {"dtype", std::string(to_string(t.dtype))}};
  if (t.dtype == DType::String || t.num_elements() == 0) return j;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0;
  std::size_t nan = 0, inf = 0, finite = 0;
  auto visit = [&](double v) {
    if (std::isnan(v))
      ++nan;
    else if (std::isinf(v))
      ++inf;
    else {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      sum += v;
      ++finite;
    }
  };
  if (t.dtype == DType::Float32)
    for (float v : t.values<float>()) visit(v);
  else if (t.dtype == DType::Int32)
    for (auto v : t.values<std::int32_t>()) visit(v);
  else
    for (auto v : t.values<std::uint8_t>()) visit(v);
  if (finite) {
    j["min"] = lo;
    j["max"] = hi;
    j["mean"] = sum / static_cast<double>(finite);
  }
  j["nan"] = nan;
  j["inf"] = inf;
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
