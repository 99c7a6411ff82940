// Shared by the xnnpack suites: one xnnpack backend on a small thread pool, running a node on it
// and on the cpu kernels (the ground truth) with the same inputs.
#pragma once

#include <pthreadpool.h>

#include <QtTest>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/kernel.h"
#include "backends/xnnpack/xnnpack_backend.h"
#include "graph/ir.h"
#include "runtime/flags.h"
#include "support/kernel_inputs.h"

namespace tfjsi::test {

struct XnnFixture {
  std::unique_ptr<xnnpack::XnnpackBackend> xnn = std::make_unique<xnnpack::XnnpackBackend>();
  runtime::Flags flags;
  pthreadpool_t pool = pthreadpool_create(2);  // two threads: the parallel paths run too

  XnnFixture() {
    flags.define("prod", false, "");
    flags.define("debug", false, "");
  }
  ~XnnFixture() {
    xnn.reset();
    pthreadpool_destroy(pool);
  }
  XnnFixture(const XnnFixture&) = delete;
  XnnFixture& operator=(const XnnFixture&) = delete;

  std::vector<HostTensor> run_all(const graph::Node& node, const std::vector<HostTensor>& inputs) {
    std::vector<runtime::TensorView> views;
    for (const HostTensor& h : inputs) views.push_back({xnn->upload(h), h.dtype, h.shape});
    runtime::RunContext ctx{pool, flags};
    auto out = xnn->run(node, views, ctx);
    std::vector<HostTensor> host;
    for (const auto& v : out) host.push_back(xnn->download(v));
    return host;
  }
  HostTensor run(const graph::Node& node, const std::vector<HostTensor>& inputs) {
    auto out = run_all(node, inputs);
    if (out.size() != 1) throw std::runtime_error("expected one output");
    return out[0];
  }
};

inline HostTensor run_cpu(const graph::Node& node, const std::vector<HostTensor>& inputs) {
  cpu::Kernel k = cpu::find_kernel(node.op);
  if (!k) throw std::runtime_error("no cpu kernel for " + node.op);
  cpu::KernelContext ctx{node, inputs, nullptr};
  auto out = k(ctx);
  return out.at(0);
}

// Fails the test (with the first differing element) unless xnnpack matches cpu within 1e-4 of
// the output's magnitude (at least 1).
inline void expect_close(const HostTensor& got, const HostTensor& want, const std::string& what) {
  QVERIFY2(got.shape == want.shape, (what + ": xnnpack shape " + shape_to_string(got.shape) +
                                     " vs cpu " + shape_to_string(want.shape))
                                        .c_str());
  QVERIFY2(got.dtype == want.dtype, (what + ": dtypes differ").c_str());
  if (got.dtype == DType::Int32) {
    const auto g = got.values<std::int32_t>();
    const auto c = want.values<std::int32_t>();
    for (std::size_t i = 0; i < c.size(); ++i)
      QVERIFY2(g[i] == c[i], (what + ": element " + std::to_string(i) + " differs").c_str());
    return;
  }
  const auto g = got.values<float>();
  const auto c = want.values<float>();
  double scale = 1.0;
  for (float v : c)
    if (std::isfinite(v)) scale = std::max(scale, static_cast<double>(std::fabs(v)));
  const double tol = 1e-4 * scale;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (std::isnan(g[i]) && std::isnan(c[i])) continue;
    const double err = std::fabs(static_cast<double>(g[i]) - static_cast<double>(c[i]));
    if (!(err <= tol))
      QFAIL((what + ": element " + std::to_string(i) + " xnnpack " + std::to_string(g[i]) +
             " cpu " + std::to_string(c[i]) + " (tolerance " + std::to_string(tol) + ")")
                .c_str());
  }
}

}  // namespace tfjsi::test
