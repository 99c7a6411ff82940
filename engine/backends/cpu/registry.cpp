// The one explicit list of cpu kernels. A kernel is listed here once it is implemented; the
// planner treats every op missing from this list as unsupported on cpu.
#include <vector>

#include "backends/cpu/kernel.h"

namespace tfjsi::cpu {

// ---- Neural-network ops: convolution, matmul, pooling, resizing, activations -------------------
// Declarations of the kernels defined in this family's files:

// ---- Tensor ops: elementwise, reductions, shape manipulation, gather, selection ----------------
// Declarations of the kernels defined in this family's files:

std::span<const KernelEntry> kernel_registry() {
  static const std::vector<KernelEntry> kernels = {
      // ---- Neural-network ops ----
      // ---- Tensor ops ----
  };
  return kernels;
}

Kernel find_kernel(std::string_view op) {
  for (const auto& e : kernel_registry())
    if (e.op == op) return e.fn;
  return nullptr;
}

}  // namespace tfjsi::cpu
