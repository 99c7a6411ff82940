// `tfjsi reduce` and the GUI's "Reduce to a repro..." end to end: the model reduced, the bundle
// written into an OutputFolder, read back by our loader and run on the inputs written beside it
// (it must still show the condition at the same node), and only then given the folder's name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/output_folder.h"
#include "analysis/reduce.h"

namespace tfjsi::analysis {

struct ReducedBundle {
  Reduction reduction;
  Finding confirmed;        // the condition at the culprit in the bundle as written, read back
  int nodes_after = 0;      // nodes of the written bundle's graph
  std::uint64_t bytes = 0;  // shard bytes written
  std::vector<std::string> files;  // model.json, inputs.json, repro.js, the shards
  double seconds = 0;              // the whole of it
};

// Nullopt when the condition never holds on the whole model (nothing is written). Throws what
// reduce_model throws, and ModelError when the bundle cannot be written or, read back, does not
// show the condition. Whatever it throws, `folder` is left uncommitted (its destructor removes
// the staging folder).
std::optional<ReducedBundle> reduce_to_folder(runtime::Engine& engine, const model::Bundle& bundle,
                                              const graph::Graph& graph,
                                              const runtime::NamedTensors& inputs,
                                              const ReduceOptions& options, OutputFolder& folder);

}  // namespace tfjsi::analysis
