// Where a run's NaN or inf comes from: the first node, in run order, whose output holds it, and
// the weight among that node's inputs that already held inf. `tfjsi run` says so under an output
// that is not finite, instead of leaving the user with a NaN count.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "graph/ir.h"
#include "runtime/executor.h"

namespace tfjsi::analysis {

struct NonfiniteOrigin {
  std::string value;     // "NaN" or "inf"
  std::string node, op;  // the first node whose output held it
  std::string weight;    // a Const input of that node holding inf or NaN; empty if none
  std::string input;     // a model input holding inf or NaN; empty if none
  // "NaN first appears at node 'mul' (Mul), which reads weight 'w' holding inf".
  std::string message() const;
};

// Whether a float32 tensor holds NaN (nan) or +-inf (!nan).
bool holds_nonfinite(const HostTensor& t, bool nan);

// Runs `graph` once more on the engine's active backend with every node's output watched and
// returns the first node whose output holds NaN (when `nan`) or inf; nullopt if no node's does
// (the value came from a weight or an input passed straight through).
std::optional<NonfiniteOrigin> find_nonfinite_origin(runtime::Engine& engine,
                                                     const graph::Graph& graph,
                                                     const runtime::NamedTensors& inputs, bool nan);

}  // namespace tfjsi::analysis
