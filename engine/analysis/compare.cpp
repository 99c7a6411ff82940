#include "analysis/compare.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <unordered_map>

#include "analysis/backend_restore.h"
#include "analysis/node_trace.h"
#include "core/error.h"
#include "core/terminal_text.h"

namespace tfjsi::analysis {

namespace {

using Values = std::vector<std::optional<HostTensor>>;

struct RefRun {
  Values outputs, inputs;
};

struct Acc {
  std::string ran_on;
  TensorError error;
  int first_bad_occurrence = -1;
};

// Runs `node` alone on `backend` with `inputs`, through the engine (so memory stays accounted).
std::vector<HostTensor> run_alone(runtime::Engine& engine, runtime::Backend& backend,
                                  const graph::Node& node, const Values& inputs) {
  std::vector<runtime::Tensor> made;
  // A run of one node: the backend hears that it ended, as after an Executor run (xnnpack's
  // workers sleep again, gl issues what it kept), and its inputs are freed.
  struct Dispose {
    runtime::Engine& e;
    runtime::Backend& b;
    std::vector<runtime::Tensor>& t;
    ~Dispose() {
      b.end_run();
      for (auto& x : t) e.dispose(x);
    }
  } dispose{engine, backend, made};
  std::vector<runtime::TensorView> views;
  for (const auto& in : inputs) {
    if (!in) throw ModelError("an input is not a tensor (TensorArray or TensorList)");
    made.push_back(engine.make_tensor(*in, "isolate " + node.name));
    views.push_back(engine.view_on(made.back(), backend));
  }
  runtime::RunContext ctx{engine.pool(), engine.flags()};
  std::vector<HostTensor> out;
  for (const auto& v : backend.run(node, views, ctx)) out.push_back(backend.download(v));
  return out;
}

}  // namespace

CompareReport compare_backends(runtime::Engine& engine, const graph::Graph& graph,
                               const runtime::NamedTensors& inputs, const CompareOptions& options) {
  CompareReport report;
  report.tolerance = options.tolerance;
  report.precision = std::string(runtime::to_string(options.precision));
  const bool ref_fp16 = options.reference_precision == runtime::Precision::Fp16;
  report.reference = options.reference + (ref_fp16 ? " fp16" : "");
  BackendRestore restore(engine);

  NodeIds ids(graph);
  runtime::Executor exec(engine, graph);
  // A reference other than cpu gets executors' resident weights of its own: a gl reference at
  // fp32 would otherwise leave fp32 weight textures to a gl run at fp16.
  std::optional<runtime::Executor> own_ref;
  runtime::Executor& ref_exec = options.reference == "cpu" ? exec : own_ref.emplace(engine, graph);

  // The reference run, inputs kept for isolation (cpu data is shared, not copied).
  engine.set_precision(options.reference_precision);
  engine.set_backend(options.reference);  // throws BackendUnavailable saying why
  std::map<std::pair<int, int>, RefRun> ref;
  std::vector<int> order;
  std::vector<HostTensor> ref_out;
  {
    NodeTap tap(
        ids,
        [&](NodeRun&& r) {
          if (r.occurrence == 0) order.push_back(r.id);
          ref[{r.id, r.occurrence}] = RefRun{std::move(r.outputs), std::move(r.inputs)};
        },
        true);
    ScopedObserver watch(engine, tap);
    ref_out = ref_exec.run(inputs);
  }

  std::map<int, std::vector<BackendNodeResult>> per_node;
  for (const std::string& name : options.backends) {
    if (name == options.reference && options.precision == options.reference_precision) continue;
    CompareBackend cb;
    cb.name = name;
    runtime::Backend* backend = engine.find_backend(name);
    if (!backend) {
      cb.reason = "no backend of this name";
      report.backends.push_back(cb);
      continue;
    }
    const runtime::Availability a = backend->availability();
    if (!a.available) {
      cb.reason = a.reason;
      report.backends.push_back(cb);
      continue;
    }
    cb.available = true;
    engine.set_precision(options.precision);
    engine.set_backend(name);
    std::unordered_map<int, Acc> acc;
    std::vector<HostTensor> out;
    {
      NodeTap tap(ids, [&](NodeRun&& r) {
        Acc& a = acc[r.id];
        if (a.ran_on.empty()) a.ran_on = r.backend;
        auto it = ref.find({r.id, r.occurrence});
        if (it == ref.end()) return;
        for (std::size_t k = 0; k < r.outputs.size() && k < it->second.outputs.size(); ++k) {
          if (!r.outputs[k] || !it->second.outputs[k]) continue;
          const TensorError e = tensor_error(*it->second.outputs[k], *r.outputs[k]);
          if (a.first_bad_occurrence < 0 && e.normalized() > options.tolerance)
            a.first_bad_occurrence = r.occurrence;
          a.error.merge(e);
        }
      });
      ScopedObserver watch(engine, tap);
      try {
        out = exec.run(inputs);
      } catch (const ModelError& e) {
        cb.run_error = e.what();
      }
    }
    if (!cb.run_error.empty()) {
      engine.set_backend(options.reference);
      report.backends.push_back(std::move(cb));
      continue;
    }
    for (std::size_t k = 0; k < ref_out.size(); ++k) {
      TensorError e =
          k < out.size() ? tensor_error(ref_out[k], out[k]) : TensorError{.shape_mismatch = true};
      cb.max_output_error = std::max(cb.max_output_error, e.normalized());
      cb.outputs.emplace_back(k < graph.outputs.size() ? graph.outputs[k].name : std::to_string(k),
                              e);
    }
    int to_isolate = 0, isolating = 0;
    if (options.isolate)
      for (int id : order)
        if (auto it = acc.find(id);
            it != acc.end() && it->second.error.normalized() > options.tolerance)
          ++to_isolate;
    for (int id : order) {
      auto it = acc.find(id);
      if (it == acc.end()) continue;
      BackendNodeResult res;
      res.backend = name;
      res.ran_on = it->second.ran_on;
      res.error = it->second.error;
      res.divergent = res.error.normalized() > options.tolerance;
      if (res.divergent) {
        ++cb.divergent;
        if (!cb.first_divergent) cb.first_divergent = ids.name(id);
        if (options.isolate) {
          if (options.before_isolating) options.before_isolating(isolating++, to_isolate);
          runtime::Backend* on = engine.find_backend(res.ran_on);
          const RefRun& rr = ref.at({id, std::max(0, it->second.first_bad_occurrence)});
          if (!on) {
            res.note = "ran in the executor (control flow), nothing to isolate";
          } else {
            try {
              const auto alone = run_alone(engine, *on, ids.node(id), rr.inputs);
              TensorError e;
              for (std::size_t k = 0; k < alone.size() && k < rr.outputs.size(); ++k)
                if (rr.outputs[k]) e.merge(tensor_error(*rr.outputs[k], alone[k]));
              res.isolated_error = e;
              res.isolated = e.normalized() > options.tolerance;
              if (*res.isolated) cb.isolated.push_back(ids.name(id));
            } catch (const std::exception& ex) {
              res.note = std::string("could not run alone: ") + ex.what();
            }
          }
        }
      }
      per_node[id].push_back(std::move(res));
    }
    if (cb.divergent > 0 && name == "gl" && engine.flags().has("gl.exact_sums") &&
        !engine.flags().get_bool("gl.exact_sums"))
      cb.note =
          "gl multiply-adds in fp32 (flag gl.exact_sums off): where fma() rounds the product "
          "first, as on llvmpipe, that rounds as TF.js webgl does there, not as TF.js cpu; "
          "--flag gl.exact_sums=true rounds as TF.js cpu";
    engine.set_backend(options.reference);
    report.backends.push_back(std::move(cb));
  }

  for (int id : order) {
    CompareNode n;
    n.name = ids.name(id);
    n.op = ids.node(id).op;
    if (auto it = per_node.find(id); it != per_node.end()) n.results = std::move(it->second);
    for (const auto& r : n.results)
      if (r.divergent && !report.first_divergent) report.first_divergent = n.name;
    report.nodes.push_back(std::move(n));
  }
  return report;
}

namespace {

double node_error(const CompareNode& n) {
  double e = 0;
  for (const auto& r : n.results) e = std::max(e, r.error.normalized());
  return e;
}

std::string fmt(double v) {
  if (std::isinf(v)) return "inf";
  std::ostringstream s;
  s.precision(3);
  s << v;
  return s.str();
}

}  // namespace

nlohmann::json to_json(const CompareReport& r) {
  nlohmann::json j;
  j["tolerance"] = r.tolerance;
  j["precision"] = r.precision;
  j["reference"] = r.reference;
  j["first_divergent"] = r.first_divergent ? nlohmann::json(*r.first_divergent) : nullptr;
  nlohmann::json bs = nlohmann::json::array();
  for (const auto& b : r.backends) {
    nlohmann::json bj = {{"backend", b.name}, {"available", b.available}};
    if (!b.available) {
      bj["reason"] = b.reason;
    } else if (!b.run_error.empty()) {
      bj["run_error"] = b.run_error;
    } else {
      bj["first_divergent"] = b.first_divergent ? nlohmann::json(*b.first_divergent) : nullptr;
      bj["divergent"] = b.divergent;
      bj["isolated"] = b.isolated;
      if (!b.note.empty()) bj["note"] = b.note;
      bj["max_output_error"] = json_number(b.max_output_error);
      nlohmann::json outs = nlohmann::json::array();
      for (const auto& [name, e] : b.outputs) {
        auto oj = to_json(e);
        oj["name"] = name;
        outs.push_back(oj);
      }
      bj["outputs"] = outs;
    }
    bs.push_back(bj);
  }
  j["backends"] = bs;
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& n : r.nodes) {
    nlohmann::json nj = {{"name", n.name}, {"op", n.op}};
    bool divergent = false, isolated = false;
    double max_abs = 0;
    nlohmann::json per = nlohmann::json::object();
    for (const auto& res : n.results) {
      divergent = divergent || res.divergent;
      isolated = isolated || res.isolated.value_or(false);
      max_abs = std::max(max_abs, res.error.max_abs_error);
      auto rj = to_json(res.error);
      rj["ran_on"] = res.ran_on;
      rj["divergent"] = res.divergent;
      if (res.isolated) {
        rj["isolated"] = *res.isolated;
        rj["isolated_error"] = to_json(*res.isolated_error);
      }
      if (!res.note.empty()) rj["note"] = res.note;
      per[res.backend] = rj;
    }
    nj["max_abs_error"] = max_abs;
    nj["normalized_error"] = json_number(node_error(n));
    nj["divergent"] = divergent;
    nj["isolated"] = isolated;
    nj["backends"] = per;
    nodes.push_back(nj);
  }
  j["nodes"] = nodes;
  return j;
}

std::string to_text(const CompareReport& r, int worst_nodes) {
  std::ostringstream s;
  s << "compared with " << r.reference << " (" << r.precision << ", tolerance " << fmt(r.tolerance)
    << " of max(1, max|cpu|)):\n";
  for (const auto& b : r.backends) {
    if (!b.available) {
      s << "  " << b.name << ": not available (" << b.reason << ")\n";
      continue;
    }
    if (!b.run_error.empty()) {
      s << "  " << b.name << ": the run failed: " << terminal_safe(b.run_error) << "\n";
      continue;
    }
    s << "  " << b.name << ": outputs' error " << fmt(b.max_output_error) << ", " << b.divergent
      << " divergent nodes";
    if (b.first_divergent) s << ", first " << terminal_safe(*b.first_divergent);
    s << "\n";
    if (!b.isolated.empty()) {
      s << "    wrong on their own inputs:";
      for (const auto& n : b.isolated) s << " " << terminal_safe(n);
      s << "\n";
    }
    if (!b.note.empty()) s << "    note: " << b.note << "\n";
  }
  s << "first divergent node: " << terminal_safe(r.first_divergent.value_or("none")) << "\n";
  std::vector<const CompareNode*> worst;
  for (const auto& n : r.nodes)
    if (!n.results.empty()) worst.push_back(&n);
  std::stable_sort(worst.begin(), worst.end(),
                   [](auto* a, auto* b) { return node_error(*a) > node_error(*b); });
  if (static_cast<int>(worst.size()) > worst_nodes) worst.resize(worst_nodes);
  s << "worst nodes (normalized error per backend):\n";
  for (const auto* n : worst) {
    s << "  " << fmt(node_error(*n)) << "  " << terminal_safe(n->name) << " ("
      << terminal_safe(n->op) << ")";
    for (const auto& res : n->results) {
      s << "  " << res.backend << (res.ran_on != res.backend ? "->" + res.ran_on : "") << " "
        << fmt(res.error.normalized());
      if (res.isolated) s << (*res.isolated ? " ISOLATED" : " inherited");
    }
    s << "\n";
  }
  return s.str();
}

}  // namespace tfjsi::analysis
