#include "backends/cpu/reference.h"

#include "backends/cpu/kernel.h"
#include "core/error.h"

namespace tfjsi::cpu {

bool has_reference_kernel(std::string_view op) {
  return find_kernel(op) != nullptr;
}

std::vector<HostTensor> run_reference(const graph::Node& node, std::span<const HostTensor> inputs,
                                      pthreadpool_t pool) {
  const Kernel fn = find_kernel(node.op);
  if (!fn)
    throw BackendLimit("node '" + node.name + "' (" + node.op + "): no cpu reference kernel");
  refuse_complex(node, inputs);
  return fn(KernelContext{node, inputs, pool});
}

}  // namespace tfjsi::cpu
