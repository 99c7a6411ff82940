// Ops that move elements without arithmetic: Reshape, ExpandDims, Squeeze, Cast, ConcatV2, Pack,
// Unpack, Split, SplitV, Slice, Transpose, Tile, Pad, PadV2, StridedSlice (without ellipsis and new
// axes). A view whose padded layout is unchanged shares its texture; otherwise each output lane
// finds its source lane (gather_lanes.comp), or, where the op leaves the channel axis as it is,
// each output texel its source texel: one load per texel instead of four. The generated source
// says how indices move; the sizes, offsets and pad values it moves them by are uniforms, so
// that nodes of one op and rank share a program whatever their shapes (a cold start builds each
// program once, 50-100 ms apiece on llvmpipe).
#include <algorithm>

#include "backends/gl/gl_op.h"
#include "backends/gl/glsl_index.h"
#include "core/half_float.h"
#include "ops/attr.h"

namespace tfjsi::gl {
namespace {

// `source_lane` defines `float source_lane(ivec4 o)`, the value of output lane o (padded NHWC).
// `source_texel`, when given, defines `vec4 source_texel(ivec4 o)`, the value of output texel o
// (n, h, w, slice); gather_lanes.comp then uses it instead. `uniforms` are the values they name.
std::vector<runtime::TensorView> gather(
    OpContext& c, std::vector<const GlTensorData*> inputs, const Shape& out_shape,
    std::string source_lane, std::string source_texel = {}, std::vector<UniformValue> uniforms = {},
    KernelCall::Stores stores = KernelCall::Stores::InputValues) {
  auto out = c.output(out_shape);
  KernelCall call;
  call.uniforms = std::move(uniforms);
  call.stores = stores;
  call.shader = "gather_lanes.comp";
  if (source_texel.empty()) {
    call.extra = std::move(source_lane);
  } else {
    call.defines = def("BY_TEXEL", std::int64_t{1});
    call.extra = std::move(source_texel);
  }
  call.inputs = std::move(inputs);
  call.output = out.get();
  c.dispatch(call);
  return OpContext::result(out, out_shape);
}

// Unpadded output dim d of a rank-r output, as GLSL over the padded index o.
std::string out_dim(std::size_t r, std::size_t d) {
  return "o[" + std::to_string(4 - r + d) + "]";
}

// "lane_inK(...)" for unpadded input index expressions (padded on the left with 0).
std::string lane_of(std::size_t k, const std::vector<std::string>& dims,
                    std::string fn = "lane_in") {
  std::string s = fn + std::to_string(k) + "(";
  for (std::size_t i = 0; i < 4; ++i) {
    const std::size_t pad = 4 - dims.size();
    s += (i ? ", " : "") + (i < pad ? std::string("0") : dims[i - pad]);
  }
  return s + ")";
}

// Whether a gather whose input index expressions are `dims` can move whole texels: the input's
// channel index is the output's (o[3], which then counts slices) over the same channel count.
bool keeps_channels(const std::vector<std::string>& dims, std::int64_t in_c, std::int64_t out_c) {
  return !dims.empty() && dims.back() == "o[3]" && in_c == out_c;
}
// "load_inK(...)" for the same expressions: the source texel.
std::string texel_of(std::size_t k, const std::vector<std::string>& dims) {
  return lane_of(k, dims, "load_in");
}
// A single-expression source of each kind.
std::string lane_source(const std::string& expr) {
  return "float source_lane(ivec4 o) { return " + expr + "; }\n";
}
std::string texel_source(const std::string& expr) {
  return "vec4 source_texel(ivec4 o) { return " + expr + "; }\n";
}

// Input k under another shape with the same elements in the same order: shares the texture when
// the padded layout is unchanged (leading 1s differ), else copies lane by lane.
std::vector<runtime::TensorView> view(OpContext& c, const Shape& out_shape, std::size_t k = 0) {
  const GlTensorData& in = c.tex(k);
  const auto lo = layout_of(out_shape);
  if (!lo) c.unsupported("output rank " + std::to_string(out_shape.size()) + " is over 4");
  if (*lo == in.layout()) return {runtime::TensorView{c.input_data(k), DType::Float32, out_shape}};
  // The input's dims are its layout's uniforms.
  std::string g = "float source_lane(ivec4 o) {\n" + glsl_out_flat() +
                  glsl_split_flat({"IN0_N", "IN0_H", "IN0_W", "IN0_C"}) +
                  "  return lane_in0(i0, i1, i2, i3);\n}\n";
  if (in.layout().c != lo->c) return gather(c, {&in}, out_shape, g);
  // Same channels ([1,48,48,17] -> [1,2304,17]): output pixel p is input pixel p.
  const std::string t =
      "vec4 source_texel(ivec4 o) {\n  int f = (o.x * OUT_H + o.y) * OUT_W + o.z;\n" +
      glsl_split_flat({"1", "IN0_N", "IN0_H", "IN0_W"}) +
      "  return load_in0(i1, i2, i3, o.w);\n}\n";
  return gather(c, {&in}, out_shape, g, t);
}

std::int64_t norm_axis(const OpContext& c, std::int64_t axis, std::size_t rank) {
  const auto r = static_cast<std::int64_t>(rank);
  if (axis < -r || axis >= r)
    c.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(r));
  return axis < 0 ? axis + r : axis;
}

std::vector<runtime::TensorView> expand_dims(OpContext& c) {
  c.expect_inputs(2, 2);
  Shape s = c.shape(0);
  const auto a = c.ints(1);
  if (a.size() != 1) c.fail("axis must be a scalar");
  s.insert(s.begin() + norm_axis(c, a[0], s.size() + 1), 1);
  return view(c, s);
}

std::vector<runtime::TensorView> squeeze(OpContext& c) {
  c.expect_inputs(1, 1);
  const Shape& x = c.shape(0);
  auto dims = ops::attr<ops::Ints>(c.node(), "squeeze_dims", {});
  if (dims.empty()) dims = ops::attr<ops::Ints>(c.node(), "axis", {});
  std::vector<bool> drop(x.size(), dims.empty());
  for (auto d : dims) drop[static_cast<std::size_t>(norm_axis(c, d, x.size()))] = true;
  Shape s;
  for (std::size_t d = 0; d < x.size(); ++d) {
    if (drop[d] && x[d] != 1 && !dims.empty())
      c.fail("cannot squeeze dim " + std::to_string(d) + " of " + shape_to_string(x));
    if (!drop[d] || x[d] != 1) s.push_back(x[d]);
  }
  return view(c, s);
}

// Cast to float: a float input is shared; int32 and bool inputs (kept on the host) become a
// texture.
std::vector<runtime::TensorView> cast(OpContext& c) {
  c.expect_inputs(1, 1);
  if (c.dtype(0) == DType::Float32) return view(c, c.shape(0));
  HostTensor h = c.host(0);
  HostTensor f = HostTensor::zeros(DType::Float32, h.shape);
  auto dst = f.mutable_values<float>();
  if (h.dtype == DType::Int32) {
    const auto src = h.values<std::int32_t>();
    for (std::size_t i = 0; i < dst.size(); ++i) dst[i] = static_cast<float>(src[i]);
  } else if (h.dtype == DType::Bool) {
    const auto src = h.values<std::uint8_t>();
    for (std::size_t i = 0; i < dst.size(); ++i) dst[i] = src[i] ? 1.f : 0.f;
  } else {
    c.unsupported("cannot cast " + std::string(to_string(h.dtype)) + " to float32");
  }
  return {runtime::TensorView{c.upload(f), DType::Float32, f.shape}};
}

bool cast_supported(const graph::Node& n, InputInfos) {
  const auto from = ops::try_attr<DType>(n, "SrcT", DType::Float32);
  return ops::try_attr<DType>(n, "DstT") == DType::Float32 && from && *from != DType::String &&
         *from != DType::Complex64;
}

// Output k of a split of input `in` along `axis`, starting at `begin`.
std::vector<runtime::TensorView> slice_along(OpContext& c, std::size_t in, std::size_t axis,
                                             std::int64_t begin, std::int64_t size, bool drop) {
  const Shape& x = c.shape(in);
  Shape out = x;
  if (drop)
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(axis));
  else
    out[axis] = size;
  // All of it (an Unpack or Split into one): the same elements in the same order.
  if (begin == 0 && size == x[axis]) return view(c, out, in);
  // The offset is the uniform SLICE_BEGIN: every output of a split is one program.
  std::vector<std::string> src;
  std::size_t od = 0;
  for (std::size_t d = 0; d < x.size(); ++d) {
    if (d == axis && drop) {
      src.push_back("SLICE_BEGIN");
      continue;
    }
    std::string e = out_dim(out.size(), od++);
    if (d == axis && !(begin == 0 && size == x[d])) e = "(" + e + " + SLICE_BEGIN)";
    src.push_back(e);
  }
  return gather(c, {&c.tex(in)}, out, lane_source(lane_of(0, src)),
                keeps_channels(src, x.back(), out.back()) ? texel_source(texel_of(0, src)) : "",
                {{"SLICE_BEGIN", false, begin}});
}

std::vector<runtime::TensorView> split_sizes(OpContext& c, std::size_t in, std::int64_t axis,
                                             const std::vector<std::int64_t>& sizes) {
  std::vector<runtime::TensorView> outs;
  std::int64_t begin = 0;
  for (auto sz : sizes) {
    auto o = slice_along(c, in, static_cast<std::size_t>(axis), begin, sz, false);
    outs.push_back(std::move(o[0]));
    begin += sz;
  }
  return outs;
}

std::vector<runtime::TensorView> unpack(OpContext& c) {
  c.expect_inputs(1, 1);
  const Shape& x = c.shape(0);
  if (x.empty()) c.fail("cannot unpack a scalar");
  const auto axis = static_cast<std::size_t>(
      norm_axis(c, ops::attr<std::int64_t>(c.node(), "axis", 0), x.size()));
  std::vector<runtime::TensorView> outs;
  for (std::int64_t k = 0; k < x[axis]; ++k) outs.push_back(slice_along(c, 0, axis, k, 1, true)[0]);
  return outs;
}

std::vector<runtime::TensorView> split(OpContext& c) {
  c.expect_inputs(2, 2);
  const Shape& x = c.shape(1);
  const auto a = c.ints(0);
  if (a.size() != 1) c.fail("axis must be a scalar");
  const std::int64_t axis = norm_axis(c, a[0], x.size());
  const std::int64_t num = ops::attr<std::int64_t>(c.node(), "num_split", 1);
  if (num <= 0 || x[static_cast<std::size_t>(axis)] % num != 0)
    c.fail("cannot split " + shape_to_string(x) + " into " + std::to_string(num) + " parts");
  return split_sizes(c, 1, axis,
                     std::vector<std::int64_t>(static_cast<std::size_t>(num),
                                               x[static_cast<std::size_t>(axis)] / num));
}

std::vector<runtime::TensorView> split_v(OpContext& c) {
  c.expect_inputs(3, 3);
  const Shape& x = c.shape(0);
  auto sizes = c.ints(1);
  const auto a = c.ints(2);
  if (a.size() != 1) c.fail("axis must be a scalar");
  const std::int64_t axis = norm_axis(c, a[0], x.size());
  const std::int64_t dim = x[static_cast<std::size_t>(axis)];
  std::int64_t known = 0;
  int unknown = -1;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1 && unknown < 0)
      unknown = static_cast<int>(i);
    else if (sizes[i] < 0)
      c.fail("size_splits has a negative size");
    else
      known += sizes[i];
  }
  if (unknown >= 0) sizes[static_cast<std::size_t>(unknown)] = dim - known;
  if ((unknown >= 0 && dim - known < 0) || (unknown < 0 && known != dim))
    c.fail("size_splits do not add up to " + std::to_string(dim));
  return split_sizes(c, 0, axis, sizes);
}

bool num_outputs_match(const graph::Node& n, InputInfos) {
  return !n.outputs.empty();
}

std::vector<runtime::TensorView> slice(OpContext& c) {
  c.expect_inputs(3, 3);
  const Shape& x = c.shape(0);
  const auto begin = c.ints(1), size = c.ints(2);
  if (begin.size() != x.size() || size.size() != x.size())
    c.fail("begin and size must have one value per dim of " + shape_to_string(x));
  Shape out;
  std::vector<std::string> src;
  std::vector<UniformValue> begins;
  for (std::size_t d = 0; d < x.size(); ++d) {
    const std::int64_t b = begin[d], sz = size[d] == -1 ? x[d] - b : size[d];
    if (b < 0 || sz < 0 || b + sz > x[d])
      c.fail("slice " + std::to_string(b) + "+" + std::to_string(sz) + " is outside dim " +
             std::to_string(d) + " of " + shape_to_string(x));
    out.push_back(sz);
    // Offsets are uniforms; a dim taken whole has none (the channels' then move as texels).
    if (b == 0 && sz == x[d]) {
      src.push_back(out_dim(x.size(), d));
      continue;
    }
    const std::string name = "SLICE_BEGIN" + std::to_string(d);
    src.push_back("(" + out_dim(x.size(), d) + " + " + name + ")");
    begins.push_back({name, false, b});
  }
  return gather(c, {&c.tex(0)}, out, lane_source(lane_of(0, src)),
                keeps_channels(src, x.back(), out.back()) ? texel_source(texel_of(0, src)) : "",
                std::move(begins));
}

std::vector<runtime::TensorView> transpose(OpContext& c) {
  c.expect_inputs(2, 2);
  const Shape& x = c.shape(0);
  const auto perm = c.ints(1);
  if (perm.size() != x.size()) c.fail("perm must have one entry per dim");
  Shape out(x.size());
  std::vector<std::string> src(x.size());
  std::vector<bool> seen(x.size(), false);
  for (std::size_t d = 0; d < perm.size(); ++d) {
    const auto p = static_cast<std::size_t>(norm_axis(c, perm[d], x.size()));
    if (seen[p]) c.fail("perm repeats dim " + std::to_string(p));
    seen[p] = true;
    out[d] = x[p];
    src[p] = out_dim(x.size(), d);
  }
  if (x.empty()) return gather(c, {&c.tex(0)}, out, lane_source(lane_of(0, src)));
  return gather(c, {&c.tex(0)}, out, lane_source(lane_of(0, src)),
                keeps_channels(src, x.back(), out.back()) ? texel_source(texel_of(0, src)) : "");
}

std::vector<runtime::TensorView> tile(OpContext& c) {
  c.expect_inputs(2, 2);
  const Shape& x = c.shape(0);
  const auto m = c.ints(1);
  if (m.size() != x.size()) c.fail("multiples must have one entry per dim");
  Shape out;
  std::vector<std::string> src;
  std::vector<UniformValue> sizes;  // the input's dims that repeat, as uniforms
  for (std::size_t d = 0; d < x.size(); ++d) {
    if (m[d] < 0) c.fail("negative multiple");
    out.push_back(x[d] * m[d]);
    if (m[d] == 1) {
      src.push_back(out_dim(x.size(), d));
      continue;
    }
    const std::string name = "TILE_DIM" + std::to_string(d);
    src.push_back("(" + out_dim(x.size(), d) + " % " + name + ")");
    sizes.push_back({name, false, std::max<std::int64_t>(1, x[d])});
  }
  if (x.empty()) return gather(c, {&c.tex(0)}, out, lane_source(lane_of(0, src)));
  return gather(c, {&c.tex(0)}, out, lane_source(lane_of(0, src)),
                keeps_channels(src, x.back(), out.back()) ? texel_source(texel_of(0, src)) : "",
                std::move(sizes));
}

// Stacks same-shaped inputs along a new axis.
std::vector<runtime::TensorView> pack(OpContext& c) {
  if (c.num_inputs() == 0) c.fail("Pack needs inputs");
  const Shape& first = c.shape(0);
  const auto axis = static_cast<std::size_t>(
      norm_axis(c, ops::attr<std::int64_t>(c.node(), "axis", 0), first.size() + 1));
  Shape out = first;
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(axis),
             static_cast<std::int64_t>(c.num_inputs()));
  std::vector<std::string> src;
  for (std::size_t d = 0; d < out.size(); ++d)
    if (d != axis) src.push_back(out_dim(out.size(), d));
  std::vector<const GlTensorData*> in;
  const std::string k = "  int k = " + out_dim(out.size(), axis) + ";\n";
  std::string g = "float source_lane(ivec4 o) {\n" + k;
  std::string t = "vec4 source_texel(ivec4 o) {\n" + k;
  for (std::size_t i = 0; i < c.num_inputs(); ++i) {
    if (c.shape(i) != first)
      c.fail("input " + std::to_string(i) + " has shape " + shape_to_string(c.shape(i)) +
             ", input 0 has " + shape_to_string(first));
    g += "  if (k == " + std::to_string(i) + ") return " + lane_of(i, src) + ";\n";
    t += "  if (k == " + std::to_string(i) + ") return " + texel_of(i, src) + ";\n";
    in.push_back(&c.tex(i));
  }
  g += "  return 0.0;\n}\n";
  t += "  return vec4(0.0);\n}\n";
  const bool texels = !first.empty() && keeps_channels(src, first.back(), out.back());
  return gather(c, std::move(in), out, g, texels ? t : "");
}

bool pack_supported(const graph::Node& n, InputInfos inputs) {
  if (n.inputs.empty() || n.inputs.size() > 16) return false;
  // TF.js lets shapes differ by size-1 dims; the kernel takes equal shapes only.
  const PartialShape* first = known_shape(inputs, 0);
  for (std::size_t i = 1; i < inputs.size(); ++i) {
    const PartialShape* s = known_shape(inputs, i);
    if (!first || !s || !(*s == *first)) return inputs.empty();
  }
  return true;
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
  return view(c, out_shape);
}

// ConcatV2 (values, then the axis) and Concat (the axis, then values): `v0` is the first value's
// input, the axis is the one input that is not a value.
std::vector<runtime::TensorView> concat_values(OpContext& c, std::size_t v0) {
  if (c.num_inputs() < 2) c.fail("needs values and an axis");
  const std::size_t n = c.num_inputs() - 1;
  const auto axis_v = c.ints(v0 == 0 ? n : 0);
  if (axis_v.size() != 1) c.fail("axis must be a scalar");
  const Shape& first = c.shape(v0);
  const auto rank = static_cast<std::int64_t>(first.size());
  std::int64_t axis = axis_v[0];
  if (axis < -rank || axis >= rank) c.fail("axis " + std::to_string(axis) + " is out of range");
  if (axis < 0) axis += rank;
  const std::size_t a4 = static_cast<std::size_t>(axis + 4 - rank);
  Shape out_shape = first;
  out_shape[static_cast<std::size_t>(axis)] = 0;
  std::vector<const GlTensorData*> in;
  std::vector<UniformValue> bounds;  // where each input starts and ends along the axis
  const std::string a = "  int a = o[" + std::to_string(a4) + "];\n";
  std::string g = "float source_lane(ivec4 o) {\n" + a;
  std::string t = "vec4 source_texel(ivec4 o) {\n" + a;
  std::int64_t end = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Shape& s = c.shape(v0 + i);
    bool ok = static_cast<std::int64_t>(s.size()) == rank;
    for (std::size_t d = 0; ok && d < s.size(); ++d)
      ok = d == static_cast<std::size_t>(axis) || s[d] == first[d];
    if (!ok)
      c.fail("input " + std::to_string(v0 + i) + " of shape " + shape_to_string(s) +
             " does not match " + shape_to_string(first) + " off axis " + std::to_string(axis));
    const std::int64_t begin = end;
    end += s[static_cast<std::size_t>(axis)];
    out_shape[static_cast<std::size_t>(axis)] = end;
    if (s[static_cast<std::size_t>(axis)] == 0) continue;  // contributes nothing
    const std::string k = std::to_string(in.size());
    bounds.push_back({"CONCAT_END" + k, false, end});
    bounds.push_back({"CONCAT_BEGIN" + k, false, begin});
    const std::string shift = "  if (a < CONCAT_END" + k + ") { o[" + std::to_string(a4) +
                              "] = a - CONCAT_BEGIN" + k + "; return ";
    g += shift + "lane_in" + k + "(o.x, o.y, o.z, o.w); }\n";
    t += shift + "load_in" + k + "(o.x, o.y, o.z, o.w); }\n";
    in.push_back(&c.tex(v0 + i));
  }
  g += "  return 0.0;\n}\n";
  t += "  return vec4(0.0);\n}\n";
  if (in.empty()) in.push_back(&c.tex(v0));  // an empty output still binds something
  // Along any axis but the channels, every output texel comes from one input texel.
  return gather(c, std::move(in), out_shape, g, a4 != 3 ? t : "", std::move(bounds));
}

std::vector<runtime::TensorView> concat(OpContext& c) {
  return concat_values(c, 0);
}
std::vector<runtime::TensorView> concat_axis_first(OpContext& c) {
  return concat_values(c, 1);
}

bool concat_supported(const graph::Node& n, InputInfos) {
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
    if (p[2 * i] < 0 || p[2 * i + 1] < 0) c.unsupported("negative paddings");
    before[off + i] = p[2 * i];
    out_shape[i] = x[i] + p[2 * i] + p[2 * i + 1];
  }
  // The paddings before each dim and the value are uniforms.
  std::vector<UniformValue> u;
  for (std::size_t d = 0; d < 4; ++d)
    u.push_back({"PAD_BEFORE" + std::to_string(d), false, before[d]});
  u.push_back({"PAD_VALUE", true, 0, value});
  // The value is stored as it is: only a half's is one fp16 storage needs no rounding for.
  const auto stores = value == round_to_half(value, HalfRule{}) ? KernelCall::Stores::InputValues
                                                                : KernelCall::Stores::Any;
  const std::string g =
      "float source_lane(ivec4 o) {\n"
      "  ivec4 i = o - ivec4(PAD_BEFORE0, PAD_BEFORE1, PAD_BEFORE2, PAD_BEFORE3);\n"
      "  if (any(lessThan(i, ivec4(0))) || any(greaterThanEqual(i, ivec4(IN0_N, IN0_H, IN0_W, "
      "IN0_C)))) return PAD_VALUE;\n  return lane_in0(i.x, i.y, i.z, i.w);\n}\n";
  if (x.empty() || p[2 * x.size() - 2] || p[2 * x.size() - 1])
    return gather(c, {&c.tex(0)}, out_shape, g, "", std::move(u), stores);
  // Channels not padded: whole texels move (lanes past C are 0 in the source, and the store
  // masks them anyway).
  const std::string t =
      "vec4 source_texel(ivec4 o) {\n"
      "  ivec3 i = o.xyz - ivec3(PAD_BEFORE0, PAD_BEFORE1, PAD_BEFORE2);\n"
      "  if (any(lessThan(i, ivec3(0))) || any(greaterThanEqual(i, ivec3(IN0_N, IN0_H, "
      "IN0_W)))) return vec4(PAD_VALUE);\n  return load_in0(i.x, i.y, i.z, o.w);\n}\n";
  return gather(c, {&c.tex(0)}, out_shape, g, t, std::move(u), stores);
}

std::vector<runtime::TensorView> strided_slice(OpContext& c) {
  c.expect_inputs(4, 4);
  const Shape& x = c.shape(0);
  const auto begin = c.ints(1), end = c.ints(2), strides = c.ints(3);
  if (begin.size() != end.size() || begin.size() != strides.size() || begin.size() > x.size())
    c.fail("begin, end and strides must have one value per sliced dim");
  const std::int64_t bm = ops::attr<std::int64_t>(c.node(), "begin_mask", 0),
                     em = ops::attr<std::int64_t>(c.node(), "end_mask", 0),
                     sm = ops::attr<std::int64_t>(c.node(), "shrink_axis_mask", 0);
  if (ops::attr<std::int64_t>(c.node(), "ellipsis_mask", 0) ||
      ops::attr<std::int64_t>(c.node(), "new_axis_mask", 0))
    c.unsupported("ellipsis and new axes");
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
  // The output's dims (before shrinking), begins and strides are uniforms.
  std::vector<UniformValue> u;
  for (std::size_t d = 0; d < 4; ++d) {
    const std::string k = std::to_string(d);
    if (d > 0) u.push_back({"SS_SIZE" + k, false, full[d]});
    u.push_back({"SS_BEGIN" + k, false, b4[d]});
    u.push_back({"SS_STRIDE" + k, false, s4[d]});
  }
  auto idx = [](int i) {
    const std::string k = std::to_string(i);
    return "SS_BEGIN" + k + " + i" + k + " * SS_STRIDE" + k;
  };
  const std::string g = "float source_lane(ivec4 o) {\n" + glsl_out_flat() +
                        glsl_split_flat({"1", "SS_SIZE1", "SS_SIZE2", "SS_SIZE3"}) +
                        "  return lane_in0(" + idx(0) + ", " + idx(1) + ", " + idx(2) + ", " +
                        idx(3) + ");\n}\n";
  return gather(c, {&c.tex(0)}, out_shape, g, "", std::move(u));
}

bool strided_slice_supported(const graph::Node& n, InputInfos) {
  return ops::attr<std::int64_t>(n, "ellipsis_mask", 0) == 0 &&
         ops::attr<std::int64_t>(n, "new_axis_mask", 0) == 0;
}

}  // namespace

extern const GlOpEntry kShapeOps[];
extern const std::size_t kNumShapeOps;
const GlOpEntry kShapeOps[] = {
    {"Reshape", reshape, nullptr},
    {"ConcatV2", concat, concat_supported},
    {"Concat", concat_axis_first, concat_supported},
    {"Pad", pad, nullptr},
    {"PadV2", pad, nullptr},
    {"StridedSlice", strided_slice, strided_slice_supported},
    {"ExpandDims", expand_dims, nullptr},
    {"Squeeze", squeeze, nullptr},
    {"Cast", cast, cast_supported},
    {"Unpack", unpack, num_outputs_match},
    {"Split", split, num_outputs_match},
    {"SplitV", split_v, num_outputs_match},
    {"Slice", slice, nullptr},
    {"Transpose", transpose, nullptr},
    {"Tile", tile, nullptr},
    {"Pack", pack, pack_supported},
};
const std::size_t kNumShapeOps = std::size(kShapeOps);

}  // namespace tfjsi::gl
