// Hash tables (TF.js's hash_table category): resources the executor runs
// (runtime/hash_table_ops.cpp). A table handle is a scalar without a tensor dtype.
#include "ops/attr.h"
#include "ops/op_def.h"
#include "ops/shape_context.h"

namespace tfjsi::ops {
namespace {

void table_handle(InferContext& c) {
  c.set(0, std::nullopt, PartialShape::of({}));
}

void table_find(InferContext& c) {
  // LookupTableFind(table, keys, default_value; Tin, Tout): TF.js stacks one value per key of the
  // flattened keys, [n, ...value shape]; the values' shape is the table's, known only when it is
  // filled, so only a scalar default value tells it.
  const PartialShape keys = c.shape(1), def = c.shape(2);
  PartialShape out = PartialShape::unknown();
  if (def.rank_known && def.dims.empty())
    out = PartialShape::of({keys.fully_known() ? num_elements(keys.dims) : -1});
  auto dtype = try_attr<DType>(c.node, "Tout");
  c.set(0, dtype ? dtype : c.in(2).dtype, out);
}

void table_size(InferContext& c) {
  c.set(0, DType::Int32, PartialShape::of({}));
}

constexpr OpDef kOps[] = {
    {"HashTable", table_handle, Family::Other},
    {"HashTableV2", table_handle, Family::Other},
    {"InitializeTable", table_handle, Family::Other},
    {"InitializeTableV2", table_handle, Family::Other},
    {"LookupTableFind", table_find, Family::Other},
    {"LookupTableFindV2", table_find, Family::Other},
    {"LookupTableImport", table_handle, Family::Other},
    {"LookupTableImportV2", table_handle, Family::Other},
    {"LookupTableSize", table_size, Family::Other},
    {"LookupTableSizeV2", table_size, Family::Other},
};

}  // namespace

std::span<const OpDef> hash_table_ops() {
  return kOps;
}

}  // namespace tfjsi::ops
