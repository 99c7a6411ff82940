// One fp16 check (analysis::check_fp16) as the Precision dock asks for it and hears back: the
// request and result types, and the function that runs it on an engine with progress reports.
// The RunController runs it on its own engine and worker thread, so the app has one engine, one
// GL context and one set of resident weights; the engine's cancel observer stops it.
#pragma once

#include <QMetaType>
#include <QString>
#include <memory>
#include <vector>

#include "analysis/fp16_check.h"
#include "input_source.h"
#include "job_watch.h"
#include "loaded_model.h"

namespace tfjsi::runtime {
class Engine;
}  // namespace tfjsi::runtime

namespace tfjsi::ui {

struct Fp16CheckRequest {
  LoadedModelPtr model;
  std::vector<InputSpec> inputs;  // by input name; an input not listed gets the generator
  analysis::Fp16CheckOptions options;
  int threads = 0;  // 0: one per hardware thread
};

struct Fp16CheckResult {
  LoadedModelPtr model;  // the model checked (the UI drops a result for a model no longer open)
  analysis::Fp16Report report;
  double ms = 0;  // wall time of the whole check
};

using Fp16CheckResultPtr = std::shared_ptr<const Fp16CheckResult>;

// `pass`: the check's model runs so far, 1 up (job_watch.h).
using Fp16CheckProgress = JobProgress;

// Runs the check on `engine` (its backend, precision and flags are put back after). Throws what
// the engine throws: a bad input file, a model error, or the engine's cancel observer.
Fp16CheckResultPtr run_fp16_check(runtime::Engine& engine, const Fp16CheckRequest& request,
                                  const Fp16CheckProgress& progress);

}  // namespace tfjsi::ui

Q_DECLARE_METATYPE(tfjsi::ui::Fp16CheckRequest)
Q_DECLARE_METATYPE(tfjsi::ui::Fp16CheckResultPtr)
