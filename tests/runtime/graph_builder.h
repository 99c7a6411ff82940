// Hand-built graphs and test-only cpu kernels for the runtime suites. The kernels have names no
// real op has (T_Add, ...), so the suites depend only on the executor, not on the kernel library.
#pragma once

#include <string>
#include <vector>

#include "backends/cpu/kernel.h"
#include "graph/ir.h"
#include "runtime/engine.h"

namespace tfjsi::test {

// Builds a Graph node by node, in the order added (which must be topological).
class GraphBuilder {
 public:
  // Adds a node and returns its output 0.
  graph::TensorRef add(std::string name, std::string op, std::vector<graph::TensorRef> inputs = {},
                       std::map<std::string, graph::AttrValue, std::less<>> attrs = {});
  graph::TensorRef placeholder(std::string name, DType dtype, std::vector<std::int64_t> shape);
  graph::TensorRef scalar_const(std::string name, float v);
  graph::TensorRef int_const(std::string name, std::int32_t v);
  graph::TensorRef vector_const(std::string name, std::vector<float> v);
  void control(const graph::TensorRef& node, const graph::TensorRef& from);
  // Rewires input `k` of `node` (for loop back edges added after the node).
  void set_input(const graph::TensorRef& node, int k, graph::TensorRef from);
  void output(std::string name, graph::TensorRef ref);
  graph::Graph take();

  graph::Graph g;
};

graph::TensorRef out(graph::TensorRef ref, int output);

HostTensor floats(std::vector<std::int64_t> shape, std::vector<float> values);
HostTensor ints(std::vector<std::int64_t> shape, std::vector<std::int32_t> values);
std::vector<float> float_values(const HostTensor& t);
std::vector<std::int32_t> int_values(const HostTensor& t);

// Registers T_Add, T_Mul (elementwise, float32 or int32; the smaller operand repeats),
// T_Less (-> bool), T_Double (x * 2) and T_Relu as cpu overrides.
void add_test_kernels(runtime::Engine& engine);

}  // namespace tfjsi::test
