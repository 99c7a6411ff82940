// What `tfjsi reduce` keeps true while it cuts a model down: the condition (an fp16 overflow, a
// NaN or inf, a divergence between two backends, a failing run) and the one node that shows it.
// The first run of the whole model finds that node (the first to show the condition, in run
// order) and records every tensor before it; each smaller candidate is then asked whether the
// same node still shows it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/tensor_error.h"
#include "analysis/tensor_stats.h"
#include "graph/ir.h"
#include "runtime/engine.h"
#include "runtime/executor.h"

namespace tfjsi::analysis {

enum class ReduceConditionKind { Fp16Overflow, Nonfinite, Diverge, Error };

struct ReduceCondition {
  ReduceConditionKind kind = ReduceConditionKind::Error;
  // Nonfinite, Error: the backend the model runs on. Diverge: the one under test (B).
  std::string backend = "cpu";
  // Diverge: the reference (A), run at fp32. Fp16Overflow always measures on cpu at fp32, as
  // check-fp16 does.
  std::string reference = "cpu";
  runtime::Precision precision = runtime::Precision::Fp32;  // of `backend`
  double tolerance = 1e-3;  // Diverge: DESIGN.md's measure, as compare's
  // "fp16-overflow", "nonfinite", "diverge:cpu,gl", "error".
  std::string text() const;
};

// Parses --until's value; throws UsageError naming what it expects. Diverge takes its two
// backends from the text; the others keep `backend`.
ReduceCondition parse_condition(std::string_view text);

// What shows the condition at the culprit in one run.
struct Finding {
  std::string node, op;
  int output = 0;     // the output that shows it (not Error)
  TensorStats stats;  // that output's values (Diverge: on the backend under test)
  std::string error;  // Error: the run's message
  // Diverge: that output on the backend under test against the reference.
  TensorError mismatch;
  // Diverge: the culprit's outputs on the reference and on the backend under test.
  std::vector<std::optional<HostTensor>> reference_values, test_values;
  // One line: "node 'x' (Conv2D) output 0: max |x| 1.2e+05 > 65504".
  std::string summary(const ReduceCondition& c) const;
  nlohmann::json to_json(const ReduceCondition& c) const;
};

// The run of the whole model: the culprit and the values of every node that ran before it.
struct Recording {
  int culprit = -1;  // index in graph.nodes
  Finding finding;
  // Per node of the main graph: its outputs as they were (nullopt: dead, a string, a
  // TensorList); the model inputs under their Placeholder nodes. Empty for nodes after the
  // culprit.
  std::vector<std::vector<std::optional<HostTensor>>> values;
  std::vector<int> runs;  // how often each node ran (a recorded value is one to cut at only if 1)
  // The backend whose values were recorded, for the messages.
  std::string recorded_on;
};

// Runs the model; nullopt when the condition never holds. Throws ModelError when the run fails
// for a condition other than Error, and BackendUnavailable for a backend that cannot run here.
std::optional<Recording> record_model(runtime::Engine& engine, const graph::Graph& graph,
                                      const runtime::NamedTensors& inputs,
                                      const ReduceCondition& condition);

// Whether node `culprit` of `graph` (a candidate) shows the condition when run on `inputs`; a
// run that fails elsewhere, or differently, does not.
std::optional<Finding> check_at(runtime::Engine& engine, const graph::Graph& graph,
                                const runtime::NamedTensors& inputs,
                                const ReduceCondition& condition, const std::string& culprit);

}  // namespace tfjsi::analysis
