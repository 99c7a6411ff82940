#include "compare_job.h"

#include <QObject>
#include <algorithm>
#include <chrono>

#include "analysis/node_trace.h"
#include "job_watch.h"
#include "runtime/engine.h"

namespace tfjsi::ui {
namespace {

// The comparison's steps (compare_backends has no hook of its own): the reference's run, then
// the test side's; after that, the divergent nodes re-run alone, which the executor does not see.
class CompareWatch final : public JobWatch {
 public:
  CompareWatch(const CompareRequest& r, int nodes, const JobProgress& report)
      : JobWatch(nodes, report), request_(r) {}
  void isolating(int done, int total) {
    step(3, QObject::tr("divergent nodes re-run alone on %1").arg(request_.test.label()), done,
         total);
  }

 private:
  QString stage_of(int pass) const override {
    return pass == 1 ? QObject::tr("reference run on %1").arg(request_.reference.label())
                     : QObject::tr("run on %1").arg(request_.test.label());
  }
  const CompareRequest& request_;
};

runtime::Precision precision_of(const CompareSide& s) {
  return s.fp16 ? runtime::Precision::Fp16 : runtime::Precision::Fp32;
}

}  // namespace

QString CompareSide::label() const {
  const QString name = QString::fromStdString(backend);
  return backend == "gl" ? name + (fp16 ? QStringLiteral(" fp16") : QStringLiteral(" fp32")) : name;
}

CompareResultPtr run_compare(runtime::Engine& engine, const CompareRequest& request,
                             const CompareProgress& progress,
                             const std::function<void()>& stop_point) {
  const auto t0 = std::chrono::steady_clock::now();
  const graph::Graph& graph = *request.model->graph;
  const runtime::NamedTensors inputs = make_inputs(graph, request.inputs);
  analysis::CompareOptions options;
  options.backends = {request.test.backend};
  options.precision = precision_of(request.test);
  options.reference = request.reference.backend;
  options.reference_precision = precision_of(request.reference);
  options.tolerance = request.tolerance;
  options.isolate = request.isolate;

  engine.set_threads(static_cast<std::size_t>(std::max(0, request.threads)));
  CompareWatch watch(request, kernel_nodes(graph), progress);
  analysis::ScopedObserver watching(engine, watch);
  options.before_isolating = [&](int done, int total) {
    if (stop_point) stop_point();
    watch.isolating(done, total);
  };
  auto result = std::make_shared<CompareResult>();
  result->model = request.model;
  result->test = request.test;
  result->reference = request.reference;
  result->report = analysis::compare_backends(engine, graph, inputs, options);
  result->ms = ms_since(t0);
  return result;
}

}  // namespace tfjsi::ui
