// Non-max suppression V3/V4/V5 (V5 with soft-NMS), with TF.js's greedy algorithm: candidates are
// taken best score first (ties: lower box index first); a candidate is dropped when it overlaps a
// kept box by IoU >= iou_threshold; with soft-NMS its score decays and it is queued again.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "backends/cpu/tensor_util.h"
#include "ops/attr.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

struct Candidate {
  double score;
  std::int32_t box;
  std::int32_t suppress_begin;
};

// Ascending: the best candidate is the heap's top; on equal scores the lower index is best.
bool ascending(const Candidate& a, const Candidate& b) {
  if (a.score != b.score) return a.score < b.score;
  return a.box > b.box;
}

double iou(const float* boxes, std::int32_t i, std::int32_t j) {
  const float* a = boxes + 4 * i;
  const float* b = boxes + 4 * j;
  const double ay0 = std::min(a[0], a[2]), ax0 = std::min(a[1], a[3]);
  const double ay1 = std::max(a[0], a[2]), ax1 = std::max(a[1], a[3]);
  const double by0 = std::min(b[0], b[2]), bx0 = std::min(b[1], b[3]);
  const double by1 = std::max(b[0], b[2]), bx1 = std::max(b[1], b[3]);
  const double area_a = (ay1 - ay0) * (ax1 - ax0);
  const double area_b = (by1 - by0) * (bx1 - bx0);
  if (area_a <= 0 || area_b <= 0) return 0.0;
  const double ih = std::max(std::min(ay1, by1) - std::max(ay0, by0), 0.0);
  const double iw = std::max(std::min(ax1, bx1) - std::max(ax0, bx0), 0.0);
  const double inter = ih * iw;
  return inter / (area_a + area_b - inter);
}

struct NmsResult {
  std::vector<std::int32_t> indices;
  std::vector<float> scores;
};

NmsResult run_nms(const KernelContext& ctx, double soft_sigma) {
  const HostTensor boxes = convert(input(ctx, 0), DType::Float32);
  const HostTensor scores = convert(input(ctx, 1), DType::Float32);
  if (boxes.rank() != 2 || boxes.shape[1] != 4)
    fail(ctx, "boxes must have shape [n, 4], got " + shape_to_string(boxes.shape));
  const std::int64_t n = boxes.shape[0];
  if (scores.rank() != 1 || scores.shape[0] != n)
    fail(ctx, "scores must have shape [" + std::to_string(n) + "], got " +
                  shape_to_string(scores.shape));
  std::int64_t max_out = read_int(ctx, 2, "max_output_size");
  max_out = std::min(max_out, n);
  const double iou_threshold = ctx.inputs.size() > 3 ? read_scalar(ctx, 3, "iou_threshold") : 0.5;
  const double score_threshold = ctx.inputs.size() > 4 ? read_scalar(ctx, 4, "score_threshold")
                                                       : -std::numeric_limits<double>::infinity();
  if (iou_threshold < 0 || iou_threshold > 1)
    fail(ctx, "iou_threshold must be in [0, 1], got " + std::to_string(iou_threshold));
  if (soft_sigma < 0) fail(ctx, "soft_nms_sigma must not be negative");

  const float* pb = boxes.values<float>().data();
  const auto ps = scores.values<float>();
  std::vector<Candidate> queue;
  for (std::int32_t i = 0; i < n; ++i)
    if (ps[i] > score_threshold) queue.push_back({ps[i], i, 0});
  // A heap, not a sorted list: the loop usually ends after max_out kept boxes, long before the
  // queue is drained (handtrack: 12804 boxes, 100 kept), so sorting all of them was most of the
  // op. Pops come in the same total order (score, then index), so the result is the same.
  std::make_heap(queue.begin(), queue.end(), ascending);
  const double scale = soft_sigma > 0 ? -0.5 / soft_sigma : 0.0;

  NmsResult r;
  while (static_cast<std::int64_t>(r.indices.size()) < max_out && !queue.empty()) {
    std::pop_heap(queue.begin(), queue.end(), ascending);
    Candidate c = queue.back();
    queue.pop_back();
    const double original = c.score;
    if (original < score_threshold) break;
    bool drop = false;
    for (auto j = static_cast<std::int64_t>(r.indices.size()) - 1; j >= c.suppress_begin; --j) {
      const double o = iou(pb, c.box, r.indices[j]);
      if (o >= iou_threshold) {
        drop = true;
        break;
      }
      c.score *= o <= iou_threshold ? std::exp(scale * o * o) : 0.0;
      if (c.score <= score_threshold) break;
    }
    c.suppress_begin = static_cast<std::int32_t>(r.indices.size());
    if (drop) continue;
    if (c.score == original) {
      r.indices.push_back(c.box);
      r.scores.push_back(static_cast<float>(c.score));
    } else if (c.score > score_threshold) {
      queue.push_back(c);
      std::push_heap(queue.begin(), queue.end(), ascending);
    }
  }
  return r;
}

HostTensor int_tensor(const std::vector<std::int32_t>& v) {
  HostTensor t = HostTensor::zeros(DType::Int32, {static_cast<std::int64_t>(v.size())});
  std::ranges::copy(v, t.mutable_values<std::int32_t>().begin());
  return t;
}

HostTensor int_scalar(std::int64_t v) {
  HostTensor t = HostTensor::zeros(DType::Int32, {});
  t.mutable_values<std::int32_t>()[0] = static_cast<std::int32_t>(v);
  return t;
}

}  // namespace

// Inputs: boxes, scores, max_output_size, iou_threshold, score_threshold (V2 has no
// score_threshold). Output: selected box indices.
std::vector<HostTensor> NonMaxSuppressionV3(const KernelContext& ctx) {
  require_inputs(ctx, 3, 5);
  return {int_tensor(run_nms(ctx, 0.0).indices)};
}

// V3's inputs; attribute pad_to_max_output_size pads the indices with 0 up to max_output_size.
// Outputs: indices, number of valid indices.
std::vector<HostTensor> NonMaxSuppressionV4(const KernelContext& ctx) {
  require_inputs(ctx, 5, 5);
  auto r = run_nms(ctx, 0.0);
  const auto valid = static_cast<std::int64_t>(r.indices.size());
  if (ops::attr<bool>(ctx.node, "pad_to_max_output_size", false)) {
    // TF.js pads up to max_output_size clamped to the number of boxes.
    const std::int64_t max_out =
        std::min<std::int64_t>(read_int(ctx, 2, "max_output_size"), ctx.inputs[0].shape.at(0));
    if (max_out > valid) r.indices.resize(static_cast<std::size_t>(max_out), 0);
  }
  return {int_tensor(r.indices), int_scalar(valid)};
}

// V3's inputs plus soft_nms_sigma. Outputs: indices, their (decayed) scores, and the count. TF.js
// returns only the first two; the count is TF's third output, for graphs that read it.
std::vector<HostTensor> NonMaxSuppressionV5(const KernelContext& ctx) {
  require_inputs(ctx, 6, 6);
  const auto r = run_nms(ctx, read_scalar(ctx, 5, "soft_nms_sigma"));
  HostTensor scores =
      HostTensor::zeros(DType::Float32, {static_cast<std::int64_t>(r.scores.size())});
  std::ranges::copy(r.scores, scores.mutable_values<float>().begin());
  return {int_tensor(r.indices), scores, int_scalar(static_cast<std::int64_t>(r.indices.size()))};
}

}  // namespace tfjsi::cpu::tensor_ops
