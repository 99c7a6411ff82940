#include "runtime/debug_log.h"

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
  for (const auto& t : e.outputs)
    if (t.alive()) bytes += e.engine.bytes(t);
  char time[32];
  std::snprintf(time, sizeof time, "%.3f ms", e.ms);
  e.engine.log("[debug] " + e.node.op + " '" + e.node.name + "' on " + std::string(e.backend) +
               ": in (" + shapes(e.inputs) + ") out (" + shapes(e.outputs) + ") " + time + ", " +
               std::to_string(bytes) + " bytes");
}

}  // namespace tfjsi::runtime
