#include "fp16_check_job.h"

#include <QObject>
#include <algorithm>
#include <chrono>

#include "analysis/node_trace.h"
#include "runtime/engine.h"
#include "runtime/observer.h"

namespace tfjsi::ui {
namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Counts the check's runs and nodes for the progress bar (check_fp16 has no hook of its own). It
// makes its executors inside, so a run is recognised by run_started and named by its backend.
class CheckWatch final : public runtime::Observer {
 public:
  CheckWatch(runtime::Engine& engine, int nodes, const Fp16CheckProgress& report)
      : engine_(engine), nodes_(nodes), report_(report) {}
  bool needs_every_output() const override { return false; }

  void run_started() override {
    ++pass_;
    done_ = 0;
    if (engine_.backend().name() == "gl")
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
    ++done_;
    emit_progress(false);
  }

 private:
  // At most ~20 a second: a tiny model must not flood the UI's event queue.
  void emit_progress(bool force) {
    if (!report_ || (!force && ms_since(last_) < 50)) return;
    last_ = std::chrono::steady_clock::now();
    report_(pass_, stage_, std::min(done_, nodes_), nodes_);
  }

  runtime::Engine& engine_;
  int nodes_;
  const Fp16CheckProgress& report_;
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

Fp16CheckResultPtr run_fp16_check(runtime::Engine& engine, const Fp16CheckRequest& request,
                                  const Fp16CheckProgress& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  const graph::Graph& graph = *request.model->graph;
  const runtime::NamedTensors inputs = make_inputs(graph, request.inputs);
  engine.set_threads(static_cast<std::size_t>(std::max(0, request.threads)));
  CheckWatch watch(engine, kernel_nodes(graph), progress);
  analysis::ScopedObserver watching(engine, watch);
  auto result = std::make_shared<Fp16CheckResult>();
  result->model = request.model;
  result->report = analysis::check_fp16(engine, graph, inputs, request.options);
  result->ms = ms_since(t0);
  return result;
}

}  // namespace tfjsi::ui
