#include "analysis/fp16_check.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "analysis/backend_restore.h"
#include "analysis/fp16_emulation.h"
#include "analysis/node_trace.h"
#include "analysis/nonfinite_origin.h"
#include "core/error.h"
#include "core/terminal_text.h"

namespace tfjsi::analysis {

namespace {

using Values = std::vector<std::optional<HostTensor>>;

// The fp32 run: every node's values by (id, occurrence), and the order nodes first ran in.
struct Reference {
  std::map<std::pair<int, int>, Values> values;
  std::vector<int> order;
  std::vector<HostTensor> outputs;
};

struct NodeAcc {
  int runs = 0;
  bool float_outputs = false;
  std::string backend;
  TensorStats stats;
  TensorError error;
};

struct Pass {
  std::unordered_map<int, NodeAcc> nodes;
  std::vector<HostTensor> outputs;
};

// One run of `exec` with the tap (after `pre`, the emulation, when given): per-node statistics,
// and errors against `ref` when given; fills `store` when given (the reference run).
Pass run_pass(runtime::Engine& engine, runtime::Executor& exec, const NodeIds& ids,
              const runtime::NamedTensors& inputs, const Reference* ref, runtime::Observer* pre,
              Reference* store) {
  Pass pass;
  NodeTap tap(ids, [&](NodeRun&& r) {
    NodeAcc& acc = pass.nodes[r.id];
    if (acc.runs++ == 0) {
      acc.backend = r.backend;
      if (store) store->order.push_back(r.id);
    }
    const Values* refv = nullptr;
    if (ref) {
      auto it = ref->values.find({r.id, r.occurrence});
      if (it != ref->values.end()) refv = &it->second;
    }
    for (std::size_t k = 0; k < r.outputs.size(); ++k) {
      const auto& v = r.outputs[k];
      if (!v) continue;
      if (v->dtype == DType::Float32) {
        acc.float_outputs = true;
        acc.stats.merge(tensor_stats(*v));
      }
      if (refv && k < refv->size() && (*refv)[k]) acc.error.merge(tensor_error(*(*refv)[k], *v));
    }
    if (store) store->values[{r.id, r.occurrence}] = std::move(r.outputs);
  });
  std::optional<ScopedObserver> first;
  if (pre) first.emplace(engine, *pre);
  ScopedObserver second(engine, tap);
  pass.outputs = exec.run(inputs);
  return pass;
}

std::vector<TensorError> output_errors(const Reference& ref, const std::vector<HostTensor>& out) {
  std::vector<TensorError> errs;
  for (std::size_t k = 0; k < ref.outputs.size(); ++k) {
    if (k < out.size())
      errs.push_back(tensor_error(ref.outputs[k], out[k]));
    else
      errs.push_back(TensorError{.shape_mismatch = true});
  }
  return errs;
}

double max_normalized(const std::vector<TensorError>& errs) {
  double m = 0;
  for (const auto& e : errs) m = std::max(m, e.normalized());
  return m;
}

// Runs the emulation with `keep` stored in fp32 and returns the pass.
Pass emulate(runtime::Engine& engine, const graph::Graph& graph, NodeIds& ids,
             const runtime::NamedTensors& inputs, const Reference& ref, HalfRule rule,
             const std::unordered_set<int>& keep, runtime::Fp16Follow follow) {
  const graph::Graph rounded = graph_with_half_weights(graph, rule, keep);
  ids.alias(rounded);
  runtime::Executor exec(engine, rounded);
  Fp16StorageEmulation emulation(ids, rule, keep, follow);
  return run_pass(engine, exec, ids, inputs_as_half(graph, inputs, rule, keep), &ref, &emulation,
                  nullptr);
}

std::optional<int> first_past(const Reference& ref, const Pass& p, double threshold,
                              const std::unordered_set<int>& skip = {}) {
  for (int id : ref.order) {
    if (skip.count(id)) continue;
    auto it = p.nodes.find(id);
    if (it != p.nodes.end() && it->second.error.relative() > threshold) return id;
  }
  return std::nullopt;
}

// The node to keep in fp32 next: the first (in run order) whose own values leave half's range
// (overflow, underflow) or turn non-finite, else the first past the threshold.
std::optional<int> next_offender(const Reference& ref, const Pass& ref_stats, const Pass& p,
                                 double threshold, const std::unordered_set<int>& kept) {
  for (int id : ref.order) {
    if (kept.count(id)) continue;
    auto r = ref_stats.nodes.find(id);
    auto t = p.nodes.find(id);
    if (r == ref_stats.nodes.end() || t == p.nodes.end() || r->second.backend == "executor")
      continue;
    const bool own_range = r->second.stats.overflow > 0 || r->second.stats.underflows(threshold);
    if ((own_range || t->second.error.new_nonfinite > 0) && t->second.error.relative() > threshold)
      return id;
  }
  for (int id : ref.order) {
    auto r = ref_stats.nodes.find(id);
    if (kept.count(id) || r == ref_stats.nodes.end() || r->second.backend == "executor") continue;
    auto t = p.nodes.find(id);
    if (t != p.nodes.end() && t->second.error.relative() > threshold) return id;
  }
  return std::nullopt;
}

// From `start` to the output it hurts most, stepping back from that output through the inputs
// with the largest error among the nodes `start` reaches.
std::vector<PathStep> error_path(const graph::Graph& g, const NodeIds& ids, int start,
                                 const Pass& p) {
  const int n = static_cast<int>(g.nodes.size());
  if (start < 0 || start >= n) return {};
  std::vector<std::vector<int>> consumers(n);
  for (int i = 0; i < n; ++i)
    for (const auto& r : g.nodes[i].inputs)
      if (r.node >= 0 && r.node < n) consumers[r.node].push_back(i);
  std::vector<bool> reach(n, false);
  std::vector<int> stack{start};
  reach[start] = true;
  while (!stack.empty()) {
    const int v = stack.back();
    stack.pop_back();
    for (int c : consumers[v])
      if (!reach[c]) reach[c] = true, stack.push_back(c);
  }
  auto err = [&](int id) {
    auto it = p.nodes.find(id);
    return it == p.nodes.end() ? -1.0 : it->second.error.relative();
  };
  int best = -1;
  double best_err = -1;
  for (const auto& o : g.outputs)
    if (o.ref.node >= 0 && o.ref.node < n && reach[o.ref.node] && err(o.ref.node) > best_err)
      best = o.ref.node, best_err = err(o.ref.node);
  if (best < 0) return {};
  std::vector<PathStep> path;
  std::vector<bool> seen(n, false);
  for (int v = best; v >= 0 && !seen[v];) {
    seen[v] = true;
    path.push_back({ids.name(v), g.nodes[v].op, err(v)});
    if (v == start) break;
    int next = -1;
    double next_err = -2;
    for (const auto& r : g.nodes[v].inputs)
      if (r.node >= 0 && r.node < n && reach[r.node] && !seen[r.node] && err(r.node) > next_err)
        next = r.node, next_err = err(r.node);
    v = next;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

std::optional<Fp32Nonfinite> nonfinite_reference(const graph::Graph& graph, const NodeIds& ids,
                                                 const runtime::NamedTensors& inputs,
                                                 const Reference& ref, const Pass& fp32) {
  Fp32Nonfinite bad;
  bool nan = false;
  for (std::size_t k = 0; k < ref.outputs.size(); ++k) {
    const bool has_nan = holds_nonfinite(ref.outputs[k], true);
    if (!has_nan && !holds_nonfinite(ref.outputs[k], false)) continue;
    bad.outputs.push_back(k < graph.outputs.size() ? graph.outputs[k].name
                                                   : "output_" + std::to_string(k));
    nan = nan || has_nan;
  }
  if (bad.outputs.empty()) return std::nullopt;
  bad.value = nan ? "NaN" : "inf";
  for (const auto& [name, t] : inputs)
    if (holds_nonfinite(t, false) || holds_nonfinite(t, true)) {
      bad.input = name;
      break;
    }
  for (int id : ref.order) {
    const TensorStats& st = fp32.nodes.at(id).stats;
    if (nan ? st.nan > 0 : st.inf > 0) {
      bad.node = ids.name(id);
      bad.op = ids.node(id).op;
      break;
    }
  }
  return bad;
}

}  // namespace

Fp16Report check_fp16(runtime::Engine& engine, const graph::Graph& graph,
                      const runtime::NamedTensors& inputs, const Fp16CheckOptions& options) {
  BackendRestore restore(engine);
  Fp16Report report;
  report.rule = options.rule;
  report.output_tolerance = options.output_tolerance;
  report.node_threshold = options.node_threshold;
  NodeIds ids(graph);
  const double thr = options.node_threshold, tol = options.output_tolerance;

  // fp32 reference on cpu.
  engine.set_backend("cpu");
  engine.set_precision(runtime::Precision::Fp32);
  Reference ref;
  Pass fp32;
  {
    runtime::Executor exec(engine, graph);
    fp32 = run_pass(engine, exec, ids, inputs, nullptr, nullptr, &ref);
    ref.outputs = fp32.outputs;
  }

  // An fp32 reference that is itself NaN or inf has nothing for fp16 to be compared with: that is
  // the verdict, with the first node whose values went non-finite (of the kind the outputs hold;
  // -inf pads and thresholds are normal on the way) and any input holding inf.
  if (auto bad = nonfinite_reference(graph, ids, inputs, ref, fp32)) {
    report.fp32_nonfinite = std::move(*bad);
    for (int id : ref.order) {
      Fp16NodeReport n;
      n.id = id;
      n.name = ids.name(id);
      n.op = ids.node(id).op;
      n.runs = fp32.nodes.at(id).runs;
      n.float_outputs = fp32.nodes.at(id).float_outputs;
      n.fp32 = fp32.nodes.at(id).stats;
      report.nodes.push_back(std::move(n));
    }
    return report;
  }

  // fp16 storage, emulated.
  const runtime::Fp16Follow follow =
      options.follow ? *options.follow : runtime::fp16_follow(&engine.flags());
  report.follow = follow;
  const Pass emu = emulate(engine, graph, ids, inputs, ref, options.rule, {}, follow);
  const auto emu_out = output_errors(ref, emu.outputs);
  report.max_output_error = max_normalized(emu_out);

  // gl: the driver's rule, then a real fp16 run.
  std::optional<Pass> gl_pass, driver_pass;
  if (options.use_gl) {
    report.probe = probe_gl_half(engine);
    if (report.probe.available) {
      report.driver_rule = report.probe.store.rule;
      if (*report.driver_rule != options.rule)
        driver_pass = emulate(engine, graph, ids, inputs, ref, *report.driver_rule, {}, follow);
      engine.set_precision(runtime::Precision::Fp16);
      engine.set_backend("gl");
      // gl rounds where the emulation does, for this run.
      struct FollowFlag {
        runtime::Flags& flags;
        std::string was = flags.get_string(runtime::kFp16FollowFlag);
        ~FollowFlag() { flags.set(runtime::kFp16FollowFlag, was); }
      } restore_follow{engine.flags()};
      engine.flags().set(runtime::kFp16FollowFlag, runtime::to_string(follow));
      try {
        runtime::Executor exec(engine, graph);
        gl_pass = run_pass(engine, exec, ids, inputs, &ref, nullptr, nullptr);
      } catch (const ModelError& e) {
        // The emulation's verdict stands on its own; gl's failure is reported, not fatal.
        report.gl_run_error = e.what();
      }
      engine.set_backend("cpu");
      engine.set_precision(runtime::Precision::Fp32);
    }
  }

  std::vector<TensorError> gl_out, driver_out;
  if (gl_pass) {
    gl_out = output_errors(ref, gl_pass->outputs);
    report.gl_max_output_error = max_normalized(gl_out);
  }
  if (driver_pass) {
    driver_out = output_errors(ref, driver_pass->outputs);
    report.driver_max_output_error = max_normalized(driver_out);
  } else if (report.driver_rule) {
    report.driver_max_output_error = report.max_output_error;
  }

  for (int id : ref.order) {
    Fp16NodeReport n;
    n.id = id;
    n.name = ids.name(id);
    n.op = ids.node(id).op;
    const NodeAcc& r = fp32.nodes.at(id);
    n.runs = r.runs;
    n.float_outputs = r.float_outputs;
    n.fp32 = r.stats;
    if (auto it = emu.nodes.find(id); it != emu.nodes.end()) {
      n.fp16 = it->second.stats;
      n.error = it->second.error;
    }
    if (gl_pass)
      if (auto it = gl_pass->nodes.find(id); it != gl_pass->nodes.end()) {
        n.gl_fp16 = it->second.stats;
        n.gl_error = it->second.error;
        n.gl_backend = it->second.backend;
      }
    if (!report.first_overflow && n.fp32.overflow > 0) report.first_overflow = n.name;
    if (!report.first_underflow && n.fp32.underflows(thr)) report.first_underflow = n.name;
    report.nodes.push_back(std::move(n));
  }
  std::optional<int> first = first_past(ref, emu, thr);
  if (first) report.first_error = ids.name(*first);
  if (gl_pass)
    if (auto g = first_past(ref, *gl_pass, thr)) report.gl_first_error = ids.name(*g);
  if (driver_pass) {
    if (auto d = first_past(ref, *driver_pass, thr)) report.driver_first_error = ids.name(*d);
  } else if (report.driver_rule) {
    report.driver_first_error = report.first_error;
  }
  // The path starts where half's range is first left (the cause), else at the first error.
  std::optional<int> cause;
  for (int id : ref.order) {
    const auto& st = fp32.nodes.at(id).stats;
    if (st.overflow > 0 || st.underflows(thr)) {
      cause = id;
      break;
    }
  }
  if (!cause) cause = first;
  if (cause && *cause < ids.main_size()) report.error_path = error_path(graph, ids, *cause, emu);

  // The fix: keep offenders in fp32, one at a time from the first, until the outputs match;
  // then drop any that turn out not to be needed.
  std::unordered_set<int> keep;
  std::vector<int> added;
  std::vector<TensorError> fixed_out = emu_out;
  bool ok = max_normalized(emu_out) <= tol;
  const Pass* last = &emu;
  std::optional<Pass> mixed;
  while (!ok && report.fix_runs < options.max_fix_runs) {
    auto next = next_offender(ref, fp32, *last, thr, keep);
    if (!next) break;
    keep.insert(*next);
    added.push_back(*next);
    mixed = emulate(engine, graph, ids, inputs, ref, options.rule, keep, follow);
    ++report.fix_runs;
    last = &*mixed;
    fixed_out = output_errors(ref, mixed->outputs);
    ok = max_normalized(fixed_out) <= tol;
  }
  if (ok && added.size() > 1) {
    for (auto it = added.rbegin(); it != added.rend() && report.fix_runs < options.max_fix_runs;
         ++it) {
      std::unordered_set<int> fewer = keep;
      fewer.erase(*it);
      Pass p = emulate(engine, graph, ids, inputs, ref, options.rule, fewer, follow);
      ++report.fix_runs;
      auto errs = output_errors(ref, p.outputs);
      if (max_normalized(errs) <= tol) keep = std::move(fewer), fixed_out = std::move(errs);
    }
  }
  report.fixed = ok;
  report.fixed_max_error = max_normalized(fixed_out);
  for (int id : ref.order)
    if (keep.count(id)) report.fp32_nodes.push_back(ids.name(id));

  for (std::size_t k = 0; k < ref.outputs.size(); ++k) {
    Fp16OutputReport o;
    o.name = k < graph.outputs.size() ? graph.outputs[k].name : "output_" + std::to_string(k);
    o.emulation = emu_out[k];
    o.fixed = fixed_out[k];
    if (!driver_out.empty()) o.driver_emulation = driver_out[k];
    if (!gl_out.empty()) o.gl = gl_out[k];
    report.outputs.push_back(std::move(o));
  }
  report.fp16_safe = !report.first_overflow && report.max_output_error <= tol;
  return report;
}

namespace {

nlohmann::json opt_name(const std::optional<std::string>& s) {
  return s ? nlohmann::json(*s) : nlohmann::json(nullptr);
}

nlohmann::json rule_json(const HalfRule& r) {
  return {{"rounding", std::string(to_string(r.rounding))},
          {"overflow", std::string(to_string(r.overflow))}};
}

}  // namespace

std::string Fp32Nonfinite::message() const {
  std::string s = "the fp32 reference is not finite: output";
  s += outputs.size() > 1 ? "s " : " ";
  for (std::size_t k = 0; k < outputs.size(); ++k) s += (k ? ", '" : "'") + outputs[k] + "'";
  s += (outputs.size() > 1 ? " hold " : " holds ") + value + " in fp32 already";
  if (!node.empty()) s += ", first produced by node '" + node + "' (" + op + ")";
  if (!input.empty()) s += "; input '" + input + "' holds inf or NaN";
  return s + ". Fix the model or its inputs first: fp16 has nothing finite to be compared with";
}

nlohmann::json to_json(const Fp16Report& r) {
  nlohmann::json j;
  j["verdict"] = r.fp32_nonfinite ? "fp32-nonfinite" : r.fp16_safe ? "fp16-safe" : "not-fp16-safe";
  if (r.fp32_nonfinite) {
    const auto& b = *r.fp32_nonfinite;
    j["fp32_nonfinite"] = {
        {"outputs", b.outputs},
        {"value", b.value},
        {"first_node", b.node.empty() ? nlohmann::json() : nlohmann::json(b.node)},
        {"op", b.op.empty() ? nlohmann::json() : nlohmann::json(b.op)},
        {"input", b.input.empty() ? nlohmann::json() : nlohmann::json(b.input)},
        {"message", b.message()}};
  } else {
    j["fp32_nonfinite"] = nullptr;
  }
  j["overflow_rule"] =
      std::string(to_string(r.driver_rule ? r.driver_rule->overflow : r.rule.overflow));
  j["overflow_rule_source"] = r.driver_rule ? "gl driver probe" : "emulation (no gl driver)";
  j["rounding"] = std::string(to_string(r.driver_rule ? r.driver_rule->rounding : r.rule.rounding));
  j["emulation_rule"] = rule_json(r.rule);
  j["fp16_follow"] = std::string(runtime::to_string(r.follow));
  j["gl_probe"] = to_json(r.probe);
  if (!r.gl_run_error.empty()) j["gl_run_error"] = r.gl_run_error;
  j["first_overflow"] = opt_name(r.first_overflow);
  j["first_underflow"] = opt_name(r.first_underflow);
  j["first_error"] = opt_name(r.first_error);
  j["gl_first_error"] = opt_name(r.gl_first_error);
  j["driver_emulation_first_error"] = opt_name(r.driver_first_error);
  j["node_threshold"] = r.node_threshold;
  j["output_tolerance"] = r.output_tolerance;
  j["fp16_safe"] = r.fp16_safe;
  j["max_output_error"] = json_number(r.max_output_error);
  j["driver_emulation_max_output_error"] =
      r.driver_max_output_error ? json_number(*r.driver_max_output_error) : nullptr;
  j["gl_max_output_error"] = r.gl_max_output_error ? json_number(*r.gl_max_output_error) : nullptr;
  j["fp32_nodes"] = r.fp32_nodes;
  j["fixed_max_error"] = json_number(r.fixed_max_error);
  j["fixed"] = r.fixed;
  j["fix_runs"] = r.fix_runs;
  nlohmann::json path = nlohmann::json::array();
  for (const auto& s : r.error_path)
    path.push_back({{"node", s.node}, {"op", s.op}, {"rel_error", json_number(s.error)}});
  j["error_path"] = path;
  nlohmann::json outs = nlohmann::json::array();
  for (const auto& o : r.outputs) {
    nlohmann::json oj = {
        {"name", o.name}, {"emulation", to_json(o.emulation)}, {"fixed", to_json(o.fixed)}};
    oj["driver_emulation"] =
        o.driver_emulation ? to_json(*o.driver_emulation) : nlohmann::json(nullptr);
    oj["gl"] = o.gl ? to_json(*o.gl) : nlohmann::json(nullptr);
    outs.push_back(oj);
  }
  j["outputs"] = outs;
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& n : r.nodes) {
    nlohmann::json nj = {{"name", n.name}, {"op", n.op}, {"runs", n.runs}};
    nj["fp32"] = to_json(n.fp32);
    nj["fp16"] = to_json(n.fp16);
    nj["error"] = to_json(n.error);
    if (n.gl_fp16) {
      nj["gl_fp16"] = to_json(*n.gl_fp16);
      nj["gl_error"] = to_json(*n.gl_error);
      nj["gl_backend"] = n.gl_backend;
    }
    nodes.push_back(nj);
  }
  j["nodes"] = nodes;
  return j;
}

namespace {
std::string fmt(double v) {
  if (std::isinf(v)) return "inf";
  if (std::isnan(v)) return "nan";
  std::ostringstream s;
  s.precision(3);
  s << v;
  return s.str();
}
}  // namespace

std::string to_text(const Fp16Report& r, int worst_nodes) {
  std::ostringstream s;
  if (r.fp32_nonfinite) {
    s << "NOT CHECKED: " << terminal_safe(r.fp32_nonfinite->message()) << "\n";
    return s.str();
  }
  s << (r.fp16_safe ? "fp16-safe" : "NOT fp16-safe") << ": outputs' error in fp16 storage "
    << fmt(r.max_output_error) << " (emulation, " << to_string(r.rule.rounding) << ", overflow "
    << to_string(r.rule.overflow) << "; tolerance " << fmt(r.output_tolerance) << ")\n";
  s << "fp16 " << runtime::describe(r.follow) << "\n";
  if (r.probe.available) {
    s << "gl driver: rounds " << to_string(r.probe.store.rule.rounding) << ", overflow becomes "
      << to_string(r.probe.store.rule.overflow) << (r.probe.store.exact ? "" : " (closest match)")
      << "; upload rounds " << to_string(r.probe.upload.rule.rounding) << "\n";
    if (r.driver_max_output_error)
      s << "  outputs' error under the driver's rule (emulated) " << fmt(*r.driver_max_output_error)
        << "\n";
    if (r.gl_max_output_error)
      s << "  outputs' error on gl fp16 " << fmt(*r.gl_max_output_error) << "\n";
  } else if (!r.probe.reason.empty()) {
    s << "gl fp16: not run (" << r.probe.reason << ")\n";
  }
  s << "first overflow (|x| > 65504): " << terminal_safe(r.first_overflow.value_or("none")) << "\n";
  s << "first underflow (flushed to zero): " << terminal_safe(r.first_underflow.value_or("none"))
    << "\n";
  s << "first node past error " << fmt(r.node_threshold) << ": "
    << terminal_safe(r.first_error.value_or("none")) << "\n";
  if (!r.error_path.empty()) {
    s << "how the error travels:";
    for (const auto& p : r.error_path)
      s << "\n  " << terminal_safe(p.node) << " (" << terminal_safe(p.op) << ") " << fmt(p.error);
    s << "\n";
  }
  for (const auto& o : r.outputs) {
    s << "output " << terminal_safe(o.name) << ": error " << fmt(o.emulation.normalized());
    if (o.gl) s << ", gl " << fmt(o.gl->normalized());
    if (o.emulation.new_nonfinite) s << " (" << o.emulation.new_nonfinite << " new inf/NaN)";
    s << "\n";
  }
  if (r.fp32_nodes.empty()) {
    s << (r.fixed ? "fix: none needed\n" : "fix: none found\n");
  } else {
    s << "fix: keep in fp32 (" << r.fp32_nodes.size() << " nodes):";
    for (const auto& n : r.fp32_nodes) s << " " << terminal_safe(n);
    s << "\n  outputs' error with it " << fmt(r.fixed_max_error)
      << (r.fixed ? " (within tolerance)" : " (still past tolerance)") << " after " << r.fix_runs
      << " checking runs\n";
  }
  std::vector<const Fp16NodeReport*> worst;
  for (const auto& n : r.nodes)
    if (n.float_outputs) worst.push_back(&n);
  std::stable_sort(worst.begin(), worst.end(),
                   [](auto* a, auto* b) { return a->error.relative() > b->error.relative(); });
  if (static_cast<int>(worst.size()) > worst_nodes) worst.resize(worst_nodes);
  s << "worst nodes (relative error in fp16, fp32 range):\n";
  for (const auto* n : worst) {
    s << "  " << fmt(n->error.relative()) << "  " << terminal_safe(n->name) << " ("
      << terminal_safe(n->op) << ")  max|x| " << fmt(n->fp32.max_abs);
    if (n->fp32.overflow) s << "  overflow " << n->fp32.overflow;
    if (n->fp32.flushed) s << "  flushed " << n->fp32.flushed;
    if (n->gl_error) s << "  gl " << fmt(n->gl_error->relative());
    s << "\n";
  }
  return s.str();
}

}  // namespace tfjsi::analysis
