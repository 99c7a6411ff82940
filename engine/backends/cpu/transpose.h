// Axis permutation, shared by Transpose and the kernels that move reduced axes innermost.
#pragma once

#include <span>

#include "backends/cpu/tensor_util.h"

namespace tfjsi::cpu::tensor_ops {

// Output dim i is input dim perm[i]; perm must be a permutation of [0, rank).
HostTensor permute(const HostTensor& x, std::span<const int> perm, pthreadpool_t pool);

}  // namespace tfjsi::cpu::tensor_ops
