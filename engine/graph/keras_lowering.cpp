// Placeholder until Keras lowering lands: layers models are refused with a clear message.
#include "core/error.h"
#include "graph/build.h"

namespace tfjsi::graph {

Graph lower_keras(const model::Bundle& bundle) {
  throw ModelError(bundle.model_json.string() + ": layers models are not supported yet");
}

}  // namespace tfjsi::graph
