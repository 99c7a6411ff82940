// Shape-moving ops: Reshape, ExpandDims, Squeeze, Concat, Pack, Unpack, Transpose, StridedSlice,
// Slice, Reverse, Pad, Tile, BroadcastTo, BroadcastArgs, Fill, Zeros, Ones, Range, LinSpace,
// Gather, Split, Shape, ShapeN, Size, SparseToDense, Where, ScatterNd, TensorScatterUpdate.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "ops/attr.h"
#include "ops/op_def.h"
#include "ops/shape_context.h"

namespace tfjsi::ops {
namespace {

using Dims = std::vector<std::int64_t>;

// A negative axis counts from the end; nullopt when out of range.
std::optional<std::size_t> norm_axis(std::int64_t axis, std::size_t rank) {
  const auto r = static_cast<std::int64_t>(rank);
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r) return std::nullopt;
  return static_cast<std::size_t>(axis);
}

// Element count of a shape; SIZE_MAX when unknown or absurd, so it never matches a real size.
std::size_t count(const Dims& d) {
  const auto n = checked_num_elements(d);
  return n ? static_cast<std::size_t>(*n) : SIZE_MAX;
}

void reshape(InferContext& c) {
  const auto target = c.ints(1);
  if (!target) {
    const PartialShape s = c.shape(1);
    const int rank = s.rank_known && s.dims.size() == 1 ? static_cast<int>(s.dims[0]) : -1;
    c.set(0, c.t(), with_rank(PartialShape::unknown(), rank));
    return;
  }
  Dims out = *target;
  const PartialShape in = c.shape(0);
  const auto wild = std::count(out.begin(), out.end(), -1);
  if (wild == 1 && in.fully_known()) {
    std::int64_t known = 1;
    for (auto d : out)
      if (d != -1) known = dim_mul(known, d);
    const auto total = checked_num_elements(in.dims);
    for (auto& d : out)
      if (d == -1 && known > 0 && total && *total % known == 0) d = *total / known;
  }
  for (auto& d : out)
    if (d < -1) d = -1;
  c.set(0, c.t(), PartialShape::of(out));
  if (const KnownValue* v = c.value(0);
      v && PartialShape::of(out).fully_known() && count(out) == v->v.size()) {
    KnownValue r = *v;
    r.shape = out;
    c.set_value(0, std::move(r));
  }
}

void expand_dims(InferContext& c) {
  const PartialShape in = c.shape(0);
  const auto axis = c.scalar(1);
  if (!in.rank_known || !axis) {
    c.set(0, c.t(), with_rank(PartialShape::unknown(), in.rank_known ? in.rank() + 1 : -1));
    return;
  }
  const auto pos = norm_axis(*axis, in.dims.size() + 1);
  if (!pos) {
    c.set(0, c.t(), PartialShape::unknown());
    return;
  }
  Dims out = in.dims;
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(*pos), 1);
  c.set(0, c.t(), PartialShape::of(out));
  if (const KnownValue* v = c.value(0)) {
    KnownValue r = *v;
    r.shape = out;
    c.set_value(0, std::move(r));
  }
}

void squeeze(InferContext& c) {
  const PartialShape in = c.shape(0);
  auto axes = c.attr<Ints>("squeeze_dims", {});
  if (axes.empty()) axes = c.attr<Ints>("axis", {});
  if (!in.rank_known) {
    c.set(0, c.t(), PartialShape::unknown());
    return;
  }
  Dims out;
  std::vector<bool> drop(in.dims.size(), false);
  if (axes.empty()) {
    for (std::size_t i = 0; i < in.dims.size(); ++i) {
      if (in.dims[i] < 0) {  // might be 1: the rank is not known
        c.set(0, c.t(), PartialShape::unknown());
        return;
      }
      drop[i] = in.dims[i] == 1;
    }
  } else {
    for (auto a : axes)
      if (auto p = norm_axis(a, in.dims.size())) drop[*p] = true;
  }
  for (std::size_t i = 0; i < in.dims.size(); ++i)
    if (!drop[i]) out.push_back(in.dims[i]);
  c.set(0, c.t(), PartialShape::of(out));
  if (const KnownValue* v = c.value(0)) {
    KnownValue r = *v;
    r.shape = out;
    c.set_value(0, std::move(r));
  }
}

void concat(InferContext& c) {
  // ConcatV2: values..., axis (last). Concat (v1): axis first.
  const bool v1 = c.node.op == "Concat";
  const std::size_t n = c.num_inputs() == 0 ? 0 : c.num_inputs() - 1;
  const std::size_t first = v1 ? 1 : 0;
  const auto axis = c.scalar(v1 ? 0 : n);
  std::optional<DType> dtype = try_attr<DType>(c.node, "T");
  int rank = -1;
  for (std::size_t i = 0; i < n; ++i) {
    if (!dtype) dtype = c.in(first + i).dtype;
    if (c.shape(first + i).rank_known) rank = c.shape(first + i).rank();
  }
  if (rank < 0 || !axis) {
    c.set(0, dtype, with_rank(PartialShape::unknown(), rank));
    return;
  }
  const auto ax = norm_axis(*axis, static_cast<std::size_t>(rank));
  if (!ax) {
    c.set(0, dtype, PartialShape::unknown());
    return;
  }
  Dims out(static_cast<std::size_t>(rank), -1);
  std::int64_t total = 0;
  bool total_known = true;
  for (std::size_t i = 0; i < n; ++i) {
    const PartialShape s = c.shape(first + i);
    if (!s.rank_known || s.dims.size() != out.size()) {
      total_known = false;
      continue;
    }
    for (std::size_t d = 0; d < out.size(); ++d) {
      if (d == *ax) continue;
      if (out[d] < 0) out[d] = s.dims[d];
    }
    if (s.dims[*ax] < 0)
      total_known = false;
    else
      total += s.dims[*ax];
  }
  out[*ax] = total_known ? total : -1;
  c.set(0, dtype, PartialShape::of(out));

  // Fold 1-D integer pieces (shape vectors being assembled).
  if (out.size() != 1) return;
  KnownValue r{DType::Int32, out, {}};
  for (std::size_t i = 0; i < n; ++i) {
    const KnownValue* v = c.value(first + i);
    if (!v || v->dtype != DType::Int32) return;
    r.v.insert(r.v.end(), v->v.begin(), v->v.end());
  }
  if (PartialShape::of(out).fully_known() && count(out) == r.v.size()) c.set_value(0, std::move(r));
}

void pack(InferContext& c) {
  const std::size_t n = c.num_inputs();
  std::optional<DType> dtype = c.t();
  PartialShape elem = PartialShape::unknown();
  for (std::size_t i = 0; i < n; ++i) {
    const PartialShape& s = c.shape(i);
    if (!s.rank_known) continue;
    if (!elem.rank_known)
      elem = s;
    else if (elem.dims.size() == s.dims.size())
      for (std::size_t d = 0; d < s.dims.size(); ++d)
        if (elem.dims[d] < 0) elem.dims[d] = s.dims[d];
  }
  if (!elem.rank_known) {
    c.set(0, dtype, PartialShape::unknown());
    return;
  }
  const auto ax = norm_axis(c.attr<std::int64_t>("axis", 0), elem.dims.size() + 1);
  if (!ax) {
    c.set(0, dtype, PartialShape::unknown());
    return;
  }
  Dims out = elem.dims;
  out.insert(out.begin() + static_cast<std::ptrdiff_t>(*ax), static_cast<std::int64_t>(n));
  c.set(0, dtype, PartialShape::of(out));
  if (*ax != 0 || !PartialShape::of(out).fully_known()) return;
  KnownValue r{DType::Int32, out, {}};
  for (std::size_t i = 0; i < n; ++i) {
    const KnownValue* v = c.value(i);
    if (!v) return;
    r.dtype = v->dtype;
    r.v.insert(r.v.end(), v->v.begin(), v->v.end());
  }
  if (count(out) == r.v.size()) c.set_value(0, std::move(r));
}

void unpack(InferContext& c) {
  const PartialShape in = c.shape(0);
  std::int64_t num = c.attr<std::int64_t>("num", -1);
  std::optional<std::size_t> ax;
  if (in.rank_known) ax = norm_axis(c.attr<std::int64_t>("axis", 0), in.dims.size());
  if (num < 0 && ax && in.dims[*ax] >= 0) num = in.dims[*ax];
  if (num < 0 || num > kMaxOutputs) num = 1;
  PartialShape elem = PartialShape::unknown();
  if (ax) {
    Dims d = in.dims;
    d.erase(d.begin() + static_cast<std::ptrdiff_t>(*ax));
    elem = PartialShape::of(d);
  }
  for (std::int64_t k = 0; k < num; ++k) c.set(static_cast<std::size_t>(k), c.t(), elem);
  const KnownValue* v = c.value(0);
  if (!v || !ax || *ax != 0 || !elem.fully_known() || v->shape.empty()) return;
  const std::size_t step = count(elem.dims);
  for (std::int64_t k = 0; k < num; ++k) {
    const auto begin = static_cast<std::size_t>(k) * step;
    if (begin + step > v->v.size()) return;
    c.set_value(static_cast<std::size_t>(k),
                KnownValue{v->dtype,
                           elem.dims,
                           {v->v.begin() + static_cast<std::ptrdiff_t>(begin),
                            v->v.begin() + static_cast<std::ptrdiff_t>(begin + step)}});
  }
}

void transpose(InferContext& c) {
  const PartialShape in = c.shape(0);
  const auto perm = c.ints(1);
  if (!perm) {
    c.set(0, c.t(), with_rank(PartialShape::unknown(), in.rank()));
    return;
  }
  if (!in.rank_known || perm->size() != in.dims.size()) {
    c.set(0, c.t(), with_rank(PartialShape::unknown(), static_cast<int>(perm->size())));
    return;
  }
  Dims out;
  for (auto p : *perm) {
    auto ax = norm_axis(p, in.dims.size());
    out.push_back(ax ? in.dims[*ax] : -1);
  }
  c.set(0, c.t(), PartialShape::of(out));
}

// One output dim of a strided slice over an input dim of size `dim` (known).
std::int64_t slice_size(std::int64_t dim, std::int64_t b, std::int64_t e, std::int64_t s,
                        bool begin_all, bool end_all, std::int64_t* first) {
  auto clampv = [](std::int64_t v, std::int64_t lo, std::int64_t hi) {
    return std::min(std::max(v, lo), hi);
  };
  std::int64_t lo, hi;
  if (s > 0) {
    lo = begin_all ? 0 : clampv(b < 0 ? b + dim : b, 0, dim);
    hi = end_all ? dim : clampv(e < 0 ? e + dim : e, 0, dim);
    *first = lo;
    return hi > lo ? (hi - lo + s - 1) / s : 0;
  }
  lo = begin_all ? dim - 1 : clampv(b < 0 ? b + dim : b, -1, dim - 1);
  hi = end_all ? -1 : clampv(e < 0 ? e + dim : e, -1, dim - 1);
  *first = lo;
  return lo > hi ? (lo - hi + (-s) - 1) / (-s) : 0;
}

void strided_slice(InferContext& c) {
  const PartialShape in = c.shape(0);
  const auto begin = c.ints(1), end = c.ints(2), strides = c.ints(3);
  const std::int64_t bm = c.attr<std::int64_t>("begin_mask", 0),
                     em = c.attr<std::int64_t>("end_mask", 0);
  const std::int64_t ellipsis = c.attr<std::int64_t>("ellipsis_mask", 0);
  const std::int64_t new_axis = c.attr<std::int64_t>("new_axis_mask", 0);
  const std::int64_t shrink = c.attr<std::int64_t>("shrink_axis_mask", 0);
  // Masks are 64-bit: a longer spec cannot be described by them.
  if (!in.rank_known || !begin || !end || !strides || begin->size() != end->size() ||
      begin->size() != strides->size() || begin->size() > 63) {
    c.set(0, c.t(), PartialShape::unknown());
    return;
  }
  const std::size_t spec = begin->size();
  // How many input dims the spec names explicitly; an ellipsis covers the rest.
  std::size_t named = 0;
  bool has_ellipsis = false;
  for (std::size_t i = 0; i < spec; ++i) {
    if (ellipsis & (std::int64_t{1} << i))
      has_ellipsis = true;
    else if (!(new_axis & (std::int64_t{1} << i)))
      ++named;
  }
  const std::size_t rank = in.dims.size();
  if (named > rank) {
    c.set(0, c.t(), PartialShape::unknown());
    return;
  }
  Dims out;
  std::size_t dim = 0;
  // For folding a 1-D value: the single dim's (first, step, count) or index.
  std::int64_t fold_first = 0, fold_step = 1, fold_count = -1;
  bool fold_shrunk = false;
  auto take = [&](std::int64_t b, std::int64_t e, std::int64_t s, bool ball, bool eall, bool shr) {
    if (dim >= in.dims.size()) return;  // a second ellipsis: nothing left to cover
    const std::int64_t d = in.dims[dim];
    if (s == 0) {
      out.push_back(-1);
    } else if (shr) {
      if (d >= 0) {
        fold_first = b < 0 ? b + d : b;
        fold_shrunk = true;
      }
    } else if (d < 0) {
      out.push_back(-1);
    } else {
      std::int64_t first = 0;
      const std::int64_t n = slice_size(d, b, e, s, ball, eall, &first);
      out.push_back(n);
      fold_first = first;
      fold_step = s;
      fold_count = n;
    }
    ++dim;
  };
  for (std::size_t i = 0; i < spec; ++i) {
    const std::int64_t bit = std::int64_t{1} << i;
    if (ellipsis & bit) {
      const std::size_t cover = rank - named;
      for (std::size_t k = 0; k < cover; ++k) take(0, 0, 1, true, true, false);
    } else if (new_axis & bit) {
      out.push_back(1);
    } else {
      if (dim >= rank) break;
      take((*begin)[i], (*end)[i], (*strides)[i], bm & bit, em & bit, shrink & bit);
    }
  }
  if (!has_ellipsis)
    while (dim < rank) take(0, 0, 1, true, true, false);
  c.set(0, c.t(), PartialShape::of(out));

  const KnownValue* v = c.value(0);
  if (!v || v->shape.size() != 1 || rank != 1 || new_axis != 0) return;
  const auto n = static_cast<std::int64_t>(v->v.size());
  if (fold_shrunk) {
    if (fold_first >= 0 && fold_first < n)
      c.set_value(0, KnownValue{v->dtype, {}, {v->v[static_cast<std::size_t>(fold_first)]}});
    return;
  }
  if (fold_count < 0) return;
  KnownValue r{v->dtype, {fold_count}, {}};
  for (std::int64_t k = 0, idx = fold_first; k < fold_count; ++k, idx += fold_step) {
    if (idx < 0 || idx >= n) return;
    r.v.push_back(v->v[static_cast<std::size_t>(idx)]);
  }
  c.set_value(0, std::move(r));
}

void slice(InferContext& c) {
  const PartialShape in = c.shape(0);
  const auto begin = c.ints(1), size = c.ints(2);
  if (!size) {
    const PartialShape ss = c.shape(2);
    c.set(0, c.t(),
          with_rank(in, ss.rank_known && ss.dims.size() == 1 ? static_cast<int>(ss.dims[0]) : -1));
    if (c.out[0].shape.rank_known)
      std::fill(c.out[0].shape.dims.begin(), c.out[0].shape.dims.end(), -1);
    return;
  }
  Dims out(size->size(), -1);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::int64_t s = (*size)[i];
    if (s >= 0) {
      out[i] = s;
    } else if (begin && in.rank_known && in.dims.size() == out.size() && in.dims[i] >= 0 &&
               i < begin->size()) {
      out[i] = in.dims[i] - (*begin)[i];
    }
  }
  c.set(0, c.t(), PartialShape::of(out));
  const KnownValue* v = c.value(0);
  if (v && begin && v->shape.size() == 1 && out.size() == 1 && out[0] >= 0) {
    KnownValue r{v->dtype, out, {}};
    for (std::int64_t k = 0; k < out[0]; ++k) {
      const std::int64_t idx = (*begin)[0] + k;
      if (idx < 0 || idx >= static_cast<std::int64_t>(v->v.size())) return;
      r.v.push_back(v->v[static_cast<std::size_t>(idx)]);
    }
    c.set_value(0, std::move(r));
  }
}

void pad(InferContext& c) {
  const PartialShape in = c.shape(0);
  const auto pads = c.ints(1);
  if (!in.rank_known) {
    const PartialShape ps = c.shape(1);
    c.set(0, c.t(),
          with_rank(in, ps.rank_known && ps.dims.size() == 2 ? static_cast<int>(ps.dims[0]) : -1));
    return;
  }
  Dims out = in.dims;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!pads || pads->size() != 2 * out.size())
      out[i] = -1;
    else if (out[i] >= 0)
      out[i] += (*pads)[2 * i] + (*pads)[2 * i + 1];
  }
  c.set(0, c.t(), PartialShape::of(out));
}

void tile(InferContext& c) {
  const PartialShape in = c.shape(0);
  const auto m = c.ints(1);
  if (!in.rank_known || !m || m->size() != in.dims.size()) {
    c.set(0, c.t(), with_rank(PartialShape::unknown(), in.rank()));
    if (c.out[0].shape.rank_known)
      std::fill(c.out[0].shape.dims.begin(), c.out[0].shape.dims.end(), -1);
    return;
  }
  Dims out = in.dims;
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = dim_mul(out[i], (*m)[i]);
  c.set(0, c.t(), PartialShape::of(out));
}

void broadcast_to(InferContext& c) {
  const auto target = c.ints(1);
  if (!target) {
    const PartialShape ss = c.shape(1);
    c.set(0, c.t(),
          with_rank(PartialShape::unknown(),
                    ss.rank_known && ss.dims.size() == 1 ? static_cast<int>(ss.dims[0]) : -1));
    return;
  }
  c.set(0, c.t(), broadcast_shapes(c.shape(0), PartialShape::of(*target)));
}

void fill(InferContext& c) {
  auto dtype = try_attr<DType>(c.node, "T");
  if (!dtype) dtype = c.in(1).dtype;
  const auto dims = c.ints(0);
  if (!dims) {
    const PartialShape ds = c.shape(0);
    c.set(0, dtype,
          with_rank(PartialShape::unknown(),
                    ds.rank_known && ds.dims.size() == 1 ? static_cast<int>(ds.dims[0]) : -1));
    return;
  }
  c.set(0, dtype, PartialShape::of(*dims));
  const KnownValue* v = c.value(1);
  if (v && v->v.size() == 1 && count(*dims) <= kMaxKnownElements)
    c.set_value(0, KnownValue{v->dtype, *dims, std::vector<double>(count(*dims), v->v[0])});
}

// The rank a shape-vector input gives its result: its length when known, else -1.
int rank_from_shape_input(const InferContext& c, std::size_t i) {
  const PartialShape s = c.shape(i);
  return s.rank_known && s.dims.size() == 1 ? static_cast<int>(s.dims[0]) : -1;
}

// Zeros, Ones (TF.js's own ops): input 0 is the shape, attribute T the dtype (float32 by default).
void zeros_ones(InferContext& c) {
  const DType dtype = c.attr<DType>("T", DType::Float32);
  const auto dims = c.ints(0);
  if (!dims) {
    c.set(0, dtype, with_rank(PartialShape::unknown(), rank_from_shape_input(c, 0)));
    return;
  }
  c.set(0, dtype, PartialShape::of(*dims));
  if (PartialShape::of(*dims).fully_known() && count(*dims) <= kMaxKnownElements)
    c.set_value(0, KnownValue{dtype, *dims,
                              std::vector<double>(count(*dims), c.node.op == "Ones" ? 1.0 : 0.0)});
}

// LinSpace(start, stop, num): [num] float32 (TF.js makes float32 whatever T says).
void linspace(InferContext& c) {
  const auto num = c.scalar(2);
  c.set(0, DType::Float32, PartialShape::of({num && *num >= 0 ? *num : -1}));
}

void range(InferContext& c) {
  auto dtype = try_attr<DType>(c.node, "Tidx");
  if (!dtype) dtype = c.in(0).dtype;
  const KnownValue *s = c.value(0), *l = c.value(1), *d = c.value(2);
  if (!s || !l || !d || s->v.size() != 1 || l->v.size() != 1 || d->v.size() != 1 || d->v[0] == 0) {
    c.set(0, dtype, PartialShape::of({-1}));
    return;
  }
  const double n = std::ceil((l->v[0] - s->v[0]) / d->v[0]);
  const auto len = static_cast<std::int64_t>(std::max(0.0, std::min(n, 9e15)));
  c.set(0, dtype, PartialShape::of({len}));
  if (static_cast<std::size_t>(len) <= kMaxKnownElements && dtype) {
    KnownValue r{*dtype, {len}, {}};
    for (std::int64_t k = 0; k < len; ++k)
      r.v.push_back(s->v[0] + static_cast<double>(k) * d->v[0]);
    c.set_value(0, std::move(r));
  }
}

void gather(InferContext& c) {
  auto dtype = try_attr<DType>(c.node, "Tparams");
  if (!dtype) dtype = c.in(0).dtype;
  const PartialShape params = c.shape(0), indices = c.shape(1);
  const std::int64_t batch_dims = c.attr<std::int64_t>("batch_dims", 0);
  const auto axis = c.node.op == "Gather" ? std::optional<std::int64_t>(0) : c.scalar(2);
  if (!params.rank_known || !indices.rank_known || !axis) {
    c.set(0, dtype, PartialShape::unknown());
    return;
  }
  const auto ax = norm_axis(*axis, params.dims.size());
  const auto bd =
      batch_dims < 0 ? batch_dims + static_cast<std::int64_t>(indices.dims.size()) : batch_dims;
  if (!ax || bd < 0 || static_cast<std::size_t>(bd) > indices.dims.size()) {
    c.set(0, dtype, PartialShape::unknown());
    return;
  }
  Dims out(params.dims.begin(), params.dims.begin() + static_cast<std::ptrdiff_t>(*ax));
  out.insert(out.end(), indices.dims.begin() + bd, indices.dims.end());
  out.insert(out.end(), params.dims.begin() + static_cast<std::ptrdiff_t>(*ax) + 1,
             params.dims.end());
  c.set(0, dtype, PartialShape::of(out));
  const KnownValue *pv = c.value(0), *iv = c.value(1);
  if (pv && iv && pv->shape.size() == 1 && *ax == 0 && batch_dims == 0) {
    KnownValue r{pv->dtype, iv->shape, {}};
    const auto n = static_cast<std::int64_t>(pv->v.size());
    for (double d : iv->v) {
      auto idx = static_cast<std::int64_t>(d);
      if (idx < 0 || idx >= n) return;
      r.v.push_back(pv->v[static_cast<std::size_t>(idx)]);
    }
    c.set_value(0, std::move(r));
  }
}

void gather_nd(InferContext& c) {
  auto dtype = try_attr<DType>(c.node, "Tparams");
  if (!dtype) dtype = c.in(0).dtype;
  const PartialShape params = c.shape(0), indices = c.shape(1);
  if (!params.rank_known || !indices.rank_known || indices.dims.empty() ||
      indices.dims.back() < 0 ||
      static_cast<std::size_t>(indices.dims.back()) > params.dims.size()) {
    c.set(0, dtype, PartialShape::unknown());
    return;
  }
  Dims out(indices.dims.begin(), indices.dims.end() - 1);
  out.insert(out.end(), params.dims.begin() + indices.dims.back(), params.dims.end());
  c.set(0, dtype, PartialShape::of(out));
}

void split(InferContext& c) {
  // Split(split_dim, value; num_split)
  std::int64_t n = c.attr<std::int64_t>("num_split", 1);
  if (n < 1 || n > kMaxOutputs) n = 1;
  const PartialShape in = c.shape(1);
  const auto axis = c.scalar(0);
  PartialShape piece = with_rank(PartialShape::unknown(), in.rank());
  if (in.rank_known && axis) {
    piece = in;
    if (auto ax = norm_axis(*axis, in.dims.size())) {
      auto& d = piece.dims[*ax];
      if (d >= 0) d /= n;
    } else {
      piece = PartialShape::unknown();
    }
  }
  auto dtype = try_attr<DType>(c.node, "T");
  if (!dtype) dtype = c.in(1).dtype;
  for (std::int64_t k = 0; k < n; ++k) c.set(static_cast<std::size_t>(k), dtype, piece);
}

void split_v(InferContext& c) {
  // SplitV(value, size_splits, split_dim; num_split)
  std::int64_t n = c.attr<std::int64_t>("num_split", 1);
  if (n < 1 || n > kMaxOutputs) n = 1;
  const PartialShape in = c.shape(0);
  const auto sizes = c.ints(1);
  const auto axis = c.scalar(2);
  std::optional<std::size_t> ax;
  if (in.rank_known && axis) ax = norm_axis(*axis, in.dims.size());
  std::vector<std::int64_t> sz(static_cast<std::size_t>(n), -1);
  if (sizes && sizes->size() == sz.size()) {
    sz = *sizes;
    const auto wild = std::count(sz.begin(), sz.end(), -1);
    if (wild == 1 && ax && in.dims[*ax] >= 0) {
      std::int64_t rest = in.dims[*ax];
      for (auto s : sz)
        if (s >= 0) rest -= s;
      for (auto& s : sz)
        if (s == -1) s = std::max<std::int64_t>(rest, -1);
    }
  }
  for (std::int64_t k = 0; k < n; ++k) {
    PartialShape piece = with_rank(PartialShape::unknown(), in.rank());
    if (ax) {
      piece = in;
      piece.dims[*ax] = sz[static_cast<std::size_t>(k)];
    }
    c.set(static_cast<std::size_t>(k), c.t(), piece);
  }
}

void shape_op(InferContext& c) {
  auto dtype = try_attr<DType>(c.node, "out_type");
  if (!dtype) dtype = DType::Int32;
  const PartialShape in = c.shape(0);
  c.set(0, dtype,
        in.rank_known ? PartialShape::of({static_cast<std::int64_t>(in.dims.size())})
                      : PartialShape::of({-1}));
  if (in.fully_known())
    c.set_value(0, KnownValue{*dtype,
                              {static_cast<std::int64_t>(in.dims.size())},
                              {in.dims.begin(), in.dims.end()}});
}

void size_op(InferContext& c) {
  auto dtype = try_attr<DType>(c.node, "out_type");
  if (!dtype) dtype = DType::Int32;
  c.set(0, dtype, PartialShape::of({}));
  const PartialShape in = c.shape(0);
  if (in.fully_known())
    c.set_value(0, KnownValue{*dtype, {}, {static_cast<double>(num_elements(in.dims))}});
}

void rank_op(InferContext& c) {
  c.set(0, DType::Int32, PartialShape::of({}));
  const PartialShape in = c.shape(0);
  if (in.rank_known)
    c.set_value(0, KnownValue{DType::Int32, {}, {static_cast<double>(in.dims.size())}});
}

// Scatters known sparse values into a known default-filled tensor (ONNX-converted models build
// Reshape targets this way).
void fold_sparse_to_dense(InferContext& c, const Dims& shape) {
  const KnownValue *idx = c.value(0), *vals = c.value(2), *def = c.value(3);
  if (!idx || !vals || !def || def->v.size() != 1 || !PartialShape::of(shape).fully_known()) return;
  const std::size_t total = count(shape);
  if (total > kMaxKnownElements) return;
  // Indices: scalar, [n] (rank-1 output) or [n, rank].
  const std::size_t rank = shape.size();
  const std::size_t per = idx->shape.size() == 2 ? static_cast<std::size_t>(idx->shape[1]) : 1;
  if ((idx->shape.size() == 2 && per != rank) || (idx->shape.size() < 2 && rank != 1)) return;
  const std::size_t n = idx->v.size() / std::max<std::size_t>(per, 1);
  if (vals->v.size() != 1 && vals->v.size() != n) return;
  KnownValue r{def->dtype, shape, std::vector<double>(total, def->v[0])};
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t flat = 0;
    for (std::size_t d = 0; d < per; ++d) {
      const double i = idx->v[k * per + d];
      if (i < 0 || i >= static_cast<double>(shape[d])) return;
      flat = flat * static_cast<std::size_t>(shape[d]) + static_cast<std::size_t>(i);
    }
    r.v[flat] = vals->v.size() == 1 ? vals->v[0] : vals->v[k];
  }
  c.set_value(0, std::move(r));
}

void sparse_to_dense(InferContext& c) {
  // SparseToDense(sparse_indices, output_shape, sparse_values, default_value)
  auto dtype = try_attr<DType>(c.node, "T");
  if (!dtype) dtype = c.in(2).dtype;
  if (auto s = c.ints(1)) {
    c.set(0, dtype, PartialShape::of(*s));
    fold_sparse_to_dense(c, *s);
    return;
  }
  const PartialShape ss = c.shape(1);
  c.set(0, dtype,
        with_rank(PartialShape::unknown(),
                  ss.rank_known && ss.dims.size() == 1 ? static_cast<int>(ss.dims[0]) : -1));
}

// ScatterNd(indices, updates, shape): the updates' type in a tensor of the given shape.
void scatter_nd(InferContext& c) {
  auto dtype = try_attr<DType>(c.node, "T");
  if (!dtype) dtype = c.in(1).dtype;
  if (auto s = c.ints(2)) {
    for (auto& d : *s)
      if (d < 0) d = -1;
    c.set(0, dtype, PartialShape::of(*s));
    return;
  }
  const PartialShape ss = c.shape(2);
  c.set(0, dtype,
        with_rank(PartialShape::unknown(),
                  ss.rank_known && ss.dims.size() == 1 ? static_cast<int>(ss.dims[0]) : -1));
}

// ShapeN: one shape vector per input, float32 as TF.js makes them (tensor1d without a dtype).
void shape_n(InferContext& c) {
  for (std::size_t k = 0; k < c.num_inputs(); ++k) {
    const PartialShape in = c.shape(k);
    c.set(k, DType::Float32, PartialShape::of({in.rank_known ? in.rank() : -1}));
    if (in.fully_known())
      c.set_value(k, KnownValue{DType::Float32,
                                {static_cast<std::int64_t>(in.dims.size())},
                                {in.dims.begin(), in.dims.end()}});
  }
}

// BroadcastArgs(s0, s1): the broadcast shape of two shape vectors, folded when both are known.
void broadcast_args(InferContext& c) {
  const int r0 = rank_from_shape_input(c, 0), r1 = rank_from_shape_input(c, 1);
  c.set(0, DType::Int32, PartialShape::of({r0 < 0 || r1 < 0 ? -1 : std::max(r0, r1)}));
  const auto a = c.ints(0), b = c.ints(1);
  if (!a || !b) return;
  const auto s = broadcast_shapes(PartialShape::of(*a), PartialShape::of(*b));
  if (!s.fully_known()) return;
  c.set_value(0, KnownValue{DType::Int32,
                            {static_cast<std::int64_t>(s.dims.size())},
                            {s.dims.begin(), s.dims.end()}});
}

// Reverse, ReverseV2, TensorScatterUpdate: x's shape.
void same_shape(InferContext& c) {
  c.set(0, c.t(), c.shape(0));
}

void where(InferContext& c) {
  const PartialShape in = c.shape(0);
  c.set(0, DType::Int32, PartialShape::of({-1, in.rank_known ? in.rank() : -1}));
}

constexpr OpDef kOps[] = {
    {"BroadcastArgs", broadcast_args, Family::Shape},
    {"BroadcastTo", broadcast_to, Family::Shape},
    {"Concat", concat, Family::Shape},
    {"ConcatV2", concat, Family::Shape},
    {"ExpandDims", expand_dims, Family::Shape},
    {"Fill", fill, Family::Shape},
    {"Gather", gather, Family::Shape},
    {"GatherNd", gather_nd, Family::Shape},
    {"GatherV2", gather, Family::Shape},
    {"LinSpace", linspace, Family::Shape},
    {"MirrorPad", pad, Family::Shape},
    {"OneHot", nullptr, Family::Shape},
    {"Ones", zeros_ones, Family::Shape},
    {"Pack", pack, Family::Shape},
    {"Pad", pad, Family::Shape},
    {"PadV2", pad, Family::Shape},
    {"Range", range, Family::Shape},
    {"Rank", rank_op, Family::Shape},
    {"Reshape", reshape, Family::Shape},
    {"Reverse", same_shape, Family::Shape},
    {"ReverseV2", same_shape, Family::Shape},
    {"ScatterNd", scatter_nd, Family::Shape},
    {"Shape", shape_op, Family::Shape},
    {"ShapeN", shape_n, Family::Shape},
    {"Size", size_op, Family::Shape},
    {"Slice", slice, Family::Shape},
    {"SparseToDense", sparse_to_dense, Family::Other},
    {"Split", split, Family::Shape},
    {"SplitV", split_v, Family::Shape},
    {"Squeeze", squeeze, Family::Shape},
    {"StridedSlice", strided_slice, Family::Shape},
    {"TensorScatterUpdate", same_shape, Family::Shape},
    {"Tile", tile, Family::Shape},
    {"Transpose", transpose, Family::Shape},
    {"Unpack", unpack, Family::Shape},
    {"Where", where, Family::Shape},
    {"Zeros", zeros_ones, Family::Shape},
};

}  // namespace

std::span<const OpDef> array_ops() {
  return kOps;
}

}  // namespace tfjsi::ops
