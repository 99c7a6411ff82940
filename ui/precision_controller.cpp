#include "precision_controller.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <stdexcept>

#include "analysis/node_trace.h"
#include "backends/all_backends.h"
#include "core/error.h"
#include "runtime/engine.h"
#include "runtime/observer.h"

namespace tfjsi::ui {
namespace {

struct CheckCancelled : std::runtime_error {
  CheckCancelled() : std::runtime_error("cancelled") {}
};

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Watches the check's runs from outside (check_fp16 has no hook of its own): stops it before the
// next node once cancel is set, and counts runs and nodes for the progress bar. check_fp16 makes
// its executors inside, so a run is recognised by run_started and named by the backend it is on.
class CheckWatch final : public runtime::Observer {
 public:
  using Report = std::function<void(int pass, const QString& stage, int done, int total)>;
  CheckWatch(runtime::Engine& engine, std::shared_ptr<std::atomic<bool>> cancel, int nodes,
             Report report)
      : engine_(engine), cancel_(std::move(cancel)), nodes_(nodes), report_(std::move(report)) {}

  void run_started() override {
    ++pass_;
    done_ = 0;
    const bool gl = engine_.backend().name() == "gl";
    if (gl)
      stage_ = QObject::tr("gl fp16 run");
    else if (pass_ == 1)
      stage_ = QObject::tr("fp32 reference on cpu");
    else if (pass_ == 2)
      stage_ = QObject::tr("fp16 emulation on cpu");
    else
      stage_ = QObject::tr("emulation: driver's rule or a mixed fp16/fp32 plan");
    emit_progress(true);
  }
  void before_kernel(const runtime::KernelEvent&) override {
    if (cancel_->load(std::memory_order_relaxed)) throw CheckCancelled();
    ++done_;
    emit_progress(false);
  }

 private:
  // At most ~20 a second: a tiny model must not flood the UI's event queue.
  void emit_progress(bool force) {
    if (!force && ms_since(last_) < 50) return;
    last_ = std::chrono::steady_clock::now();
    report_(pass_, stage_, std::min(done_, nodes_), nodes_);
  }

  runtime::Engine& engine_;
  std::shared_ptr<std::atomic<bool>> cancel_;
  int nodes_;
  Report report_;
  int pass_ = 0, done_ = 0;
  QString stage_;
  std::chrono::steady_clock::time_point last_{};
};

// Nodes the executor runs as kernels (what before_kernel counts).
int kernel_nodes(const graph::Graph& g) {
  int n = 0;
  for (const auto& node : g.nodes)
    if (node.op != "Const" && node.op != "NoOp" && node.op != "Placeholder") ++n;
  return std::max(n, 1);
}

}  // namespace

PrecisionController::PrecisionController(std::shared_ptr<std::atomic<bool>> cancel, QObject* parent)
    : QObject(parent), cancel_(std::move(cancel)) {}

PrecisionController::~PrecisionController() = default;

void PrecisionController::ensure_engine() {
  if (engine_) return;
  engine_ = std::make_unique<runtime::Engine>();
  backends::add_all_backends(*engine_);
  engine_->set_log_sink([](std::string_view) {});  // what matters is in the report
  // The gl program cache on disk is not keyed to the model here (gl::use_model): the Run dock's
  // engine may write the same cache files from its own thread at the same time.
}

void PrecisionController::check(Fp16CheckRequest request) {
  if (!request.model) {
    emit checkFailed(tr("Open a model first."), false);
    return;
  }
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const graph::Graph& graph = *request.model->graph;
    runtime::NamedTensors inputs;
    for (const auto& e : graph.inputs) {
      InputSpec spec;
      spec.input = e.name;
      for (const auto& s : request.inputs)
        if (s.input == e.name) spec = s;
      inputs[e.name] = make_input(e, spec);
    }
    ensure_engine();
    engine_->set_threads(static_cast<std::size_t>(std::max(0, request.threads)));
    CheckWatch watch(*engine_, cancel_, kernel_nodes(graph),
                     [this](int pass, const QString& stage, int done, int total) {
                       emit checkProgress(pass, stage, done, total);
                     });
    analysis::ScopedObserver watching(*engine_, watch);
    auto result = std::make_shared<Fp16CheckResult>();
    result->model = request.model;
    result->report = analysis::check_fp16(*engine_, graph, inputs, request.options);
    result->ms = ms_since(t0);
    emit checkFinished(std::move(result));
  } catch (const CheckCancelled&) {
    emit checkFailed(tr("Cancelled"), true);
  } catch (const std::exception& e) {
    emit checkFailed(QString::fromUtf8(e.what()), false);
  }
}

}  // namespace tfjsi::ui
