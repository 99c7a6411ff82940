#include "ops/shape_context.h"

#include <algorithm>
#include <cmath>

#include "ops/window.h"

namespace tfjsi::ops {

namespace {
const graph::TensorInfo kUnknownInfo{};
}

const graph::TensorInfo& InferContext::in(std::size_t i) const {
  return i < in_.size() ? in_[i] : kUnknownInfo;
}

std::optional<std::vector<std::int64_t>> InferContext::ints(std::size_t i) const {
  const KnownValue* v = value(i);
  if (!v) return std::nullopt;
  std::vector<std::int64_t> out;
  out.reserve(v->v.size());
  for (double d : v->v) {
    if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9e15) return std::nullopt;
    out.push_back(static_cast<std::int64_t>(d));
  }
  return out;
}

std::optional<std::int64_t> InferContext::scalar(std::size_t i) const {
  auto v = ints(i);
  if (!v || v->size() != 1) return std::nullopt;
  return (*v)[0];
}

std::optional<DType> InferContext::t() const {
  if (auto d = try_attr<DType>(node, "T")) return d;
  return in(0).dtype;
}

void InferContext::set(std::size_t k, std::optional<DType> dtype, PartialShape shape) {
  if (out.size() <= k) out.resize(k + 1);
  out[k] = graph::TensorInfo{dtype, std::move(shape)};
}

void InferContext::set_value(std::size_t k, KnownValue v) {
  if (v.v.size() > kMaxKnownElements) return;
  if (out_values.size() <= k) out_values.resize(k + 1);
  out_values[k] = std::move(v);
}

PartialShape broadcast_shapes(const PartialShape& a, const PartialShape& b) {
  if (!a.rank_known || !b.rank_known) return PartialShape::unknown();
  const std::size_t r = std::max(a.dims.size(), b.dims.size());
  std::vector<std::int64_t> out(r);
  for (std::size_t i = 0; i < r; ++i) {
    const std::int64_t x = i < r - a.dims.size() ? 1 : a.dims[i - (r - a.dims.size())];
    const std::int64_t y = i < r - b.dims.size() ? 1 : b.dims[i - (r - b.dims.size())];
    if (x == 1)
      out[i] = y;
    else if (y == 1)
      out[i] = x;
    else if (x < 0)
      out[i] = y;  // y is -1 or the size x must have
    else if (y < 0 || x == y)
      out[i] = x;
    else
      out[i] = -1;  // incompatible: left for the runtime to report
  }
  return PartialShape::of(std::move(out));
}

PartialShape generalize(const PartialShape& a, const PartialShape& b) {
  if (!a.rank_known || !b.rank_known || a.dims.size() != b.dims.size())
    return PartialShape::unknown();
  PartialShape out = a;
  for (std::size_t i = 0; i < out.dims.size(); ++i)
    if (out.dims[i] != b.dims[i]) out.dims[i] = -1;
  return out;
}

PartialShape with_rank(const PartialShape& s, int rank) {
  if (s.rank_known || rank < 0) return s;
  return PartialShape::of(std::vector<std::int64_t>(static_cast<std::size_t>(rank), -1));
}

std::optional<KnownValue> known_from_tensor(const HostTensor& t) {
  if (!t.buffer && t.dtype != DType::String) return std::nullopt;
  const auto n = checked_num_elements(t.shape);
  if (!n || static_cast<std::size_t>(*n) > kMaxKnownElements) return std::nullopt;
  KnownValue k{t.dtype, t.shape, {}};
  k.v.reserve(static_cast<std::size_t>(*n));
  switch (t.dtype) {
    case DType::Float32:
      for (float f : t.values<float>()) k.v.push_back(f);
      break;
    case DType::Int32:
      for (auto i : t.values<std::int32_t>()) k.v.push_back(i);
      break;
    case DType::Bool:
      for (auto b : t.values<std::uint8_t>()) k.v.push_back(b ? 1.0 : 0.0);
      break;
    case DType::String:
    case DType::Complex64:  // known values are real numbers (shapes, axes, sizes)
      return std::nullopt;
  }
  return k;
}

Layout layout_of(const InferContext& c) {
  return {try_data_format(c.node) == DataFormat::Nchw};
}

}  // namespace tfjsi::ops
