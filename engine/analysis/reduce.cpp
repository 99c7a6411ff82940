#include "analysis/reduce.h"

#include <algorithm>
#include <fstream>
#include <set>

#include "analysis/cancel_watch.h"
#include "core/error.h"
#include "io/npy.h"
#include "io/safe_write.h"

namespace tfjsi::analysis {
namespace {

// The search over cuts: which nodes the culprit still needs when the tensors of `cut` nodes are
// fed as recorded, and whether that candidate still shows the condition.
class Search {
 public:
  Search(runtime::Engine& engine, const model::Bundle& bundle, const graph::Graph& graph,
         const Recording& rec, const ReduceOptions& options, const CancelWatch& cancel)
      : engine_(engine),
        graph_(graph),
        rec_(rec),
        options_(options),
        cancel_(cancel),
        maker_(bundle, graph) {
    const std::size_t n = graph.nodes.size();
    is_input_.assign(n, 0);
    for (const auto& e : graph.inputs)
      if (e.ref.node >= 0) is_input_[static_cast<std::size_t>(e.ref.node)] = 1;
    // A node can be cut at when it ran once and every output something reads was recorded.
    std::vector<std::set<int>> read(n);
    for (const auto& node : graph.nodes)
      for (const auto& in : node.inputs) read[static_cast<std::size_t>(in.node)].insert(in.output);
    cuttable_.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      if (rec.runs[i] != 1) continue;
      bool all = true;
      for (int k : read[i])
        all = all && static_cast<std::size_t>(k) < rec.values[i].size() && rec.values[i][k];
      cuttable_[i] = all;
    }
  }

  std::vector<int> closure(const std::vector<char>& cut) const {
    const int c = rec_.culprit;
    std::vector<char> seen(graph_.nodes.size(), 0);
    std::vector<int> stack{c}, out{c};
    seen[static_cast<std::size_t>(c)] = 1;
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      for (const auto& in : graph_.nodes[static_cast<std::size_t>(i)].inputs) {
        const auto p = static_cast<std::size_t>(in.node);
        if (seen[p] || graph_.nodes[p].op == "Const" || is_input_[p]) continue;
        if (cut[p] && cuttable_[p]) continue;
        seen[p] = 1;
        out.push_back(in.node);
        stack.push_back(in.node);
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  // Runs the candidate; remembers it when it holds and is the smallest yet.
  bool holds(const std::vector<int>& nodes, const std::string& phase) {
    // The linear pass's last round tries again the cuts that failed after its last success.
    if (failed_.count(nodes)) return false;
    cancel_.check();
    ++steps;
    ReduceStep step{phase, steps, 0, false, best_nodes};
    std::optional<Finding> f;
    std::optional<Subgraph> s;
    try {
      s = maker_.make(nodes, rec_.values);
      step.nodes = s->nodes;
      const graph::Graph g = s->build();
      f = check_at(engine_, g, s->feeds(), options_.condition, rec_.finding.node);
    } catch (const ModelError&) {
      f.reset();  // a cut the model cannot be run at (a loop's inside, a resource) does not hold
    }
    step.holds = f.has_value();
    if (f && (best.empty() || nodes.size() <= best.size())) {
      best = nodes;
      best_subgraph = std::move(*s);
      best_finding = std::move(*f);
      best_nodes = step.nodes;
    }
    step.smallest = best_nodes;
    if (options_.on_step) options_.on_step(step);
    if (!step.holds) failed_.insert(nodes);
    return step.holds;
  }

  bool cuttable(int i) const { return cuttable_[static_cast<std::size_t>(i)] != 0; }

  int steps = 0;
  std::vector<int> best;
  std::optional<Subgraph> best_subgraph;
  Finding best_finding;
  int best_nodes = 0;

 private:
  std::set<std::vector<int>> failed_;
  runtime::Engine& engine_;
  const graph::Graph& graph_;
  const Recording& rec_;
  const ReduceOptions& options_;
  const CancelWatch& cancel_;
  SubgraphMaker maker_;
  std::vector<char> is_input_, cuttable_;
};

}  // namespace

std::optional<Reduction> reduce_model(runtime::Engine& engine, const model::Bundle& bundle,
                                      const graph::Graph& graph,
                                      const runtime::NamedTensors& inputs,
                                      const ReduceOptions& options) {
  const CancelWatch cancel(engine, options.cancel);
  std::optional<Recording> rec = record_model(engine, graph, inputs, options.condition);
  if (!rec) return std::nullopt;
  Search search(engine, bundle, graph, *rec, options, cancel);
  const int culprit = rec->culprit;
  const std::string culprit_label = "node '" + rec->finding.node + "' (" + rec->finding.op + ")";

  // Outputs: the culprit's, and only what it depends on.
  std::vector<char> cut(graph.nodes.size(), 0);
  const std::vector<int> needed = search.closure(cut);
  if (!search.holds(needed, "outputs"))
    throw ModelError("the condition shows at " + culprit_label +
                     " in the whole model but not when only what that node depends on is run "
                     "(the backend computes it otherwise in a smaller graph, or it depends on "
                     "the order of the run)");

  // Inputs, bisected: cut the first `j` of the nodes the culprit depends on, as far as it holds.
  std::vector<int> before(needed.begin(), needed.end());
  before.erase(std::remove(before.begin(), before.end(), culprit), before.end());
  std::size_t lo = 0, hi = before.size() + 1;
  const auto cut_first = [&](std::size_t j) {
    std::vector<char> c(graph.nodes.size(), 0);
    for (std::size_t k = 0; k < j; ++k) c[static_cast<std::size_t>(before[k])] = 1;
    return c;
  };
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    const std::vector<int> nodes = search.closure(cut_first(mid));
    if (nodes == search.best || search.holds(nodes, "inputs (bisect)"))
      lo = mid;
    else
      hi = mid;
  }
  cut = cut_first(lo);

  // Linear: one node at a time, nearest the culprit first (cutting there drops the most), until
  // a whole pass cuts nothing more.
  for (bool changed = true; changed;) {
    changed = false;
    const std::vector<int> current = search.best;
    for (auto it = current.rbegin(); it != current.rend(); ++it) {
      const int i = *it;
      if (i == culprit || cut[static_cast<std::size_t>(i)] || !search.cuttable(i)) continue;
      if (!std::binary_search(search.best.begin(), search.best.end(), i)) continue;
      std::vector<char> trial = cut;
      trial[static_cast<std::size_t>(i)] = 1;
      const std::vector<int> nodes = search.closure(trial);
      if (nodes.size() >= search.best.size()) continue;
      if (search.holds(nodes, "linear")) {
        cut = std::move(trial);
        changed = true;
      }
    }
  }

  Reduction r;
  r.condition = options.condition;
  r.nodes_before = static_cast<int>(graph.nodes.size());
  r.whole = rec->finding;
  r.reduced = search.best_finding;
  r.subgraph = std::move(*search.best_subgraph);
  r.steps = search.steps;
  r.recorded_on = rec->recorded_on;
  return r;
}

std::uint64_t write_reduction(const Reduction& r, const model::Bundle& bundle,
                              const graph::Graph& graph, const std::filesystem::path& dir) {
  const SubgraphMaker maker(bundle, graph);
  const std::uint64_t bytes = maker.write(r.subgraph, dir);
  nlohmann::json files;
  files["inputs"] = nlohmann::json::array();
  const auto write = [&](const std::string& file, const HostTensor& t) {
    try {
      io::write_npy(dir / file, t);
    } catch (const std::exception& e) {
      throw ModelError((dir / file).string() + ": cannot write: " + e.what());
    }
    return nlohmann::json{{"file", file}, {"shape", t.shape}, {"dtype", to_string(t.dtype)}};
  };
  for (std::size_t k = 0; k < r.subgraph.inputs.size(); ++k) {
    const auto& in = r.subgraph.inputs[k];
    nlohmann::json j = write("input_" + std::to_string(k) + ".npy", in.value);
    j["name"] = in.name;
    files["inputs"].push_back(j);
  }
  if (r.condition.kind == ReduceConditionKind::Diverge) {
    const auto side = [&](const char* prefix, const std::vector<std::optional<HostTensor>>& v) {
      nlohmann::json list = nlohmann::json::array();
      for (std::size_t k = 0; k < v.size(); ++k)
        list.push_back(v[k] && v[k]->dtype != DType::String
                           ? write(prefix + std::to_string(k) + ".npy", *v[k])
                           : nlohmann::json(nullptr));
      return list;
    };
    files["reference"] = side("reference_", r.reduced.reference_values);
    files["test"] = side("test_", r.reduced.test_values);
  }
  try {
    io::write_file_replacing(dir / "inputs.json", files["inputs"].dump(1) + "\n");
    io::write_file_replacing(dir / "repro.js", repro_script(r, files));
  } catch (const std::exception& e) {
    throw ModelError(dir.string() + ": cannot write: " + e.what());
  }
  return bytes;
}

}  // namespace tfjsi::analysis
