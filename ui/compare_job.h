// One backend comparison (analysis::compare_backends) as the Compare dock asks for it and hears
// back: two sides (a backend and, for gl, its precision), the request and result types, and the
// function that runs it on an engine with progress reports. Like the fp16 check, it runs on the
// RunController's engine and worker thread, and the engine's cancel observer stops it.
#pragma once

#include <QMetaType>
#include <QString>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "analysis/compare.h"
#include "input_source.h"
#include "job_watch.h"
#include "loaded_model.h"

namespace tfjsi::runtime {
class Engine;
}  // namespace tfjsi::runtime

namespace tfjsi::ui {

// What one side of a comparison runs on: cpu, xnnpack, gl fp32 or gl fp16.
struct CompareSide {
  std::string backend = "cpu";
  bool fp16 = false;      // gl only
  QString label() const;  // "gl fp16", "cpu"
  bool operator==(const CompareSide&) const = default;
};

struct CompareRequest {
  LoadedModelPtr model;
  CompareSide test{"gl", true};
  CompareSide reference;          // the side the test side is measured against (cpu by default)
  std::vector<InputSpec> inputs;  // by input name; an input not listed gets the generator
  double tolerance = 1e-3;        // DESIGN.md's: max |a - b| <= tolerance x max(1, max |b|)
  bool isolate = true;            // re-run each divergent node alone on the reference's inputs
  int threads = 0;                // 0: one per hardware thread
};

struct CompareResult {
  LoadedModelPtr model;  // the model compared (the UI drops a result for a model no longer open)
  CompareSide test, reference;
  analysis::CompareReport report;
  double ms = 0;  // wall time of the whole comparison
};

using CompareResultPtr = std::shared_ptr<const CompareResult>;

// `pass` (job_watch.h): 1 the reference's run, 2 the test side's, 3 the divergent nodes re-run
// alone.
using CompareProgress = JobProgress;

// Runs the comparison on `engine` (its backend, precision and flags are put back after). Throws
// what the engine throws: a bad input file, BackendUnavailable for a reference that cannot run
// here, or the engine's cancel observer; `stop_point`, called between the re-runs of divergent
// nodes (which the engine's observers do not see), may throw to stop there too. A test side that
// cannot run is named in the report.
CompareResultPtr run_compare(runtime::Engine& engine, const CompareRequest& request,
                             const CompareProgress& progress,
                             const std::function<void()>& stop_point = {});

}  // namespace tfjsi::ui

Q_DECLARE_METATYPE(tfjsi::ui::CompareRequest)
Q_DECLARE_METATYPE(tfjsi::ui::CompareResultPtr)
