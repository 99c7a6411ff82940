#include "backends/cpu/transpose.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace tfjsi::cpu::tensor_ops {
namespace {

// Copies rows of the permuted view: `dims` are the (merged) output dims, `in_strides` the input
// stride of each; the innermost output dim is walked with its input stride.
template <class T>
void permute_rows(const T* in, T* out, const std::vector<std::int64_t>& dims,
                  const std::vector<std::int64_t>& in_strides, pthreadpool_t pool) {
  const int r = static_cast<int>(dims.size());
  const std::int64_t inner = dims[r - 1];
  const std::int64_t inner_stride = in_strides[r - 1];
  const std::int64_t rows = num_elements(std::span(dims).first(r - 1));
  const std::int64_t grain =
      std::max<std::int64_t>(1, kElementwiseGrain / std::max<std::int64_t>(inner, 1));
  parallel_for(pool, rows, grain, [&](std::int64_t rb, std::int64_t re) {
    std::vector<std::int64_t> idx(r, 0);
    std::int64_t base = 0, rem = rb;
    for (int d = r - 2; d >= 0; --d) {
      idx[d] = rem % dims[d];
      rem /= dims[d];
      base += idx[d] * in_strides[d];
    }
    for (std::int64_t row = rb; row < re; ++row) {
      T* o = out + row * inner;
      const T* src = in + base;
      if (inner_stride == 1)
        std::copy_n(src, inner, o);
      else
        for (std::int64_t i = 0; i < inner; ++i) o[i] = src[i * inner_stride];
      for (int d = r - 2; d >= 0; --d) {
        base += in_strides[d];
        if (++idx[d] < dims[d]) break;
        base -= in_strides[d] * dims[d];
        idx[d] = 0;
      }
    }
  });
}

// When the input's contiguous dim lands on a middle output dim k, the row copy above reads with a
// large stride. Copying 32x32 tiles of the (k, last) plane keeps both sides in cache.
template <class T>
void permute_tiled(const T* in, T* out, const std::vector<std::int64_t>& dims,
                   const std::vector<std::int64_t>& in_strides, int k, pthreadpool_t pool) {
  constexpr std::int64_t kTile = 32;
  const int r = static_cast<int>(dims.size());
  std::vector<std::int64_t> out_strides(r, 1);
  for (int d = r - 2; d >= 0; --d) out_strides[d] = out_strides[d + 1] * dims[d + 1];
  std::vector<int> rest;  // dims other than k and the last
  for (int d = 0; d < r - 1; ++d)
    if (d != k) rest.push_back(d);
  std::int64_t outer = 1;
  for (int d : rest) outer *= dims[d];
  const std::int64_t rows = dims[k], cols = dims[r - 1];
  const std::int64_t row_tiles = (rows + kTile - 1) / kTile;
  const std::int64_t col_stride = in_strides[r - 1];
  const std::int64_t out_row_stride = out_strides[k];
  const std::int64_t grain =
      std::max<std::int64_t>(1, kElementwiseGrain / (kTile * std::max<std::int64_t>(cols, 1)));
  parallel_for(pool, outer * row_tiles, grain, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t job = b; job < e; ++job) {
      std::int64_t o = job / row_tiles;
      const std::int64_t i0 = (job % row_tiles) * kTile;
      std::int64_t in_base = 0, out_base = 0;
      for (auto it = rest.rbegin(); it != rest.rend(); ++it) {
        const std::int64_t idx = o % dims[*it];
        o /= dims[*it];
        in_base += idx * in_strides[*it];
        out_base += idx * out_strides[*it];
      }
      const std::int64_t i1 = std::min(rows, i0 + kTile);
      for (std::int64_t j0 = 0; j0 < cols; j0 += kTile) {
        const std::int64_t j1 = std::min(cols, j0 + kTile);
        for (std::int64_t i = i0; i < i1; ++i) {
          T* dst = out + out_base + i * out_row_stride;
          const T* src = in + in_base + i;
          for (std::int64_t j = j0; j < j1; ++j) dst[j] = src[j * col_stride];
        }
      }
    }
  });
}

template <class T>
void permute_any(const T* in, T* out, const std::vector<std::int64_t>& dims,
                 const std::vector<std::int64_t>& in_strides, pthreadpool_t pool) {
  const int r = static_cast<int>(dims.size());
  if (in_strides[r - 1] != 1 && dims[r - 1] >= 8) {
    for (int k = 0; k < r - 1; ++k)
      if (in_strides[k] == 1 && dims[k] >= 8)
        return permute_tiled(in, out, dims, in_strides, k, pool);
  }
  permute_rows(in, out, dims, in_strides, pool);
}

}  // namespace

HostTensor permute(const HostTensor& x, std::span<const int> perm, pthreadpool_t pool) {
  const int rank = x.rank();
  Shape out_shape(rank);
  for (int i = 0; i < rank; ++i) out_shape[i] = x.shape[perm[i]];
  HostTensor out = HostTensor::uninitialized(x.dtype, out_shape);
  if (out.num_elements() == 0) return out;
  // Merge output dims whose input dims are adjacent and in order; drop size-1 dims.
  const auto xs = strides_of(x.shape);
  std::vector<std::int64_t> dims, strides;
  for (int i = 0; i < rank; ++i) {
    const std::int64_t d = x.shape[perm[i]];
    if (d == 1) continue;
    const std::int64_t s = xs[perm[i]];
    if (!dims.empty() && strides.back() == s * d) {
      dims.back() *= d;
      strides.back() = s;
    } else {
      dims.push_back(d);
      strides.push_back(s);
    }
  }
  if (dims.empty()) {
    dims.push_back(1);
    strides.push_back(1);
  }
  if (dims.size() == 1) {
    copy_elems(out.buffer->mutable_data(), x.buffer->data(), x.num_elements(),
               element_size(x.dtype));
    return out;
  }
  switch (element_size(x.dtype)) {
    case 1:
      permute_any(reinterpret_cast<const std::uint8_t*>(x.buffer->data()),
                  reinterpret_cast<std::uint8_t*>(out.buffer->mutable_data()), dims, strides, pool);
      break;
    case 4:
      permute_any(reinterpret_cast<const std::uint32_t*>(x.buffer->data()),
                  reinterpret_cast<std::uint32_t*>(out.buffer->mutable_data()), dims, strides,
                  pool);
      break;
    default:
      throw ModelError("transpose: unsupported element type " + std::string(to_string(x.dtype)));
  }
  return out;
}

std::vector<HostTensor> Transpose(const KernelContext& ctx) {
  require_inputs(ctx, 1, 2);
  const HostTensor& x = input(ctx, 0);
  const int rank = x.rank();
  std::vector<int> perm(rank);
  if (ctx.inputs.size() == 2) {
    const auto p = read_ints(ctx, 1, "perm");
    if (static_cast<int>(p.size()) != rank)
      fail(ctx, "perm has " + std::to_string(p.size()) + " entries for input of shape " +
                    shape_to_string(x.shape));
    std::vector<bool> seen(rank, false);
    for (int i = 0; i < rank; ++i) {
      const int a = normalize_axis(ctx, p[i], rank);
      if (seen[a]) fail(ctx, "perm repeats axis " + std::to_string(a));
      seen[a] = true;
      perm[i] = a;
    }
  } else {
    // No perm: reverse the axes, as TF does.
    for (int i = 0; i < rank; ++i) perm[i] = rank - 1 - i;
  }
  return {permute(x, perm, ctx.pool)};
}

}  // namespace tfjsi::cpu::tensor_ops
