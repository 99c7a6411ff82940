#include "runtime/hash_table_ops.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "core/error.h"
#include "ops/attr.h"
#include "runtime/engine.h"
#include "runtime/executor_args.h"

namespace tfjsi::runtime {
namespace {

const std::set<std::string, std::less<>> kOps = {
    "HashTable",         "HashTableV2",         "InitializeTable", "InitializeTableV2",
    "LookupTableImport", "LookupTableImportV2", "LookupTableFind", "LookupTableFindV2",
    "LookupTableSize",   "LookupTableSizeV2"};

using executor_args::arg;
using executor_args::fail;
using executor_args::host_arg;

HashTable& table_arg(const graph::Node& node, std::span<const Value* const> in) {
  const Value& v = arg(node, in, 0);
  if (!v.table)
    fail(node, std::string("input 0 is a ") + v.kind() + ", expected a hash table handle");
  return *v.table;
}

// Element i of `t` as TF.js's table keys it: keys.data() gives JS numbers (or strings), and a JS
// Map matches numbers by SameValueZero (-0 is 0, NaN is NaN).
std::string key_of(const HostTensor& t, std::int64_t i) {
  const auto k = static_cast<std::size_t>(i);
  double d = 0;
  switch (t.dtype) {
    case DType::String:
      return (*t.strings)[k];
    case DType::Float32:
      d = t.values<float>()[k];
      break;
    case DType::Int32:
      d = t.values<std::int32_t>()[k];
      break;
    case DType::Bool:
      d = t.values<std::uint8_t>()[k];
      break;
    case DType::Complex64:  // refused when the table is made
      throw std::logic_error("hash table: complex64 key");
  }
  if (d == 0) d = 0;  // -0 -> +0
  if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
  std::string bytes(sizeof d, '\0');
  std::memcpy(bytes.data(), &d, sizeof d);
  return bytes;
}

// Copies `count` elements from src (from element `from`) into dst (at element `to`).
void copy_elements(HostTensor& dst, std::int64_t to, const HostTensor& src, std::int64_t from,
                   std::int64_t count) {
  if (count <= 0) return;
  if (dst.dtype == DType::String) {
    std::copy_n(src.strings->begin() + from, count, dst.strings->begin() + to);
    return;
  }
  const std::size_t es = element_size(dst.dtype);
  std::memcpy(dst.buffer->mutable_data() + to * es, src.buffer->data() + from * es,
              static_cast<std::size_t>(count) * es);
}

void check_dtype(const graph::Node& node, const HostTensor& t, DType want, const char* what,
                 const HashTable& table) {
  if (t.dtype != want)
    fail(node, std::string(what) + " are " + std::string(to_string(t.dtype)) + ", the table '" +
                   table.node + "' holds " + std::string(to_string(want)) + " " + what);
}

// InitializeTable / LookupTableImport: the table's contents become keys -> rows of values (TF.js's
// HashTable.import clears it first; a key given twice keeps its last value).
void import(HashTable& table, const HostTensor& keys, const HostTensor& values,
            const graph::Node& node) {
  check_dtype(node, keys, table.key_dtype, "keys", table);
  check_dtype(node, values, table.value_dtype, "values", table);
  if (values.rank() == 0) fail(node, "values must have at least one dimension, got a scalar");
  if (keys.num_elements() != values.shape[0])
    fail(node, "has " + std::to_string(keys.num_elements()) + " keys but " +
                   std::to_string(values.shape[0]) + " values (values " +
                   shape_to_string(values.shape) + ")");
  HostTensor copy = HostTensor::uninitialized(values.dtype, values.shape);
  copy_elements(copy, 0, values, 0, values.num_elements());
  table.rows.clear();
  table.values = std::move(copy);
  for (std::int64_t i = 0; i < keys.num_elements(); ++i) table.rows[key_of(keys, i)] = i;
}

// LookupTableFind: one value per key of the flattened keys, stacked ([n, ...value shape], as
// TF.js's HashTable.find stacks them), the default value where a key is missing.
HostTensor find(const HashTable& table, const HostTensor& keys, const HostTensor& def,
                const graph::Node& node) {
  check_dtype(node, keys, table.key_dtype, "keys", table);
  check_dtype(node, def, table.value_dtype, "default values", table);
  const std::int64_t n = keys.num_elements();
  std::vector<std::int64_t> row_of(static_cast<std::size_t>(n), -1);
  bool hit = false, miss = false;
  for (std::int64_t i = 0; i < n; ++i) {
    const auto it = table.rows.find(key_of(keys, i));
    if (it != table.rows.end())
      row_of[static_cast<std::size_t>(i)] = it->second, hit = true;
    else
      miss = true;
  }
  const Shape row_shape = hit || (!miss && table.values.rank() > 0)
                              ? Shape(table.values.shape.begin() + 1, table.values.shape.end())
                              : def.shape;
  if (miss && def.shape != row_shape)
    fail(node, "the default value's shape " + shape_to_string(def.shape) +
                   " differs from the table's values " + shape_to_string(row_shape));
  Shape out_shape{n};
  out_shape.insert(out_shape.end(), row_shape.begin(), row_shape.end());
  HostTensor out = HostTensor::uninitialized(table.value_dtype, out_shape);
  const std::int64_t per = num_elements(row_shape);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t r = row_of[static_cast<std::size_t>(i)];
    if (r >= 0)
      copy_elements(out, i * per, table.values, r * per, per);
    else
      copy_elements(out, i * per, def, 0, per);
  }
  return out;
}

}  // namespace

bool is_hash_table_op(std::string_view op) {
  return kOps.count(op) > 0;
}

std::vector<std::optional<Value>> run_hash_table_op(Engine& e, Resources& resources,
                                                    const graph::Node& node,
                                                    std::span<const Value* const> in) {
  const std::string& op = node.op;
  auto handle = [](std::shared_ptr<HashTable> t) {
    Value v;
    v.table = std::move(t);
    return std::optional<Value>(std::move(v));
  };
  if (op == "HashTable" || op == "HashTableV2") {
    // One table per node name for the model's life: the initializer's HashTable and the graph's
    // one of the same name share it (TF.js's ResourceManager.getHashTableHandleByName).
    auto& slot = resources.tables[node.name];
    if (!slot) {
      const auto key_dtype = ops::attr<DType>(node, "key_dtype");
      const auto value_dtype = ops::attr<DType>(node, "value_dtype");
      // TF.js's tables key by JS numbers and strings; complex keys have no such form.
      if (key_dtype == DType::Complex64) fail(node, "complex64 keys are not supported");
      slot = std::make_shared<HashTable>();
      slot->node = node.name;
      slot->key_dtype = key_dtype;
      slot->value_dtype = value_dtype;
    }
    return {handle(slot)};
  }
  HashTable& table = table_arg(node, in);
  const std::shared_ptr<HashTable> self = arg(node, in, 0).table;
  if (op.starts_with("InitializeTable") || op.starts_with("LookupTableImport")) {
    import(table, host_arg(e, node, in, 1), host_arg(e, node, in, 2), node);
    return {handle(self)};
  }
  auto tensor = [&](const HostTensor& h) {
    return std::optional<Value>(Value{e.make_tensor(h, node.name), {}, {}});
  };
  if (op.starts_with("LookupTableFind"))
    return {tensor(find(table, host_arg(e, node, in, 1), host_arg(e, node, in, 2), node))};
  if (op.starts_with("LookupTableSize")) {
    HostTensor size = HostTensor::zeros(DType::Int32, {});
    size.mutable_values<std::int32_t>()[0] = static_cast<std::int32_t>(table.rows.size());
    return {tensor(size)};
  }
  fail(node, "is not a hash-table op");
}

}  // namespace tfjsi::runtime
