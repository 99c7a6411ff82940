// The object that owns the Engine (every backend) and runs the open model. It lives on the same
// worker thread as the ModelController: the gl backend's EGL context belongs to the thread that
// made it, so every engine call, from creation to destruction, happens there. The UI asks through
// queued slots and hears back through queued signals carrying RunResult values; the one thing it
// touches directly is the shared cancel flag, which the run checks before every node. The
// Precision dock's fp16 check and the Compare dock's comparison run here too (one engine, one GL
// context, one disk program cache).
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "compare_job.h"
#include "fp16_check_job.h"
#include "loaded_model.h"
#include "quantize_job.h"
#include "reduce_job.h"
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
  // Emits memorySampled with the engine's memory now (the idle timer calls it every second).
  void sampleMemory();
  // Disposes what runs left (the weights stay), empties the buffer pool's cache, emits a sample.
  void resetMemory();
  // Emits environmentReady: flags, backends, the gl context and its fp16 store probe (made once).
  void requestEnvironment();
  // Sets an engine flag from text; emits environmentReady, or flagRejected saying why not.
  void setFlag(const QString& name, const QString& value);
  // Runs the fp16 check on this engine; emits checkProgress, then checkFinished or checkFailed.
  // The cancel flag stops it at the next node, as it stops a run.
  void checkFp16(tfjsi::ui::Fp16CheckRequest request);
  // Compares two backends on this engine; emits compareProgress, then compareFinished or
  // compareFailed. The cancel flag stops it at the next node.
  void compare(tfjsi::ui::CompareRequest request);
  // Reduces the model to the smallest subgraph that still shows the condition and writes it to
  // the request's folder; emits reduceProgress per candidate, then reduceFinished or
  // reduceFailed. The cancel flag stops it at the next kernel or candidate; nothing is written.
  void reduce(tfjsi::ui::ReduceRequest request);
  // Measures the quantization advice, or writes one quantized bundle, on this engine's cpu
  // backend; emits quantizeProgress, then quantizeFinished or quantizeFailed. The cancel flag
  // stops it at the next kernel or model run.
  void quantize(tfjsi::ui::QuantizeRequest request);

 signals:
  void backendsReady(tfjsi::ui::BackendList backends);
  void runStarted(const QString& what);
  void runProgress(int done, int total);  // benchmark runs done of total
  // Work before the first result (gl building programs: stage "compiling"), `done` of `total`
  // (0 when not known), at most ~20 a second.
  void compileProgress(const QString& stage, int done, int total);
  void runFinished(tfjsi::ui::RunResultPtr result);
  // `message` names the input, node or op at fault; `cancelled` when the user stopped it.
  void runFailed(const QString& message, bool cancelled);
  void memorySampled(tfjsi::ui::MemorySample sample);
  void environmentReady(tfjsi::ui::EnvInfo env);
  void flagRejected(const QString& name, const QString& message);
  void checkProgress(int pass, const QString& stage, int done, int total);
  void checkFinished(tfjsi::ui::Fp16CheckResultPtr result);
  void checkFailed(const QString& message, bool cancelled);
  void compareProgress(int pass, const QString& stage, int done, int total);
  void compareFinished(tfjsi::ui::CompareResultPtr result);
  void compareFailed(const QString& message, bool cancelled);
  // A candidate run: `nodes` of it, whether it still shows the condition, the smallest that does
  // so far. At most ~20 a second.
  void reduceProgress(int step, const QString& phase, int nodes, bool holds, int smallest);
  void reduceFinished(tfjsi::ui::ReduceResultPtr result);
  void reduceFailed(const QString& message, bool cancelled);
  void quantizeProgress(const QString& line);
  void quantizeFinished(tfjsi::ui::QuantizeResultPtr result);
  void quantizeFailed(const QString& message, bool cancelled);

 private:
  void ensure_engine();
  // Before the fp16 check or a comparison, which run executors of their own.
  void prepare_own_executors(const LoadedModelPtr& model);
  // Engine::open_model, once per model (a precision switch rebuilds the executor, not the key).
  void open_model(const LoadedModelPtr& model);
  RunResultPtr execute(const RunRequest& request);
  MemorySample memory_sample(bool with_live);
  EnvInfo environment();

  std::shared_ptr<std::atomic<bool>> cancel_;
  LoadedModelPtr model_;
  std::weak_ptr<const LoadedModel> opened_;  // the model the engine was last told of
  std::unique_ptr<runtime::Engine> engine_;
  std::unique_ptr<runtime::Profiler> profiler_;
  std::unique_ptr<runtime::Observer> cancel_observer_;
  std::unique_ptr<runtime::Observer> progress_observer_;  // emits compileProgress
  std::unique_ptr<runtime::Executor> executor_;           // for model_ at executor_fp16_
  bool executor_fp16_ = false;
  std::uint64_t runs_ = 0;
  // (backend, fp16) pairs the current executor has run: a pair's first run is the cold one.
  std::set<std::pair<std::string, bool>> warm_;
  QElapsedTimer clock_;           // for sample times
  std::optional<EnvInfo> probe_;  // the gl fp16 store probe, made on first request
};

}  // namespace tfjsi::ui
