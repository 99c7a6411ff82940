// Layer-by-layer backend comparison: the same inputs through a reference (cpu fp32, the ground
// truth, unless asked otherwise) and one or more other backends, every node's output compared with
// the reference's; then each node past tolerance is re-run alone on its backend, fed the
// reference's inputs, to tell a node that is wrong on its own from one that only inherits error
// (TF.js's benchmark page does this in its dump mode).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/tensor_error.h"
#include "graph/ir.h"
#include "runtime/engine.h"
#include "runtime/executor.h"

namespace tfjsi::analysis {

struct CompareOptions {
  // The reference in the list (same backend at the same precision) is skipped.
  std::vector<std::string> backends;
  // A node diverges when max |x - ref| > tolerance * max(1, max |ref|) (DESIGN.md's measure).
  double tolerance = 1e-3;
  runtime::Precision precision = runtime::Precision::Fp32;  // of the backends under test
  bool isolate = true;
  // What the others are compared with: cpu fp32 by default; any backend (gl fp32 against gl fp16,
  // xnnpack against gl) in the app's Compare panel. Unavailable: compare_backends throws
  // BackendUnavailable naming it.
  std::string reference = "cpu";
  runtime::Precision reference_precision = runtime::Precision::Fp32;
  // Called before each divergent node is re-run alone (`done` of `total` for this backend): the
  // re-runs bypass the executor, so its observers neither see nor can stop them. What it throws
  // leaves compare_backends (the app's Cancel).
  std::function<void(int done, int total)> before_isolating;
};

struct BackendNodeResult {
  std::string backend;  // the backend under test
  std::string ran_on;   // where the node actually ran ("cpu" for a fallback, "executor", ...)
  TensorError error;
  bool divergent = false;
  // Set for divergent nodes: re-run alone on ran_on with cpu's inputs.
  std::optional<bool> isolated;
  std::optional<TensorError> isolated_error;
  std::string note;  // why a divergent node could not be isolated
};

struct CompareNode {
  std::string name, op;
  std::vector<BackendNodeResult> results;  // one per backend under test that ran the node
};

struct CompareBackend {
  std::string name;
  bool available = false;
  std::string reason;     // why not available
  std::string run_error;  // the model's run failed on this backend: why
  std::optional<std::string> first_divergent;
  std::vector<std::string> isolated;  // divergent nodes wrong on their own inputs
  int divergent = 0;
  // What the reader should know about a divergent backend's rounding (gl's fp32 sums).
  std::string note;
  std::vector<std::pair<std::string, TensorError>> outputs;
  double max_output_error = 0;  // normalized
};

struct CompareReport {
  double tolerance = 0;
  std::string precision;
  std::string reference = "cpu";  // "gl fp16" when the reference is gl at fp16

  std::vector<CompareBackend> backends;
  std::vector<CompareNode> nodes;  // in the order they first ran on the reference (topological)
  std::optional<std::string> first_divergent;  // earliest over all backends
};

CompareReport compare_backends(runtime::Engine& engine, const graph::Graph& graph,
                               const runtime::NamedTensors& inputs, const CompareOptions& options);

nlohmann::json to_json(const CompareReport& r);
std::string to_text(const CompareReport& r, int worst_nodes = 15);

}  // namespace tfjsi::analysis
