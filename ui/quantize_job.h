// What the Quantize dialog asks of the engine and hears back: either the advice (every dtype
// measured, the weight groups worth keeping float32, analysis::advise_quantization) or one
// quantized bundle written (analysis::quantize_to_folder), both on cpu. They run on the
// RunController's engine and worker thread; the shared cancel flag stops them.
#pragma once

#include <QMetaType>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "analysis/quantize_advice.h"
#include "analysis/quantize_to_folder.h"
#include "input_source.h"
#include "loaded_model.h"

namespace tfjsi::runtime {
class Engine;
}  // namespace tfjsi::runtime

namespace tfjsi::ui {

struct QuantizeRequest {
  LoadedModelPtr model;
  bool advise = false;  // measure every dtype (nothing written) instead of writing one
  double tolerance = analysis::AdviceOptions{}.tolerance;  // advise
  model::Quantization dtype = model::Quantization::Uint8;  // write
  std::vector<std::string> keep_float;                     // write: globs on weight names
  QString out;                                             // write: a new or empty folder
  std::vector<InputSpec> inputs;
  int threads = 0;
};

struct QuantizeResult {
  LoadedModelPtr model;
  bool advise = false;
  analysis::QuantizeAdvice advice;        // advise
  analysis::WrittenQuantization written;  // write
  QString out, model_json;                // write
  double ms = 0;
};

using QuantizeResultPtr = std::shared_ptr<const QuantizeResult>;

// Runs the request on `engine`'s cpu backend (its backend and precision are put back after).
// `progress` hears one line per model run, on the engine's thread. Throws UsageError for a pattern
// that matches no weight or a folder that will not do, Cancelled, and what the engine throws.
QuantizeResultPtr run_quantize(runtime::Engine& engine, const QuantizeRequest& request,
                               const std::atomic<bool>* cancel,
                               const std::function<void(const QString&)>& progress);

}  // namespace tfjsi::ui

Q_DECLARE_METATYPE(tfjsi::ui::QuantizeRequest)
Q_DECLARE_METATYPE(tfjsi::ui::QuantizeResultPtr)
