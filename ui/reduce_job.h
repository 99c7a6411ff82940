// One reduction (analysis::reduce_to_folder) as the Precision and Compare docks ask for it and
// hear back: the request and result types, and the function that runs it on an engine. Like the
// fp16 check it runs on the RunController's engine and worker thread; the shared cancel flag
// stops it at the next kernel or between candidates, and the folder is then left as it was.
#pragma once

#include <QMetaType>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "analysis/reduce.h"
#include "input_source.h"
#include "loaded_model.h"

namespace tfjsi::runtime {
class Engine;
}  // namespace tfjsi::runtime

namespace tfjsi::ui {

struct ReduceRequest {
  LoadedModelPtr model;
  analysis::ReduceCondition condition;
  std::vector<InputSpec> inputs;  // by input name; an input not listed gets the generator
  int threads = 0;                // 0: one per hardware thread
  QString out;                    // a new or empty folder
};

struct ReduceResult {
  LoadedModelPtr model;  // the model reduced
  analysis::ReduceCondition condition;
  QString out;         // the folder written
  QString model_json;  // out/model.json
  int nodes_before = 0, nodes_after = 0, steps = 0, inputs = 0;
  std::string culprit, culprit_op;
  std::string summary;      // the condition at the culprit in the written bundle, one line
  std::uint64_t bytes = 0;  // shard bytes
  std::vector<std::string> files;
  double seconds = 0;
};

using ReduceResultPtr = std::shared_ptr<const ReduceResult>;

// Thrown when the condition never holds on the whole model (nothing to reduce, nothing written).
class NothingToReduce : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs the reduction on `engine` (its backend, precision and flags are put back after) and writes
// the reduced bundle into request.out, all or nothing. `on_step` hears each candidate, on the
// engine's thread. Throws NothingToReduce, UsageError for a folder that will not do, Cancelled,
// and what the engine throws.
ReduceResultPtr run_reduce(runtime::Engine& engine, const ReduceRequest& request,
                           const std::atomic<bool>* cancel,
                           const std::function<void(const analysis::ReduceStep&)>& on_step);

}  // namespace tfjsi::ui

Q_DECLARE_METATYPE(tfjsi::ui::ReduceRequest)
Q_DECLARE_METATYPE(tfjsi::ui::ReduceResultPtr)
