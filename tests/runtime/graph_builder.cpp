#include "runtime/graph_builder.h"

#include <stdexcept>

#include "backends/cpu/cpu_backend.h"
#include "core/error.h"

namespace tfjsi::test {

graph::TensorRef out(graph::TensorRef ref, int output) {
  return {ref.node, output};
}

graph::TensorRef GraphBuilder::add(std::string name, std::string op,
                                   std::vector<graph::TensorRef> inputs,
                                   std::map<std::string, graph::AttrValue, std::less<>> attrs) {
  graph::Node n;
  n.name = std::move(name);
  n.op = std::move(op);
  n.inputs = std::move(inputs);
  n.attrs = std::move(attrs);
  g.nodes.push_back(std::move(n));
  return {static_cast<int>(g.nodes.size()) - 1, 0};
}

graph::TensorRef GraphBuilder::placeholder(std::string name, DType dtype,
                                           std::vector<std::int64_t> shape) {
  auto r = add(name, "Placeholder");
  g.inputs.push_back({std::move(name), r, dtype, PartialShape::of(std::move(shape))});
  return r;
}

graph::TensorRef GraphBuilder::scalar_const(std::string name, float v) {
  auto r = add(std::move(name), "Const");
  g.nodes[r.node].value = floats({}, {v});
  return r;
}

graph::TensorRef GraphBuilder::int_const(std::string name, std::int32_t v) {
  auto r = add(std::move(name), "Const");
  g.nodes[r.node].value = ints({}, {v});
  return r;
}

graph::TensorRef GraphBuilder::vector_const(std::string name, std::vector<float> v) {
  auto r = add(std::move(name), "Const");
  const auto n = static_cast<std::int64_t>(v.size());
  g.nodes[r.node].value = floats({n}, std::move(v));
  return r;
}

void GraphBuilder::control(const graph::TensorRef& node, const graph::TensorRef& from) {
  g.nodes[node.node].control_inputs.push_back(from.node);
}

void GraphBuilder::set_input(const graph::TensorRef& node, int k, graph::TensorRef from) {
  g.nodes[node.node].inputs.at(k) = from;
}

void GraphBuilder::output(std::string name, graph::TensorRef ref) {
  g.outputs.push_back({std::move(name), ref, std::nullopt, PartialShape::unknown()});
}

graph::Graph GraphBuilder::take() {
  g.rebuild_index();
  return std::move(g);
}

HostTensor floats(std::vector<std::int64_t> shape, std::vector<float> values) {
  HostTensor t = HostTensor::zeros(DType::Float32, std::move(shape));
  if (static_cast<std::int64_t>(values.size()) != t.num_elements())
    throw std::logic_error("floats(): count does not match shape");
  std::copy(values.begin(), values.end(), t.mutable_values<float>().begin());
  return t;
}

HostTensor ints(std::vector<std::int64_t> shape, std::vector<std::int32_t> values) {
  HostTensor t = HostTensor::zeros(DType::Int32, std::move(shape));
  if (static_cast<std::int64_t>(values.size()) != t.num_elements())
    throw std::logic_error("ints(): count does not match shape");
  std::copy(values.begin(), values.end(), t.mutable_values<std::int32_t>().begin());
  return t;
}

std::vector<float> float_values(const HostTensor& t) {
  if (t.dtype != DType::Float32) throw std::logic_error("float_values() of a non-float tensor");
  auto v = t.values<float>();
  return {v.begin(), v.end()};
}

std::vector<std::int32_t> int_values(const HostTensor& t) {
  if (t.dtype != DType::Int32) throw std::logic_error("int_values() of a non-int tensor");
  auto v = t.values<std::int32_t>();
  return {v.begin(), v.end()};
}

namespace {

enum class BinOp { Add, Mul, Less };

template <class T, BinOp op>
HostTensor binary_typed(const HostTensor& a, const HostTensor& b) {
  const HostTensor& big = a.num_elements() >= b.num_elements() ? a : b;
  HostTensor out = HostTensor::zeros(op == BinOp::Less ? DType::Bool : a.dtype, big.shape);
  const auto av = a.values<T>();
  const auto bv = b.values<T>();
  for (std::int64_t i = 0; i < big.num_elements(); ++i) {
    const T x = av[i % a.num_elements()];
    const T y = bv[i % b.num_elements()];
    if constexpr (op == BinOp::Less)
      out.mutable_values<std::uint8_t>()[i] = x < y;
    else if constexpr (op == BinOp::Add)
      out.mutable_values<T>()[i] = x + y;
    else
      out.mutable_values<T>()[i] = x * y;
  }
  return out;
}

template <BinOp op>
std::vector<HostTensor> binary(const cpu::KernelContext& ctx) {
  const HostTensor& a = ctx.inputs[0];
  const HostTensor& b = ctx.inputs[1];
  // Broadcasting of a trailing block only (a scalar, or [3] against [2,3]).
  const auto big = std::max(a.num_elements(), b.num_elements());
  if (a.dtype != b.dtype || a.num_elements() == 0 || b.num_elements() == 0 ||
      big % a.num_elements() != 0 || big % b.num_elements() != 0)
    throw ModelError("node '" + ctx.node.name + "': operands do not match");
  if (a.dtype == DType::Int32) return {binary_typed<std::int32_t, op>(a, b)};
  return {binary_typed<float, op>(a, b)};
}

std::vector<HostTensor> double_it(const cpu::KernelContext& ctx) {
  HostTensor out = HostTensor::zeros(DType::Float32, ctx.inputs[0].shape);
  auto in = ctx.inputs[0].values<float>();
  for (std::size_t i = 0; i < in.size(); ++i) out.mutable_values<float>()[i] = in[i] * 2;
  return {out};
}

std::vector<HostTensor> relu(const cpu::KernelContext& ctx) {
  HostTensor out = HostTensor::zeros(DType::Float32, ctx.inputs[0].shape);
  auto in = ctx.inputs[0].values<float>();
  for (std::size_t i = 0; i < in.size(); ++i)
    out.mutable_values<float>()[i] = in[i] > 0 ? in[i] : 0;
  return {out};
}

}  // namespace

void add_test_kernels(runtime::Engine& engine) {
  // The reference backend is cpu in every build (backends/all_backends.h).
  auto& reference = static_cast<cpu::CpuBackend&>(engine.reference_backend());
  reference.override_kernel("T_Add", binary<BinOp::Add>);
  reference.override_kernel("T_Mul", binary<BinOp::Mul>);
  reference.override_kernel("T_Less", binary<BinOp::Less>);
  reference.override_kernel("T_Double", double_it);
  reference.override_kernel("T_Relu", relu);
}

}  // namespace tfjsi::test
