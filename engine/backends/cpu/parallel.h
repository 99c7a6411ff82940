// Parallel loops on the kernel's pthreadpool. With no pool (or one item) the loop runs inline.
// The body must not throw: pthreadpool's workers cannot carry an exception back, so kernels
// validate everything before they start a parallel loop.
#pragma once

#include <pthreadpool.h>

#include <cstddef>
#include <cstdint>

namespace tfjsi::cpu {

// Workers sleep as soon as a loop ends instead of spinning for the next one: between loops the
// calling thread runs the serial parts of the graph, and on a machine with as many busy threads
// as cores a spinning worker takes its core away (blazeface on 2 cores: 2 threads were 1.5-4.7x
// slower than 1).
inline constexpr std::uint32_t kPoolFlags = PTHREADPOOL_FLAG_YIELD_WORKERS;

// The pool, or null when `work` (about one unit per multiply-add or element touched) is too
// small for waking the other threads to pay off.
inline pthreadpool_t pool_for_work(pthreadpool_t pool, double work) {
  constexpr double kMinParallelWork = 32768;
  return work < kMinParallelWork ? nullptr : pool;
}

// Calls body(i) for i in [0, n).
template <class Body>
void parallel_for(pthreadpool_t pool, std::size_t n, const Body& body) {
  if (!pool || n <= 1 || pthreadpool_get_threads_count(pool) <= 1) {
    for (std::size_t i = 0; i < n; ++i) body(i);
    return;
  }
  pthreadpool_parallelize_1d(
      pool, [](void* ctx, std::size_t i) { (*static_cast<const Body*>(ctx))(i); },
      const_cast<Body*>(&body), n, kPoolFlags);
}

// Calls body(i, j) for i in [0, n0), j in [0, n1).
template <class Body>
void parallel_for_2d(pthreadpool_t pool, std::size_t n0, std::size_t n1, const Body& body) {
  if (!pool || n0 * n1 <= 1 || pthreadpool_get_threads_count(pool) <= 1) {
    for (std::size_t i = 0; i < n0; ++i)
      for (std::size_t j = 0; j < n1; ++j) body(i, j);
    return;
  }
  pthreadpool_parallelize_2d(
      pool, [](void* ctx, std::size_t i, std::size_t j) { (*static_cast<const Body*>(ctx))(i, j); },
      const_cast<Body*>(&body), n0, n1, kPoolFlags);
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
