// Helpers for the cpu kernel suites: nodes with attributes, random tensors, running a kernel
// through the registry (inline and on a 2-thread pool), and comparing against a reference.
#pragma once

#include <pthreadpool.h>

#include <QTest>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "backends/cpu/kernel.h"
#include "core/error.h"
#include "core/host_tensor.h"
#include "graph/ir.h"

namespace tfjsi::test {

using Ints = std::vector<std::int64_t>;

inline graph::Node make_node(std::string op,
                             std::map<std::string, graph::AttrValue, std::less<>> attrs = {}) {
  graph::Node n;
  n.name = "test/" + op;
  n.op = std::move(op);
  n.attrs = std::move(attrs);
  return n;
}

inline HostTensor tensor(Shape shape, const std::vector<float>& values) {
  HostTensor t = HostTensor::zeros(DType::Float32, std::move(shape));
  auto v = t.mutable_values<float>();
  if (v.size() != values.size()) throw std::logic_error("tensor(): wrong number of values");
  std::copy(values.begin(), values.end(), v.begin());
  return t;
}

inline HostTensor int_tensor(Shape shape, const std::vector<std::int32_t>& values) {
  HostTensor t = HostTensor::zeros(DType::Int32, std::move(shape));
  auto v = t.mutable_values<std::int32_t>();
  if (v.size() != values.size()) throw std::logic_error("int_tensor(): wrong number of values");
  std::copy(values.begin(), values.end(), v.begin());
  return t;
}

// Uniform values in [lo, hi), reproducible from the seed.
inline HostTensor random_tensor(Shape shape, std::uint32_t seed, float lo = -1.f, float hi = 1.f) {
  HostTensor t = HostTensor::zeros(DType::Float32, std::move(shape));
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  for (float& v : t.mutable_values<float>()) v = dist(gen);
  return t;
}

inline std::vector<float> values_of(const HostTensor& t) {
  auto v = t.values<float>();
  return {v.begin(), v.end()};
}

// A two-thread pool shared by the suite.
inline pthreadpool_t test_pool() {
  static pthreadpool_t pool = pthreadpool_create(2);
  return pool;
}

// Runs the registered kernel for node.op; `threaded` picks the pool or the inline path.
inline std::vector<HostTensor> run_all(const graph::Node& node,
                                       const std::vector<HostTensor>& inputs,
                                       bool threaded = true) {
  cpu::Kernel k = cpu::find_kernel(node.op);
  if (!k) throw std::runtime_error("no cpu kernel registered for " + node.op);
  const cpu::KernelContext ctx{node, inputs, threaded ? test_pool() : nullptr};
  return k(ctx);
}

inline HostTensor run(const graph::Node& node, const std::vector<HostTensor>& inputs,
                      bool threaded = true) {
  auto out = run_all(node, inputs, threaded);
  if (out.empty()) throw std::runtime_error(node.op + " returned no outputs");
  return out[0];
}

// Checks shape and values: |got - want| <= tol * max(1, |want|) everywhere (NaN must match NaN).
inline bool close(const HostTensor& got, const Shape& shape, const std::vector<float>& want,
                  float tol, std::string& why) {
  if (got.shape != shape) {
    why = "shape " + shape_to_string(got.shape) + ", want " + shape_to_string(shape);
    return false;
  }
  if (got.dtype != DType::Float32) {
    why = "dtype is not float32";
    return false;
  }
  auto g = got.values<float>();
  if (g.size() != want.size()) {
    why = "size mismatch";
    return false;
  }
  for (std::size_t i = 0; i < want.size(); ++i) {
    const float w = want[i], v = g[i];
    if (std::isnan(w) && std::isnan(v)) continue;
    if (std::isinf(w) && v == w) continue;
    if (!(std::fabs(v - w) <= tol * std::max(1.f, std::fabs(w)))) {
      why = "element " + std::to_string(i) + ": got " + std::to_string(v) + ", want " +
            std::to_string(w);
      return false;
    }
  }
  return true;
}

#define EXPECT_CLOSE(got, shape, want, tol, label)                  \
  do {                                                              \
    std::string why_;                                               \
    if (!::tfjsi::test::close((got), (shape), (want), (tol), why_)) \
      QFAIL((std::string(label) + ": " + why_).c_str());            \
  } while (0)

// Expects `f` to throw ModelError whose message contains `needle`.
template <class F>
bool throws_model_error(const F& f, const std::string& needle, std::string& why) {
  try {
    f();
  } catch (const ModelError& e) {
    if (std::string(e.what()).find(needle) != std::string::npos) return true;
    why = std::string("message lacks '") + needle + "': " + e.what();
    return false;
  } catch (const std::exception& e) {
    why = std::string("threw another exception: ") + e.what();
    return false;
  }
  why = "did not throw";
  return false;
}

#define EXPECT_MODEL_ERROR(expr, needle)                                           \
  do {                                                                             \
    std::string why_;                                                              \
    if (!::tfjsi::test::throws_model_error([&] { (void)(expr); }, (needle), why_)) \
      QFAIL(why_.c_str());                                                         \
  } while (0)

}  // namespace tfjsi::test
