#include "runtime/debug_log.h"

#include <cmath>
#include <cstdio>

#include "runtime/engine.h"

namespace tfjsi::runtime {
namespace {

std::string shapes(std::span<const Tensor> ts) {
  std::string s;
  for (const auto& t : ts) {
    if (!s.empty()) s += ' ';
    s += t.alive() ? std::string(to_string(t.dtype())) + shape_to_string(t.shape()) : "-";
  }
  return s;
}

}  // namespace

void DebugLog::after_kernel(KernelEvent& e) {
  std::size_t bytes = 0;
  std::string nan;
  for (std::size_t k = 0; k < e.outputs.size(); ++k) {
    const Tensor& t = e.outputs[k];
    if (!t.alive()) continue;
    bytes += e.engine.bytes(t);
    // TF.js's debug mode checks every kernel's output for NaN; so do we (it costs a read).
    if (t.dtype() == DType::Float32) {
      const HostTensor h = e.engine.read(t);
      for (float v : h.values<float>())
        if (std::isnan(v)) {
          nan += " NaN in output " + std::to_string(k) + ";";
          break;
        }
    }
  }
  char time[32];
  std::snprintf(time, sizeof time, "%.3f ms", e.ms);
  const std::string into = e.fused_into ? " ('" + e.fused_into->name + "')" : "";
  e.engine.log("[debug] " + e.node.op + " '" + e.node.name + "' on " + std::string(e.backend) +
               into + ": in (" + shapes(e.inputs) + ") out (" + shapes(e.outputs) + ") " + time +
               ", " + std::to_string(bytes) + " bytes" + nan);
}

}  // namespace tfjsi::runtime
