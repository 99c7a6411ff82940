// Sparse ops (TF.js's sparse category; SparseToDense is array.cpp's): SparseFillEmptyRows,
// SparseReshape, SparseSegmentMean and SparseSegmentSum. Their entry counts depend on the data.
#include "ops/attr.h"
#include "ops/op_def.h"
#include "ops/shape_context.h"

namespace tfjsi::ops {
namespace {

// A vector input's length, or -1.
std::int64_t length_of(const InferContext& c, std::size_t i) {
  const PartialShape s = c.shape(i);
  return s.rank_known && s.dims.size() == 1 ? s.dims[0] : -1;
}

void fill_empty_rows(InferContext& c) {
  // SparseFillEmptyRows(indices [n, rank], values [n], dense_shape [rank], default_value):
  // indices and values with one entry added per empty row, which rows were empty, and where
  // each input entry went.
  const PartialShape idx = c.shape(0);
  const std::int64_t rank = idx.rank_known && idx.dims.size() == 2 ? idx.dims[1] : -1;
  const auto dense = c.ints(2);
  c.set(0, DType::Int32, PartialShape::of({-1, rank}));
  c.set(1, c.in(1).dtype, PartialShape::of({-1}));
  c.set(2, DType::Bool, PartialShape::of({dense && !dense->empty() ? (*dense)[0] : -1}));
  c.set(3, DType::Int32,
        PartialShape::of({idx.rank_known && !idx.dims.empty() ? idx.dims[0] : -1}));
}

void sparse_reshape(InferContext& c) {
  // SparseReshape(indices [n, in rank], shape [in rank], new_shape [out rank]).
  const PartialShape idx = c.shape(0);
  const std::int64_t out_rank = length_of(c, 2);
  c.set(0, DType::Int32,
        PartialShape::of({idx.rank_known && !idx.dims.empty() ? idx.dims[0] : -1, out_rank}));
  c.set(1, DType::Int32, PartialShape::of({out_rank}));
}

void segment_reduction(InferContext& c) {
  // SparseSegmentSum/Mean(data, indices, segment_ids): as many rows as the last segment id + 1.
  PartialShape s = c.shape(0);
  if (s.rank_known && !s.dims.empty()) s.dims[0] = -1;
  c.set(0, c.t(), s);
}

constexpr OpDef kOps[] = {
    {"SparseFillEmptyRows", fill_empty_rows, Family::Other},
    {"SparseReshape", sparse_reshape, Family::Shape},
    {"SparseSegmentMean", segment_reduction, Family::Pooling},
    {"SparseSegmentSum", segment_reduction, Family::Pooling},
};

}  // namespace

std::span<const OpDef> sparse_ops() {
  return kOps;
}

}  // namespace tfjsi::ops
