// The model inputs of a run: `--input NAME=FILE.npy` (or `--input FILE.npy` for a model with one
// input), and DESIGN.md's deterministic generator for every input not given.
#pragma once

#include <string>
#include <vector>

#include "graph/ir.h"
#include "runtime/executor.h"

namespace tfjsi::cli {

struct ModelInputs {
  runtime::NamedTensors tensors;       // by endpoint name
  std::vector<std::string> generated;  // endpoints filled by the generator
};

// Throws ModelError for an unreadable .npy and for a name that is no input of the model (naming
// the inputs it has), UsageError for a malformed --input.
ModelInputs make_inputs(const graph::Graph& graph, const std::vector<std::string>& specs);

}  // namespace tfjsi::cli
