#include "backends/cpu/gemm.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "backends/cpu/parallel.h"
#include "backends/cpu/simd.h"

namespace tfjsi::cpu {

namespace {

// Register tile: 6 rows x 16 columns = 12 eight-float accumulators, which with two B vectors
// and one broadcast fits the 16 AVX registers.
constexpr std::int64_t kMR = 6;
constexpr std::int64_t kNR = 16;
// Cache blocks: a 96 x 384 block of A (144 KB) stays in L2 while a 384 x 16 panel of B (24 KB)
// stays in L1. K is cut into equal blocks of at most kKC.
constexpr std::int64_t kMC = 96;
constexpr std::int64_t kKC = 384;
// Below this many rows of A the register tile would mostly compute padding: multiply row by row.
constexpr std::int64_t kGemvRows = 3;

// Computes one tile of C from kc steps of A rows (stride lda; mr of them valid) and a packed B
// panel (kNR floats per step; columns past nr are zero). With `accumulate` it adds to C.
TFJSI_HOT_CLONES
void micro_kernel(std::int64_t kc, const float* a, std::int64_t lda, std::int64_t mr,
                  const float* b, float* c, std::int64_t ldc, std::int64_t nr, bool accumulate) {
  // Rows past mr repeat the last valid row so every load stays inside A.
  const float* rows[kMR];
  for (std::int64_t i = 0; i < kMR; ++i) rows[i] = a + std::min(i, mr - 1) * lda;
  f32x8 acc[kMR][2] = {};
  for (std::int64_t p = 0; p < kc; ++p) {
    f32x8 b0, b1;
    vload(b0, b + p * kNR);
    vload(b1, b + p * kNR + 8);
#pragma GCC unroll 6
    for (std::int64_t i = 0; i < kMR; ++i) {
      const float av = rows[i][p];
      acc[i][0] += b0 * av;
      acc[i][1] += b1 * av;
    }
  }
  if (mr == kMR && nr == kNR) {
#pragma GCC unroll 6
    for (std::int64_t i = 0; i < kMR; ++i) {
      float* ci = c + i * ldc;
      if (accumulate) {
        f32x8 c0, c1;
        vload(c0, ci);
        vload(c1, ci + 8);
        acc[i][0] += c0;
        acc[i][1] += c1;
      }
      vstore(ci, acc[i][0]);
      vstore(ci + 8, acc[i][1]);
    }
    return;
  }
  float tile[kMR][kNR];
  for (std::int64_t i = 0; i < kMR; ++i) {
    vstore(tile[i], acc[i][0]);
    vstore(tile[i] + 8, acc[i][1]);
  }
  for (std::int64_t i = 0; i < mr; ++i) {
    float* ci = c + i * ldc;
    for (std::int64_t j = 0; j < nr; ++j) ci[j] = accumulate ? ci[j] + tile[i][j] : tile[i][j];
  }
}

// Packs B into panels of kNR columns: panel j holds, for each k, columns [j*kNR, j*kNR + kNR),
// zero-padded past n.
void pack_b(std::int64_t n, std::int64_t k, const GemmB& b, float* packed, std::int64_t panel) {
  float* dst = packed + panel * k * kNR;
  const std::int64_t n0 = panel * kNR, cols = std::min(kNR, n - n0);
  for (std::int64_t p = 0; p < k; ++p) {
    float* d = dst + p * kNR;
    if (!b.transposed) {
      const float* s = b.data + p * b.ld + n0;
      std::memcpy(d, s, static_cast<std::size_t>(cols) * sizeof(float));
    } else {
      for (std::int64_t j = 0; j < cols; ++j) d[j] = b.data[(n0 + j) * b.ld + p];
    }
    for (std::int64_t j = cols; j < kNR; ++j) d[j] = 0.f;
  }
}

// c[j] = sum_p a[p] B(p, j) for j in [j0, j1), B row-major: rows of B scaled and summed.
TFJSI_HOT_CLONES
void gemv_rows(std::int64_t k, const float* a, const float* b, std::int64_t ldb, float* c,
               std::int64_t j0, std::int64_t j1) {
  std::int64_t j = j0;
  for (; j + 4 * kF32x8 <= j1; j += 4 * kF32x8) {
    f32x8 acc[4] = {}, bv;
    for (std::int64_t p = 0; p < k; ++p) {
      const float* bp = b + p * ldb + j;
      for (int v = 0; v < 4; ++v) {
        vload(bv, bp + v * kF32x8);
        acc[v] += bv * a[p];
      }
    }
    for (int v = 0; v < 4; ++v) vstore(c + j + v * kF32x8, acc[v]);
  }
  for (; j < j1; ++j) {
    float acc = 0.f;
    for (std::int64_t p = 0; p < k; ++p) acc += a[p] * b[p * ldb + j];
    c[j] = acc;
  }
}

// c[j] = dot(a, row j of B^T) for j in [j0, j1), B stored transposed ([n][k]).
TFJSI_HOT_CLONES
void gemv_dots(std::int64_t k, const float* a, const float* bt, std::int64_t ldb, float* c,
               std::int64_t j0, std::int64_t j1) {
  for (std::int64_t j = j0; j < j1; ++j) {
    const float* row = bt + j * ldb;
    f32x8 acc = {}, av, bv;
    std::int64_t p = 0;
    for (; p + kF32x8 <= k; p += kF32x8) {
      vload(av, a + p);
      vload(bv, row + p);
      acc += av * bv;
    }
    float sum = 0.f;
    for (int v = 0; v < kF32x8; ++v) sum += acc[v];
    for (; p < k; ++p) sum += a[p] * row[p];
    c[j] = sum;
  }
}

// Few rows of A: each row times B, split over columns, without packing B.
void gemm_few_rows(std::int64_t m, std::int64_t n, std::int64_t k, const GemmA& a, const GemmB& b,
                   float* c, std::int64_t ldc, const Epilogue& epilogue, pthreadpool_t pool) {
  std::vector<float> row(static_cast<std::size_t>(k));
  const std::int64_t chunk = 64;
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t p = 0; p < k; ++p)
      row[static_cast<std::size_t>(p)] = a.transposed ? a.data[p * a.ld + i] : a.data[i * a.ld + p];
    float* ci = c + i * ldc;
    parallel_for(pool, static_cast<std::size_t>((n + chunk - 1) / chunk), [&](std::size_t t) {
      const std::int64_t j0 = static_cast<std::int64_t>(t) * chunk, j1 = std::min(n, j0 + chunk);
      if (b.transposed)
        gemv_dots(k, row.data(), b.data, b.ld, ci, j0, j1);
      else
        gemv_rows(k, row.data(), b.data, b.ld, ci, j0, j1);
      if (!epilogue.empty()) epilogue.apply(ci + j0, j0, j1 - j0);
    });
  }
}

// Rows [m0, m0 + rows), columns [k0, k0 + kc) of A: a pointer and row stride, straight into A
// when it is row-major, else copied into `scratch`.
const float* a_block(const GemmA& a, std::int64_t m0, std::int64_t rows, std::int64_t k0,
                     std::int64_t kc, std::vector<float>& scratch, std::int64_t& lda) {
  if (!a.gather && !a.transposed) {
    lda = a.ld;
    return a.data + m0 * a.ld + k0;
  }
  scratch.resize(static_cast<std::size_t>(rows * kc));
  float* dst = scratch.data();
  if (a.gather) {
    a.gather(m0, rows, k0, kc, dst);
  } else {
    for (std::int64_t p = 0; p < kc; ++p) {
      const float* s = a.data + (k0 + p) * a.ld + m0;
      for (std::int64_t i = 0; i < rows; ++i) dst[i * kc + p] = s[i];
    }
  }
  lda = kc;
  return dst;
}

}  // namespace

void gemm(std::int64_t m, std::int64_t n, std::int64_t k, const GemmA& a, const GemmB& b, float* c,
          std::int64_t ldc, const Epilogue& epilogue, pthreadpool_t pool) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0) {
    for (std::int64_t i = 0; i < m; ++i) {
      std::fill_n(c + i * ldc, n, 0.f);
      if (!epilogue.empty()) epilogue.apply(c + i * ldc, 0, n);
    }
    return;
  }
  pool =
      pool_for_work(pool, static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k));
  if (m <= kGemvRows && !a.gather) {
    gemm_few_rows(m, n, k, a, b, c, ldc, epilogue, pool);
    return;
  }
  const std::int64_t panels = (n + kNR - 1) / kNR;
  std::vector<float> packed(static_cast<std::size_t>(panels * k * kNR));
  // Packing is a copy of B: cheap next to the multiply, and one fewer barrier on the pool.
  for (std::int64_t j = 0; j < panels; ++j) pack_b(n, k, b, packed.data(), j);

  // Split M into blocks and, when that gives too few tasks to keep every thread busy, N too.
  const std::int64_t threads =
      pool ? static_cast<std::int64_t>(pthreadpool_get_threads_count(pool)) : 1;
  const std::int64_t m_tiles = (m + kMC - 1) / kMC;
  std::int64_t n_tiles = 1;
  if (threads > 1 && m_tiles < 4 * threads)
    n_tiles = std::min(panels, (4 * threads + m_tiles - 1) / m_tiles);
  const std::int64_t panels_per_tile = (panels + n_tiles - 1) / n_tiles;
  n_tiles = (panels + panels_per_tile - 1) / panels_per_tile;

  parallel_for_2d(pool, static_cast<std::size_t>(m_tiles), static_cast<std::size_t>(n_tiles),
                  [&](std::size_t mt, std::size_t nt) {
                    thread_local std::vector<float> scratch;
                    const std::int64_t m0 = static_cast<std::int64_t>(mt) * kMC;
                    const std::int64_t rows = std::min(kMC, m - m0);
                    const std::int64_t j0 = static_cast<std::int64_t>(nt) * panels_per_tile;
                    const std::int64_t j1 = std::min(panels, j0 + panels_per_tile);
                    for (std::int64_t k0 = 0; k0 < k; k0 += kKC) {
                      const std::int64_t kc = std::min(kKC, k - k0);
                      std::int64_t lda = 0;
                      const float* ablock = a_block(a, m0, rows, k0, kc, scratch, lda);
                      const bool last = k0 + kc == k;
                      for (std::int64_t j = j0; j < j1; ++j) {
                        const float* bpanel = packed.data() + (j * k + k0) * kNR;
                        const std::int64_t n0 = j * kNR, nr = std::min(kNR, n - n0);
                        for (std::int64_t i = 0; i < rows; i += kMR) {
                          const std::int64_t mr = std::min(kMR, rows - i);
                          float* ctile = c + (m0 + i) * ldc + n0;
                          micro_kernel(kc, ablock + i * lda, lda, mr, bpanel, ctile, ldc, nr,
                                       k0 > 0);
                          if (last && !epilogue.empty())
                            for (std::int64_t r = 0; r < mr; ++r)
                              epilogue.apply(ctile + r * ldc, n0, nr);
                        }
                      }
                    }
                  });
}

}  // namespace tfjsi::cpu
