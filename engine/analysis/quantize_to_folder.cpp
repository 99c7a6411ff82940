#include "analysis/quantize_to_folder.h"

#include "analysis/backend_restore.h"
#include "analysis/cancel_watch.h"
#include "analysis/loaded_model.h"
#include "analysis/quantize_advice.h"
#include "analysis/quantize_bundle.h"
#include "core/error.h"

namespace tfjsi::analysis {

void check_keep_float(const std::vector<std::string>& patterns, const model::Bundle& bundle,
                      const std::string& label) {
  for (const auto& p : patterns) {
    if (p.empty()) throw UsageError(label + " expects a glob such as 'conv2d_1/*', got ''");
    bool any = false;
    for (const auto& w : bundle.weights) any = any || glob_matches(p, w.name);
    if (any) continue;
    std::string some;
    for (std::size_t i = 0; i < bundle.weights.size() && i < 3; ++i)
      some += (i ? ", '" : "'") + bundle.weights[i].name + "'";
    throw UsageError(label + " '" + p + "' matches no weight of " + bundle.model_json.string() +
                     " (a glob on whole weight names, e.g. " +
                     (some.empty() ? std::string("none") : some) + "; see tfjsi info)");
  }
}

WrittenQuantization quantize_to_folder(runtime::Engine& engine, const model::Bundle& bundle,
                                       const graph::Graph& graph, model::Quantization dtype,
                                       const std::vector<std::string>& keep_float,
                                       const runtime::NamedTensors& inputs, OutputFolder& folder,
                                       const std::atomic<bool>* cancel) {
  const auto keep = [&](const model::Weight& w) {
    for (const auto& p : keep_float)
      if (glob_matches(p, w.name)) return true;
    return false;
  };
  const CancelWatch cancelled(engine, cancel);
  const QuantizedBundle q = quantize_bundle(bundle, dtype, keep);
  cancelled.check();
  WrittenQuantization out;
  out.dtype = dtype;
  out.float_bytes = q.float_bytes;
  out.not_quantizable = q.not_quantizable;
  for (std::size_t i = 0; i < bundle.weights.size(); ++i) {
    if (q.weights[i])
      ++out.quantized;
    else if (bundle.weights[i].dtype != DType::Float32)
      ++out.untouched;
    else if (keep(bundle.weights[i]))
      out.kept_float.push_back(bundle.weights[i].name);
  }
  out.bytes = write_quantized_bundle(bundle, q, folder.staging());
  cancelled.check();
  folder.commit();

  // The drift is measured on the bundle as written, read back by our loader (which decodes as
  // TF.js does).
  const LoadedModel back = load_model(folder.out(), false);
  for (const auto& s : back.bundle.shards) out.shards.push_back(s.manifest_path);
  BackendRestore restore(engine);
  engine.set_precision(runtime::Precision::Fp32);
  engine.set_backend("cpu");
  try {
    out.drift = output_drift(runtime::Executor(engine, graph).run(inputs),
                             runtime::Executor(engine, *back.graph).run(inputs));
  } catch (const ModelError& e) {
    out.drift_error = e.what();
  } catch (const Cancelled&) {  // the bundle is in place: only the measure is lost
    out.drift_error = "cancelled before the drift was measured";
  }
  return out;
}

}  // namespace tfjsi::analysis
