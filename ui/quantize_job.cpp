#include "quantize_job.h"

#include <QObject>

#include <algorithm>
#include <chrono>

#include "analysis/backend_restore.h"
#include "runtime/engine.h"

namespace tfjsi::ui {

QuantizeResultPtr run_quantize(runtime::Engine& engine, const QuantizeRequest& request,
                               const std::atomic<bool>* cancel,
                               const std::function<void(const QString&)>& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  const LoadedModel& m = *request.model;
  auto r = std::make_shared<QuantizeResult>();
  r->model = request.model;
  r->advise = request.advise;
  if (!request.advise) analysis::check_keep_float(request.keep_float, m.bundle, "The pattern");
  const runtime::NamedTensors inputs = make_inputs(*m.graph, request.inputs);
  engine.set_threads(static_cast<std::size_t>(std::max(0, request.threads)));
  if (request.advise) {
    analysis::BackendRestore restore(engine);
    engine.set_precision(runtime::Precision::Fp32);
    engine.set_backend("cpu");  // as `tfjsi quantize --advise` measures
    analysis::AdviceOptions options;
    options.tolerance = request.tolerance;
    options.cancel = cancel;
    options.progress = [&](std::string_view line) {
      if (progress) progress(QString::fromUtf8(line.data(), static_cast<qsizetype>(line.size())));
    };
    r->advice = analysis::advise_quantization(engine, m.bundle, *m.graph, inputs, options);
  } else {
    analysis::OutputFolder folder(request.out.toStdString(), m.bundle.dir, "The folder");
    if (progress) progress(QObject::tr("quantizing and writing the bundle"));
    r->written = analysis::quantize_to_folder(engine, m.bundle, *m.graph, request.dtype,
                                              request.keep_float, inputs, folder, cancel);
    r->out = QString::fromStdString(folder.out().string());
    r->model_json = QString::fromStdString((folder.out() / "model.json").string());
  }
  r->ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace tfjsi::ui
