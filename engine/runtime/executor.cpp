#include "runtime/executor.h"

#include <stdexcept>
#include <string>

#include "core/error.h"
#include "runtime/graph_runner.h"

namespace tfjsi::runtime {

Executor::Executor(Engine& engine, const graph::Graph& graph)
    : engine_(engine),
      graph_(graph),
      resources_(std::make_unique<Resources>()),
      runner_(std::make_unique<GraphRunner>(engine, graph, graph.functions,
                                            std::vector<std::string>{}, *resources_)) {
  // Its weights (the moved pads' and concats' constants) are made now, with the model's.
  if (engine_.flags().get_bool("sink_transposes")) prepare_sunk();
  if (!graph.initializer.empty()) {
    initializer_ = std::make_unique<graph::Graph>();
    initializer_->nodes = graph.initializer;
    initializer_->rebuild_index();
  }
}

// The model initializer (modelInitializer: hash tables and their contents) runs once, before the
// first run, into the model's resources, as TF.js's GraphModel runs it before its first execute.
// What it computes is the tables' contents (InitializeTable, LookupTableImport and what they
// need): the converter puts nothing else there that a run reads, and an op of it we cannot run
// does not keep the model from running when no table needs it.
void Executor::run_initializer() {
  if (!initializer_) return;
  const graph::Graph& g = *initializer_;
  std::vector<graph::TensorRef> refs;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const std::string& op = g.nodes[i].op;
    if (op.starts_with("InitializeTable") || op.starts_with("LookupTableImport"))
      refs.push_back({static_cast<int>(i), 0});
  }
  if (refs.empty()) {
    initializer_.reset();
    return;
  }
  // Observers follow the model's graph: the initializer's nodes are not among them.
  struct Unobserved {
    Engine& e;
    std::vector<Observer*> saved = e.observers();
    explicit Unobserved(Engine& engine) : e(engine) {
      for (Observer* o : saved) e.remove_observer(o);
    }
    ~Unobserved() {
      for (Observer* o : saved) e.add_observer(o);
    }
  } unobserved{engine_};
  GraphRunner runner(engine_, g, graph_.functions, {}, *resources_);
  for (auto& v : runner.run({}, refs)) v.tensor.dispose();
  initializer_.reset();
}

Executor::~Executor() = default;

std::vector<graph::TensorRef> Executor::resolve_outputs(std::span<const std::string> names) const {
  std::vector<graph::TensorRef> refs;
  if (names.empty()) {
    for (const auto& o : graph_.outputs) refs.push_back(o.ref);
    if (refs.empty()) throw ModelError("the model declares no outputs; name the ones to compute");
    return refs;
  }
  for (const auto& name : names) {
    bool found = false;
    for (const auto& o : graph_.outputs)
      if (o.name == name) {
        refs.push_back(o.ref);
        found = true;
        break;
      }
    if (found) continue;
    std::string node = name;
    int output = 0;
    if (auto colon = name.rfind(':'); colon != std::string::npos && graph_.find(name) < 0) {
      node = name.substr(0, colon);
      try {
        std::size_t used = 0;
        output = std::stoi(name.substr(colon + 1), &used);
        if (used != name.size() - colon - 1 || output < 0) throw std::invalid_argument("");
      } catch (const std::logic_error&) {
        throw ModelError("output '" + name + "': bad output index after ':'");
      }
    }
    const int index = graph_.find(node);
    if (index < 0) throw ModelError("output '" + name + "': no output or node of that name");
    refs.push_back({index, output});
  }
  return refs;
}

const RunStats& Executor::last_run_stats() const {
  return (last_runner_ ? last_runner_ : runner_.get())->last_stats;
}

GraphRunner& Executor::runner() {
  if (engine_.every_output_observed() || !engine_.flags().get_bool("sink_transposes"))
    return *runner_;
  prepare_sunk();
  return sunk_runner_ ? *sunk_runner_ : *runner_;
}

void Executor::prepare_sunk() {
  if (!sink_tried_) {
    sink_tried_ = true;
    graph::SinkReport report;
    try {
      sunk_graph_ = graph::sink_transposes(graph_, &report);
      sink_report_ = report;
      if (sunk_graph_)
        sunk_runner_ =
            std::make_unique<GraphRunner>(engine_, *sunk_graph_, sunk_graph_->functions,
                                          std::vector<std::string>{}, *resources_, runner_.get());
    } catch (const std::exception& e) {
      // The model's own graph still runs; the rewrite is only a speed-up.
      sunk_runner_.reset();
      sunk_graph_.reset();
      engine_.log(std::string("WARNING: moving the model's Transposes failed (") + e.what() +
                  "); it runs as written");
    }
  }
}

// The same values in `r`'s graph: every node of the model keeps its name and value there.
std::vector<graph::TensorRef> Executor::refs_in(const GraphRunner& r,
                                                std::vector<graph::TensorRef> refs) const {
  if (&r == runner_.get()) return refs;
  for (auto& ref : refs) {
    const int i = r.graph.find(graph_.nodes[static_cast<std::size_t>(ref.node)].name);
    if (i < 0) throw std::logic_error("sunk graph lost node " + graph_.nodes[ref.node].name);
    ref.node = i;
  }
  return refs;
}

const Plan& Executor::plan(std::span<const std::string> outputs) {
  GraphRunner& r = runner();
  return r.plan(refs_in(r, resolve_outputs(outputs)));
}

std::vector<HostTensor> Executor::run(const NamedTensors& inputs,
                                      std::span<const std::string> outputs) {
  const auto refs = resolve_outputs(outputs);
  std::vector<Value> feeds = feeds_from(inputs);
  {
    BufferPool::Scope pool_scope(engine_.buffer_pool());
    try {
      run_initializer();
    } catch (...) {
      for (auto& v : feeds) v.tensor.dispose();
      throw;
    }
  }
  for (Observer* o : engine_.observers()) o->run_started();
  // Tensors made by the run take their storage from the engine's pool (a run repeats the same
  // sizes, so the heap does not fragment); sizes the run did not ask for are freed at its end.
  BufferPool::Scope pool_scope(engine_.buffer_pool());
  // Observers hear run_finished() whether the run succeeds or throws.
  struct Finish {
    Engine& e;
    ~Finish() {
      for (Observer* o : e.observers()) o->run_finished();
      e.buffer_pool().end_round();
      e.backend().end_run();
    }
  } finish{engine_};
  GraphRunner& r = runner();
  last_runner_ = &r;
  const auto run_refs = refs_in(r, refs);
  auto attempt = [&](std::vector<Value> feeds_now) {
    std::vector<Value> values = r.run(std::move(feeds_now), run_refs);
    std::vector<HostTensor> result;
    std::string error;
    try {
      for (std::size_t k = 0; k < values.size(); ++k) {
        if (!values[k].is_tensor() && error.empty())
          error = std::string("output ") + std::to_string(k) + " is a " + values[k].kind() +
                  ", not a tensor";
        else if (values[k].is_tensor())
          result.push_back(engine_.read(values[k].tensor));
      }
    } catch (...) {
      for (auto& v : values) v.tensor.dispose();
      throw;
    }
    for (auto& v : values) v.tensor.dispose();
    if (!error.empty()) throw ModelError(error);
    return result;
  };
  try {
    return attempt(std::move(feeds));
  } catch (const BackendUnavailable& e) {
    // The active backend went away during the run (a lost GL context took its tensors with it):
    // once it says so, the run starts again, and plan() puts every node on cpu.
    Backend& b = engine_.backend();
    if (&b == &engine_.reference_backend() || b.availability().available) throw;
    engine_.log("WARNING: backend '" + std::string(b.name()) + "' failed during the run (" +
                e.what() + "); the run starts again on cpu");
  }
  return attempt(feeds_from(inputs));
}

}  // namespace tfjsi::runtime
