// Ops over spatial windows and rows: MaxPool, AvgPool, Mean, Softmax, ResizeBilinear,
// DepthToSpace.
#include <algorithm>
#include <cstdio>
#include <set>

#include "backends/gl/gl_op.h"
#include "backends/gl/glsl_index.h"
#include "backends/gl/window.h"
#include "ops/attr.h"
#include "ops/webgl_stages.h"

namespace tfjsi::gl {
namespace {

std::vector<runtime::TensorView> pool(OpContext& c, bool avg) {
  c.expect_inputs(1, 1);
  const Shape& x = c.shape(0);
  if (x.size() != 4) c.fail("input must have rank 4");
  const ops::Window w = ops::window(c.node(), x);
  const Shape out_shape{x[0], w.out_h, w.out_w, x[3]};
  auto out = c.output(out_shape);
  KernelCall call;
  call.shader = "pool.comp";
  // Windows past 3x3 (global pools over 16x16 .. 128x128 maps) loop either way: uniforms, so
  // that one program serves them all; small ones keep #defines, their taps unrolled.
  if (w.k_h * w.k_w > 9)
    set_window_uniforms(call, w);
  else
    set_window(call, w);
  call.defines += def("AVG", std::int64_t{avg});
  if (!avg) call.stores = KernelCall::Stores::InputValues;  // each output is one of its window's
  call.inputs = {&c.tex(0)};
  call.output = out.get();
  c.dispatch(call);
  return OpContext::result(out, out_shape);
}
// A window the shader could not loop over to the end stays on cpu (window.h).
bool pool_supported(const graph::Node& n, InputInfos) {
  const auto k = ops::try_attr<ops::Ints>(n, "ksize", {}).value_or(ops::Ints{});
  // A malformed ksize passes: the kernel refuses it with its own message.
  return k.size() != 4 || nested_iterations(k[1], k[2]) <= kMaxLoopIterations;
}

// The loop turns of one webgl_stages.comp invocation reducing `n` values (each level of its
// four turns once per input of its stage), whose rows are `row_texels` long; -1 past its four
// levels.
constexpr std::size_t kLevels = 4;  // webgl_stages.comp's nest; 2^31 values take four stages
std::int64_t staged_loops(std::int64_t n, std::int64_t row_texels, bool softmax, bool by_texel) {
  const auto stages = ops::webgl_reduce_stages(n);
  if (stages.size() > kLevels) return -1;
  std::int64_t turns = 0;
  for (std::size_t i = 0; i < kLevels; ++i) turns += i < stages.size() ? stages[i].in_size : 1;
  return softmax ? row_texels + turns + 4 : by_texel ? turns : 4 * turns;
}

// The rows softmax.comp walks three times and webgl_stages.comp's loops (TF.js's stages, when
// following webgl: about 1.25 turns per value), when shape inference knows them. Both, as the
// plan does not know which the run takes.
bool softmax_supported(const graph::Node&, InputInfos inputs) {
  const PartialShape* s = known_shape(inputs, 0);
  if (!s || s->dims.empty() || s->dims.back() < 0) return true;
  const std::int64_t n = s->dims.back(), row_texels = (n + 3) / 4;
  const std::int64_t staged = n > 0 ? staged_loops(n, row_texels, true, false) : 0;
  return 3 * row_texels <= kMaxLoopIterations && staged >= 0 && staged <= kMaxLoopIterations;
}

std::vector<runtime::TensorView> max_pool(OpContext& c) {
  return pool(c, false);
}
std::vector<runtime::TensorView> avg_pool(OpContext& c) {
  return pool(c, true);
}

enum Reduce { kMean, kSum, kMax, kMin, kProd };

// Mean, Sum or Softmax of input 0 in TF.js webgl's stages (webgl_stages.comp) where fp16 is on,
// and in one stage in fp32, with the same program: `reduced` holds the reduced axes of the
// input's shape.
std::vector<runtime::TensorView> webgl_staged(OpContext& c, const std::set<int>& reduced,
                                              const Shape& out_shape, bool mean, bool softmax) {
  const Shape& x = c.shape(0);
  std::int64_t n = 1;
  int mask = 0;
  const int off = 4 - static_cast<int>(x.size());
  for (int a : reduced) {
    n *= x[static_cast<std::size_t>(a)];
    mask |= 1 << (off + a);
  }
  auto stages = ops::webgl_reduce_stages(n);
  const bool by_texel = !softmax && (mask & 8) == 0;
  const std::int64_t loops = staged_loops(n, (x.back() + 3) / 4, softmax, by_texel);
  if (loops < 0)
    c.fail("a reduction of " + std::to_string(n) + " values takes more than four stages");
  // Checked for the stages at either precision, so that a node runs on gl at both or at none.
  require_loops_fit(c, loops, "a reduction over " + std::to_string(n) + " values");
  // Mean in TF.js's stages multiplies each value by 1/N first; in one stage it divides the sum.
  float scale = 1.0f, divisor = 1.0f;
  if (!c.half_between()) {
    stages = {ops::ReduceStage{n, n, 1}};
    if (mean) divisor = static_cast<float>(n);
  } else if (mean) {
    scale = static_cast<float>(1.0 / static_cast<double>(n));
  }
  auto out = c.output(out_shape);
  KernelCall call;
  call.shader = "webgl_stages.comp";
  call.defines = def("SOFTMAX", std::int64_t{softmax}) + def("BY_TEXEL", std::int64_t{by_texel}) +
                 def("REDUCED_MASK", std::int64_t{mask});
  for (std::size_t i = 0; i < kLevels; ++i) {
    const bool used = i < stages.size();
    call.set_int("RS_W" + std::to_string(i), used ? stages[i].window : 1);
    call.set_int("RS_IN" + std::to_string(i), used ? stages[i].in_size : 1);
  }
  call.set_float("RS_SCALE", scale);
  call.set_float("RS_DIV", divisor);
  c.add_half_between(call);
  call.inputs = {&c.tex(0)};
  call.output = out.get();
  c.dispatch(call);
  return OpContext::result(out, out_shape);
}

std::vector<runtime::TensorView> reduce(OpContext& c, Reduce op) {
  c.expect_inputs(2, 2);
  const Shape& x = c.shape(0);
  const int rank = static_cast<int>(x.size());
  std::set<int> axes;
  for (auto a : c.ints(1)) {
    if (a < -rank || a >= rank) c.fail("axis " + std::to_string(a) + " is out of range");
    axes.insert(static_cast<int>(a < 0 ? a + rank : a));
  }
  const bool keep = ops::attr<bool>(c.node(), "keep_dims", false);
  Shape out_shape;
  for (int i = 0; i < rank; ++i) {
    if (!axes.count(i))
      out_shape.push_back(x[static_cast<std::size_t>(i)]);
    else if (keep)
      out_shape.push_back(1);
  }
  // A mean over an empty axis is 0 / 0: NaN, as on cpu.
  bool empty = false;
  for (int a : axes) empty = empty || x[static_cast<std::size_t>(a)] == 0;
  if (c.follow_webgl() && (op == kMean || op == kSum) && !empty && !axes.empty()) {
    return webgl_staged(c, axes, out_shape, op == kMean, false);
  }
  auto out = c.output(out_shape);
  KernelCall call;
  call.inputs = {&c.tex(0)};
  call.output = out.get();
  if (op == kMean && !empty && rank == 4 && axes == std::set<int>{1, 2}) {
    require_loops_fit(c, nested_iterations(x[1], x[2]), "a mean over " + shape_to_string(x));
    // Global average pooling: whole texels at a time.
    call.shader = "mean_hw.comp";
    call.defines = def("KEEP", std::int64_t{keep});
  } else {
    // Any other axes: each output lane sums its reduced box lane by lane.
    const std::size_t off = 4 - x.size();
    std::array<std::int64_t, 4> kept{1, 1, 1, 1}, red{1, 1, 1, 1};
    for (int i = 0; i < rank; ++i)
      (axes.count(i) ? red : kept)[off + static_cast<std::size_t>(i)] =
          x[static_cast<std::size_t>(i)];
    std::int64_t count = red[0] * red[1] * red[2] * red[3];
    require_loops_fit(
        c, nested_iterations(red[0], nested_iterations(red[1], nested_iterations(red[2], red[3]))),
        "reducing " + std::to_string(count) + " values per output");
    static const char* const init[] = {"0.0", "0.0", "-INF_F", "INF_F", "1.0"};
    static const char* const step[] = {"acc += v", "acc += v", "acc = max(acc, v)",
                                       "acc = min(acc, v)", "acc *= v"};
    std::string g = "float source_lane(ivec4 o) {\n" + glsl_out_flat() + glsl_split_flat(kept) +
                    "  float acc = " + init[op] + ";\n";
    g += "  for (int a = 0; a < " + std::to_string(red[0]) + "; ++a)\n";
    g += "  for (int b = 0; b < " + std::to_string(red[1]) + "; ++b)\n";
    g += "  for (int d = 0; d < " + std::to_string(red[2]) + "; ++d)\n";
    g += "  for (int e = 0; e < " + std::to_string(red[3]) + "; ++e)\n";
    g += "  { float v = lane_in0(i0 + a, i1 + b, i2 + d, i3 + e); " + std::string(step[op]) +
         "; }\n";
    g += op == kMean ? (count == 0 ? std::string("  return NAN_F;\n}\n")
                                   : "  return acc / " + std::to_string(count) + ".0;\n}\n")
                     : std::string("  return acc;\n}\n");
    call.shader = "gather_lanes.comp";
    call.extra = g;
  }
  c.dispatch(call);
  return OpContext::result(out, out_shape);
}

std::vector<runtime::TensorView> mean(OpContext& c) {
  return reduce(c, kMean);
}
template <Reduce R>
std::vector<runtime::TensorView> reduce_op(OpContext& c) {
  return reduce(c, R);
}

std::vector<runtime::TensorView> softmax(OpContext& c) {
  c.expect_inputs(1, 1);
  const Shape& x = c.shape(0);
  if (x.empty()) c.fail("softmax needs rank >= 1");
  if (c.follow_webgl() && x.back() > 0)
    return webgl_staged(c, {static_cast<int>(x.size()) - 1}, x, false, true);
  require_loops_fit(c, 3 * ((x.back() + 3) / 4),
                    "a softmax over rows of " + std::to_string(x.back()));
  auto out = c.output(x);
  KernelCall call;
  call.shader = "softmax.comp";
  call.inputs = {&c.tex(0)};
  call.output = out.get();
  const TexLayout& l = out->layout();
  call.grid = {l.w, l.h, l.n};
  c.dispatch(call);
  return OpContext::result(out, x);
}

std::vector<runtime::TensorView> resize_bilinear(OpContext& c) {
  c.expect_inputs(2, 2);
  const Shape& x = c.shape(0);
  if (x.size() != 4) c.fail("images must have rank 4");
  const auto size = c.ints(1);
  if (size.size() != 2 || size[0] < 0 || size[1] < 0) c.fail("size must hold two sizes >= 0");
  const bool align = ops::attr<bool>(c.node(), "align_corners", false);
  const bool half = ops::attr<bool>(c.node(), "half_pixel_centers", false);
  if (align && half) c.fail("align_corners and half_pixel_centers cannot both be true");
  if ((x[1] == 0 || x[2] == 0) && size[0] * size[1] > 0) c.fail("cannot resize an empty image");
  auto ratio = [&](std::int64_t in, std::int64_t out) {
    const bool ac = align && out > 1;
    return static_cast<float>(static_cast<double>(ac ? in - 1 : in) /
                              static_cast<double>(ac ? out - 1 : std::max<std::int64_t>(out, 1)));
  };
  const Shape out_shape{x[0], size[0], size[1], x[3]};
  auto out = c.output(out_shape);
  KernelCall call;
  call.shader = "resize_bilinear.comp";
  call.defines = def("HALF_PIXEL", std::int64_t{half});
  call.set_float("RATIO_H", ratio(x[1], size[0]));
  call.set_float("RATIO_W", ratio(x[2], size[1]));
  call.inputs = {&c.tex(0)};
  call.output = out.get();
  c.dispatch(call);
  return OpContext::result(out, out_shape);
}

std::vector<runtime::TensorView> depth_to_space(OpContext& c) {
  c.expect_inputs(1, 1);
  const Shape& x = c.shape(0);
  const std::int64_t b = ops::attr<std::int64_t>(c.node(), "block_size", 0);
  if (x.size() != 4) c.fail("input must have rank 4");
  if (b < 2 || x[3] % (b * b) != 0)
    c.fail("block_size " + std::to_string(b) + " must be >= 2 and its square divide the channels");
  const Shape out_shape{x[0], x[1] * b, x[2] * b, x[3] / (b * b)};
  auto out = c.output(out_shape);
  KernelCall call;
  call.shader = "depth_to_space.comp";
  call.defines = def("BLOCK", b);
  call.stores = KernelCall::Stores::InputValues;
  call.inputs = {&c.tex(0)};
  call.output = out.get();
  c.dispatch(call);
  return OpContext::result(out, out_shape);
}

}  // namespace

extern const GlOpEntry kSpatialOps[];
extern const std::size_t kNumSpatialOps;
const GlOpEntry kSpatialOps[] = {
    {"MaxPool", max_pool, pool_supported},
    {"AvgPool", avg_pool, pool_supported},
    {"Mean", mean, nullptr},
    {"Sum", reduce_op<kSum>, nullptr},
    {"Max", reduce_op<kMax>, nullptr},
    {"Min", reduce_op<kMin>, nullptr},
    {"Prod", reduce_op<kProd>, nullptr},
    {"Softmax", softmax, softmax_supported},
    {"ResizeBilinear", resize_bilinear, nullptr},
    {"DepthToSpace", depth_to_space, nullptr},
};
const std::size_t kNumSpatialOps = std::size(kSpatialOps);

}  // namespace tfjsi::gl
