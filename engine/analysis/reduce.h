// `tfjsi reduce`: a model cut down to the smallest subgraph that still shows a condition (an fp16
// overflow, a NaN or inf, a divergence between two backends, a failing run), in the order of
// Polygraphy's `debug reduce`: the outputs are cut first (at the node that shows the condition,
// found by one run of the whole model, which records every tensor before it), then the inputs
// are bisected (the first half of what that node depends on is cut off, its tensors fed as
// recorded), then nodes are cut one at a time. Every candidate is run; a cut is kept only when
// the same node still shows the condition. The result is written as a graph-model bundle TF.js
// loads, its inputs as .npy, and repro.js.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "analysis/reduce_condition.h"
#include "analysis/reduce_subgraph.h"
#include "model/bundle.h"

namespace tfjsi::analysis {

struct ReduceStep {
  std::string phase;  // "outputs", "inputs (bisect)", "linear"
  int step = 0;       // candidates run so far
  int nodes = 0;      // nodes of this candidate
  bool holds = false;
  int smallest = 0;  // nodes of the smallest candidate that holds so far
};

struct ReduceOptions {
  ReduceCondition condition;
  std::function<void(const ReduceStep&)> on_step;
  // When set, reduce_model throws Cancelled at the next kernel or between candidates
  // (analysis/cancel_watch.h).
  const std::atomic<bool>* cancel = nullptr;
};

struct Reduction {
  ReduceCondition condition;
  int nodes_before = 0;  // the model's graph (lowered, for a layers model)
  Finding whole;         // at the culprit, in the whole model
  Finding reduced;       // at the culprit, in the reduced model
  Subgraph subgraph;
  int steps = 0;  // candidates run
  std::string recorded_on;
};

// Nullopt when the condition never holds on the whole model. Throws ModelError for a model that
// cannot be run for the condition, BackendUnavailable for a backend that cannot run here,
// Cancelled when options.cancel is set.
std::optional<Reduction> reduce_model(runtime::Engine& engine, const model::Bundle& bundle,
                                      const graph::Graph& graph,
                                      const runtime::NamedTensors& inputs,
                                      const ReduceOptions& options);

// Writes the reduced bundle into `dir` (which exists and is empty): model.json and its shard,
// input_K.npy with inputs.json, for diverge the culprit's outputs on both backends
// (reference_K.npy, test_K.npy), and repro.js. Returns the shard bytes.
std::uint64_t write_reduction(const Reduction& r, const model::Bundle& bundle,
                              const graph::Graph& graph, const std::filesystem::path& dir);

// repro.js: loads the bundle beside it with @tensorflow/tfjs (Node), feeds the inputs, runs the
// culprit's outputs and prints what shows the condition; exits 0 when TF.js shows it, 1 when it
// does not (a backend-specific failure), 2 when it cannot run.
std::string repro_script(const Reduction& r, const nlohmann::json& files);

}  // namespace tfjsi::analysis
