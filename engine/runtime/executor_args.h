#pragma once
// Reading the inputs of the ops the executor runs itself (executor_ops.cpp, hash_table_ops.cpp),
// with errors that name the node and its op.
#include <span>
#include <string>

#include "core/error.h"
#include "graph/ir.h"
#include "runtime/engine.h"
#include "runtime/value.h"

namespace tfjsi::runtime::executor_args {

[[noreturn]] inline void fail(const graph::Node& node, const std::string& what) {
  throw ModelError("node '" + node.name + "' (" + node.op + "): " + what);
}

inline const Value& arg(const graph::Node& node, std::span<const Value* const> in, std::size_t i) {
  if (i >= in.size())
    fail(node,
         "needs at least " + std::to_string(i + 1) + " inputs, has " + std::to_string(in.size()));
  return *in[i];
}

// Input i as host values (read back from the backend when it lives there).
inline HostTensor host_arg(Engine& e, const graph::Node& node, std::span<const Value* const> in,
                           std::size_t i) {
  const Value& v = arg(node, in, i);
  if (!v.is_tensor())
    fail(node, "input " + std::to_string(i) + " is a " + v.kind() + ", expected a tensor");
  return e.read(v.tensor);
}

}  // namespace tfjsi::runtime::executor_args
