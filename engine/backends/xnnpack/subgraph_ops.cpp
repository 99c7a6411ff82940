// The nodes an XNNPACK subgraph takes, each checked against its static shapes and attributes and
// defined with the parameters the operator path gives the same XNNPACK operator.
#include <algorithm>
#include <array>
#include <limits>
#include <set>

#include "backends/xnnpack/fused_epilogue.h"
#include "backends/xnnpack/native_op.h"
#include "backends/xnnpack/subgraph.h"
#include "ops/attr.h"

namespace tfjsi::xnnpack {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

std::uint32_t u(std::int64_t v) {
  return static_cast<std::uint32_t>(v);
}
bool ok(xnn_status s) {
  return s == xnn_status_success;
}
double elements(const Shape& s) {
  double n = 1;
  for (auto d : s) n *= static_cast<double>(d);
  return n;
}

std::optional<std::vector<std::int64_t>> int_weight(const HostTensor* t) {
  if (!t || t->dtype != DType::Int32 || !t->buffer || t->buffer->size() < t->byte_size())
    return std::nullopt;
  const auto v = t->values<std::int32_t>();
  return std::vector<std::int64_t>(v.begin(), v.end());
}

// What a fused node does after its main op, its bias and Prelu alpha read as weights.
std::optional<Fused> read_epilogue(const SubgraphDef& d, std::int64_t channels) {
  return read_fused(d.node, d.node.inputs.size(), channels,
                    [&](std::size_t i) { return d.weight(i); });
}

// The epilogue on `v`, into the node's output: the bias (and Relu/Relu6 bounds) as an add after
// the main op's sum, like TF.js and the operator path, then the post op.
bool define_epilogue(SubgraphDef& d, Fused e, std::uint32_t v, std::int64_t channels,
                     bool bias_done) {
  const bool add = !bias_done && (!e.bias.empty() || e.min != -kInf || e.max != kInf);
  if (add) {
    const std::uint32_t next = e.post != PostOp::None ? d.temp(d.out_shape) : d.output;
    if (e.bias.empty()) {
      if (!ok(xnn_define_clamp(d.subgraph, e.min, e.max, v, next, 0))) return false;
    } else {
      const std::uint32_t b = d.constant({channels}, std::move(e.bias));
      if (!ok(xnn_define_add2(d.subgraph, e.min, e.max, v, b, next, 0))) return false;
    }
    v = next;
  }
  switch (e.post) {
    case PostOp::None:
      return true;
    case PostOp::Elu:
      return ok(xnn_define_elu(d.subgraph, 1.f, v, d.output, 0));
    case PostOp::LeakyRelu:
      return ok(xnn_define_leaky_relu(d.subgraph, e.leaky_alpha, v, d.output, 0));
    case PostOp::Sigmoid:
      return ok(xnn_define_sigmoid(d.subgraph, v, d.output, 0));
    case PostOp::Prelu:
      return ok(
          xnn_define_prelu(d.subgraph, v, d.constant({channels}, std::move(e.alpha)), d.output, 0));
  }
  return false;
}

bool convolution(SubgraphDef& d, bool depthwise, bool fused) {
  const HostTensor* f = d.weight(1);
  if (!nhwc(d.node) || d.in_shapes[0].size() != 4 || !f || f->dtype != DType::Float32 ||
      f->rank() != 4)
    return false;
  const Shape& x = d.in_shapes[0];
  const std::int64_t c = x[3], k_h = f->shape[0], k_w = f->shape[1], m = f->shape[3];
  // One filter per channel: the backend's own kernel keeps TF.js's summation order.
  if (f->shape[2] != c || c < 1 || m < 1 || (depthwise && m == 1)) return false;
  const std::int64_t out_c = depthwise ? c * m : m;
  const auto g = window_of(d.node, x, f->shape);
  if (!g || d.out_shape != Shape{x[0], g->out_h, g->out_w, out_c}) return false;
  Fused e;
  if (fused) {
    auto r = read_epilogue(d, out_c);
    if (!r || (r->post == PostOp::Prelu && d.out_shape.size() != 4)) return false;
    e = std::move(*r);
  } else if (d.node.inputs.size() != 2) {
    return false;
  }
  d.work = elements(d.out_shape) * static_cast<double>(k_h * k_w * (depthwise ? 1 : c));
  if (d.checking()) return true;
  std::uint32_t filter;
  const float* src = f->values<float>().data();
  if (depthwise) {
    // TF's [kh, kw, C, M] is XNNPACK's depthwise [1, kh, kw, C*M] as is.
    filter = d.packed({1, k_h, k_w, out_c}, std::vector<float>(src, src + f->num_elements()));
  } else {
    std::vector<float> ohwi(static_cast<std::size_t>(f->num_elements()));
    const std::int64_t taps = k_h * k_w;
    for (std::int64_t t = 0; t < taps; ++t)
      for (std::int64_t i = 0; i < c; ++i)
        for (std::int64_t o = 0; o < out_c; ++o)
          ohwi[static_cast<std::size_t>((o * taps + t) * c + i)] = src[(t * c + i) * out_c + o];
    filter = d.packed({out_c, k_h, k_w, c}, std::move(ohwi));
  }
  const std::uint32_t zero = d.packed({out_c}, std::vector<float>(out_c, 0.f));
  // Bounds with no bias or post op go into the convolution: clamping its finished sum is all the
  // epilogue would do, and no value is left between them.
  const bool bounds_only = e.bias.empty() && e.post == PostOp::None;
  const float lo = bounds_only ? e.min : -kInf, hi = bounds_only ? e.max : kInf;
  const bool more = !bounds_only;
  const std::uint32_t sum = more ? d.temp(d.out_shape) : d.output;
  const xnn_status s =
      depthwise ? xnn_define_depthwise_convolution_2d(
                      d.subgraph, u(g->pad_top), u(g->pad_right), u(g->pad_bottom), u(g->pad_left),
                      u(k_h), u(k_w), u(g->stride_h), u(g->stride_w), u(g->dil_h), u(g->dil_w),
                      u(m), static_cast<std::size_t>(c), lo, hi, d.input(0), filter, zero, sum, 0)
                : xnn_define_convolution_2d(
                      d.subgraph, u(g->pad_top), u(g->pad_right), u(g->pad_bottom), u(g->pad_left),
                      u(k_h), u(k_w), u(g->stride_h), u(g->stride_w), u(g->dil_h), u(g->dil_w), 1,
                      static_cast<std::size_t>(c), static_cast<std::size_t>(out_c), lo, hi,
                      d.input(0), filter, zero, sum, 0);
  return ok(s) && (!more || define_epilogue(d, std::move(e), sum, out_c, false));
}

bool conv2d(SubgraphDef& d) {
  return convolution(d, false, d.node.op == "_FusedConv2D");
}
bool depthwise(SubgraphDef& d) {
  return convolution(d, true, d.node.op == "FusedDepthwiseConv2dNative");
}

// MatMul and _FusedMatMul with a weight on the right: fully connected, the bias and bounds
// inside it as on the operator path.
bool matmul(SubgraphDef& d) {
  const HostTensor* b = d.weight(1);
  const auto ta = ops::try_attr<bool>(d.node, "transpose_a", false);
  const auto tb = ops::try_attr<bool>(d.node, "transpose_b", false);
  if (!ta || !tb || *ta || d.in_shapes[0].size() < 2 || !b || b->dtype != DType::Float32 ||
      b->rank() != 2)
    return false;
  const std::int64_t k = d.in_shapes[0].back();
  const std::int64_t kb = *tb ? b->shape[1] : b->shape[0], n = *tb ? b->shape[0] : b->shape[1];
  Shape want = d.in_shapes[0];
  want.back() = n;
  if (k != kb || k < 1 || n < 1 || d.out_shape != want) return false;
  Fused e;
  if (d.node.op == "_FusedMatMul") {
    auto r = read_epilogue(d, n);
    if (!r || r->post == PostOp::Prelu) return false;
    e = std::move(*r);
  } else if (d.node.inputs.size() != 2) {
    return false;
  }
  d.work = elements(d.out_shape) * static_cast<double>(k);
  if (d.checking()) return true;
  const float* src = b->values<float>().data();
  const std::uint32_t w = d.packed(b->shape, std::vector<float>(src, src + b->num_elements()));
  const std::uint32_t bias =
      e.bias.empty() ? XNN_INVALID_VALUE_ID : d.packed({n}, std::move(e.bias));
  const std::uint32_t out = e.post != PostOp::None ? d.temp(d.out_shape) : d.output;
  if (!ok(xnn_define_fully_connected(d.subgraph, e.min, e.max, d.input(0), w, bias, out,
                                     *tb ? 0u : XNN_FLAG_TRANSPOSE_WEIGHTS)))
    return false;
  e.min = -kInf, e.max = kInf;
  return e.post == PostOp::None || define_epilogue(d, std::move(e), out, n, true);
}

bool pooling(SubgraphDef& d) {
  const Shape& x = d.in_shapes[0];
  if (!nhwc(d.node) || x.size() != 4) return false;
  const auto g = window_of(d.node, x);
  if (!g || g->k_h * g->k_w < 2 || d.out_shape != Shape{x[0], g->out_h, g->out_w, x[3]})
    return false;
  d.work = elements(d.out_shape) * static_cast<double>(g->k_h * g->k_w);
  if (d.checking()) return true;
  if (d.node.op == "MaxPool")
    return ok(xnn_define_max_pooling_2d(
        d.subgraph, u(g->pad_top), u(g->pad_right), u(g->pad_bottom), u(g->pad_left), u(g->k_h),
        u(g->k_w), u(g->stride_h), u(g->stride_w), 1, 1, -kInf, kInf, d.input(0), d.output, 0));
  return ok(xnn_define_average_pooling_2d(
      d.subgraph, u(g->pad_top), u(g->pad_right), u(g->pad_bottom), u(g->pad_left), u(g->k_h),
      u(g->k_w), u(g->stride_h), u(g->stride_w), -kInf, kInf, d.input(0), d.output, 0));
}

// Mean over height and width: global average pooling (then a reshape without keep_dims).
bool mean(SubgraphDef& d) {
  const Shape& x = d.in_shapes[0];
  const auto axes = int_weight(d.weight(1));
  const auto keep = d.node.attr("keep_dims") ? ops::try_attr<bool>(d.node, "keep_dims", false)
                                             : ops::try_attr<bool>(d.node, "keepDims", false);
  if (x.size() != 4 || !axes || !keep) return false;
  std::set<std::int64_t> set;
  for (auto a : *axes) set.insert(a < 0 ? a + 4 : a);
  const Shape pooled{x[0], 1, 1, x[3]};
  if (set != std::set<std::int64_t>{1, 2} || d.out_shape != (*keep ? pooled : Shape{x[0], x[3]}))
    return false;
  d.work = elements(x);
  if (d.checking()) return true;
  const std::uint32_t v = *keep ? d.output : d.temp(pooled);
  if (!ok(xnn_define_global_average_pooling_2d(d.subgraph, -kInf, kInf, d.input(0), v, 0)))
    return false;
  const std::size_t dims[2] = {static_cast<std::size_t>(x[0]), static_cast<std::size_t>(x[3])};
  return *keep || ok(xnn_define_static_reshape(d.subgraph, 2, dims, v, d.output, 0));
}

bool resize_bilinear(SubgraphDef& d) {
  const Shape& x = d.in_shapes[0];
  const auto size = int_weight(d.weight(1));
  const auto align = ops::try_attr<bool>(d.node, "align_corners", false);
  const auto half = ops::try_attr<bool>(d.node, "half_pixel_centers", false);
  if (x.size() != 4 || !size || size->size() != 2 || !align || !half || (*align && *half) ||
      d.out_shape != Shape{x[0], (*size)[0], (*size)[1], x[3]})
    return false;
  d.work = elements(d.out_shape) * 4;
  if (d.checking()) return true;
  // TF's default coordinates (neither flag) are XNNPACK's TF legacy mode.
  const std::uint32_t flags =
      *align ? XNN_FLAG_ALIGN_CORNERS : (*half ? 0u : XNN_FLAG_TENSORFLOW_LEGACY_MODE);
  return ok(xnn_define_static_resize_bilinear_2d(d.subgraph, static_cast<std::size_t>((*size)[0]),
                                                 static_cast<std::size_t>((*size)[1]), d.input(0),
                                                 d.output, flags));
}

bool depth_to_space(SubgraphDef& d) {
  const Shape& x = d.in_shapes[0];
  const auto block = ops::try_attr<std::int64_t>(d.node, "block_size", 0);
  if (!nhwc(d.node) || x.size() != 4 || !block || *block < 2 || *block > (1 << 12)) return false;
  const std::int64_t b = *block;
  if (x[3] % (b * b) != 0 || d.out_shape != Shape{x[0], x[1] * b, x[2] * b, x[3] / (b * b)})
    return false;
  d.work = elements(x);
  if (d.checking()) return true;
  return ok(xnn_define_depth_to_space(d.subgraph, d.input(0), d.output, u(b), 0));
}

bool pad(SubgraphDef& d) {
  const Shape& x = d.in_shapes[0];
  const auto pads = int_weight(d.weight(1));
  const std::size_t rank = x.size();
  if (rank < 1 || rank > XNN_MAX_TENSOR_DIMS || !pads || pads->size() != 2 * rank) return false;
  float value = 0;
  if (d.node.op == "PadV2") {
    const HostTensor* c = d.weight(2);
    if (!c || c->dtype != DType::Float32 || c->num_elements() != 1) return false;
    value = c->values<float>()[0];
  } else if (d.node.inputs.size() != 2) {
    return false;
  }
  std::array<std::size_t, XNN_MAX_TENSOR_DIMS> pre{}, post{};
  for (std::size_t k = 0; k < rank; ++k) {
    const std::int64_t p0 = (*pads)[2 * k], p1 = (*pads)[2 * k + 1];
    if (p0 < 0 || p1 < 0 || d.out_shape.size() != rank || d.out_shape[k] != x[k] + p0 + p1)
      return false;
    pre[k] = static_cast<std::size_t>(p0), post[k] = static_cast<std::size_t>(p1);
  }
  d.work = elements(d.out_shape);
  if (d.checking()) return true;
  return ok(xnn_define_static_constant_pad(d.subgraph, pre.data(), post.data(), value, d.input(0),
                                           d.output, 0));
}

using Binary = xnn_status (*)(xnn_subgraph_t, std::uint32_t, std::uint32_t, std::uint32_t,
                              std::uint32_t);
using BinaryBounded = xnn_status (*)(xnn_subgraph_t, float, float, std::uint32_t, std::uint32_t,
                                     std::uint32_t, std::uint32_t);

// A weight read as a tensor must be float32 like the rest.
bool float_weights(const SubgraphDef& d) {
  for (const HostTensor* w : d.consts)
    if (w && w->dtype != DType::Float32) return false;
  return true;
}

bool binary_fits(SubgraphDef& d) {
  if (d.node.inputs.size() != 2 || !float_weights(d)) return false;
  const Shape &a = d.in_shapes[0], &b = d.in_shapes[1];
  const std::size_t rank = std::max(a.size(), b.size());
  if (rank > XNN_MAX_TENSOR_DIMS || d.out_shape.size() != rank) return false;
  for (std::size_t k = 0; k < rank; ++k) {
    const std::int64_t x = k + a.size() >= rank ? a[k + a.size() - rank] : 1;
    const std::int64_t y = k + b.size() >= rank ? b[k + b.size() - rank] : 1;
    if ((x != y && x != 1 && y != 1) || d.out_shape[k] != std::max(x, y) || x < 1 || y < 1)
      return false;
  }
  d.work = elements(d.out_shape);
  return true;
}

template <BinaryBounded F>
bool bounded(SubgraphDef& d) {
  if (d.node.op == "BiasAdd" && !nhwc(d.node)) return false;
  return binary_fits(d) &&
         (d.checking() || ok(F(d.subgraph, -kInf, kInf, d.input(0), d.input(1), d.output, 0)));
}
template <Binary F>
bool unbounded(SubgraphDef& d) {
  return binary_fits(d) && (d.checking() || ok(F(d.subgraph, d.input(0), d.input(1), d.output, 0)));
}

using Unary = xnn_status (*)(xnn_subgraph_t, std::uint32_t, std::uint32_t, std::uint32_t);

bool unary_fits(SubgraphDef& d) {
  if (d.node.inputs.size() != 1 || d.out_shape != d.in_shapes[0] || !float_weights(d)) return false;
  d.work = elements(d.out_shape);
  return true;
}
template <Unary F>
bool unary(SubgraphDef& d) {
  return unary_fits(d) && (d.checking() || ok(F(d.subgraph, d.input(0), d.output, 0)));
}
bool relu(SubgraphDef& d) {
  const float hi = d.node.op == "Relu6" ? 6.f : kInf;
  return unary_fits(d) &&
         (d.checking() || ok(xnn_define_clamp(d.subgraph, 0.f, hi, d.input(0), d.output, 0)));
}
bool elu(SubgraphDef& d) {
  return unary_fits(d) &&
         (d.checking() || ok(xnn_define_elu(d.subgraph, 1.f, d.input(0), d.output, 0)));
}
bool leaky_relu(SubgraphDef& d) {
  const auto a = ops::try_attr<float>(d.node, "alpha", 0.2f);
  return a && unary_fits(d) &&
         (d.checking() || ok(xnn_define_leaky_relu(d.subgraph, *a, d.input(0), d.output, 0)));
}
bool softmax(SubgraphDef& d) {
  return !d.out_shape.empty() && unary<xnn_define_softmax>(d);
}
// Prelu with one alpha per channel of an NHWC tensor.
bool prelu(SubgraphDef& d) {
  const HostTensor* alpha = d.weight(1);
  if (d.in_shapes[0].size() != 4 || !alpha || alpha->dtype != DType::Float32) return false;
  const std::int64_t c = d.in_shapes[0][3];
  for (int k = 0; k + 1 < alpha->rank(); ++k)
    if (alpha->shape[k] != 1) return false;
  auto a = per_channel(alpha, c);
  if (!a || alpha->num_elements() != c || d.out_shape != d.in_shapes[0]) return false;
  d.work = elements(d.out_shape);
  if (d.checking()) return true;
  return ok(xnn_define_prelu(d.subgraph, d.input(0), d.constant({c}, std::move(*a)), d.output, 0));
}
bool reshape(SubgraphDef& d) {
  d.work = elements(d.out_shape);
  if (d.checking()) return elements(d.out_shape) == elements(d.in_shapes[0]);
  std::vector<std::size_t> dims(d.out_shape.begin(), d.out_shape.end());
  return ok(
      xnn_define_static_reshape(d.subgraph, dims.size(), dims.data(), d.input(0), d.output, 0));
}

struct SubgraphOp {
  std::string_view op;
  bool (*define)(SubgraphDef&);
};

constexpr std::array kOps = std::to_array<SubgraphOp>({
    {"Abs", unary<xnn_define_abs>},
    {"Add", bounded<xnn_define_add2>},
    {"AddV2", bounded<xnn_define_add2>},
    {"AvgPool", pooling},
    {"BiasAdd", bounded<xnn_define_add2>},
    {"Ceil", unary<xnn_define_ceiling>},
    {"Conv2D", conv2d},
    {"DepthToSpace", depth_to_space},
    {"DepthwiseConv2d", depthwise},
    {"DepthwiseConv2dNative", depthwise},
    {"Div", bounded<xnn_define_divide>},
    {"Elu", elu},
    {"ExpandDims", reshape},
    {"Floor", unary<xnn_define_floor>},
    {"FusedDepthwiseConv2dNative", depthwise},
    {"LeakyRelu", leaky_relu},
    {"MatMul", matmul},
    {"MaxPool", pooling},
    {"Maximum", unbounded<xnn_define_maximum2>},
    {"Mean", mean},
    {"Minimum", unbounded<xnn_define_minimum2>},
    {"Mul", bounded<xnn_define_multiply2>},
    {"Neg", unary<xnn_define_negate>},
    {"Pad", pad},
    {"PadV2", pad},
    {"Prelu", prelu},
    {"RealDiv", bounded<xnn_define_divide>},
    {"Relu", relu},
    {"Relu6", relu},
    {"Reshape", reshape},
    {"ResizeBilinear", resize_bilinear},
    {"Sigmoid", unary<xnn_define_sigmoid>},
    {"Softmax", softmax},
    {"Sqrt", unary<xnn_define_square_root>},
    {"Square", unary<xnn_define_square>},
    {"SquaredDifference", unbounded<xnn_define_squared_difference>},
    {"Squeeze", reshape},
    {"Sub", bounded<xnn_define_subtract>},
    {"_FusedConv2D", conv2d},
    {"_FusedMatMul", matmul},
});

}  // namespace

bool is_view_op(std::string_view op) {
  return op == "Reshape" || op == "Squeeze" || op == "ExpandDims";
}

bool define_subgraph_node(SubgraphDef& def) {
  static_assert(std::ranges::is_sorted(kOps, {}, &SubgraphOp::op), "keep kOps sorted by op");
  const auto it = std::ranges::lower_bound(kOps, def.node.op, {}, &SubgraphOp::op);
  if (it == kOps.end() || it->op != def.node.op || def.in_shapes.empty()) return false;
  return it->define(def);
}

std::vector<std::string_view> subgraph_op_names() {
  std::vector<std::string_view> ops;
  for (const SubgraphOp& op : kOps) ops.push_back(op.op);
  return ops;
}

}  // namespace tfjsi::xnnpack
