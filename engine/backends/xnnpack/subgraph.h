// Partitions of a plan as XNNPACK subgraph runtimes (xnn_define_* / xnn_create_runtime_v2 /
// xnn_invoke_runtime, as TFLite's XNNPACK delegate does): which nodes a subgraph can take, and
// defining them. A runtime plans the memory of the values inside it, fuses clamps into the node
// before them, and runs on the pool with workers spinning between its operators, sleeping only
// at its end. Numerics follow the operator path: the same XNNPACK operators with the same
// parameters (a convolution's bias added after the sum); depthwise convolutions with one filter
// per channel stay on the backend's own kernel (TF.js's summation order), between partitions.
#pragma once

#include <xnnpack.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/host_tensor.h"
#include "graph/ir.h"

namespace tfjsi::xnnpack {

// One node being checked (subgraph == nullptr) or defined into a subgraph.
struct SubgraphDef {
  explicit SubgraphDef(const graph::Node& n) : node(n) {}
  const graph::Node& node;
  xnn_subgraph_t subgraph = nullptr;
  // Per node input: its static shape, and its value when it is a weight (a Const), else null.
  std::vector<Shape> in_shapes;
  std::vector<const HostTensor*> consts;
  Shape out_shape;
  // Defining only: the value id of input k (a weight becomes a static value), of the output,
  // and new internal values; data that must live as long as the runtime.
  std::function<std::uint32_t(std::size_t)> input;
  std::uint32_t output = XNN_INVALID_VALUE_ID;
  std::function<std::uint32_t(const Shape&)> temp;
  std::function<std::uint32_t(const Shape&, std::vector<float>)> constant;
  // The same for data XNNPACK packs into its own buffers when the runtime is made (filters and
  // biases of convolutions and products), which is then freed: the runtime never reads it.
  std::function<std::uint32_t(const Shape&, std::vector<float>)> packed;
  double work = 0;  // multiply-adds (convolutions, products) or elements; set by the op

  bool checking() const { return subgraph == nullptr; }
  const HostTensor* weight(std::size_t k) const { return k < consts.size() ? consts[k] : nullptr; }
};

// Checks (or defines) the node; false when a subgraph cannot take it as planned.
bool define_subgraph_node(SubgraphDef& def);
// Reshape, Squeeze, ExpandDims: free views on the operator path, copies inside a runtime.
bool is_view_op(std::string_view op);
// The ops define_subgraph_node can define.
std::vector<std::string_view> subgraph_op_names();

}  // namespace tfjsi::xnnpack
