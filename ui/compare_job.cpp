#include "compare_job.h"

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

// Counts the comparison's runs and nodes for the progress bar (compare_backends has no hook of
// its own): the reference's run, then the test side's; after that, the divergent nodes re-run
// alone, which the executor does not see.
class CompareWatch final : public runtime::Observer {
 public:
  CompareWatch(const CompareRequest& r, int nodes, const CompareProgress& report)
      : request_(r), nodes_(nodes), report_(report) {}
  bool needs_every_output() const override { return false; }

  void run_started() override {
    ++pass_;
    done_ = 0;
    stage_ = pass_ == 1 ? QObject::tr("reference run on %1").arg(request_.reference.label())
                        : QObject::tr("run on %1").arg(request_.test.label());
    emit_progress(true);
  }
  void before_kernel(const runtime::KernelEvent&) override {
    ++done_;
    emit_progress(false);
  }
  // The re-runs of divergent nodes alone, which the executor does not run.
  void isolating(int done, int total) {
    if (pass_ < 3) {
      pass_ = 3;
      stage_ = QObject::tr("divergent nodes re-run alone on %1").arg(request_.test.label());
    }
    done_ = done;
    nodes_ = total;
    emit_progress(done == 0);
  }

 private:
  // At most ~20 a second: a tiny model must not flood the UI's event queue.
  void emit_progress(bool force) {
    if (!report_ || (!force && ms_since(last_) < 50)) return;
    last_ = std::chrono::steady_clock::now();
    report_(pass_, stage_, std::min(done_, nodes_), nodes_);
  }

  const CompareRequest& request_;
  int nodes_;
  const CompareProgress& report_;
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
