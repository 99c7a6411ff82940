// What XNNPACK's f32 fully-connected operator (its GEMM, what 1x1 convolutions and most of a
// convolution's time come down to) reaches on this machine: GFLOP/s on one thread and on every
// core, for four shapes of a mobile vision model's pointwise layers (M output pixels, K input and
// N output channels). Each figure is the median of 21 runs after one that warms the caches.
// Why it exists: bench/run.py states a nominal peak (cores x FMA units x lanes x clock); a shared
// VM's core rarely gives that, and a model's GFLOP/s is better read against what the library
// itself gets from the same core.
#include <pthreadpool.h>
#include <xnnpack.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Shape {
  std::size_t m, k, n;
};

double gflops(const Shape& s, pthreadpool_t pool) {
  std::vector<float> a(s.m * s.k, 0.5f), w(s.k * s.n, 0.01f), bias(s.n, 0.f), c(s.m * s.n);
  xnn_operator_t op = nullptr;
  if (xnn_create_fully_connected_nc_f32(s.k, s.n, s.k, s.n, w.data(), bias.data(), -INFINITY,
                                        INFINITY, 0, &op) != xnn_status_success)
    return 0;
  std::unique_ptr<xnn_operator, decltype(&xnn_delete_operator)> owned(op, xnn_delete_operator);
  if (xnn_setup_fully_connected_nc_f32(op, s.m, a.data(), c.data(), pool) != xnn_status_success)
    return 0;
  std::vector<double> t;
  for (int r = 0; r < 22; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    xnn_run_operator(op, pool);
    if (r > 0)
      t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return 2.0 * static_cast<double>(s.m * s.k * s.n) / t[t.size() / 2] / 1e9;
}

}  // namespace

int main() {
  if (xnn_initialize(nullptr) != xnn_status_success) {
    std::fprintf(stderr, "xnn_gemm: XNNPACK does not run on this CPU\n");
    return 3;
  }
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::unique_ptr<pthreadpool, decltype(&pthreadpool_destroy)> pool(pthreadpool_create(cores),
                                                                    pthreadpool_destroy);
  std::printf("XNNPACK f32 GEMM, GFLOP/s (median of 21 runs)\n%-22s %10s %10s\n", "M x K x N",
              "1 thread", (std::to_string(cores) + " threads").c_str());
  for (const Shape& s : {Shape{4096, 256, 256}, Shape{9216, 64, 384}, Shape{2304, 128, 128},
                         Shape{1024, 1024, 1024}}) {
    char name[64];
    std::snprintf(name, sizeof name, "%zu x %zu x %zu", s.m, s.k, s.n);
    std::printf("%-22s %10.1f %10.1f\n", name, gflops(s, nullptr), gflops(s, pool.get()));
  }
  return 0;
}
