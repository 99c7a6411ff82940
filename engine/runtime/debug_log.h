// The `debug` flag's observer: one stderr line (through Engine::log) per node run, with op, node,
// backend, input and output shapes, wall time, bytes made, and a note for float outputs that
// hold NaN.
#pragma once

#include "runtime/observer.h"

namespace tfjsi::runtime {

class DebugLog final : public Observer {
 public:
  bool needs_every_output() const override { return false; }
  void after_kernel(KernelEvent& event) override;
};

}  // namespace tfjsi::runtime
