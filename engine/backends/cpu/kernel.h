// The contract of a cpu kernel: a node's attributes and its input values in, its output values out.
#pragma once

#include <pthreadpool.h>

#include <span>
#include <string_view>
#include <vector>

#include "core/host_tensor.h"
#include "graph/ir.h"

namespace tfjsi::cpu {

struct KernelContext {
  const graph::Node& node;             // op, attributes, name (for error messages)
  std::span<const HostTensor> inputs;  // the node's data inputs, in order
  pthreadpool_t pool = nullptr;        // for parallel loops; may be null (run inline)
};

// Returns one HostTensor per node output, freshly allocated (HostTensor::zeros) or sharing an
// input's buffer when the op only changes the view (Reshape, Identity, ...). Throws ModelError
// naming the node for input the op cannot take (wrong rank, mismatched shapes, bad attribute).
using Kernel = std::vector<HostTensor> (*)(const KernelContext& ctx);

struct KernelEntry {
  std::string_view op;  // the TF op name as model.json writes it
  Kernel fn;
};

// Every cpu kernel, from the one explicit list in registry.cpp.
std::span<const KernelEntry> kernel_registry();
// The kernel for `op`, or nullptr.
Kernel find_kernel(std::string_view op);

// Most kernels were written for float32, int32, bool and strings: refuse_complex throws
// ModelError naming the node and the input when one of those meets a complex64 tensor, before
// its kernel could read the pairs as something else (the complex ops, Cast and the reshaping
// ops take them).
void refuse_complex(const graph::Node& node, std::span<const HostTensor> inputs);

}  // namespace tfjsi::cpu
