// The object that runs the fp16 check (analysis::check_fp16) for the Precision dock. It lives on a
// worker thread of its own and owns an Engine made there, so every engine call (the gl backend's
// EGL context belongs to the thread that made it) happens on that thread; the check's many runs
// (fp32 reference, emulation, gl fp16, the fix search) then never hold up the Run dock's runs or
// model loading. The UI asks through a queued slot and hears back through queued signals; the
// one thing it touches directly is the shared cancel flag, checked before every node.
#pragma once

#include <QMetaType>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <vector>

#include "analysis/fp16_check.h"
#include "input_source.h"
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

class PrecisionController : public QObject {
  Q_OBJECT
 public:
  // `cancel`: set by the UI to stop the check at the next node; cleared by the UI before it asks.
  explicit PrecisionController(std::shared_ptr<std::atomic<bool>> cancel,
                               QObject* parent = nullptr);
  ~PrecisionController() override;

 public slots:
  // Runs the check (making the engine on first use); emits checkFinished or checkFailed.
  void check(tfjsi::ui::Fp16CheckRequest request);

 signals:
  // `pass`: the check's model runs so far, 1 up; `stage` says what this run is; `done` of
  // `total` nodes of it have run.
  void checkProgress(int pass, const QString& stage, int done, int total);
  void checkFinished(tfjsi::ui::Fp16CheckResultPtr result);
  // `message` names the input, node or op at fault; `cancelled` when the user stopped it.
  void checkFailed(const QString& message, bool cancelled);

 private:
  void ensure_engine();

  std::shared_ptr<std::atomic<bool>> cancel_;
  std::unique_ptr<runtime::Engine> engine_;
};

}  // namespace tfjsi::ui

Q_DECLARE_METATYPE(tfjsi::ui::Fp16CheckRequest)
Q_DECLARE_METATYPE(tfjsi::ui::Fp16CheckResultPtr)
