// Parallel loops for the cpu kernels. The pthreadpool a kernel is given says how many threads it
// may use (null: run inline); the loops themselves run on work_pool's threads, which stay fast
// on a loaded machine (see work_pool.h). The body must not throw: a helper thread cannot carry an
// exception back, so kernels validate everything before they start a parallel loop.
#pragma once

#include <pthreadpool.h>

#include <cstddef>

#include "backends/cpu/work_pool.h"

namespace tfjsi::cpu {

// The pool, or null when `work` (about one unit per multiply-add or element touched) is too
// small for waking the other threads to pay off.
inline pthreadpool_t pool_for_work(pthreadpool_t pool, double work) {
  constexpr double kMinParallelWork = 32768;
  return work < kMinParallelWork ? nullptr : pool;
}

// Threads besides the caller that a loop on `pool` may use.
inline std::size_t helper_threads(pthreadpool_t pool) {
  const std::size_t threads = pool ? pthreadpool_get_threads_count(pool) : 1;
  return threads > 1 ? threads - 1 : 0;
}

// Calls body(i) for i in [0, n).
template <class Body>
void parallel_for(pthreadpool_t pool, std::size_t n, const Body& body) {
  run_parallel(helper_threads(pool), n, const_cast<Body*>(&body),
               [](void* ctx, std::size_t b, std::size_t e) {
                 const Body& f = *static_cast<const Body*>(ctx);
                 for (std::size_t i = b; i < e; ++i) f(i);
               });
}

// Calls body(i, j) for i in [0, n0), j in [0, n1).
template <class Body>
void parallel_for_2d(pthreadpool_t pool, std::size_t n0, std::size_t n1, const Body& body) {
  if (n1 == 0) return;
  parallel_for(pool, n0 * n1, [&](std::size_t ij) { body(ij / n1, ij % n1); });
}

// Splits [0, n) into about `chunks_per_thread` chunks per thread, each at least `min_chunk` long,
// and calls body(begin, end) for each: for element-wise loops too cheap to schedule one by one.
template <class Body>
void parallel_ranges(pthreadpool_t pool, std::size_t n, std::size_t min_chunk, const Body& body) {
  const std::size_t threads = pool ? pthreadpool_get_threads_count(pool) : 1;
  if (min_chunk == 0) min_chunk = 1;
  std::size_t chunks = threads <= 1 ? 1 : threads * 4;
  if (chunks > n / min_chunk) chunks = n / min_chunk;
  if (chunks <= 1) {
    if (n) body(std::size_t{0}, n);
    return;
  }
  const std::size_t step = (n + chunks - 1) / chunks;
  parallel_for(pool, (n + step - 1) / step, [&](std::size_t c) {
    const std::size_t begin = c * step;
    const std::size_t end = begin + step < n ? begin + step : n;
    body(begin, end);
  });
}

}  // namespace tfjsi::cpu
