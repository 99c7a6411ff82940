// Depthwise convolution with one filter per channel, written here rather than taken from XNNPACK:
// XNNPACK's depthwise kernels add the filter taps column by column (its indirection buffer is
// kernel-x major), TF.js adds them row by row. The difference is a rounding per output, but deep
// models amplify it: blazepose-lite's segmentation output ended 1.2e-3 from TF.js through
// XNNPACK (tolerance 1e-3; TF.js's own wasm backend, also XNNPACK, is 5.6e-3 off). This kernel
// keeps TF.js's order (taps row by row, bias after the sum, then the bounds) and does it all in one
// pass over the output, a vector of channels at a time, with rows spread over the thread pool.
#include "backends/xnnpack/depthwise_rows.h"

#include <pthreadpool.h>

#include <algorithm>
#include <cstring>

namespace tfjsi::xnnpack {

namespace {

typedef float f32x16 __attribute__((vector_size(64)));
typedef float f32x8 __attribute__((vector_size(32)));

template <class V>
constexpr std::int64_t lanes_of = static_cast<std::int64_t>(sizeof(V) / sizeof(float));

// Channels [c, c + lanes of V) of one output pixel over the valid taps [ky0, ky1) x [kx0, kx1).
// Loads and stores go through memcpy: unaligned, and no vector-typed function signatures (whose
// ABI differs between the clones).
template <class V>
inline __attribute__((always_inline)) void pixel_block(const DepthwiseRows& a, std::int64_t base,
                                                       std::int64_t ky0, std::int64_t ky1,
                                                       std::int64_t kx0, std::int64_t kx1,
                                                       std::int64_t c, float* o) {
  const std::int64_t C = a.channels;
  V acc = {}, xv, wv;
  for (std::int64_t ky = ky0; ky < ky1; ++ky)
    for (std::int64_t kx = kx0; kx < kx1; ++kx) {
      std::memcpy(&xv, a.x + base + (ky * a.d_h * a.in_w + kx * a.d_w) * C + c, sizeof xv);
      std::memcpy(&wv, a.filter + (ky * a.k_w + kx) * C + c, sizeof wv);
      acc += xv * wv;
    }
  if (a.bias) {
    std::memcpy(&wv, a.bias + c, sizeof wv);
    acc += wv;
  }
  // NaN passes through both bounds, as with std::max/std::min.
  const V vlo = V{} + a.min, vhi = V{} + a.max;
  acc = acc < vlo ? vlo : acc;
  acc = acc > vhi ? vhi : acc;
  std::memcpy(o + c, &acc, sizeof acc);
}

// One output pixel, all channels, over its valid taps: the general path (borders, other filter
// sizes, fewer channels than a vector V holds).
template <class V>
inline __attribute__((always_inline)) void pixel(const DepthwiseRows& a, std::int64_t n,
                                                 std::int64_t y0, std::int64_t ky0,
                                                 std::int64_t ky1, std::int64_t ox) {
  const std::int64_t C = a.channels;
  const std::int64_t x0 = ox * a.s_w - a.pad_left;
  std::int64_t kx0 = 0, kx1 = a.k_w;
  while (kx0 < kx1 && x0 + kx0 * a.d_w < 0) ++kx0;
  while (kx1 > kx0 && x0 + (kx1 - 1) * a.d_w >= a.in_w) --kx1;
  float* o = a.out + ((n * a.out_h + (y0 + a.pad_top) / a.s_h) * a.out_w + ox) * C;
  // The window's top-left corner may lie in the padding: only offsets of valid taps are used.
  const std::int64_t base = ((n * a.in_h + y0) * a.in_w + x0) * C;
  // A last partial block is done as the full block that ends at C: it computes a few channels
  // twice, to the same values, instead of running them one at a time.
  if (constexpr std::int64_t L = lanes_of<V>; C >= L) {
    for (std::int64_t c = 0; c < C; c += L)
      pixel_block<V>(a, base, ky0, ky1, kx0, kx1, std::min(c, C - L), o);
    return;
  }
  if (C >= 8) {
    for (std::int64_t c = 0; c < C; c += 8)
      pixel_block<f32x8>(a, base, ky0, ky1, kx0, kx1, std::min(c, C - 8), o);
    return;
  }
  for (std::int64_t c = 0; c < C; ++c) {
    float acc = 0.f;
    for (std::int64_t ky = ky0; ky < ky1; ++ky)
      for (std::int64_t kx = kx0; kx < kx1; ++kx)
        acc += a.x[base + (ky * a.d_h * a.in_w + kx * a.d_w) * C + c] *
               a.filter[(ky * a.k_w + kx) * C + c];
    if (a.bias) acc += a.bias[c];
    o[c] = std::min(std::max(acc, a.min), a.max);
  }
}

// Output pixels [ox0, ox1) of one row whose whole KH x KW window lies inside the input: the
// filter taps of a block of channels stay in registers while the block runs along the row: 9 or
// 25 vectors, which is why V is 8 lanes where there are 16 ymm registers (AVX2; 16 lanes spilled
// them and ran 2.7x slower here) and 16 where there are 32 zmm (AVX-512). Same summation order
// as pixel().
template <class V, int KH, int KW>
inline __attribute__((always_inline)) void interior(const DepthwiseRows& a, std::int64_t n,
                                                    std::int64_t y0, std::int64_t ox0,
                                                    std::int64_t ox1) {
  const std::int64_t C = a.channels;
  constexpr std::int64_t L = lanes_of<V>;
  const V vlo = V{} + a.min, vhi = V{} + a.max;
  float* orow = a.out + (n * a.out_h + (y0 + a.pad_top) / a.s_h) * a.out_w * C;
  const float* xrow = a.x + (n * a.in_h + y0) * a.in_w * C;
  for (std::int64_t c0 = 0; C >= L && c0 < C; c0 += L) {
    const std::int64_t c = std::min(c0, C - L);  // the last block ends at C, as in pixel()
    V w[KH * KW], bias = {};
#pragma GCC unroll 64
    for (int t = 0; t < KH * KW; ++t) std::memcpy(&w[t], a.filter + t * C + c, sizeof w[t]);
    if (a.bias) std::memcpy(&bias, a.bias + c, sizeof bias);
    for (std::int64_t ox = ox0; ox < ox1; ++ox) {
      const float* xp = xrow + (ox * a.s_w - a.pad_left) * C + c;
      V acc = {}, xv;
#pragma GCC unroll 16
      for (int ky = 0; ky < KH; ++ky)
#pragma GCC unroll 16
        for (int kx = 0; kx < KW; ++kx) {
          std::memcpy(&xv, xp + (ky * a.d_h * a.in_w + kx * a.d_w) * C, sizeof xv);
          acc += xv * w[ky * KW + kx];
        }
      if (a.bias) acc += bias;
      acc = acc < vlo ? vlo : acc;
      acc = acc > vhi ? vhi : acc;
      std::memcpy(orow + ox * C + c, &acc, sizeof acc);
    }
  }
  if (C < L)
    for (std::int64_t ox = ox0; ox < ox1; ++ox) pixel<V>(a, n, y0, 0, KH, ox);
}

// One output row (batch n, output row oy), with vectors of V.
template <class V>
inline __attribute__((always_inline)) void depthwise_row(const DepthwiseRows& a, std::size_t row) {
  const std::int64_t oy = static_cast<std::int64_t>(row) % a.out_h;
  const std::int64_t n = static_cast<std::int64_t>(row) / a.out_h;
  const std::int64_t y0 = oy * a.s_h - a.pad_top;
  std::int64_t ky0 = 0, ky1 = a.k_h;
  while (ky0 < ky1 && y0 + ky0 * a.d_h < 0) ++ky0;
  while (ky1 > ky0 && y0 + (ky1 - 1) * a.d_h >= a.in_h) --ky1;
  const bool fixed = (a.k_h == 3 && a.k_w == 3) || (a.k_h == 5 && a.k_w == 5);
  if (!fixed || ky0 != 0 || ky1 != a.k_h) {
    for (std::int64_t ox = 0; ox < a.out_w; ++ox) pixel<V>(a, n, y0, ky0, ky1, ox);
    return;
  }
  // Columns whose window is whole: ox * s_w - pad_left >= 0 and its last tap inside the row.
  const std::int64_t span = (a.k_w - 1) * a.d_w;
  std::int64_t ox0 = (a.pad_left + a.s_w - 1) / a.s_w;
  std::int64_t ox1 =
      a.in_w - 1 - span + a.pad_left >= 0 ? (a.in_w - 1 - span + a.pad_left) / a.s_w + 1 : 0;
  ox0 = std::min(ox0, a.out_w);
  ox1 = std::clamp(ox1, ox0, a.out_w);
  for (std::int64_t ox = 0; ox < ox0; ++ox) pixel<V>(a, n, y0, 0, a.k_h, ox);
  if (a.k_h == 3)
    interior<V, 3, 3>(a, n, y0, ox0, ox1);
  else
    interior<V, 5, 5>(a, n, y0, ox0, ox1);
  for (std::int64_t ox = ox1; ox < a.out_w; ++ox) pixel<V>(a, n, y0, 0, a.k_h, ox);
}

// One output row with the vectors this CPU does best, GCC's function multiversioning picking the
// version once (an ifunc): AVX-512 takes 16 lanes, AVX2 and the baseline 8.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target("arch=x86-64-v4"))) void row_for_cpu(const DepthwiseRows& a,
                                                           std::size_t row) {
  depthwise_row<f32x16>(a, row);
}
__attribute__((target("arch=x86-64-v3"))) void row_for_cpu(const DepthwiseRows& a,
                                                           std::size_t row) {
  depthwise_row<f32x8>(a, row);
}
__attribute__((target("default")))
#endif
void row_for_cpu(const DepthwiseRows& a, std::size_t row) {
  depthwise_row<f32x8>(a, row);
}

void row_task(void* context, std::size_t row) {
  row_for_cpu(*static_cast<const DepthwiseRows*>(context), row);
}

}  // namespace

void run_depthwise_rows(const DepthwiseRows& args, pthreadpool_t pool) {
  const std::size_t rows = static_cast<std::size_t>(args.batch * args.out_h);
  // Workers spin on after it (worker_spin.h).
  pthreadpool_parallelize_1d(pool, row_task, const_cast<DepthwiseRows*>(&args), rows, 0);
}

}  // namespace tfjsi::xnnpack
