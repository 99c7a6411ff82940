// Unique/UniqueV2 (the distinct slices along an axis in order of first appearance, and for each
// input slice the index of its distinct one) and ListDiff (the values of x not in y, and their
// positions in x). Values are equal as TF.js sees them: -0 equals 0 and NaN equals NaN (Unique
// keys slices by their text, ListDiff uses a JS Set). Output sizes depend on the values.
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "backends/cpu/tensor_util.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

// Input i, which may hold strings.
const HostTensor& any_input(const KernelContext& ctx, std::size_t i) {
  if (i >= ctx.inputs.size()) fail(ctx, "input " + std::to_string(i) + " is missing");
  const HostTensor& t = ctx.inputs[i];
  if (t.dtype == DType::String ? !t.strings : !t.buffer)
    fail(ctx, "input " + std::to_string(i) + " has no data");
  return t;
}

template <class T>
void append_bytes(std::string& key, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  key.append(b, sizeof(T));
}

// Appends element i of t to `key`, in a form that is equal exactly for values TF.js takes as equal.
void append_key(const HostTensor& t, std::int64_t i, std::string& key) {
  const auto k = static_cast<std::size_t>(i);
  switch (t.dtype) {
    case DType::Float32: {
      float v = t.values<float>()[k];
      if (v == 0) v = 0;  // -0
      if (std::isnan(v)) v = std::numeric_limits<float>::quiet_NaN();
      append_bytes(key, v);
      break;
    }
    case DType::Int32:
      append_bytes(key, t.values<std::int32_t>()[k]);
      break;
    case DType::Bool:
      append_bytes(key, t.values<std::uint8_t>()[k]);
      break;
    case DType::String: {
      const std::string& s = (*t.strings)[k];
      append_bytes(key, static_cast<std::uint64_t>(s.size()));
      key += s;
      break;
    }
    case DType::Complex64:  // refused before any kernel (refuse_complex)
      throw std::logic_error("set ops: complex64 key");
  }
}

// Element `from` of src into element `to` of dst, of the same dtype.
void copy_element(const HostTensor& src, std::int64_t from, HostTensor& dst, std::int64_t to) {
  if (src.dtype == DType::String) {
    (*dst.strings)[static_cast<std::size_t>(to)] = (*src.strings)[static_cast<std::size_t>(from)];
    return;
  }
  const std::size_t e = element_size(src.dtype);
  std::memcpy(dst.buffer->mutable_data() + static_cast<std::size_t>(to) * e,
              src.buffer->data() + static_cast<std::size_t>(from) * e, e);
}

std::vector<HostTensor> unique(const KernelContext& ctx, bool v2) {
  require_inputs(ctx, v2 ? 2 : 1, v2 ? 2 : 1);
  const HostTensor& x = any_input(ctx, 0);
  if (x.rank() < 1) fail(ctx, "the input must be at least 1-D, got a scalar");
  int axis = 0;
  if (v2) {
    const auto a = read_ints(ctx, 1, "axis");
    if (a.size() != 1) fail(ctx, "axis must hold one value, got " + std::to_string(a.size()));
    axis = normalize_axis(ctx, a[0], x.rank());
  }
  // The input as [outer, n, inner]; slice i along the axis is every (m, i, k).
  std::int64_t outer = 1, inner = 1;
  const std::int64_t n = x.shape[static_cast<std::size_t>(axis)];
  for (int d = 0; d < axis; ++d) outer *= x.shape[static_cast<std::size_t>(d)];
  for (int d = axis + 1; d < x.rank(); ++d) inner *= x.shape[static_cast<std::size_t>(d)];
  HostTensor idx = HostTensor::uninitialized(DType::Int32, {n});
  auto iv = idx.mutable_values<std::int32_t>();
  std::unordered_map<std::string, std::int32_t> seen;
  std::vector<std::int64_t> firsts;  // the input slice of each distinct one
  std::string key;
  for (std::int64_t i = 0; i < n; ++i) {
    key.clear();
    for (std::int64_t m = 0; m < outer; ++m)
      for (std::int64_t k = 0; k < inner; ++k) append_key(x, (m * n + i) * inner + k, key);
    const auto [it, fresh] = seen.try_emplace(key, static_cast<std::int32_t>(firsts.size()));
    if (fresh) firsts.push_back(i);
    iv[static_cast<std::size_t>(i)] = it->second;
  }
  Shape yshape = x.shape;
  const auto u = static_cast<std::int64_t>(firsts.size());
  yshape[static_cast<std::size_t>(axis)] = u;
  HostTensor y = HostTensor::uninitialized(x.dtype, yshape);
  for (std::int64_t j = 0; j < u; ++j)
    for (std::int64_t m = 0; m < outer; ++m)
      for (std::int64_t k = 0; k < inner; ++k)
        copy_element(x, (m * n + firsts[static_cast<std::size_t>(j)]) * inner + k, y,
                     (m * u + j) * inner + k);
  return {y, idx};
}

}  // namespace

// TF.js's Unique takes any rank along axis 0 (TF's wants a vector).
std::vector<HostTensor> Unique(const KernelContext& ctx) {
  return unique(ctx, false);
}

std::vector<HostTensor> UniqueV2(const KernelContext& ctx) {
  return unique(ctx, true);
}

std::vector<HostTensor> ListDiff(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const HostTensor& x = any_input(ctx, 0);
  const HostTensor& y = any_input(ctx, 1);
  if (x.dtype != y.dtype)
    fail(ctx, "x and y must have the same dtype, got " + std::string(to_string(x.dtype)) + " and " +
                  std::string(to_string(y.dtype)));
  if (x.rank() != 1 || y.rank() != 1)
    fail(ctx, "x and y must be 1-D, got " + shape_to_string(x.shape) + " and " +
                  shape_to_string(y.shape));
  std::unordered_set<std::string> in_y;
  std::string key;
  for (std::int64_t i = 0; i < y.num_elements(); ++i) {
    key.clear();
    append_key(y, i, key);
    in_y.insert(key);
  }
  std::vector<std::int64_t> keep;
  for (std::int64_t i = 0; i < x.num_elements(); ++i) {
    key.clear();
    append_key(x, i, key);
    if (!in_y.contains(key)) keep.push_back(i);
  }
  const auto count = static_cast<std::int64_t>(keep.size());
  HostTensor out = HostTensor::uninitialized(x.dtype, {count});
  HostTensor idx = HostTensor::uninitialized(DType::Int32, {count});
  for (std::int64_t j = 0; j < count; ++j) {
    copy_element(x, keep[static_cast<std::size_t>(j)], out, j);
    idx.mutable_values<std::int32_t>()[static_cast<std::size_t>(j)] =
        static_cast<std::int32_t>(keep[static_cast<std::size_t>(j)]);
  }
  return {out, idx};
}

}  // namespace tfjsi::cpu::tensor_ops
