#include "runtime/executor_ops.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "core/error.h"
#include "core/memory_limit.h"
#include "ops/attr.h"
#include "runtime/engine.h"
#include "runtime/executor_args.h"
#include "runtime/hash_table_ops.h"

namespace tfjsi::runtime {
namespace {

const std::set<std::string, std::less<>> kForwarding = {
    "Identity", "StopGradient", "Snapshot", "Enter", "Exit", "NextIteration", "LoopCond"};
const std::set<std::string, std::less<>> kFunctional = {"While", "StatelessWhile", "If",
                                                        "StatelessIf"};
const std::set<std::string, std::less<>> kOthers = {
    "Const", "Placeholder", "PlaceholderWithDefault", "IdentityN", "NoOp", "Switch", "Merge",
    // TF1 TensorArray (a resource mutated in place)
    "TensorArrayV3", "TensorArrayWriteV3", "TensorArrayReadV3", "TensorArrayGatherV3",
    "TensorArrayScatterV3", "TensorArraySizeV3", "TensorArrayCloseV3", "TensorArrayConcatV3",
    "TensorArraySplitV3",
    // TF2 TensorList (a value)
    "TensorListReserve", "EmptyTensorList", "TensorListFromTensor", "TensorListSetItem",
    "TensorListGetItem", "TensorListStack", "TensorListLength", "TensorListGather",
    "TensorListScatter", "TensorListScatterV2", "TensorListScatterIntoExistingList",
    "TensorListPushBack", "TensorListPopBack", "TensorListResize", "TensorListConcat",
    "TensorListConcatV2", "TensorListSplit", "TensorListElementShape"};

using executor_args::arg;
using executor_args::fail;
using executor_args::host_arg;

std::int64_t scalar_int(const HostTensor& t, const graph::Node& node, std::string_view what) {
  if (t.num_elements() != 1) fail(node, std::string(what) + " must be a scalar");
  if (t.dtype == DType::Int32) return t.values<std::int32_t>()[0];
  if (t.dtype == DType::Float32) return static_cast<std::int64_t>(t.values<float>()[0]);
  fail(node, std::string(what) + " must be int32");
}

std::vector<std::int64_t> int_vector(const HostTensor& t) {
  std::vector<std::int64_t> v;
  if (t.dtype == DType::Int32)
    for (auto x : t.values<std::int32_t>()) v.push_back(x);
  else if (t.dtype == DType::Float32)
    for (auto x : t.values<float>()) v.push_back(static_cast<std::int64_t>(x));
  return v;
}

// An element_shape input: a vector of dims (-1 unknown) or the scalar -1 (unknown rank).
PartialShape shape_from_tensor(const HostTensor& t) {
  if (t.rank() == 0) return PartialShape::unknown();
  return PartialShape::of(int_vector(t));
}

// The more specific of two shapes that describe the same elements.
PartialShape merge_shapes(const PartialShape& a, const PartialShape& b) {
  if (!a.rank_known) return b;
  if (!b.rank_known || a.dims.size() != b.dims.size()) return a;
  PartialShape m = a;
  for (std::size_t i = 0; i < m.dims.size(); ++i)
    if (m.dims[i] < 0) m.dims[i] = b.dims[i];
  return m;
}

bool compatible(const PartialShape& expected, const Shape& got) {
  if (!expected.rank_known) return true;
  if (expected.dims.size() != got.size()) return false;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (expected.dims[i] >= 0 && expected.dims[i] != got[i]) return false;
  return true;
}

std::size_t row_bytes(const HostTensor& t) {
  if (t.rank() == 0) return element_size(t.dtype);
  return t.shape[0] == 0 ? 0 : t.byte_size() / static_cast<std::size_t>(t.shape[0]);
}

// Rows [begin, begin + count) of t along axis 0, copied.
HostTensor rows(const HostTensor& t, std::int64_t begin, std::int64_t count) {
  Shape s = t.shape;
  s[0] = count;
  HostTensor out = HostTensor::zeros(t.dtype, s);
  const std::int64_t per_row = t.shape[0] ? t.num_elements() / t.shape[0] : 0;
  if (t.dtype == DType::String) {
    std::copy_n(t.strings->begin() + begin * per_row, count * per_row, out.strings->begin());
  } else if (count > 0) {
    const std::size_t rb = row_bytes(t);
    std::memcpy(out.buffer->mutable_data(), t.buffer->data() + begin * rb, count * rb);
  }
  return out;
}

// Rows of `parts` concatenated along axis 0 (each part already has a leading axis).
HostTensor concat_rows(const std::vector<HostTensor>& parts, DType dtype, Shape tail,
                       const graph::Node& node) {
  std::int64_t n = 0;
  for (const auto& p : parts) {
    if (p.dtype != dtype) fail(node, "elements have mixed dtypes");
    if (!std::equal(p.shape.begin() + 1, p.shape.end(), tail.begin(), tail.end()))
      fail(node, "elements have different shapes: " + shape_to_string(p.shape) + " vs [?" +
                     shape_to_string(tail).substr(1));
    n += p.shape[0];
  }
  Shape s{n};
  s.insert(s.end(), tail.begin(), tail.end());
  HostTensor out = HostTensor::zeros(dtype, s);
  std::size_t at = 0;
  for (const auto& p : parts) {
    if (dtype == DType::String) {
      std::copy(p.strings->begin(), p.strings->end(), out.strings->begin() + at);
      at += p.strings->size();
    } else {
      const std::size_t b = static_cast<std::size_t>(p.num_elements()) * element_size(dtype);
      if (b) std::memcpy(out.buffer->mutable_data() + at, p.buffer->data(), b);
      at += b;
    }
  }
  return out;
}

// Stacks elements (all the same shape) into [n, ...element].
HostTensor stack(const std::vector<HostTensor>& items, DType dtype, const PartialShape& element,
                 const graph::Node& node) {
  if (items.empty()) {
    if (!element.fully_known())
      fail(node, "cannot stack zero elements of unknown shape " + element.to_string());
    Shape s{0};
    s.insert(s.end(), element.dims.begin(), element.dims.end());
    return HostTensor::zeros(dtype, s);
  }
  std::vector<HostTensor> parts;
  for (const auto& it : items) {
    HostTensor p = it;
    p.shape.insert(p.shape.begin(), 1);
    parts.push_back(std::move(p));
  }
  return concat_rows(parts, dtype, items.front().shape, node);
}

// Splits t along axis 0 into its rows, each without the leading axis.
std::vector<HostTensor> unstack(const HostTensor& t, const graph::Node& node) {
  if (t.rank() == 0) fail(node, "cannot unstack a scalar");
  std::vector<HostTensor> out;
  for (std::int64_t i = 0; i < t.shape[0]; ++i) {
    HostTensor r = rows(t, i, 1);
    r.shape.erase(r.shape.begin());
    out.push_back(std::move(r));
  }
  return out;
}

HostTensor zeros_of(const PartialShape& s, DType dtype, const graph::Node& node,
                    std::string_view what) {
  if (!s.fully_known())
    fail(node, std::string(what) + " and its shape " + s.to_string() +
                   " is not fully known, so it cannot be zeros");
  return HostTensor::zeros(dtype, s.dims);
}

HostTensor int_scalar(std::int64_t v) {
  HostTensor t = HostTensor::zeros(DType::Int32, {});
  t.mutable_values<std::int32_t>()[0] = static_cast<std::int32_t>(v);
  return t;
}

HostTensor int_vector_tensor(const std::vector<std::int64_t>& v) {
  HostTensor t = HostTensor::zeros(DType::Int32, {static_cast<std::int64_t>(v.size())});
  for (std::size_t i = 0; i < v.size(); ++i)
    t.mutable_values<std::int32_t>()[i] = static_cast<std::int32_t>(v[i]);
  return t;
}

std::size_t checked_index(std::int64_t i, std::size_t size, const graph::Node& node) {
  if (i < 0 || static_cast<std::size_t>(i) >= size)
    fail(node, "index " + std::to_string(i) + " out of range [0, " + std::to_string(size) + ")");
  return static_cast<std::size_t>(i);
}

// ---- TensorArray ----

// The size check before a TensorArray or TensorList gets `n` slots (a slot costs its bookkeeping
// before any element is written): 2^31 of them is refused by size, not by std::bad_alloc.
void reserve_slots(std::uint64_t n, const std::string& what) {
  check_allocation(saturating_bytes(n, sizeof(std::optional<HostTensor>) + 1),
                   what + " of " + std::to_string(n) + " elements");
}

TensorArray& array_arg(const graph::Node& node, std::span<const Value* const> in) {
  const Value& v = arg(node, in, 0);
  if (!v.array) fail(node, std::string("input 0 is a ") + v.kind() + ", expected a TensorArray");
  if (v.array->closed) fail(node, "TensorArray '" + v.array->node + "' is closed");
  return *v.array;
}

void array_write(TensorArray& ta, std::int64_t index, HostTensor value, const graph::Node& node) {
  if (index < 0) fail(node, "negative TensorArray index " + std::to_string(index));
  const auto i = static_cast<std::size_t>(index);
  if (i >= ta.items.size()) {
    if (!ta.dynamic_size)
      fail(node, "index " + std::to_string(index) + " past the end of TensorArray '" + ta.node +
                     "' of size " + std::to_string(ta.items.size()));
    reserve_slots(i + 1, "TensorArray '" + ta.node + "'");
    ta.items.resize(i + 1);
    ta.cleared.resize(i + 1);
  }
  if (value.dtype != ta.dtype)
    fail(node, "writes " + std::string(to_string(value.dtype)) + " into TensorArray '" + ta.node +
                   "' of " + std::string(to_string(ta.dtype)));
  if (!compatible(ta.element_shape, value.shape))
    fail(node, "writes shape " + shape_to_string(value.shape) + " into TensorArray '" + ta.node +
                   "' of elements " + ta.element_shape.to_string());
  if (ta.items[i])
    fail(node,
         "TensorArray '" + ta.node + "' index " + std::to_string(index) + " was already written");
  // Later elements must match the first one.
  if (!ta.element_shape.rank_known) ta.element_shape = PartialShape::of(value.shape);
  ta.items[i] = std::move(value);
}

HostTensor array_read(TensorArray& ta, std::int64_t index, const graph::Node& node) {
  const std::size_t i = checked_index(index, ta.items.size(), node);
  if (ta.cleared[i])
    fail(node, "TensorArray '" + ta.node + "' index " + std::to_string(index) +
                   " was already read and cleared");
  if (!ta.items[i])
    return zeros_of(ta.element_shape, ta.dtype, node,
                    "reads unwritten index " + std::to_string(index));
  HostTensor v = *ta.items[i];
  if (ta.clear_after_read) {
    ta.items[i].reset();
    ta.cleared[i] = true;
  }
  return v;
}

std::vector<std::optional<Value>> tensor_array_op(Engine& e, const graph::Node& node,
                                                  std::span<const Value* const> in) {
  auto tensor = [&](HostTensor h) {
    return std::optional<Value>(Value{e.make_tensor(h, node.name), {}, {}});
  };
  auto flow = [&] { return tensor(HostTensor::zeros(DType::Float32, {})); };
  const std::string& op = node.op;
  if (op == "TensorArrayV3") {
    auto ta = std::make_shared<TensorArray>();
    ta->node = node.name;
    ta->dtype = ops::try_attr<DType>(node, "dtype").value_or(DType::Float32);
    ta->element_shape =
        ops::try_attr<PartialShape>(node, "element_shape").value_or(PartialShape::unknown());
    ta->dynamic_size = ops::attr<bool>(node, "dynamic_size", false);
    ta->clear_after_read = ops::attr<bool>(node, "clear_after_read", true);
    const std::int64_t size = scalar_int(host_arg(e, node, in, 0), node, "size");
    if (size < 0) fail(node, "negative size " + std::to_string(size));
    reserve_slots(static_cast<std::uint64_t>(size), "TensorArray");
    ta->items.resize(static_cast<std::size_t>(size));
    ta->cleared.resize(static_cast<std::size_t>(size));
    return {Value{{}, std::move(ta), {}}, flow()};
  }
  TensorArray& ta = array_arg(node, in);
  if (op == "TensorArrayWriteV3") {
    array_write(ta, scalar_int(host_arg(e, node, in, 1), node, "index"), host_arg(e, node, in, 2),
                node);
    return {flow()};
  }
  if (op == "TensorArrayReadV3")
    return {tensor(array_read(ta, scalar_int(host_arg(e, node, in, 1), node, "index"), node))};
  if (op == "TensorArraySizeV3")
    return {tensor(int_scalar(static_cast<std::int64_t>(ta.items.size())))};
  if (op == "TensorArrayCloseV3") {
    ta.closed = true;
    ta.items.clear();
    return {};
  }
  if (op == "TensorArrayGatherV3") {
    std::vector<HostTensor> items;
    for (auto i : int_vector(host_arg(e, node, in, 1))) items.push_back(array_read(ta, i, node));
    return {tensor(stack(
        items, ta.dtype,
        merge_shapes(
            ops::try_attr<PartialShape>(node, "element_shape").value_or(PartialShape::unknown()),
            ta.element_shape),
        node))};
  }
  if (op == "TensorArrayScatterV3") {
    const auto idx = int_vector(host_arg(e, node, in, 1));
    const auto rows_of = unstack(host_arg(e, node, in, 2), node);
    if (idx.size() > rows_of.size())
      fail(node, "scatters " + std::to_string(idx.size()) + " indices but the value has " +
                     std::to_string(rows_of.size()) + " rows");
    for (std::size_t k = 0; k < idx.size(); ++k) array_write(ta, idx[k], rows_of[k], node);
    return {flow()};
  }
  if (op == "TensorArrayConcatV3") {
    std::vector<HostTensor> parts;
    std::vector<std::int64_t> lengths;
    for (std::size_t i = 0; i < ta.items.size(); ++i) {
      HostTensor p = array_read(ta, static_cast<std::int64_t>(i), node);
      if (p.rank() == 0) fail(node, "cannot concatenate scalar elements");
      lengths.push_back(p.shape[0]);
      parts.push_back(std::move(p));
    }
    if (parts.empty()) fail(node, "cannot concatenate an empty TensorArray");
    Shape tail(parts[0].shape.begin() + 1, parts[0].shape.end());
    return {tensor(concat_rows(parts, ta.dtype, tail, node)), tensor(int_vector_tensor(lengths))};
  }
  if (op == "TensorArraySplitV3") {
    const HostTensor value = host_arg(e, node, in, 1);
    const auto lengths = int_vector(host_arg(e, node, in, 2));
    std::int64_t at = 0;
    for (std::size_t k = 0; k < lengths.size(); ++k) {
      if (value.rank() == 0 || lengths[k] < 0 || at + lengths[k] > value.shape[0])
        fail(node, "split lengths do not add up to the value's " + shape_to_string(value.shape) +
                       " rows");
      array_write(ta, static_cast<std::int64_t>(k), rows(value, at, lengths[k]), node);
      at += lengths[k];
    }
    return {flow()};
  }
  fail(node, "unknown TensorArray op");
}

// ---- TensorList ----

const TensorList& list_arg(const graph::Node& node, std::span<const Value* const> in,
                           std::size_t i) {
  const Value& v = arg(node, in, i);
  if (!v.list)
    fail(node, "input " + std::to_string(i) + " is a " + v.kind() + ", expected a TensorList");
  return *v.list;
}

HostTensor list_item(const TensorList& l, std::size_t i, const PartialShape& hint,
                     const graph::Node& node) {
  if (l.items[i]) return *l.items[i];
  return zeros_of(merge_shapes(l.element_shape, hint), l.dtype, node,
                  "reads unset list index " + std::to_string(i));
}

void check_item(const TensorList& l, const HostTensor& t, const graph::Node& node) {
  if (t.dtype != l.dtype)
    fail(node, "puts a " + std::string(to_string(t.dtype)) + " tensor into a list of " +
                   std::string(to_string(l.dtype)));
  if (!compatible(l.element_shape, t.shape))
    fail(node, "puts shape " + shape_to_string(t.shape) + " into a list of elements " +
                   l.element_shape.to_string());
}

std::vector<std::optional<Value>> tensor_list_op(Engine& e, const graph::Node& node,
                                                 std::span<const Value* const> in) {
  auto tensor = [&](HostTensor h) {
    return std::optional<Value>(Value{e.make_tensor(h, node.name), {}, {}});
  };
  auto list = [](std::shared_ptr<TensorList> l) {
    return std::optional<Value>(Value{{}, {}, std::move(l)});
  };
  const std::string& op = node.op;
  const DType element_dtype = ops::try_attr<DType>(node, "element_dtype").value_or(DType::Float32);

  if (op == "TensorListReserve" || op == "EmptyTensorList") {
    auto l = std::make_shared<TensorList>();
    l->dtype = element_dtype;
    l->element_shape = shape_from_tensor(host_arg(e, node, in, 0));
    if (op == "TensorListReserve") {
      const std::int64_t n = scalar_int(host_arg(e, node, in, 1), node, "num_elements");
      if (n < 0) fail(node, "negative num_elements " + std::to_string(n));
      reserve_slots(static_cast<std::uint64_t>(n), "TensorList");
      l->items.resize(static_cast<std::size_t>(n));
    }
    return {list(std::move(l))};
  }
  if (op == "TensorListFromTensor" || op == "TensorListScatter" || op == "TensorListScatterV2") {
    const HostTensor t = host_arg(e, node, in, 0);
    auto l = std::make_shared<TensorList>();
    l->dtype = t.dtype;
    l->element_shape =
        shape_from_tensor(host_arg(e, node, in, op == "TensorListFromTensor" ? 1 : 2));
    auto rows_of = unstack(t, node);
    if (op == "TensorListFromTensor") {
      for (auto& r : rows_of) l->items.emplace_back(std::move(r));
    } else {
      const auto idx = int_vector(host_arg(e, node, in, 1));
      std::int64_t n = 0;
      if (op == "TensorListScatterV2")
        n = scalar_int(host_arg(e, node, in, 3), node, "num_elements");
      for (auto i : idx) n = std::max(n, i + 1);
      if (idx.size() > rows_of.size()) fail(node, "more indices than rows");
      reserve_slots(static_cast<std::uint64_t>(std::max<std::int64_t>(n, 0)), "TensorList");
      l->items.resize(static_cast<std::size_t>(std::max<std::int64_t>(n, 0)));
      for (std::size_t k = 0; k < idx.size(); ++k)
        l->items[checked_index(idx[k], l->items.size(), node)] = rows_of[k];
    }
    return {list(std::move(l))};
  }

  const TensorList& src = list_arg(node, in, 0);
  if (op == "TensorListLength")
    return {tensor(int_scalar(static_cast<std::int64_t>(src.items.size())))};
  if (op == "TensorListElementShape") {
    if (!src.element_shape.rank_known) return {tensor(int_scalar(-1))};
    return {tensor(int_vector_tensor(src.element_shape.dims))};
  }
  if (op == "TensorListGetItem") {
    const auto i =
        checked_index(scalar_int(host_arg(e, node, in, 1), node, "index"), src.items.size(), node);
    return {tensor(list_item(src, i, shape_from_tensor(host_arg(e, node, in, 2)), node))};
  }
  if (op == "TensorListStack" || op == "TensorListGather") {
    const bool gather = op == "TensorListGather";
    const PartialShape hint = shape_from_tensor(host_arg(e, node, in, gather ? 2 : 1));
    const std::int64_t expected = ops::attr<std::int64_t>(node, "num_elements", -1);
    if (!gather && expected >= 0 && static_cast<std::size_t>(expected) != src.items.size())
      fail(node, "expects " + std::to_string(expected) + " elements, the list has " +
                     std::to_string(src.items.size()));
    std::vector<std::int64_t> idx;
    if (gather)
      idx = int_vector(host_arg(e, node, in, 1));
    else
      for (std::size_t i = 0; i < src.items.size(); ++i)
        idx.push_back(static_cast<std::int64_t>(i));
    std::vector<HostTensor> items;
    for (auto i : idx)
      items.push_back(list_item(src, checked_index(i, src.items.size(), node), hint, node));
    return {tensor(stack(items, src.dtype, merge_shapes(src.element_shape, hint), node))};
  }
  if (op == "TensorListConcat" || op == "TensorListConcatV2") {
    std::vector<HostTensor> parts;
    std::vector<std::int64_t> lengths;
    // TensorListConcat has the element shape as an attribute; V2 as input 1 (with leading dims).
    const PartialShape hint =
        op == "TensorListConcat"
            ? ops::try_attr<PartialShape>(node, "element_shape").value_or(PartialShape::unknown())
            : shape_from_tensor(host_arg(e, node, in, 1));
    for (std::size_t i = 0; i < src.items.size(); ++i) {
      HostTensor p = list_item(src, i, hint, node);
      if (p.rank() == 0) fail(node, "cannot concatenate scalar elements");
      lengths.push_back(p.shape[0]);
      parts.push_back(std::move(p));
    }
    if (parts.empty()) fail(node, "cannot concatenate an empty list");
    Shape tail(parts[0].shape.begin() + 1, parts[0].shape.end());
    return {tensor(concat_rows(parts, src.dtype, tail, node)), tensor(int_vector_tensor(lengths))};
  }

  // The rest make a new list from `src`.
  auto l = std::make_shared<TensorList>(src);
  if (op == "TensorListSetItem") {
    const std::int64_t i = scalar_int(host_arg(e, node, in, 1), node, "index");
    HostTensor item = host_arg(e, node, in, 2);
    check_item(*l, item, node);
    if (i >= 0 && static_cast<std::size_t>(i) >= l->items.size() &&
        ops::attr<bool>(node, "resize_if_index_out_of_bounds", false)) {
      reserve_slots(static_cast<std::uint64_t>(i) + 1, "TensorList");
      l->items.resize(static_cast<std::size_t>(i) + 1);
    }
    l->items[checked_index(i, l->items.size(), node)] = std::move(item);
    return {list(std::move(l))};
  }
  if (op == "TensorListPushBack") {
    HostTensor item = host_arg(e, node, in, 1);
    check_item(*l, item, node);
    l->items.emplace_back(std::move(item));
    return {list(std::move(l))};
  }
  if (op == "TensorListPopBack") {
    if (l->items.empty()) fail(node, "pops from an empty list");
    HostTensor item =
        list_item(*l, l->items.size() - 1, shape_from_tensor(host_arg(e, node, in, 1)), node);
    l->items.pop_back();
    return {list(std::move(l)), tensor(std::move(item))};
  }
  if (op == "TensorListResize") {
    const std::int64_t n = scalar_int(host_arg(e, node, in, 1), node, "size");
    if (n < 0) fail(node, "negative size " + std::to_string(n));
    reserve_slots(static_cast<std::uint64_t>(n), "TensorList");
    l->items.resize(static_cast<std::size_t>(n));
    return {list(std::move(l))};
  }
  if (op == "TensorListScatterIntoExistingList") {
    const auto rows_of = unstack(host_arg(e, node, in, 1), node);
    const auto idx = int_vector(host_arg(e, node, in, 2));
    if (idx.size() > rows_of.size()) fail(node, "more indices than rows");
    for (std::size_t k = 0; k < idx.size(); ++k) {
      check_item(*l, rows_of[k], node);
      l->items[checked_index(idx[k], l->items.size(), node)] = rows_of[k];
    }
    return {list(std::move(l))};
  }
  fail(node, "unknown TensorList op");
}

}  // namespace

bool is_executor_op(std::string_view op) {
  return kOthers.count(op) || kForwarding.count(op) || kFunctional.count(op) ||
         is_hash_table_op(op);
}
bool is_functional_control_flow(std::string_view op) {
  return kFunctional.count(op) > 0;
}
bool is_forwarding_op(std::string_view op) {
  return kForwarding.count(op) > 0;
}

bool truth_of(Engine& engine, const graph::Node& node, const Value& v, std::string_view what) {
  if (!v.is_tensor()) fail(node, std::string(what) + " is a " + v.kind() + ", expected a tensor");
  const HostTensor t = engine.read(v.tensor);
  if (t.num_elements() < 1) fail(node, std::string(what) + " is empty");
  switch (t.dtype) {
    case DType::Bool:
      return t.values<std::uint8_t>()[0] != 0;
    case DType::Int32:
      return t.values<std::int32_t>()[0] != 0;
    case DType::Float32:
      return t.values<float>()[0] != 0.0f;
    case DType::String:
      return !(*t.strings)[0].empty();
    case DType::Complex64:
      fail(node, std::string(what) + " is complex64, which has no truth value");
  }
  return false;
}

std::vector<std::optional<Value>> run_executor_op(Engine& engine, Resources& resources,
                                                  const graph::Node& node,
                                                  std::span<const Value* const> inputs) {
  const std::string& op = node.op;
  auto forward = [&](const Value& v) {
    Value out = v;
    if (v.is_tensor()) out.tensor = engine.clone(v.tensor, node.name);
    return std::optional<Value>(std::move(out));
  };
  if (is_forwarding_op(op)) return {forward(arg(node, inputs, 0))};
  if (op == "IdentityN") {
    std::vector<std::optional<Value>> out;
    for (const Value* v : inputs) out.push_back(forward(*v));
    return out;
  }
  if (op == "NoOp") return {};
  if (op == "Switch") {
    // TF's Switch takes a bool predicate only; taking a float's truth would route the value down
    // a branch the model never meant (and report its outputs as "not computed").
    const Value& p = arg(node, inputs, 1);
    if (p.is_tensor() && p.tensor.dtype() != DType::Bool)
      fail(node, "the predicate (input 1) is " + std::string(to_string(p.tensor.dtype())) +
                     "; Switch needs a bool predicate");
    const bool pred = truth_of(engine, node, p, "the predicate (input 1)");
    std::vector<std::optional<Value>> out(2);
    out[pred ? 1 : 0] = forward(arg(node, inputs, 0));
    return out;
  }
  if (op.starts_with("TensorArray")) return tensor_array_op(engine, node, inputs);
  if (op.starts_with("TensorList") || op == "EmptyTensorList")
    return tensor_list_op(engine, node, inputs);
  if (is_hash_table_op(op)) return run_hash_table_op(engine, resources, node, inputs);
  fail(node, "is not an op the executor runs");
}

}  // namespace tfjsi::runtime
