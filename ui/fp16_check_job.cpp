#include "fp16_check_job.h"

#include <QObject>
#include <algorithm>
#include <chrono>

#include "analysis/node_trace.h"
#include "job_watch.h"
#include "runtime/engine.h"

namespace tfjsi::ui {
namespace {

// The check's runs (check_fp16 has no hook of its own). It makes its executors inside, so a run
// is recognised by run_started and named by its backend.
class CheckWatch final : public JobWatch {
 public:
  CheckWatch(runtime::Engine& engine, int nodes, const JobProgress& report)
      : JobWatch(nodes, report), engine_(engine) {}

 private:
  QString stage_of(int pass) const override {
    if (engine_.backend().name() == "gl") return QObject::tr("gl fp16 run");
    if (pass == 1) return QObject::tr("fp32 reference on cpu");
    if (pass == 2) return QObject::tr("fp16 emulation on cpu");
    return QObject::tr("emulation: driver's rule or a mixed fp16/fp32 plan");
  }
  runtime::Engine& engine_;
};

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
