// The hash-table ops, which the executor runs itself (a table is a resource, not a tensor):
// HashTable(V2), InitializeTable(V2), LookupTableImport(V2), LookupTableFind(V2) and
// LookupTableSize(V2), with the semantics of TF.js's hash_table_executor and HashTable class.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "graph/ir.h"
#include "runtime/value.h"

namespace tfjsi::runtime {

class Engine;

bool is_hash_table_op(std::string_view op);

// Runs one hash-table op. HashTable finds the table its node made before in `resources` (made by
// the model initializer or an earlier run) or makes it there; the others take the table handle as
// input 0. Outputs as TF.js gives them: HashTable, InitializeTable and LookupTableImport the
// handle, LookupTableFind the values, LookupTableSize an int32 scalar.
std::vector<std::optional<Value>> run_hash_table_op(Engine& engine, Resources& resources,
                                                    const graph::Node& node,
                                                    std::span<const Value* const> inputs);

}  // namespace tfjsi::runtime
