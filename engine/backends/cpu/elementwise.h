// The loops behind every elementwise kernel: unary maps, broadcast binary and ternary maps, split
// into contiguous runs and spread over the thread pool. The runs are plain pointer loops that the
// compiler vectorizes; GCC's -O2 cost model refuses most of them, so this header asks for -O3.
#pragma once

#include <cstdint>

#include "backends/cpu/broadcast.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("O3")
#endif

namespace tfjsi::cpu::tensor_ops {

template <class T, class R, class Op>
inline void run_unary(const T* __restrict x, R* __restrict o, std::int64_t n, Op op) {
  for (std::int64_t i = 0; i < n; ++i) o[i] = op(x[i]);
}

// One run of a binary op; sa/sb say whether each operand advances (1) or repeats (0).
template <class T, class R, class Op>
inline void run_binary(const T* __restrict a, std::int64_t sa, const T* __restrict b,
                       std::int64_t sb, R* __restrict o, std::int64_t n, Op op) {
  if (sa && sb) {
    for (std::int64_t i = 0; i < n; ++i) o[i] = op(a[i], b[i]);
  } else if (sb) {
    const T av = *a;
    for (std::int64_t i = 0; i < n; ++i) o[i] = op(av, b[i]);
  } else if (sa) {
    const T bv = *b;
    for (std::int64_t i = 0; i < n; ++i) o[i] = op(a[i], bv);
  } else {
    const R v = op(*a, *b);
    for (std::int64_t i = 0; i < n; ++i) o[i] = v;
  }
}

// acc[i] = op(acc[i], x[i]) over n elements, in parallel chunks.
template <class T, class Op>
void accumulate_into(pthreadpool_t pool, T* acc, const T* x, std::int64_t n, Op op) {
  parallel_for(pool, n, kElementwiseGrain, [&](std::int64_t b, std::int64_t e) {
    T* __restrict o = acc + b;
    const T* __restrict xp = x + b;
    for (std::int64_t i = 0; i < e - b; ++i) o[i] = op(o[i], xp[i]);
  });
}

// out[i] = op(x[i]) over n elements, in parallel chunks.
template <class T, class R, class Op>
void map_unary(pthreadpool_t pool, const T* x, R* out, std::int64_t n, Op op) {
  parallel_for(pool, n, kElementwiseGrain,
               [&](std::int64_t b, std::int64_t e) { run_unary(x + b, out + b, e - b, op); });
}

// out = op(a, b) with a and b broadcast onto p.out_shape.
template <class T, class R, class Op>
void map_binary(pthreadpool_t pool, const Broadcast<2>& p, const T* a, const T* b, R* out, Op op) {
  const std::int64_t sa = p.inner_stride(0), sb = p.inner_stride(1);
  parallel_for(pool, p.total, kElementwiseGrain, [&](std::int64_t begin, std::int64_t end) {
    walk_runs(p, begin, end,
              [&](std::int64_t pos, const std::array<std::int64_t, 2>& off, std::int64_t n) {
                run_binary(a + off[0], sa, b + off[1], sb, out + pos, n, op);
              });
  });
}

// out = c ? t : e with all three broadcast onto p.out_shape.
template <class T>
void map_select(pthreadpool_t pool, const Broadcast<3>& p, const std::uint8_t* c, const T* t,
                const T* e, T* out) {
  const std::int64_t sc = p.inner_stride(0), st = p.inner_stride(1), se = p.inner_stride(2);
  parallel_for(pool, p.total, kElementwiseGrain, [&](std::int64_t begin, std::int64_t end) {
    walk_runs(p, begin, end,
              [&](std::int64_t pos, const std::array<std::int64_t, 3>& off, std::int64_t n) {
                const std::uint8_t* __restrict cp = c + off[0];
                const T* __restrict tp = t + off[1];
                const T* __restrict ep = e + off[2];
                T* __restrict o = out + pos;
                for (std::int64_t i = 0; i < n; ++i) o[i] = cp[i * sc] ? tp[i * st] : ep[i * se];
              });
  });
}

// out = x broadcast onto p.out_shape (BroadcastTo, and filling padded regions).
template <class T>
void map_broadcast_copy(pthreadpool_t pool, const Broadcast<1>& p, const T* x, T* out) {
  const std::int64_t sx = p.inner_stride(0);
  parallel_for(pool, p.total, kElementwiseGrain, [&](std::int64_t begin, std::int64_t end) {
    walk_runs(p, begin, end,
              [&](std::int64_t pos, const std::array<std::int64_t, 1>& off, std::int64_t n) {
                const T* __restrict xp = x + off[0];
                T* __restrict o = out + pos;
                if (sx) {
                  for (std::int64_t i = 0; i < n; ++i) o[i] = xp[i];
                } else {
                  const T v = *xp;
                  for (std::int64_t i = 0; i < n; ++i) o[i] = v;
                }
              });
  });
}

}  // namespace tfjsi::cpu::tensor_ops

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif
