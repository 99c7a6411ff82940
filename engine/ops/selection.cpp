// Ops that select elements by value: TopKV2 and NonMaxSuppression (V2 to V5).
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

constexpr OpDef kOps[] = {
    {"NonMaxSuppressionV2", nms, Family::Control},
    {"NonMaxSuppressionV3", nms, Family::Control},
    {"NonMaxSuppressionV4", nms, Family::Control},
    {"NonMaxSuppressionV5", nms, Family::Control},
    {"TopKV2", top_k, Family::Pooling},
};

}  // namespace

std::span<const OpDef> selection_ops() {
  return kOps;
}

}  // namespace tfjsi::ops
