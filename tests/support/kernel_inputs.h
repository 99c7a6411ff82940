// Inputs and nodes for kernel suites that check a backend against the cpu kernels: seeded random
// tensors, small int tensors, and a bare node of an op.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/host_tensor.h"
#include "graph/ir.h"

namespace tfjsi::test {

// Random floats in [lo, hi), from a fixed seed per call site.
inline HostTensor random_tensor(Shape shape, std::uint32_t seed, float lo = -1.f, float hi = 1.f) {
  HostTensor t = HostTensor::zeros(DType::Float32, std::move(shape));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  for (float& v : t.mutable_values<float>()) v = d(rng);
  return t;
}

inline HostTensor int_tensor(std::vector<std::int32_t> values, Shape shape = {}) {
  if (shape.empty() && values.size() != 1) shape = {static_cast<std::int64_t>(values.size())};
  HostTensor t = HostTensor::zeros(DType::Int32, std::move(shape));
  auto dst = t.mutable_values<std::int32_t>();
  for (std::size_t i = 0; i < values.size(); ++i) dst[i] = values[i];
  return t;
}

// A float node of `op` reading inputs 0..num_inputs-1, with no attributes but T.
inline graph::Node make_node(std::string op, std::size_t num_inputs = 1) {
  graph::Node n;
  n.name = "test_" + op;
  n.op = std::move(op);
  for (std::size_t i = 0; i < num_inputs; ++i) n.inputs.push_back({static_cast<int>(i), 0});
  n.attrs["T"] = graph::TypeAttr{"DT_FLOAT"};
  n.outputs.push_back({DType::Float32, PartialShape::unknown()});
  return n;
}

}  // namespace tfjsi::test
