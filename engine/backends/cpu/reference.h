// The cpu reference kernels as a library: the one entry point through which another backend runs
// a node on them. A backend that holds tensors in host memory (xnnpack) calls it for the ops and
// forms it has no operator of its own for, instead of handing the node back to the executor with
// a copy each way. Nothing else of backends/cpu/ is for other backends (runtime/backend.h states
// the fallback rule).
#pragma once

#include <pthreadpool.h>

#include <span>
#include <string_view>
#include <vector>

#include "core/host_tensor.h"
#include "graph/ir.h"

namespace tfjsi::cpu {

// Whether a reference kernel exists for `op`.
bool has_reference_kernel(std::string_view op);

// Runs `node` on its reference kernel over `inputs` (its data inputs, in order), with `pool` for
// parallel loops (may be null): one HostTensor per output, fresh or sharing an input's buffer when
// the op only changes the view. Throws ModelError naming the node for input the op cannot take,
// and BackendLimit when no reference kernel exists for the op.
std::vector<HostTensor> run_reference(const graph::Node& node, std::span<const HostTensor> inputs,
                                      pthreadpool_t pool);

}  // namespace tfjsi::cpu
