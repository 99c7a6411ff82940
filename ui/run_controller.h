// The object that owns the Engine (every backend) and runs the open model. It lives on the same
// worker thread as the ModelController: the gl backend's EGL context belongs to the thread that
// made it, so every engine call, from creation to destruction, happens there. The UI asks through
// queued slots and hears back through queued signals carrying RunResult values; the one thing it
// touches directly is the shared cancel flag, which the run checks before every node.
#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <vector>

#include "loaded_model.h"
#include "run_result.h"

namespace tfjsi::runtime {
class Engine;
class Executor;
class Profiler;
class Observer;
}  // namespace tfjsi::runtime

namespace tfjsi::ui {

class RunController : public QObject {
  Q_OBJECT
 public:
  // `cancel`: set by the UI to stop the run under way at the next node (or between benchmark
  // runs). The UI clears it before it asks for a run, so a Cancel pressed early is not lost.
  explicit RunController(std::shared_ptr<std::atomic<bool>> cancel, QObject* parent = nullptr);
  ~RunController() override;

 public slots:
  // Makes the engine (on the calling thread, which must be the worker) and emits backendsReady.
  void start();
  // The model the next runs use; its weights stay resident across runs until another model comes.
  void setModel(tfjsi::ui::LoadedModelPtr model);
  // Runs (or benchmarks) the current model; emits runFinished or runFailed.
  void run(tfjsi::ui::RunRequest request);

 signals:
  void backendsReady(tfjsi::ui::BackendList backends);
  void runStarted(const QString& what);
  void runProgress(int done, int total);  // benchmark runs done of total
  void runFinished(tfjsi::ui::RunResultPtr result);
  // `message` names the input, node or op at fault; `cancelled` when the user stopped it.
  void runFailed(const QString& message, bool cancelled);

 private:
  void ensure_engine();
  RunResultPtr execute(const RunRequest& request);

  std::shared_ptr<std::atomic<bool>> cancel_;
  LoadedModelPtr model_;
  std::unique_ptr<runtime::Engine> engine_;
  std::unique_ptr<runtime::Profiler> profiler_;
  std::unique_ptr<runtime::Observer> cancel_observer_;
  std::unique_ptr<runtime::Executor> executor_;  // for model_ at executor_fp16_
  bool executor_fp16_ = false;
  std::uint64_t runs_ = 0;
};

}  // namespace tfjsi::ui
