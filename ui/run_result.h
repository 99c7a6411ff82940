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
#include <utility>
#include <vector>

#include "core/host_tensor.h"
#include "input_source.h"
#include "runtime/engine.h"
#include "runtime/op_support.h"

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
  // Set when the node ran inside this node's kernel (a bias add, an activation): `backend` is
  // then that kernel's and `ms` about 0.
  std::string fused_into;
};

// A node's category when the graph is coloured by backend. The executor runs a few nodes itself
// (no backend kernel: Identity-like plumbing, control flow); the name says so, since "executor"
// alone reads like a fourth backend.
inline std::string backend_category(const NodeRun& n) {
  std::string c = n.fallback                ? "cpu fallback"
                  : n.backend == "executor" ? "executor (no kernel)"
                                            : n.backend;
  return n.fused_into.empty() ? c : c + " (fused)";
}

struct NamedTensor {
  std::string name;
  HostTensor tensor;  // a deep copy: owned by the result alone
};

// What the gl backend did during one run: program builds, uploads, and whether the programs came
// from the disk cache (as `tfjsi bench --json` reports them).
struct GlRunStats {
  bool present = false;  // the run used gl
  double compile_ms = 0, upload_ms = 0, download_ms = 0;
  std::int64_t new_programs = 0, compiled = 0, disk_loaded = 0, uploads = 0, dispatches = 0;
  // Every new program came from a saved binary (none built from source); false when none was new.
  bool cache_hit = false;
  std::vector<runtime::KernelBuild> builds;  // programs built from source, as their builds ended
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

  // The first run of this model on this backend and precision since the weights were made
  // (programs built, weights uploaded or packed): its profile is the "first run" one.
  bool cold = false;
  // A benchmark's first run (nodes holds its last); empty for a single run.
  std::vector<NodeRun> first_nodes;
  GlRunStats gl_first;  // the request's first run
  GlRunStats gl_last;   // its last run (the same run for a single run)

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

// One reading of the engine's memory, taken on the worker thread.
struct MemorySample {
  double t_s = 0;            // seconds since the controller started
  std::uint64_t run_id = 0;  // the run it was taken right after; 0 for an idle or reset reading
  std::string backend;       // that run's backend
  bool reset = false;        // taken right after a memory reset
  runtime::MemoryInfo info;
  // Live tensors with the node that made them; filled after runs and resets, not while idle.
  std::vector<runtime::LiveTensor> live;
  std::size_t disposed = 0;  // tensors the reset disposed
};

// The engine's settings and what its backends found, for the Environment panel.
struct EnvInfo {
  std::vector<runtime::Flag> flags;  // in definition order, with current values
  BackendList backends;
  std::string active;  // the backend runs use now, or why none
  // The gl context, when gl started.
  bool gl = false;
  std::string gl_vendor, gl_renderer, gl_version, gl_surface;
  int gl_max_texture_size = 0;
  bool gl_timer_queries = false;
  // What an RGBA16F store does with values past half's range and between half steps.
  bool probe_done = false;
  std::string probe_reason;                      // why there is no probe result
  std::string upload_rounding, upload_overflow;  // "nearest-even"/"toward-zero", "inf"/"clamp"
  std::string store_rounding, store_overflow;
  bool upload_exact = false, store_exact = false;
  std::vector<std::pair<float, float>> store_samples;  // written, read back
  // Every op of TF.js's converter and which backends run it natively (runtime::op_support).
  std::vector<runtime::OpSupport> ops;
  std::string converter_version;
};

}  // namespace tfjsi::ui

Q_DECLARE_METATYPE(tfjsi::ui::RunRequest)
Q_DECLARE_METATYPE(tfjsi::ui::RunResultPtr)
Q_DECLARE_METATYPE(tfjsi::ui::BackendList)
Q_DECLARE_METATYPE(tfjsi::ui::MemorySample)
Q_DECLARE_METATYPE(tfjsi::ui::EnvInfo)
