// Ops the executor runs itself rather than a backend: graph plumbing (Const, Placeholder,
// Identity, NoOp), TF1 control flow (Switch, Merge, Enter, Exit, NextIteration, LoopCond),
// TensorArray and TensorList ops, hash tables (hash_table_ops.h) and TF2 functional control flow
// (While, If).
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "graph/ir.h"
#include "runtime/value.h"

namespace tfjsi::runtime {

class Engine;

bool is_executor_op(std::string_view op);
// While, StatelessWhile, If, StatelessIf.
bool is_functional_control_flow(std::string_view op);
// Ops whose outputs are the input forwarded (Identity, Enter, Exit, NextIteration, LoopCond...).
bool is_forwarding_op(std::string_view op);

// Runs an executor op other than Const, Placeholder, Merge, While and If. `inputs` holds the node's
// data inputs (never null). Returns one entry per output; nullopt marks a dead output (the
// untaken side of a Switch). New tensors are made in `engine` and owned by the caller; hash tables
// live in `resources`.
std::vector<std::optional<Value>> run_executor_op(Engine& engine, Resources& resources,
                                                  const graph::Node& node,
                                                  std::span<const Value* const> inputs);

// A bool or numeric scalar tensor as a truth value (Switch, LoopCond, While's cond, If).
bool truth_of(Engine& engine, const graph::Node& node, const Value& v, std::string_view what);

}  // namespace tfjsi::runtime
