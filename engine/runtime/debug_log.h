// The `debug` flag's observer: one stderr line (through Engine::log) per node run, with op, node,
// backend, input and output shapes, wall time and bytes made.
#pragma once

#include "runtime/observer.h"

namespace tfjsi::runtime {

class DebugLog final : public Observer {
 public:
  void after_kernel(KernelEvent& event) override;
};

}  // namespace tfjsi::runtime
