// NumPy broadcasting for the elementwise kernels: the result shape, and a walk over the output in
// contiguous runs so the inner loops see plain pointers (stride 1, or 0 for a broadcast operand).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "backends/cpu/tensor_util.h"

namespace tfjsi::cpu::tensor_ops {

// The broadcast of two shapes; fails naming the node and both shapes when they do not broadcast.
Shape broadcast_shapes(const KernelContext& ctx, const Shape& a, const Shape& b);

// How N inputs map onto one output shape. Output dims of size 1 are dropped and adjacent dims that
// every input treats alike (all present, or all broadcast) are merged, so a same-shape operation is
// one run and a row or column broadcast is two dims.
template <std::size_t N>
struct Broadcast {
  Shape out_shape;
  std::int64_t total = 0;
  std::vector<std::int64_t> dims;                    // merged output dims, never empty
  std::array<std::vector<std::int64_t>, N> strides;  // per input, per merged dim; 0 = broadcast

  std::int64_t inner() const { return dims.back(); }
  // Stride (0 or 1) of input k along the innermost run.
  std::int64_t inner_stride(std::size_t k) const { return strides[k].back(); }
};

// Plans a broadcast of `in` shapes onto `out` (which must be their broadcast shape).
template <std::size_t N>
Broadcast<N> plan_broadcast(const Shape& out, const std::array<const Shape*, N>& in) {
  Broadcast<N> p;
  p.out_shape = out;
  p.total = num_elements(out);
  const int rank = static_cast<int>(out.size());
  // Per output dim: its size and each input's dim (1 when absent or broadcast).
  std::vector<std::int64_t> dims;
  std::vector<std::array<bool, N>> real;  // input k has the full dim (not broadcast)
  for (int d = 0; d < rank; ++d) {
    if (out[d] == 1) continue;
    std::array<bool, N> r{};
    for (std::size_t k = 0; k < N; ++k) {
      const int kd = d - (rank - static_cast<int>(in[k]->size()));
      r[k] = kd >= 0 && (*in[k])[kd] == out[d];
    }
    if (!dims.empty() && real.back() == r) {
      dims.back() *= out[d];
    } else {
      dims.push_back(out[d]);
      real.push_back(r);
    }
  }
  if (dims.empty()) {
    dims.push_back(1);
    real.push_back({});
  }
  p.dims = dims;
  for (std::size_t k = 0; k < N; ++k) {
    auto& s = p.strides[k];
    s.assign(dims.size(), 0);
    std::int64_t acc = 1;
    for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
      if (real[d][k]) {
        s[d] = acc;
        acc *= dims[d];
      }
    }
  }
  return p;
}

// Calls f(out_pos, offsets, count) for each contiguous run of output elements in [begin, end):
// input k's run starts at offsets[k] and advances by inner_stride(k) per element.
template <std::size_t N, class F>
void walk_runs(const Broadcast<N>& p, std::int64_t begin, std::int64_t end, F&& f) {
  const int r = static_cast<int>(p.dims.size());
  const std::int64_t inner = p.inner();
  std::int64_t row = begin / inner;
  std::int64_t col = begin % inner;
  std::vector<std::int64_t> idx(static_cast<std::size_t>(r), 0);
  std::array<std::int64_t, N> base{};
  for (int d = r - 2; d >= 0; --d) {
    idx[d] = row % p.dims[d];
    row /= p.dims[d];
    for (std::size_t k = 0; k < N; ++k) base[k] += idx[d] * p.strides[k][d];
  }
  std::int64_t pos = begin;
  while (pos < end) {
    const std::int64_t count = std::min(inner - col, end - pos);
    std::array<std::int64_t, N> off;
    for (std::size_t k = 0; k < N; ++k) off[k] = base[k] + col * p.strides[k][r - 1];
    f(pos, off, count);
    pos += count;
    col = 0;
    for (int d = r - 2; d >= 0; --d) {
      ++idx[d];
      for (std::size_t k = 0; k < N; ++k) base[k] += p.strides[k][d];
      if (idx[d] < p.dims[d]) break;
      for (std::size_t k = 0; k < N; ++k) base[k] -= p.strides[k][d] * p.dims[d];
      idx[d] = 0;
    }
  }
}

}  // namespace tfjsi::cpu::tensor_ops
