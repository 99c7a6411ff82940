// Shared by the gl suites: one gl backend on the headless EGL path, and running a node on gl and on
// the cpu kernels (the ground truth) with the same inputs.
#pragma once

#include <QtTest>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "backends/all_backends.h"
#include "backends/cpu/kernel.h"
#include "backends/gl/gl_backend.h"
#include "graph/ir.h"
#include "runtime/engine.h"
#include "runtime/flags.h"
#include "support/kernel_inputs.h"

namespace tfjsi::test {

// The gl backend and its flags, started once per suite.
struct GlFixture {
  std::unique_ptr<gl::GlBackend> gl = std::make_unique<gl::GlBackend>();
  runtime::Flags flags;
  GlFixture() {
    flags.define("prod", false, "");
    flags.define("debug", false, "");
    // Kernel suites compile from source: the user's program cache is not theirs to fill.
    gl->set_program_cache_dir({});
    gl->declare_flags(flags);
  }
  void set_fp16(bool on) { flags.set_value("gl.float32_enabled", !on); }

  std::vector<HostTensor> run_gl_all(const graph::Node& node,
                                     const std::vector<HostTensor>& inputs) {
    std::vector<runtime::TensorView> views;
    for (const HostTensor& h : inputs) views.push_back({gl->upload(h), h.dtype, h.shape});
    runtime::RunContext ctx{nullptr, flags};
    std::vector<HostTensor> outs;
    for (const auto& v : gl->run(node, views, ctx)) outs.push_back(gl->download(v));
    return outs;
  }

  HostTensor run_gl(const graph::Node& node, const std::vector<HostTensor>& inputs) {
    std::vector<runtime::TensorView> views;
    for (const HostTensor& h : inputs) views.push_back({gl->upload(h), h.dtype, h.shape});
    runtime::RunContext ctx{nullptr, flags};
    auto out = gl->run(node, views, ctx);
    if (out.size() != 1) throw std::runtime_error("expected one output");
    return gl->download(out[0]);
  }
};

// An Engine with every backend and gl active (not the user's program cache), its log collected.
struct GlEngine {
  runtime::Engine engine;
  gl::GlBackend* gl = nullptr;
  std::vector<std::string> log;
  GlEngine() {
    backends::add_all_backends(engine);
    gl = dynamic_cast<gl::GlBackend*>(engine.find_backend("gl"));
    if (!gl) throw std::runtime_error("no gl backend registered");
    gl->set_program_cache_dir({});
    engine.set_backend("gl");
    engine.set_log_sink([this](std::string_view line) { log.emplace_back(line); });
  }
  std::string warnings() const {
    std::string all;
    for (const auto& l : log) all += l + "\n";
    return all;
  }
};

inline std::vector<HostTensor> run_cpu_all(const graph::Node& node,
                                           const std::vector<HostTensor>& inputs) {
  cpu::Kernel k = cpu::find_kernel(node.op);
  if (!k) throw std::runtime_error("no cpu kernel for " + node.op);
  cpu::KernelContext ctx{node, inputs, nullptr};
  return k(ctx);
}

inline HostTensor run_cpu(const graph::Node& node, const std::vector<HostTensor>& inputs) {
  return run_cpu_all(node, inputs).at(0);
}

// fp32: 1e-4 of the output's magnitude. fp16: textures keep 11 significant bits and Mesa
// truncates, so each stored value is off by up to 2^-10 relative; inputs, weights and output are
// each stored once while shaders sum in fp32, and sums of K random-sign terms grow their error
// like sqrt(K) times the terms' size (K <= ~300 here): 1e-2 of the output's magnitude covers it
// with margin, while any indexing bug moves values by O(1).
inline double tolerance(bool fp16) {
  return fp16 ? 1e-2 : 1e-4;
}

// Fails the test (with the first differing element) unless gl matches cpu.
inline void expect_close(const HostTensor& gl_out, const HostTensor& cpu_out, bool fp16,
                         const std::string& what) {
  QVERIFY2(gl_out.shape == cpu_out.shape, (what + ": gl shape " + shape_to_string(gl_out.shape) +
                                           " vs cpu " + shape_to_string(cpu_out.shape))
                                              .c_str());
  const auto g = gl_out.values<float>();
  const auto c = cpu_out.values<float>();
  double scale = 1.0;
  for (float v : c)
    if (std::isfinite(v)) scale = std::max(scale, static_cast<double>(std::fabs(v)));
  const double tol = tolerance(fp16) * scale;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const bool both_nan = std::isnan(g[i]) && std::isnan(c[i]);
    if (both_nan) continue;
    const double err = std::fabs(static_cast<double>(g[i]) - static_cast<double>(c[i]));
    if (!(err <= tol))
      QFAIL((what + ": element " + std::to_string(i) + " gl " + std::to_string(g[i]) + " cpu " +
             std::to_string(c[i]) + " (tolerance " + std::to_string(tol) + ")")
                .c_str());
  }
}

}  // namespace tfjsi::test
