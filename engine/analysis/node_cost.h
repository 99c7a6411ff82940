// What a node costs, from its shapes: floating-point operations (a multiply-add counts 2) and
// the bytes it reads and writes. One count for `tfjsi info`, the Properties dock, the graph's
// FLOPs colouring and bench's GFLOP/s. The rules, per op family:
//   Conv2D, Conv2DBackpropInput: 2 x output elements x KH x KW x input channels (the transposed
//     convolution: 2 x out_backprop elements x KH x KW x its output channels);
//   DepthwiseConv2dNative: 2 x output elements x KH x KW;
//   MatMul, BatchMatMul: 2 x output elements x the shared dimension;
//   fused nodes add one per output element for the bias and one for the activation;
//   MaxPool, AvgPool: output elements x window (padding not discounted);
//   reductions: input elements; Softmax, LogSoftmax: 5 per element (max, subtract, exp, sum,
//   divide); FusedBatchNorm: 2 per element; ResizeBilinear: 8 per output element (4 taps);
//   other element-wise ops (activations, arithmetic, comparisons): 1 per output element;
//   data movement (reshape, transpose, concat, gather, pad, ...) and control flow: 0.
// Bytes: every tensor input's and output's elements times the element size.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/shape.h"
#include "graph/ir.h"
#include "runtime/observer.h"

namespace tfjsi::analysis {

struct TensorShape {
  DType dtype = DType::Float32;
  Shape dims;
};

struct NodeCost {
  bool known = false;  // all its shapes were known
  std::int64_t flops = 0;
  std::int64_t bytes_read = 0, bytes_written = 0;
};

// "59.8 MFLOP", "1.20 GFLOP", "900 FLOP".
std::string format_flops(double flops);

// The cost of one execution of `node` with these input and output shapes.
NodeCost node_cost(const graph::Node& node, std::span<const TensorShape> inputs,
                   std::span<const TensorShape> outputs);

struct GraphCost {
  std::vector<NodeCost> nodes;                                // per node of the main graph
  std::int64_t flops = 0, bytes_read = 0, bytes_written = 0;  // over the known nodes
  // Nodes (other than Const and Placeholder) whose shapes shape inference left open.
  int unknown = 0;
  // Inputs with unknown dims, counted with those dims as 1 (as run's generated inputs have
  // them): name and the shape used.
  std::vector<std::pair<std::string, Shape>> assumed_inputs;
};

// From the shapes shape inference gives the graph's nodes, inputs' unknown dims taken as 1.
// Const and Placeholder nodes cost nothing. Nodes inside loop bodies and functions are counted
// once.
GraphCost graph_cost(const graph::Graph& graph);

// The same count over a run, from the shapes the nodes really had (for models whose shapes are
// open until run time, and nodes of loop bodies as often as they ran). It asks for every node's
// own output, so the run it watches is not one to time.
class CostCounter final : public runtime::Observer {
 public:
  // Shapes are all it reads, and a node run inside the kernel before it keeps them: the backend
  // may fuse as it would (so counting on gl builds no unfused programs).
  bool needs_every_output() const override { return false; }
  void run_started() override {
    flops_ = bytes_ = 0;
    by_op_.clear();
  }
  void after_kernel(runtime::KernelEvent& event) override;
  std::int64_t flops() const { return flops_; }
  std::int64_t bytes() const { return bytes_; }  // read and written
  // The same per op (bench --profile puts them beside each op's time).
  struct OpCost {
    std::int64_t flops = 0, bytes = 0;
  };
  const std::map<std::string, OpCost, std::less<>>& by_op() const { return by_op_; }

 private:
  std::int64_t flops_ = 0, bytes_ = 0;
  std::map<std::string, OpCost, std::less<>> by_op_;
};

}  // namespace tfjsi::analysis
