// Reductions over constant axes (Sum, Mean, Max, EuclideanNorm, ...) with keep_dims, ArgMax/ArgMin,
// the running Cumsum/Cumprod and the counting ops Bincount/DenseBincount.
#include <algorithm>

#include "ops/attr.h"
#include "ops/op_def.h"
#include "ops/shape_context.h"

namespace tfjsi::ops {
namespace {

PartialShape reduced(const PartialShape& in, const std::optional<std::vector<std::int64_t>>& axes,
                     bool keep_dims) {
  if (!in.rank_known) return PartialShape::unknown();
  if (!axes)
    return keep_dims ? with_rank(PartialShape::unknown(), in.rank()) : PartialShape::unknown();
  const auto rank = static_cast<std::int64_t>(in.dims.size());
  std::vector<bool> drop(in.dims.size(), false);
  for (auto a : *axes) {
    const std::int64_t ax = a < 0 ? a + rank : a;
    if (ax < 0 || ax >= rank) return PartialShape::unknown();
    drop[static_cast<std::size_t>(ax)] = true;
  }
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < in.dims.size(); ++i) {
    if (!drop[i])
      out.push_back(in.dims[i]);
    else if (keep_dims)
      out.push_back(1);
  }
  return PartialShape::of(std::move(out));
}

void reduce(InferContext& c) {
  const bool keep = c.attr<bool>("keep_dims", false);
  std::optional<DType> dtype = c.t();
  if (c.node.op == "All" || c.node.op == "Any") dtype = DType::Bool;
  if (c.node.op == "EuclideanNorm") dtype = DType::Float32;  // TF.js's sqrt makes float32
  c.set(0, dtype, reduced(c.shape(0), c.ints(1), keep));
  // Prod of a known shape vector: the element count some models compute before a Reshape.
  const KnownValue* v = c.value(0);
  if (c.node.op == "Prod" && v && v->shape.size() == 1 && c.ints(1) && !keep) {
    double p = 1;
    for (double d : v->v) p *= d;
    if (p < 2147483647.0) c.set_value(0, KnownValue{v->dtype, {}, {p}});
  }
}

void arg_reduce(InferContext& c) {
  auto dtype = try_attr<DType>(c.node, "output_type");
  if (!dtype) dtype = DType::Int32;  // TF's default int64, narrowed
  const auto axis = c.scalar(1);
  c.set(0, dtype,
        reduced(c.shape(0), axis ? std::optional(std::vector<std::int64_t>{*axis}) : std::nullopt,
                false));
  if (!axis && c.shape(0).rank_known && c.shape(0).rank() > 0)
    c.out[0].shape = with_rank(PartialShape::unknown(), c.shape(0).rank() - 1);
}

// Cumsum, Cumprod: x's shape.
void cumulative(InferContext& c) {
  c.set(0, c.t(), c.shape(0));
}

// Bincount(arr, size, weights): `size` counts (or weight sums) of the weights' type;
// DenseBincount counts each row of a 2-D input on its own.
void bincount(InferContext& c) {
  auto dtype = try_attr<DType>(c.node, "T");
  if (!dtype) dtype = c.in(2).dtype;
  std::int64_t size = c.scalar(1).value_or(-1);
  if (size < 0) size = -1;
  const PartialShape& x = c.shape(0);
  if (c.node.op != "DenseBincount" || (x.rank_known && x.rank() <= 1))
    c.set(0, dtype, PartialShape::of({size}));
  else if (x.rank_known && x.rank() == 2)
    c.set(0, dtype, PartialShape::of({x.dims[0], size}));
  else
    c.set(0, dtype, PartialShape::unknown());
}

// One op per line, as the other families' tables (short enough here to be packed otherwise).
// clang-format off
constexpr OpDef kOps[] = {
    {"All", reduce, Family::Pooling},
    {"Any", reduce, Family::Pooling},
    {"ArgMax", arg_reduce, Family::Pooling},
    {"ArgMin", arg_reduce, Family::Pooling},
    {"Bincount", bincount, Family::Pooling},
    {"Cumprod", cumulative, Family::Pooling},
    {"Cumsum", cumulative, Family::Pooling},
    {"DenseBincount", bincount, Family::Pooling},
    {"EuclideanNorm", reduce, Family::Pooling},
    {"Max", reduce, Family::Pooling},
    {"Mean", reduce, Family::Pooling},
    {"Min", reduce, Family::Pooling},
    {"Prod", reduce, Family::Pooling},
    {"Sum", reduce, Family::Pooling},
};
// clang-format on

}  // namespace

std::span<const OpDef> reduction_ops() {
  return kOps;
}

}  // namespace tfjsi::ops
