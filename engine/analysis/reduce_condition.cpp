#include "analysis/reduce_condition.h"

#include <cmath>
#include <functional>
#include <sstream>

#include "analysis/backend_restore.h"
#include "analysis/compare.h"
#include "analysis/node_trace.h"
#include "core/error.h"

namespace tfjsi::analysis {
namespace {

using Values = std::vector<std::optional<HostTensor>>;

// Ends a recording run once the culprit has been seen: nothing after it is needed.
struct Stop {};

// Watches the main graph's nodes: how often each ran, the values of each until the culprit,
// and the node whose kernel was running when a run failed.
class Recorder final : public runtime::Observer {
 public:
  using Hit = std::function<bool(int node, const Values& outputs)>;
  Recorder(const graph::Graph& g, Hit hit, bool keep_values, bool stop_early)
      : g_(g), hit_(std::move(hit)), keep_(keep_values), stop_early_(stop_early) {
    values.resize(g.nodes.size());
    runs.assign(g.nodes.size(), 0);
  }
  void run_started() override { started = -1; }
  // A function body's nodes leave it alone: a failure inside one is the calling node's.
  void before_kernel(const runtime::KernelEvent& e) override {
    if (const int i = index(e.node); i >= 0) started = i;
  }
  void after_kernel(runtime::KernelEvent& e) override {
    const int i = index(e.node);
    if (i == started) started = -1;
    if (i < 0) return;
    ++runs[static_cast<std::size_t>(i)];
    if (culprit >= 0) return;
    Values outs;
    for (const runtime::Tensor& t : e.outputs) {
      if (!e.engine.alive(t) || e.engine.dtype(t) == DType::String)
        outs.emplace_back();
      else
        outs.emplace_back(e.engine.read(t));
    }
    const bool hit = hit_ && hit_(i, outs);
    if (hit) hit_values = outs;  // shares the data
    if (keep_ && runs[static_cast<std::size_t>(i)] == 1)
      values[static_cast<std::size_t>(i)] = std::move(outs);
    if (hit) {
      culprit = i;
      if (stop_early_) throw Stop{};
    }
  }

  std::vector<Values> values;
  std::vector<int> runs;
  Values hit_values;
  int culprit = -1;
  int started = -1;  // the node whose kernel is running (the failing one, after a throw)

 private:
  int index(const graph::Node& n) const {
    if (g_.nodes.empty() || &n < g_.nodes.data() || &n >= g_.nodes.data() + g_.nodes.size())
      return -1;
    return static_cast<int>(&n - g_.nodes.data());
  }
  const graph::Graph& g_;
  Hit hit_;
  bool keep_, stop_early_;
};

// Float32, or complex64 whose parts tensor_stats counts.
bool is_float(const std::optional<HostTensor>& t) {
  return t && (t->dtype == DType::Float32 || t->dtype == DType::Complex64) && t->buffer;
}

// The output of `outs` that shows an overflow or a non-finite value; -1 if none.
int showing_output(ReduceConditionKind kind, const Values& outs, TensorStats* stats) {
  for (std::size_t k = 0; k < outs.size(); ++k) {
    if (!is_float(outs[k])) continue;
    const TensorStats s = tensor_stats(*outs[k]);
    const bool shows =
        kind == ReduceConditionKind::Fp16Overflow ? s.overflow > 0 : s.nan > 0 || s.inf > 0;
    if (shows) {
      if (stats) *stats = s;
      return static_cast<int>(k);
    }
  }
  return -1;
}

void use_backend(runtime::Engine& engine, const std::string& name, runtime::Precision p) {
  engine.set_precision(p);
  engine.set_backend(name);  // throws BackendUnavailable saying why
}

// The node a failed run names: the one whose kernel was running, else the first quoted name in
// the message that is a node of the graph (the plan's "no kernel ... for: Op (1 node, e.g. 'x')").
int failing_node(const graph::Graph& g, const Recorder& rec, const std::string& message) {
  if (rec.started >= 0) return rec.started;
  for (std::size_t at = message.find('\''); at != std::string::npos;) {
    const auto end = message.find('\'', at + 1);
    if (end == std::string::npos) break;
    const int n = g.find(std::string_view(message).substr(at + 1, end - at - 1));
    if (n >= 0) return n;
    at = message.find('\'', end + 1);
  }
  return -1;
}

bool is_input_node(const graph::Graph& g, int i) {
  for (const auto& e : g.inputs)
    if (e.ref.node == i) return true;
  return false;
}

Finding finding_at(const graph::Graph& g, int node) {
  Finding f;
  f.node = g.nodes[static_cast<std::size_t>(node)].name;
  f.op = g.nodes[static_cast<std::size_t>(node)].op;
  return f;
}

// Diverge: the culprit's outputs on both backends, compared.
std::optional<Finding> diverging(const graph::Graph& g, int node, const Values& ref,
                                 const Values& test, double tolerance) {
  Finding f = finding_at(g, node);
  f.reference_values = ref;
  f.test_values = test;
  double worst = -1;
  for (std::size_t k = 0; k < ref.size() && k < test.size(); ++k) {
    if (!ref[k] || !test[k]) continue;
    const TensorError e = tensor_error(*ref[k], *test[k]);
    if (e.normalized() > worst) {
      worst = e.normalized();
      f.output = static_cast<int>(k);
      f.mismatch = e;
      if (is_float(test[k])) f.stats = tensor_stats(*test[k]);
    }
  }
  if (!(worst > tolerance)) return std::nullopt;
  return f;
}

// One run of `graph` on the engine's active backend, watched.
void run_watched(runtime::Engine& engine, const graph::Graph& graph,
                 const runtime::NamedTensors& inputs, Recorder& rec,
                 std::span<const std::string> outputs = {}) {
  ScopedObserver watch(engine, rec);
  try {
    runtime::Executor(engine, graph).run(inputs, outputs);
  } catch (const Stop&) {
  }
}

void put_inputs(const graph::Graph& g, const runtime::NamedTensors& inputs, Recording& r) {
  for (const auto& e : g.inputs) {
    auto it = inputs.find(e.name);
    if (it == inputs.end() && e.ref.node >= 0)
      it = inputs.find(g.nodes[static_cast<std::size_t>(e.ref.node)].name);
    if (it == inputs.end() || e.ref.node < 0) continue;
    auto& v = r.values[static_cast<std::size_t>(e.ref.node)];
    v.resize(std::max<std::size_t>(v.size(), 1));
    v[0] = it->second;
    r.runs[static_cast<std::size_t>(e.ref.node)] = 1;
  }
}

}  // namespace

std::string ReduceCondition::text() const {
  switch (kind) {
    case ReduceConditionKind::Fp16Overflow:
      return "fp16-overflow";
    case ReduceConditionKind::Nonfinite:
      return "nonfinite";
    case ReduceConditionKind::Diverge:
      return "diverge:" + reference + "," + backend;
    case ReduceConditionKind::Error:
      return "error";
  }
  return {};
}

ReduceCondition parse_condition(std::string_view text) {
  ReduceCondition c;
  if (text == "fp16-overflow") {
    c.kind = ReduceConditionKind::Fp16Overflow;
  } else if (text == "nonfinite") {
    c.kind = ReduceConditionKind::Nonfinite;
  } else if (text == "error") {
    c.kind = ReduceConditionKind::Error;
  } else if (text.starts_with("diverge:")) {
    c.kind = ReduceConditionKind::Diverge;
    const std::string_view pair = text.substr(8);
    const auto comma = pair.find(',');
    if (comma == std::string_view::npos || comma == 0 || comma + 1 == pair.size() ||
        pair.find(',', comma + 1) != std::string_view::npos)
      throw UsageError("--until diverge expects two backends, as diverge:cpu,gl; got '" +
                       std::string(text) + "'");
    c.reference = std::string(pair.substr(0, comma));
    c.backend = std::string(pair.substr(comma + 1));
  } else {
    throw UsageError("--until expects fp16-overflow, nonfinite, diverge:A,B or error; got '" +
                     std::string(text) + "'");
  }
  return c;
}

std::string Finding::summary(const ReduceCondition& c) const {
  std::ostringstream s;
  s.precision(4);
  s << "node '" << node << "' (" << op << ")";
  switch (c.kind) {
    case ReduceConditionKind::Fp16Overflow:
      s << " output " << output << ": max |x| " << stats.max_abs << " > 65504 (" << stats.overflow
        << " of " << stats.count << " values past half's range)";
      break;
    case ReduceConditionKind::Nonfinite:
      s << " output " << output << " on " << c.backend << ": " << stats.nan << " NaN, " << stats.inf
        << " inf of " << stats.count << " values";
      break;
    case ReduceConditionKind::Diverge:
      s << " output " << output << ": " << c.backend << " against " << c.reference
        << ", max |diff| " << mismatch.max_abs_error << " (normalized " << mismatch.normalized()
        << " > " << c.tolerance << ")";
      break;
    case ReduceConditionKind::Error:
      s << " fails on " << c.backend << ": " << error;
      break;
  }
  return s.str();
}

nlohmann::json Finding::to_json(const ReduceCondition& c) const {
  nlohmann::json j = {{"node", node}, {"op", op}};
  if (c.kind == ReduceConditionKind::Error) {
    j["error"] = error;
    return j;
  }
  j["output"] = output;
  j["stats"] = analysis::to_json(stats);
  if (c.kind == ReduceConditionKind::Diverge) j["mismatch"] = analysis::to_json(mismatch);
  return j;
}

std::optional<Recording> record_model(runtime::Engine& engine, const graph::Graph& graph,
                                      const runtime::NamedTensors& inputs,
                                      const ReduceCondition& c) {
  BackendRestore restore(engine);
  Recording r;
  const auto take = [&](Recorder& rec) {
    r.values = std::move(rec.values);
    r.runs = std::move(rec.runs);
    put_inputs(graph, inputs, r);
  };
  switch (c.kind) {
    case ReduceConditionKind::Fp16Overflow:
    case ReduceConditionKind::Nonfinite: {
      const bool overflow = c.kind == ReduceConditionKind::Fp16Overflow;
      if (overflow)
        use_backend(engine, "cpu", runtime::Precision::Fp32);
      else
        use_backend(engine, c.backend, c.precision);
      r.recorded_on = std::string(engine.backend().name());
      TensorStats stats;
      int output = -1;
      Recorder rec(
          graph,
          [&](int, const Values& outs) {
            output = showing_output(c.kind, outs, &stats);
            return output >= 0;
          },
          true, true);
      run_watched(engine, graph, inputs, rec);
      if (rec.culprit < 0) return std::nullopt;
      r.culprit = rec.culprit;
      r.finding = finding_at(graph, rec.culprit);
      r.finding.output = output;
      r.finding.stats = stats;
      take(rec);
      return r;
    }
    case ReduceConditionKind::Diverge: {
      CompareOptions opt;
      opt.backends = {c.backend};
      opt.tolerance = c.tolerance;
      opt.precision = c.precision;
      opt.isolate = false;
      opt.reference = c.reference;
      const CompareReport report = compare_backends(engine, graph, inputs, opt);
      for (const auto& b : report.backends) {
        if (!b.available) throw BackendUnavailable("backend '" + b.name + "': " + b.reason);
        if (!b.run_error.empty())
          throw ModelError("the run on " + b.name + " fails, so it cannot diverge: " + b.run_error +
                           " (reduce it with --until error --backend " + b.name + ")");
      }
      // The first divergent node of the main graph (function bodies cannot be cut into).
      int culprit = -1;
      for (const auto& n : report.nodes) {
        bool divergent = false;
        for (const auto& res : n.results) divergent = divergent || res.divergent;
        const int i = graph.find(n.name);
        if (divergent && i >= 0 && graph.nodes[static_cast<std::size_t>(i)].op == n.op) {
          culprit = i;
          break;
        }
      }
      if (culprit < 0) return std::nullopt;
      use_backend(engine, c.reference, runtime::Precision::Fp32);
      r.recorded_on = c.reference;
      Recorder rec(
          graph, [&](int i, const Values&) { return i == culprit; }, true, true);
      run_watched(engine, graph, inputs, rec);
      const Values ref = rec.hit_values;
      use_backend(engine, c.backend, c.precision);
      Recorder test(
          graph, [&](int i, const Values&) { return i == culprit; }, false, true);
      run_watched(engine, graph, inputs, test);
      auto f = diverging(graph, culprit, ref, test.hit_values, c.tolerance);
      if (!f) return std::nullopt;  // it diverged only in a later occurrence (a loop)
      r.culprit = culprit;
      r.finding = std::move(*f);
      take(rec);
      return r;
    }
    case ReduceConditionKind::Error: {
      use_backend(engine, c.backend, c.precision);
      r.recorded_on = std::string(engine.backend().name());
      Recorder rec(graph, nullptr, true, false);
      std::string message;
      try {
        run_watched(engine, graph, inputs, rec);
        return std::nullopt;
      } catch (const ModelError& e) {
        message = e.what();
      }
      const int culprit = failing_node(graph, rec, message);
      if (culprit < 0 || is_input_node(graph, culprit))
        throw ModelError("the run fails, but not at a node to reduce to: " + message);
      r.culprit = culprit;
      r.finding = finding_at(graph, culprit);
      r.finding.error = message;
      // A plan that refused a node ran nothing: run what the culprit reads, to record it.
      const auto& node = graph.nodes[static_cast<std::size_t>(culprit)];
      std::vector<std::string> wanted;
      for (const auto& in : node.inputs) {
        const auto& src = graph.nodes[static_cast<std::size_t>(in.node)];
        if (src.op == "Const" || is_input_node(graph, in.node)) continue;
        const auto& v = rec.values[static_cast<std::size_t>(in.node)];
        if (static_cast<std::size_t>(in.output) >= v.size() || !v[in.output])
          wanted.push_back(src.name + ":" + std::to_string(in.output));
      }
      if (!wanted.empty()) {
        Recorder more(graph, nullptr, true, false);
        try {
          run_watched(engine, graph, inputs, more, wanted);
        } catch (const ModelError& e) {
          throw ModelError("the run fails at node '" + node.name + "' (" + node.op +
                           "), and running what it reads fails too: " + e.what());
        }
        take(more);
      } else {
        take(rec);
      }
      return r;
    }
  }
  return std::nullopt;
}

std::optional<Finding> check_at(runtime::Engine& engine, const graph::Graph& graph,
                                const runtime::NamedTensors& inputs, const ReduceCondition& c,
                                const std::string& culprit_name) {
  const int culprit = graph.find(culprit_name);
  if (culprit < 0) return std::nullopt;
  BackendRestore restore(engine);
  const auto at_culprit = [&](int i, const Values&) { return i == culprit; };
  switch (c.kind) {
    case ReduceConditionKind::Fp16Overflow:
    case ReduceConditionKind::Nonfinite: {
      if (c.kind == ReduceConditionKind::Fp16Overflow)
        use_backend(engine, "cpu", runtime::Precision::Fp32);
      else
        use_backend(engine, c.backend, c.precision);
      Recorder rec(graph, at_culprit, false, true);
      try {
        run_watched(engine, graph, inputs, rec);
      } catch (const ModelError&) {
        return std::nullopt;
      }
      Finding f = finding_at(graph, culprit);
      f.output = showing_output(c.kind, rec.hit_values, &f.stats);
      if (f.output < 0) return std::nullopt;
      return f;
    }
    case ReduceConditionKind::Diverge: {
      try {
        use_backend(engine, c.reference, runtime::Precision::Fp32);
        Recorder ref(graph, at_culprit, false, true);
        run_watched(engine, graph, inputs, ref);
        use_backend(engine, c.backend, c.precision);
        Recorder test(graph, at_culprit, false, true);
        run_watched(engine, graph, inputs, test);
        return diverging(graph, culprit, ref.hit_values, test.hit_values, c.tolerance);
      } catch (const ModelError&) {
        return std::nullopt;
      }
    }
    case ReduceConditionKind::Error: {
      use_backend(engine, c.backend, c.precision);
      Recorder rec(graph, nullptr, false, false);
      try {
        run_watched(engine, graph, inputs, rec);
        return std::nullopt;
      } catch (const ModelError& e) {
        if (failing_node(graph, rec, e.what()) != culprit) return std::nullopt;
        Finding f = finding_at(graph, culprit);
        f.error = e.what();
        return f;
      }
    }
  }
  return std::nullopt;
}

}  // namespace tfjsi::analysis
