// Building tensors and nodes by hand and running one cpu kernel, for the tensor-op suites.
#pragma once

#include <QtTest>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "backends/cpu/kernel.h"
#include "core/error.h"
#include "graph/ir.h"

namespace tfjsi::test::tensor {

// The message of the ModelError `f` throws ("" when it does not throw).
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ModelError& e) {
    return e.what();
  }
  return {};
}

inline HostTensor f32(Shape shape, std::vector<float> v) {
  HostTensor t = HostTensor::zeros(DType::Float32, std::move(shape));
  if (static_cast<std::int64_t>(v.size()) != t.num_elements())
    throw std::logic_error("f32: value count does not match the shape");
  std::copy(v.begin(), v.end(), t.mutable_values<float>().begin());
  return t;
}

inline HostTensor i32(Shape shape, std::vector<std::int32_t> v) {
  HostTensor t = HostTensor::zeros(DType::Int32, std::move(shape));
  if (static_cast<std::int64_t>(v.size()) != t.num_elements())
    throw std::logic_error("i32: value count does not match the shape");
  std::copy(v.begin(), v.end(), t.mutable_values<std::int32_t>().begin());
  return t;
}

inline HostTensor b8(Shape shape, std::vector<int> v) {
  HostTensor t = HostTensor::zeros(DType::Bool, std::move(shape));
  if (static_cast<std::int64_t>(v.size()) != t.num_elements())
    throw std::logic_error("b8: value count does not match the shape");
  auto o = t.mutable_values<std::uint8_t>();
  for (std::size_t i = 0; i < v.size(); ++i) o[i] = v[i] ? 1 : 0;
  return t;
}

inline HostTensor scalar_i(std::int32_t v) {
  return i32({}, {v});
}
inline HostTensor scalar_f(float v) {
  return f32({}, {v});
}

// 0, 1, 2, ... scaled and shifted, for inputs whose exact values do not matter.
inline HostTensor iota_f(Shape shape, float scale = 1.0f, float shift = 0.0f) {
  HostTensor t = HostTensor::zeros(DType::Float32, std::move(shape));
  auto o = t.mutable_values<float>();
  for (std::size_t i = 0; i < o.size(); ++i) o[i] = static_cast<float>(i) * scale + shift;
  return t;
}

inline graph::Node make_node(std::string op,
                             std::map<std::string, graph::AttrValue, std::less<>> attrs = {}) {
  graph::Node n;
  n.name = "test/" + op;
  n.op = std::move(op);
  n.attrs = std::move(attrs);
  return n;
}

// Runs the registered cpu kernel for node.op on `inputs` (inline, no pool).
inline std::vector<HostTensor> run(const graph::Node& node, std::vector<HostTensor> inputs,
                                   pthreadpool_t pool = nullptr) {
  cpu::Kernel k = cpu::find_kernel(node.op);
  if (!k) throw std::runtime_error("no cpu kernel registered for " + node.op);
  cpu::KernelContext ctx{node, inputs, pool};
  return k(ctx);
}

inline HostTensor run1(const std::string& op, std::vector<HostTensor> inputs,
                       std::map<std::string, graph::AttrValue, std::less<>> attrs = {}) {
  auto out = run(make_node(op, std::move(attrs)), std::move(inputs));
  if (out.size() != 1) throw std::runtime_error(op + ": expected one output");
  return out.front();
}

template <class T>
std::vector<T> values(const HostTensor& t) {
  auto v = t.values<T>();
  return {v.begin(), v.end()};
}

inline std::vector<float> fvals(const HostTensor& t) {
  return values<float>(t);
}
inline std::vector<std::int32_t> ivals(const HostTensor& t) {
  return values<std::int32_t>(t);
}
inline std::vector<int> bvals(const HostTensor& t) {
  std::vector<int> r;
  for (auto v : t.values<std::uint8_t>()) r.push_back(v);
  return r;
}

inline QString describe(const std::vector<float>& v) {
  QStringList s;
  for (float x : v) s << QString::number(x);
  return "[" + s.join(",") + "]";
}

// Element i of the broadcast of `t` onto `out_shape` (NumPy rules), computed by plain index math:
// the reference the broadcasting tests compare against.
template <class T>
T broadcast_at(const HostTensor& t, const Shape& out_shape, std::int64_t i) {
  const auto rank = out_shape.size();
  std::vector<std::int64_t> idx(rank);
  for (std::size_t d = rank; d-- > 0;) {
    idx[d] = i % out_shape[d];
    i /= out_shape[d];
  }
  std::int64_t off = 0;
  const std::size_t lead = rank - t.shape.size();
  for (std::size_t d = 0; d < t.shape.size(); ++d) {
    const std::int64_t k = t.shape[d] == 1 ? 0 : idx[lead + d];
    off = off * t.shape[d] + k;
  }
  return t.values<T>()[static_cast<std::size_t>(off)];
}

}  // namespace tfjsi::test::tensor

#define EXPECT_SHAPE(t, ...) QCOMPARE((t).shape, (tfjsi::Shape{__VA_ARGS__}))

#define EXPECT_FLOATS(t, ...)                                                               \
  do {                                                                                      \
    const std::vector<float> got_ = tfjsi::test::tensor::fvals(t);                          \
    const std::vector<float> want_{__VA_ARGS__};                                            \
    QCOMPARE(got_.size(), want_.size());                                                    \
    for (std::size_t i_ = 0; i_ < want_.size(); ++i_)                                       \
      if (got_[i_] != want_[i_] && !(std::isnan(want_[i_]) && std::isnan(got_[i_])) &&      \
          !(std::abs(got_[i_] - want_[i_]) <= 1e-5f * std::max(1.0f, std::abs(want_[i_])))) \
        QFAIL(qPrintable(QString("element %1: got %2, want %3; all: %4")                    \
                             .arg(i_)                                                       \
                             .arg(got_[i_])                                                 \
                             .arg(want_[i_])                                                \
                             .arg(tfjsi::test::tensor::describe(got_))));                   \
  } while (0)

#define EXPECT_INTS(t, ...) \
  QCOMPARE(tfjsi::test::tensor::ivals(t), (std::vector<std::int32_t>{__VA_ARGS__}))
#define EXPECT_BOOLS(t, ...) \
  QCOMPARE(tfjsi::test::tensor::bvals(t), (std::vector<int>{__VA_ARGS__}))

// The call must throw ModelError whose message names the node.
#define EXPECT_MODEL_ERROR(expr)                                                      \
  do {                                                                                \
    bool thrown_ = false;                                                             \
    try {                                                                             \
      (void)(expr);                                                                   \
    } catch (const tfjsi::ModelError& e_) {                                           \
      thrown_ = true;                                                                 \
      QVERIFY2(std::string(e_.what()).find("test/") != std::string::npos, e_.what()); \
    }                                                                                 \
    QVERIFY2(thrown_, "expected a ModelError");                                       \
  } while (0)
