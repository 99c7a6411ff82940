// Convolutions, pooling, matrix products, resizing, space/depth/batch shuffles, TopK, NMS.
#include <algorithm>
#include <optional>

#include "core/error.h"
#include "graph/shape_rules.h"
#include "ops/window.h"

namespace tfjsi::graph::detail {
namespace {

struct Layout {
  bool nchw = false;
  int h() const { return nchw ? 2 : 1; }
  int w() const { return nchw ? 3 : 2; }
  int ch() const { return nchw ? 1 : 3; }
};

Layout layout_of(const InferContext& c) {
  return {ops::try_data_format(c.node) == ops::DataFormat::Nchw};
}

// One spatial output size (ops/window.h): -1 when something it needs is unknown or too large.
std::int64_t window_out(ops::Padding padding, std::int64_t in, std::int64_t k, std::int64_t stride,
                        std::int64_t dilation, std::int64_t pad_before, std::int64_t pad_after) {
  if (in < 0 || in > (std::int64_t{1} << 62)) return -1;
  if (padding == ops::Padding::Same) return ops::output_size(padding, in, 1, stride);
  const std::int64_t eff = dim_add(dim_mul(k - 1, dilation), 1);
  if (k < 1 || eff < 0 || dim_add(dim_add(in, pad_before), pad_after) < 0) return -1;
  return ops::output_size(padding, in, eff, stride, pad_before, pad_after);
}

// Conv2D-like and pooling ops: `kh`, `kw` give a convolution's filter size (pools read ksize),
// `channels` the output depth.
void windowed(InferContext& c, std::int64_t kh, std::int64_t kw, std::int64_t channels) {
  const PartialShape x = with_rank(c.shape(0), 4);
  std::optional<ops::WindowAttrs> a;
  try {
    a = ops::window_attrs(c.node);
  } catch (const ModelError&) {
    // Static inference never rejects a model: the kernel does, with the same message.
  }
  if (!x.rank_known || x.dims.size() != 4 || !a) {
    c.set(0, c.t(), PartialShape::unknown());
    return;
  }
  const Layout l{a->format == ops::DataFormat::Nchw};
  if (ops::is_pool(c.node.op)) kh = a->k_h, kw = a->k_w;
  std::vector<std::int64_t> out(4, -1);
  out[0] = x.dims[0];
  out[static_cast<std::size_t>(l.ch())] = channels;
  out[static_cast<std::size_t>(l.h())] =
      window_out(a->padding, x.dims[static_cast<std::size_t>(l.h())], kh, a->stride_h, a->dil_h,
                 a->pad_top, a->pad_bottom);
  out[static_cast<std::size_t>(l.w())] =
      window_out(a->padding, x.dims[static_cast<std::size_t>(l.w())], kw, a->stride_w, a->dil_w,
                 a->pad_left, a->pad_right);
  c.set(0, c.t(), PartialShape::of(std::move(out)));
}

void conv2d(InferContext& c) {
  const PartialShape f = with_rank(c.shape(1), 4);  // [kh, kw, in, out]
  const bool ok = f.rank_known && f.dims.size() == 4;
  windowed(c, ok ? f.dims[0] : -1, ok ? f.dims[1] : -1, ok ? f.dims[3] : -1);
}

void depthwise(InferContext& c) {
  const PartialShape f = with_rank(c.shape(1), 4);  // [kh, kw, in, multiplier]
  const bool ok = f.rank_known && f.dims.size() == 4;
  std::int64_t channels = -1;
  if (ok) channels = dim_mul(f.dims[2], f.dims[3]);
  windowed(c, ok ? f.dims[0] : -1, ok ? f.dims[1] : -1, channels);
}

void pool(InferContext& c) {
  const Layout l = layout_of(c);
  const PartialShape x = with_rank(c.shape(0), 4);
  const std::int64_t ch =
      x.rank_known && x.dims.size() == 4 ? x.dims[static_cast<std::size_t>(l.ch())] : -1;
  windowed(c, -1, -1, ch);
}

void conv2d_backprop_input(InferContext& c) {
  // Inputs: input_sizes, filter, out_backprop. The result is what input_sizes says.
  if (auto sizes = c.ints(0); sizes && sizes->size() == 4) {
    c.set(0, c.t(), PartialShape::of(*sizes));
    return;
  }
  const Layout l = layout_of(c);
  std::vector<std::int64_t> out(4, -1);
  const PartialShape dy = c.shape(2);
  if (dy.rank_known && dy.dims.size() == 4) out[0] = dy.dims[0];
  const PartialShape f = c.shape(1);
  if (f.rank_known && f.dims.size() == 4) out[static_cast<std::size_t>(l.ch())] = f.dims[2];
  c.set(0, c.t(), PartialShape::of(std::move(out)));
}

void matmul(InferContext& c) {
  const bool ta = c.attr<bool>("transpose_a", false);
  const bool tb = c.attr<bool>("transpose_b", false);
  const PartialShape a = with_rank(c.shape(0), 2), b = with_rank(c.shape(1), 2);
  std::int64_t m = -1, n = -1;
  if (a.rank_known && a.dims.size() == 2) m = a.dims[ta ? 1 : 0];
  if (b.rank_known && b.dims.size() == 2) n = b.dims[tb ? 0 : 1];
  c.set(0, c.t(), PartialShape::of({m, n}));
}

void batch_matmul(InferContext& c) {
  const bool ax = c.attr<bool>("adj_x", false);
  const bool ay = c.attr<bool>("adj_y", false);
  const PartialShape a = c.shape(0), b = c.shape(1);
  if (!a.rank_known || !b.rank_known || a.dims.size() < 2 || b.dims.size() < 2) {
    c.set(0, c.t(), PartialShape::unknown());
    return;
  }
  const auto batch = broadcast_shapes(PartialShape::of({a.dims.begin(), a.dims.end() - 2}),
                                      PartialShape::of({b.dims.begin(), b.dims.end() - 2}));
  std::vector<std::int64_t> out = batch.dims;
  const std::size_t ra = a.dims.size(), rb = b.dims.size();
  out.push_back(ax ? a.dims[ra - 1] : a.dims[ra - 2]);
  out.push_back(ay ? b.dims[rb - 2] : b.dims[rb - 1]);
  c.set(0, c.t(), PartialShape::of(std::move(out)));
}

void resize(InferContext& c) {
  const PartialShape x = with_rank(c.shape(0), 4);
  std::vector<std::int64_t> out(4, -1);
  if (x.rank_known && x.dims.size() == 4) {
    out[0] = x.dims[0];
    out[3] = x.dims[3];
  }
  if (auto size = c.ints(1); size && size->size() == 2) {
    out[1] = (*size)[0];
    out[2] = (*size)[1];
  }
  c.set(0, c.t(), PartialShape::of(std::move(out)));
}

void depth_to_space(InferContext& c) {
  const Layout l = layout_of(c);
  const std::int64_t bs = c.attr<std::int64_t>("block_size", -1);
  const bool to_space = c.node.op == "DepthToSpace";
  const PartialShape x = with_rank(c.shape(0), 4);
  std::vector<std::int64_t> out(4, -1);
  if (x.rank_known && x.dims.size() == 4 && bs > 0 && bs < (1 << 20)) {
    out = x.dims;
    auto scale = [&](int i, bool up) {
      auto& d = out[static_cast<std::size_t>(i)];
      d = up ? dim_mul(d, bs) : (d >= 0 ? d / bs : -1);
    };
    scale(l.h(), to_space);
    scale(l.w(), to_space);
    auto& ch = out[static_cast<std::size_t>(l.ch())];
    ch = to_space ? (ch >= 0 ? ch / (bs * bs) : -1) : dim_mul(ch, bs * bs);
  }
  c.set(0, c.t(), PartialShape::of(std::move(out)));
}

// SpaceToBatchND(input, block_shape, paddings) and BatchToSpaceND(input, block_shape, crops).
void space_batch(InferContext& c) {
  const bool to_batch = c.node.op == "SpaceToBatchND";
  const PartialShape x = c.shape(0);
  const auto block = c.ints(1);
  const auto pads = c.ints(2);
  if (!x.rank_known || !block) {
    c.set(0, c.t(), with_rank(PartialShape::unknown(), x.rank()));
    return;
  }
  const std::size_t m = block->size();
  std::vector<std::int64_t> out = x.dims;
  if (out.size() < m + 1 || (pads && pads->size() != 2 * m)) {
    c.set(0, c.t(), PartialShape::unknown());
    return;
  }
  std::int64_t prod = 1;
  for (auto b : *block) prod = dim_mul(prod, b);
  if (prod <= 0) {
    c.set(0, c.t(), PartialShape::unknown());
    return;
  }
  out[0] = to_batch ? dim_mul(out[0], prod) : (out[0] >= 0 ? out[0] / prod : -1);
  for (std::size_t i = 0; i < m; ++i) {
    auto& d = out[i + 1];
    if (d < 0 || !pads) {
      d = -1;
      continue;
    }
    const std::int64_t extra = dim_add((*pads)[2 * i], (*pads)[2 * i + 1]);
    if (extra < 0) {
      d = -1;
      continue;
    }
    const std::int64_t spread = to_batch ? dim_add(d, extra) : dim_mul(d, (*block)[i]);
    d = spread < 0 ? -1 : to_batch ? spread / (*block)[i] : dim_add(spread, -extra);
  }
  c.set(0, c.t(), PartialShape::of(std::move(out)));
}

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

}  // namespace

void add_nn_rules(RuleTable& t) {
  t["Conv2D"] = conv2d;
  t["_FusedConv2D"] = conv2d;
  t["DepthwiseConv2dNative"] = depthwise;
  t["DepthwiseConv2D"] = depthwise;
  t["FusedDepthwiseConv2dNative"] = depthwise;
  t["MaxPool"] = pool;
  t["AvgPool"] = pool;
  t["Conv2DBackpropInput"] = conv2d_backprop_input;
  t["MatMul"] = matmul;
  t["_FusedMatMul"] = matmul;
  t["BatchMatMul"] = batch_matmul;
  t["BatchMatMulV2"] = batch_matmul;
  t["ResizeBilinear"] = resize;
  t["ResizeNearestNeighbor"] = resize;
  t["DepthToSpace"] = depth_to_space;
  t["SpaceToDepth"] = depth_to_space;
  t["SpaceToBatchND"] = space_batch;
  t["BatchToSpaceND"] = space_batch;
  t["TopKV2"] = top_k;
  t["NonMaxSuppressionV2"] = nms;
  t["NonMaxSuppressionV3"] = nms;
  t["NonMaxSuppressionV4"] = nms;
  t["NonMaxSuppressionV5"] = nms;
}

}  // namespace tfjsi::graph::detail
