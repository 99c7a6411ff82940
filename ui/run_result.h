// The value types that cross between the UI thread and the RunController's worker thread: what to
// run (RunRequest) and what a run gave (RunResult). Both are plain, copied or shared immutably, so
// neither side ever reaches into the other's engine.
#pragma once

#include <QMetaType>
#include <QString>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/host_tensor.h"
#include "input_source.h"
#include "runtime/engine.h"

namespace tfjsi::ui {

struct RunRequest {
  std::string backend = "cpu";    // "cpu", "xnnpack", "gl"
  bool fp16 = false;              // gl textures RGBA16F instead of RGBA32F
  int threads = 0;                // 0: one per hardware thread
  std::vector<InputSpec> inputs;  // by input name; an input not listed gets the generator
  bool keep_intermediates = false;
  bool benchmark = false;  // warmup runs, then `runs` timed runs
  int warmup = 3;
  int runs = 10;
};

// Where one kernel ran and how long it took (from the Profiler, the last timed run).
struct NodeRun {
  std::string node, op, backend;
  bool fallback = false;  // the chosen backend cannot run it; cpu did
  double ms = 0;
};

struct NamedTensor {
  std::string name;
  HostTensor tensor;  // a deep copy: owned by the result alone
};

struct RunResult {
  std::uint64_t id = 0;  // counts runs of this controller, 1 up
  std::string backend;
  bool fp16 = false;
  std::size_t threads = 0;
  std::vector<NamedTensor> inputs;   // what was fed
  std::vector<NamedTensor> outputs;  // the model's outputs in order
  // Node name -> its outputs, when intermediates were kept.
  std::map<std::string, std::vector<HostTensor>> intermediates;
  std::string intermediates_note;      // why some were not kept (the memory cap), or empty
  std::vector<NodeRun> nodes;          // in execution order
  std::vector<std::string> fallbacks;  // TFLite-style warnings of the plan

  double run_ms = 0;  // a single run's wall time; for a benchmark, the median
  bool benchmark = false;
  int warmup = 0, runs = 1;
  double first_ms = 0, median_ms = 0, min_ms = 0, max_ms = 0;

  runtime::MemoryInfo memory;  // after the run
  std::size_t peak_bytes = 0;  // most tensor bytes live at once during the run(s)
};

using RunResultPtr = std::shared_ptr<const RunResult>;

struct BackendStatus {
  QString name;
  int priority = 0;  // the engine's auto-selection order, higher first
  bool available = false;
  QString reason;  // why not, when not available
};

using BackendList = std::vector<BackendStatus>;

}  // namespace tfjsi::ui

Q_DECLARE_METATYPE(tfjsi::ui::RunRequest)
Q_DECLARE_METATYPE(tfjsi::ui::RunResultPtr)
Q_DECLARE_METATYPE(tfjsi::ui::BackendList)
