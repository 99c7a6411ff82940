// What a run tells the user, shared by run, bench and memcheck: output statistics and where each
// node ran.
#pragma once

#include <nlohmann/json.hpp>

#include "core/host_tensor.h"
#include "runtime/plan.h"

namespace tfjsi::cli {

// shape, dtype, min, max, mean, and counts of NaN and inf.
nlohmann::json tensor_stats(const HostTensor& t);

// Nodes per backend ("executor" for control flow and the like), the TFLite-style fallback
// warnings, segments and sync points.
nlohmann::json placement(const graph::Graph& graph, const runtime::Plan& plan);

// The plan's partitions (runs of nodes the backend takes as one unit: XNNPACK subgraph
// runtimes): how many, the nodes inside them, and the backend's nodes left outside by op.
nlohmann::json partition_report(const graph::Graph& graph, const runtime::Plan& plan);

}  // namespace tfjsi::cli
