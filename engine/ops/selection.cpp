// Ops that select elements by value: TopKV2, NonMaxSuppression (V2 to V5), the sorted searches
// LowerBound/UpperBound, and Unique(V2) and ListDiff, whose output sizes depend on the values
// (known only at run time: -1 here, as for NMS without padding).
#include "ops/attr.h"
#include "ops/op_def.h"
#include "ops/shape_context.h"

namespace tfjsi::ops {
namespace {

void top_k(InferContext& c) {
  PartialShape s = c.shape(0);
  if (s.rank_known && !s.dims.empty()) s.dims.back() = c.scalar(1).value_or(-1);
  c.set(0, c.t(), s);
  c.set(1, DType::Int32, s);
}

void nms(InferContext& c) {
  // Inputs: boxes, scores, max_output_size, iou_threshold, score_threshold[, soft_nms_sigma].
  std::int64_t n = -1;
  if (c.attr<bool>("pad_to_max_output_size", false)) n = c.scalar(2).value_or(-1);
  c.set(0, DType::Int32, PartialShape::of({n}));
  const std::string_view op = c.node.op;
  if (op == "NonMaxSuppressionV4") c.set(1, DType::Int32, PartialShape::of({}));
  if (op == "NonMaxSuppressionV5") {
    c.set(1, DType::Float32, PartialShape::of({n}));
    c.set(2, DType::Int32, PartialShape::of({}));
  }
}

// LowerBound/UpperBound(sorted, values): an int32 position per value. TF.js views both inputs as
// rows ([-1, last dim]) and gives the values' row shape; TF's 2-D inputs keep theirs.
void search_sorted(InferContext& c) {
  const PartialShape& v = c.shape(1);
  PartialShape out = PartialShape::of({-1, -1});
  if (v.rank_known && !v.dims.empty()) {
    std::int64_t rows = 1;
    for (std::size_t d = 0; d + 1 < v.dims.size(); ++d) rows = dim_mul(rows, v.dims[d]);
    out = PartialShape::of({rows, v.dims.back()});
  }
  c.set(0, DType::Int32, out);
}

// Unique (axis 0) and UniqueV2 (axis input): the distinct slices along the axis, and for each
// slice of the input the int32 index of its distinct one.
void unique(InferContext& c) {
  const PartialShape& x = c.shape(0);
  const std::optional<std::int64_t> axis =
      c.node.op == "UniqueV2" ? c.scalar(1) : std::optional<std::int64_t>(0);
  const std::int64_t rank = x.rank_known ? x.rank() : -1;
  const std::int64_t ax = axis && *axis < 0 ? *axis + rank : axis.value_or(-1);
  if (rank < 1 || ax < 0 || ax >= rank) {
    c.set(0, c.t(), with_rank(PartialShape::unknown(), static_cast<int>(rank)));
    c.set(1, DType::Int32, PartialShape::of({-1}));
    return;
  }
  PartialShape y = x;
  const std::int64_t n = x.dims[static_cast<std::size_t>(ax)];
  if (n > 1) y.dims[static_cast<std::size_t>(ax)] = -1;  // 0 or 1 slice: that many distinct
  c.set(0, c.t(), y);
  c.set(1, DType::Int32, PartialShape::of({n}));
}

// ListDiff(x, y): the values of x not in y, and their positions in x.
void list_diff(InferContext& c) {
  c.set(0, c.t(), PartialShape::of({-1}));
  c.set(1, DType::Int32, PartialShape::of({-1}));
}

constexpr OpDef kOps[] = {
    {"ListDiff", list_diff, Family::Shape},
    {"LowerBound", search_sorted, Family::Other},
    {"NonMaxSuppressionV2", nms, Family::Control},
    {"NonMaxSuppressionV3", nms, Family::Control},
    {"NonMaxSuppressionV4", nms, Family::Control},
    {"NonMaxSuppressionV5", nms, Family::Control},
    {"TopKV2", top_k, Family::Pooling},
    {"Unique", unique, Family::Shape},
    {"UniqueV2", unique, Family::Shape},
    {"UpperBound", search_sorted, Family::Other},
};

}  // namespace

std::span<const OpDef> selection_ops() {
  return kOps;
}

}  // namespace tfjsi::ops
