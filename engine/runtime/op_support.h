// Which backend runs which op of TF.js's converter list, the way TFLite lists a delegate's ops:
// read from each backend's registration lists (Backend::native_ops) and the executor's own ops,
// never from a hand-kept table. `tfjsi env --ops`, the Environment panel and docs/ops.md show it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tfjsi::runtime {

class Engine;

struct OpSupport {
  std::string op, category;
  // The executor runs it itself (graph plumbing, control flow, TensorArray/TensorList).
  bool executor = false;
  // Per backend of the engine, lowest priority (cpu) first: whether it has a kernel of its own.
  std::vector<std::pair<std::string, bool>> native;
  // Runs on every backend: by the executor, natively, or through the cpu fallback.
  bool runs = false;
  // Why we decline to run it on purpose (ops::refusal), empty otherwise.
  std::string refused;
};

// Every op of ops::converter_ops(), in its order, then ops some backend runs that the converter
// does not map (category "not in the converter"), by name.
std::vector<OpSupport> op_support(Engine& engine);

}  // namespace tfjsi::runtime
