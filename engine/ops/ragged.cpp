// Ragged tensors (TF.js's ragged category): RaggedGather, RaggedRange, RaggedTensorToTensor. A
// ragged tensor is its flat values plus row partitions (splits: row k is values[s[k], s[k+1])),
// so how many values come out depends on the data (-1 dims).
#include <string>
#include <vector>

#include "ops/attr.h"
#include "ops/op_def.h"
#include "ops/shape_context.h"

namespace tfjsi::ops {
namespace {

// The element type of a ragged op's values: attribute `key`, else input `i`'s dtype.
std::optional<DType> values_type(const InferContext& c, std::string_view key, std::size_t i) {
  if (auto d = try_attr<DType>(c.node, key)) return d;
  return c.in(i).dtype;
}

// RaggedGather(params_nested_splits..., params_dense_values, indices): the output's splits
// (indices.rank - 1 uniform ones, then one per params splits tensor past the first) and values
// [-1, values dims 1...].
void ragged_gather(InferContext& c) {
  const std::size_t n = c.num_inputs();
  if (n < 3) return;
  const PartialShape values = c.shape(n - 2), indices = c.shape(n - 1);
  std::int64_t splits = c.attr<std::int64_t>("OUTPUT_RAGGED_RANK", -1);
  if (splits < 0 && indices.rank_known)
    splits = static_cast<std::int64_t>(indices.dims.size()) - 1 + static_cast<std::int64_t>(n - 2);
  if (splits < 0 || splits > kMaxOutputs) return;
  // The uniform splits that indices' own dims make: [0, d1, 2 d1, ...], prod(dims[..k]) + 1 long.
  std::int64_t rows = 1;
  for (std::int64_t k = 0; k < splits; ++k) {
    std::int64_t len = -1;
    if (indices.rank_known && k + 1 < static_cast<std::int64_t>(indices.dims.size())) {
      rows = dim_mul(rows, indices.dims[static_cast<std::size_t>(k)]);
      len = dim_add(rows, 1);
    }
    c.set(static_cast<std::size_t>(k), DType::Int32, PartialShape::of({len}));
  }
  PartialShape out = values;
  if (out.rank_known && !out.dims.empty()) out.dims[0] = -1;
  c.set(static_cast<std::size_t>(splits), values_type(c, "Tvalues", n - 2), out);
}

// RaggedRange(starts, limits, deltas): splits [rows + 1] (rows: the size of the vector inputs, 1
// when all are scalars) and values [-1].
void ragged_range(InferContext& c) {
  std::int64_t rows = 1;
  for (std::size_t i = 0; i < 3; ++i) {
    const PartialShape s = c.shape(i);
    if (!s.rank_known)
      rows = -1;
    else if (s.dims.size() == 1 && rows >= 0)
      rows = s.dims[0];
  }
  c.set(0, DType::Int32, PartialShape::of({dim_add(rows, 1)}));
  c.set(1, values_type(c, "T", 0), PartialShape::of({-1}));
}

// RaggedTensorToTensor(shape, values, default_value, row_partition_tensors...): a dense tensor of
// rank ragged_rank + values.rank; the dims `shape` gives (>= 0) are known, the others -1 but for
// the values' inner dims.
void ragged_to_tensor(InferContext& c) {
  const auto types = c.attr<std::vector<std::string>>("row_partition_types", {});
  const std::int64_t ragged_rank = static_cast<std::int64_t>(types.size()) -
                                   (!types.empty() && types.front() == "FIRST_DIM_SIZE" ? 1 : 0);
  const PartialShape values = c.shape(1);
  PartialShape out = PartialShape::unknown();
  if (values.rank_known && !types.empty())
    out = with_rank(out,
                    static_cast<int>(ragged_rank + static_cast<std::int64_t>(values.dims.size())));
  if (const auto dims = c.ints(0); dims && !(dims->size() == 1 && c.shape(0).dims.empty())) {
    if (!out.rank_known || out.dims.size() == dims->size()) {
      out = with_rank(PartialShape::unknown(), static_cast<int>(dims->size()));
      for (std::size_t k = 0; k < dims->size(); ++k)
        out.dims[k] = (*dims)[k] >= 0 ? (*dims)[k] : -1;
    }
  }
  if (out.rank_known && values.rank_known && out.dims.size() >= values.dims.size())
    for (std::size_t k = 1; k < values.dims.size(); ++k) {
      auto& d = out.dims[out.dims.size() - values.dims.size() + k];
      if (d < 0) d = values.dims[k];
    }
  c.set(0, values_type(c, "T", 1), out);
}

constexpr OpDef kOps[] = {
    {"RaggedGather", ragged_gather, Family::Shape},
    {"RaggedRange", ragged_range, Family::Shape},
    {"RaggedTensorToTensor", ragged_to_tensor, Family::Shape},
};

}  // namespace

std::span<const OpDef> ragged_ops() {
  return kOps;
}

}  // namespace tfjsi::ops
