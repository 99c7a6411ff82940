// What one convolution costs the gl backend, alone: a Conv2D or depthwise node of given shapes run
// warm many times, timed by the wall clock and by the process's CPU time (llvmpipe's threads are
// the process's, so on a machine shared with other work the CPU time moves far less than the
// wall). Each case also compares the gl output with cpu's kernel (max |diff| relative) and, with
// --flag NAME=VALUE given twice as A and B (--ab), the two gl outputs bit for bit: a kernel change
// that keeps the order and rounding of every product must leave every bit as it was.
//
// usage: gl_conv [--runs N] [--ab NAME=A,B] CASE...
//   CASE: conv:N,H,W,C:KH,KW,OC[:S[:same|valid]] or dw:N,H,W,C:KH,KW[:S[:same|valid]] or
//         tconv:N,H,W,CO:KH,KW,CI[:S[:same|valid]] (Conv2DBackpropInput of out_backprop NHWC)
//   e.g. conv:1,96,96,16:1,1,96  dw:1,96,96,32:3,3:2:same
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "backends/cpu/kernel.h"
#include "backends/gl/gl_backend.h"
#include "graph/ir.h"
#include "runtime/flags.h"

using namespace tfjsi;

namespace {

std::vector<std::int64_t> ints(const std::string& s) {
  std::vector<std::int64_t> v;
  std::stringstream ss(s);
  for (std::string t; std::getline(ss, t, ',');) v.push_back(std::stoll(t));
  return v;
}

std::vector<std::string> split(const std::string& s, char c) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string t; std::getline(ss, t, c);) v.push_back(t);
  return v;
}

HostTensor random(Shape s, std::uint32_t seed, float lo, float hi) {
  HostTensor t = HostTensor::zeros(DType::Float32, std::move(s));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  for (float& v : t.mutable_values<float>()) v = d(rng);
  return t;
}

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

struct Case {
  graph::Node node;
  std::vector<HostTensor> inputs;
  std::string name;
  double macs = 0;
};

Case parse(const std::string& text) {
  const auto p = split(text, ':');
  if (p.size() < 3) throw std::runtime_error("bad case " + text);
  const bool dw = p[0] == "dw";
  const auto x = ints(p[1]), k = ints(p[2]);
  const std::int64_t stride = p.size() > 3 ? std::stoll(p[3]) : 1;
  const std::string pad = p.size() > 4 && p[4] == "valid" ? "VALID" : "SAME";
  Case c;
  c.name = text;
  graph::Node& n = c.node;
  n.name = text;
  if (p[0] == "tconv") {
    // x is out_backprop [N,H,W,CO], k the filter's KH,KW,CI: the input gradient of a SAME
    // convolution of stride S, [N,H*S,W*S,CI].
    n.op = "Conv2DBackpropInput";
    for (int i = 0; i < 3; ++i) n.inputs.push_back({i, 0});
    n.attrs["T"] = graph::TypeAttr{"DT_FLOAT"};
    n.attrs["strides"] = std::vector<std::int64_t>{1, stride, stride, 1};
    n.attrs["padding"] = pad;
    n.outputs.push_back({DType::Float32, PartialShape::unknown()});
    HostTensor sizes = HostTensor::zeros(DType::Int32, {4});
    const std::int64_t dims[4] = {x[0], x[1] * stride, x[2] * stride, k[2]};
    for (int i = 0; i < 4; ++i) sizes.mutable_values<std::int32_t>()[i] = std::int32_t(dims[i]);
    c.inputs = {sizes, random({k[0], k[1], k[2], x[3]}, 2, -0.5f, 0.5f),
                random({x[0], x[1], x[2], x[3]}, 1, -1, 1)};
    c.macs = double(x[0] * x[1] * x[2] * x[3]) * double(k[0] * k[1] * k[2]);
    return c;
  }
  n.op = dw ? "FusedDepthwiseConv2dNative" : "_FusedConv2D";
  for (int i = 0; i < 3; ++i) n.inputs.push_back({i, 0});
  n.attrs["T"] = graph::TypeAttr{"DT_FLOAT"};
  n.attrs["strides"] = std::vector<std::int64_t>{1, stride, stride, 1};
  n.attrs["padding"] = pad;
  n.attrs["fused_ops"] = std::vector<std::string>{"BiasAdd", "Relu6"};
  n.attrs["num_args"] = std::int64_t{1};
  n.outputs.push_back({DType::Float32, PartialShape::unknown()});
  const Shape f = dw ? Shape{k[0], k[1], x[3], 1} : Shape{k[0], k[1], x[3], k[2]};
  const std::int64_t oc = dw ? x[3] : k[2];
  c.inputs = {random({x[0], x[1], x[2], x[3]}, 1, -1, 1), random(f, 2, -0.5f, 0.5f),
              random({oc}, 3, -1, 1)};
  const double oh = pad == "SAME" ? std::ceil(double(x[1]) / double(stride))
                                  : std::floor(double(x[1] - k[0]) / double(stride)) + 1;
  const double ow = pad == "SAME" ? std::ceil(double(x[2]) / double(stride))
                                  : std::floor(double(x[2] - k[1]) / double(stride)) + 1;
  c.macs = double(x[0]) * oh * ow * double(oc) * double(k[0] * k[1]) * (dw ? 1.0 : double(x[3]));
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 20;
  std::string ab_name;
  std::vector<std::string> ab_values;
  std::vector<Case> cases;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--runs" && i + 1 < argc) {
        runs = std::stoi(argv[++i]);
      } else if (a == "--ab" && i + 1 < argc) {
        const std::string v = argv[++i];
        ab_name = v.substr(0, v.find('='));
        ab_values = split(v.substr(v.find('=') + 1), ',');
      } else {
        cases.push_back(parse(a));
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gl_conv: %s\n", e.what());
    return 2;
  }
  if (ab_values.empty()) ab_values = {""};
  gl::GlBackend gl;
  runtime::Flags flags;
  flags.define("prod", false, "");
  flags.define("debug", false, "");
  gl.set_program_cache_dir({});
  gl.declare_flags(flags);
  if (const auto av = gl.availability(); !av.available) {
    std::fprintf(stderr, "gl_conv: gl unavailable: %s\n", av.reason.c_str());
    return 3;
  }
  std::printf(
      "| case | variant | wall ms/run (min of 3) | cpu ms/run | GMAC/s (wall) | err vs cpu |"
      " bits differing from first variant |\n|---|---|---:|---:|---:|---:|---:|\n");
  for (Case& c : cases) {
    cpu::KernelContext kctx{c.node, c.inputs, nullptr};
    const HostTensor want = cpu::find_kernel(c.node.op)(kctx)[0];
    std::vector<float> first;
    for (const std::string& v : ab_values) {
      if (!ab_name.empty()) flags.set(ab_name, v);
      std::vector<runtime::TensorView> views;
      for (const HostTensor& h : c.inputs) views.push_back({gl.upload(h), h.dtype, h.shape});
      runtime::RunContext ctx{nullptr, flags};
      HostTensor got = gl.download(gl.run(c.node, views, ctx)[0]);  // builds the program
      double best = 1e300, cpu_best = 1e300;
      for (int rep = 0; rep < 3; ++rep) {
        const double c0 = cpu_seconds();
        const auto t0 = std::chrono::steady_clock::now();
        for (int r = 0; r + 1 < runs; ++r) gl.run(c.node, views, ctx);
        got = gl.download(gl.run(c.node, views, ctx)[0]);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count() /
            runs;
        best = std::min(best, ms);
        cpu_best = std::min(cpu_best, (cpu_seconds() - c0) * 1e3 / runs);
      }
      double err = 0, scale = 1;
      const auto g = got.values<float>(), w = want.values<float>();
      for (std::size_t i = 0; i < w.size(); ++i) scale = std::max(scale, double(std::fabs(w[i])));
      for (std::size_t i = 0; i < w.size(); ++i)
        err = std::max(err, double(std::fabs(g[i] - w[i])));
      std::size_t differ = 0;
      if (first.empty()) {
        first.assign(g.begin(), g.end());
      } else {
        for (std::size_t i = 0; i < g.size(); ++i)
          differ += std::memcmp(&g[i], &first[i], sizeof(float)) != 0;
      }
      std::printf("| %s | %s | %.3f | %.3f | %.2f | %.2g | %zu |\n", c.name.c_str(),
                  ab_name.empty() ? "-" : (ab_name + "=" + v).c_str(), best, cpu_best,
                  c.macs / best * 1e-6, err / scale, differ);
      std::fflush(stdout);
    }
  }
  return 0;
}
