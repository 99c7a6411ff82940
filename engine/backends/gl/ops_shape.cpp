// Ops that move elements without arithmetic: Reshape, ConcatV2, Pad, PadV2, StridedSlice (without
// ellipsis and new axes). Each output lane finds its source lane (gather_lanes.comp).
#include <algorithm>

#include "backends/gl/gl_op.h"

namespace tfjsi::gl {
namespace {

std::string out_flat() {
  return "  int f = ((o.x * OUT_H + o.y) * OUT_W + o.z) * OUT_C + o.w;\n";
}
std::string split_flat(const std::array<std::int64_t, 4>& d) {
  return "  int i3 = f % " + std::to_string(d[3]) + "; f /= " + std::to_string(d[3]) +
         ";\n  int i2 = f % " + std::to_string(d[2]) + "; f /= " + std::to_string(d[2]) +
         ";\n  int i1 = f % " + std::to_string(d[1]) + "; int i0 = f / " + std::to_string(d[1]) +
         ";\n";
}

std::vector<runtime::TensorView> gather(OpContext& c, std::vector<const GlTensorData*> inputs,
                                        const Shape& out_shape, std::string source_lane) {
  auto out = c.output(out_shape);
  KernelCall call;
  call.shader = "gather_lanes.comp";
  call.extra = std::move(source_lane);
  call.inputs = std::move(inputs);
  call.output = out.get();
  c.dispatch(call);
  return OpContext::result(out, out_shape);
}

std::vector<runtime::TensorView> reshape(OpContext& c) {
  c.expect_inputs(2, 2);
  const Shape& x = c.shape(0);
  const auto want = c.ints(1);
  Shape out_shape;
  std::int64_t known = 1;
  int infer = -1;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (want[i] == -1) {
      if (infer >= 0) c.fail("shape has more than one -1");
      infer = static_cast<int>(i);
      out_shape.push_back(1);
    } else if (want[i] < 0) {
      c.fail("shape has a negative size");
    } else {
      out_shape.push_back(want[i]);
      known *= want[i];
    }
  }
  const std::int64_t total = num_elements(x);
  if (infer >= 0) {
    if (known == 0 || total % known != 0)
      c.fail("cannot reshape " + shape_to_string(x) + " to " + shape_to_string(want));
    out_shape[static_cast<std::size_t>(infer)] = total / known;
  }
  if (num_elements(out_shape) != total)
    c.fail("cannot reshape " + shape_to_string(x) + " to " + shape_to_string(out_shape));
  const GlTensorData& in = c.tex(0);
  const auto lo = layout_of(out_shape);
  if (!lo) c.fail("output rank " + std::to_string(out_shape.size()) + " is over 4");
  // Same texel layout (only leading 1s differ): share the texture, no dispatch.
  if (*lo == in.layout()) return {runtime::TensorView{c.input_data(0), DType::Float32, out_shape}};
  const auto il = in.layout();
  std::string g = "float source_lane(ivec4 o) {\n" + out_flat() +
                  split_flat({il.n, il.h, il.w, il.c}) + "  return lane_in0(i0, i1, i2, i3);\n}\n";
  return gather(c, {&in}, out_shape, g);
}

std::vector<runtime::TensorView> concat(OpContext& c) {
  if (c.num_inputs() < 2) c.fail("ConcatV2 needs values and an axis");
  const std::size_t n = c.num_inputs() - 1;
  const auto axis_v = c.ints(n);
  if (axis_v.size() != 1) c.fail("axis must be a scalar");
  const Shape& first = c.shape(0);
  const auto rank = static_cast<std::int64_t>(first.size());
  std::int64_t axis = axis_v[0];
  if (axis < -rank || axis >= rank) c.fail("axis " + std::to_string(axis) + " is out of range");
  if (axis < 0) axis += rank;
  const std::size_t a4 = static_cast<std::size_t>(axis + 4 - rank);
  Shape out_shape = first;
  out_shape[static_cast<std::size_t>(axis)] = 0;
  std::vector<const GlTensorData*> in;
  std::string g = "float source_lane(ivec4 o) {\n  int a = o[" + std::to_string(a4) + "];\n";
  std::int64_t end = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Shape& s = c.shape(i);
    bool ok = static_cast<std::int64_t>(s.size()) == rank;
    for (std::size_t d = 0; ok && d < s.size(); ++d)
      ok = d == static_cast<std::size_t>(axis) || s[d] == first[d];
    if (!ok)
      c.fail("input " + std::to_string(i) + " of shape " + shape_to_string(s) + " does not match " +
             shape_to_string(first) + " off axis " + std::to_string(axis));
    const std::int64_t begin = end;
    end += s[static_cast<std::size_t>(axis)];
    out_shape[static_cast<std::size_t>(axis)] = end;
    if (s[static_cast<std::size_t>(axis)] == 0) continue;  // contributes nothing
    const std::string k = std::to_string(in.size());
    g += "  if (a < " + std::to_string(end) + ") { o[" + std::to_string(a4) + "] = a - " +
         std::to_string(begin) + "; return lane_in" + k + "(o.x, o.y, o.z, o.w); }\n";
    in.push_back(&c.tex(i));
  }
  g += "  return 0.0;\n}\n";
  if (in.empty()) in.push_back(&c.tex(0));  // an empty output still binds something
  return gather(c, std::move(in), out_shape, g);
}

bool concat_supported(const graph::Node& n) {
  return n.inputs.size() >= 2 && n.inputs.size() <= 17;  // 16 samplers + the axis
}

std::vector<runtime::TensorView> pad(OpContext& c) {
  c.expect_inputs(2, 3);
  const Shape& x = c.shape(0);
  const auto p = c.ints(1);
  if (p.size() != 2 * x.size()) c.fail("paddings must be [" + std::to_string(x.size()) + ", 2]");
  const float value = c.num_inputs() == 3 ? c.scalar(2) : 0.f;
  const std::size_t off = 4 - x.size();
  std::array<std::int64_t, 4> before{0, 0, 0, 0};
  Shape out_shape = x;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (p[2 * i] < 0 || p[2 * i + 1] < 0) c.fail("negative paddings are not supported");
    before[off + i] = p[2 * i];
    out_shape[i] = x[i] + p[2 * i] + p[2 * i + 1];
  }
  std::string g = def("PAD_VALUE", value) + "float source_lane(ivec4 o) {\n  ivec4 i = o - ivec4(" +
                  std::to_string(before[0]) + ", " + std::to_string(before[1]) + ", " +
                  std::to_string(before[2]) + ", " + std::to_string(before[3]) + ");\n" +
                  "  if (any(lessThan(i, ivec4(0))) || any(greaterThanEqual(i, ivec4(IN0_N, IN0_H, "
                  "IN0_W, IN0_C)))) return PAD_VALUE;\n  return lane_in0(i.x, i.y, i.z, i.w);\n}\n";
  return gather(c, {&c.tex(0)}, out_shape, g);
}

std::vector<runtime::TensorView> strided_slice(OpContext& c) {
  c.expect_inputs(4, 4);
  const Shape& x = c.shape(0);
  const auto begin = c.ints(1), end = c.ints(2), strides = c.ints(3);
  if (begin.size() != end.size() || begin.size() != strides.size() || begin.size() > x.size())
    c.fail("begin, end and strides must have one value per sliced dim");
  const std::int64_t bm = c.int_attr("begin_mask", 0), em = c.int_attr("end_mask", 0),
                     sm = c.int_attr("shrink_axis_mask", 0);
  if (c.int_attr("ellipsis_mask", 0) || c.int_attr("new_axis_mask", 0))
    c.fail("ellipsis and new axes are not supported on gl");
  const std::size_t rank = x.size(), off = 4 - rank;
  std::array<std::int64_t, 4> full{1, 1, 1, 1}, b4{0, 0, 0, 0}, s4{1, 1, 1, 1};
  Shape out_shape;
  for (std::size_t d = 0; d < rank; ++d) {
    const std::int64_t dim = x[d];
    std::int64_t b = 0, e = dim, s = 1;
    if (d < begin.size()) {
      s = strides[d];
      if (s == 0) c.fail("stride 0");
      const bool shrink = (sm >> d) & 1;
      auto norm = [&](std::int64_t v, bool is_begin) {
        if (v < 0) v += dim;
        if (shrink && is_begin) return v;
        return s > 0 ? std::clamp<std::int64_t>(v, 0, dim)
                     : std::clamp<std::int64_t>(v, -1, dim - 1);
      };
      b = ((bm >> d) & 1) && !shrink ? (s > 0 ? 0 : dim - 1) : norm(begin[d], true);
      e = ((em >> d) & 1) && !shrink ? (s > 0 ? dim : -1) : norm(end[d], false);
      if (shrink) {
        if (b < 0 || b >= dim) c.fail("shrunk index " + std::to_string(begin[d]) + " out of range");
        e = b + 1, s = 1;
      }
    }
    const std::int64_t size = s > 0 ? std::max<std::int64_t>(0, (e - b + s - 1) / s)
                                    : std::max<std::int64_t>(0, (b - e - s - 1) / -s);
    full[off + d] = size, b4[off + d] = b, s4[off + d] = s;
    if (!(d < begin.size() && ((sm >> d) & 1))) out_shape.push_back(size);
  }
  for (auto v : full)
    if (v == 0) full = {1, 1, 1, 1};  // empty output: no lane runs
  auto idx = [&](int i) {
    return std::to_string(b4[static_cast<std::size_t>(i)]) + " + i" + std::to_string(i) + " * " +
           std::to_string(s4[static_cast<std::size_t>(i)]);
  };
  std::string g = "float source_lane(ivec4 o) {\n" + out_flat() + split_flat(full) +
                  "  return lane_in0(" + idx(0) + ", " + idx(1) + ", " + idx(2) + ", " + idx(3) +
                  ");\n}\n";
  return gather(c, {&c.tex(0)}, out_shape, g);
}

bool strided_slice_supported(const graph::Node& n) {
  return n.attr_or<std::int64_t>("ellipsis_mask", 0) == 0 &&
         n.attr_or<std::int64_t>("new_axis_mask", 0) == 0;
}

}  // namespace

extern const GlOpEntry kShapeOps[];
extern const std::size_t kNumShapeOps;
const GlOpEntry kShapeOps[] = {
    {"Reshape", reshape, nullptr},
    {"ConcatV2", concat, concat_supported},
    {"Pad", pad, nullptr},
    {"PadV2", pad, nullptr},
    {"StridedSlice", strided_slice, strided_slice_supported},
};
const std::size_t kNumShapeOps = std::size(kShapeOps);

}  // namespace tfjsi::gl
