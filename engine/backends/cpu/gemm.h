// Single-precision matrix multiply C = A * B (M x K times K x N), then an optional per-column bias
// and activation. Cache-blocked: B is packed into panels of 16 columns, A is read in blocks of
// rows (straight from memory when it is row-major, else gathered: transposed A, convolution
// patches), and a 6 x 16 register-tiled micro-kernel does the work. Tiles run on the pool.
#pragma once

#include <pthreadpool.h>

#include <cstdint>
#include <functional>

#include "backends/cpu/fused_activation.h"

namespace tfjsi::cpu {

struct GemmA {
  // A(m, k) = data[m * ld + k], or data[k * ld + m] when transposed.
  const float* data = nullptr;
  std::int64_t ld = 0;
  bool transposed = false;
  // When set, used instead of `data`: writes rows [m0, m0 + rows) and columns [k0, k0 + kc) of A
  // to dst, row after row (row stride kc). Called from pool threads: it must not throw.
  std::function<void(std::int64_t m0, std::int64_t rows, std::int64_t k0, std::int64_t kc,
                     float* dst)>
      gather;
};

struct GemmB {
  // B(k, n) = data[k * ld + n], or data[n * ld + k] when transposed.
  const float* data = nullptr;
  std::int64_t ld = 0;
  bool transposed = false;
};

// C(m, n) = epilogue(sum_k A(m, k) B(k, n)), C row-major with row stride ldc. The epilogue's
// bias and alpha are indexed by n. `pool` may be null.
void gemm(std::int64_t m, std::int64_t n, std::int64_t k, const GemmA& a, const GemmB& b, float* c,
          std::int64_t ldc, const Epilogue& epilogue, pthreadpool_t pool);

}  // namespace tfjsi::cpu
