// Synthetic graphs for the canvas's scale tests: a deep network of `stages` x `blocks` name
// scopes with `per_block` visible nodes each (chains of conv/norm/activation units in
// sub-scopes, residual branches, attention units, skip connections between blocks), and a flat
// graph with no scopes. Deterministic.
#pragma once

#include <string>

#include "graph/ir.h"

namespace tfjsi::test {

inline graph::Graph synthetic_network(int stages, int blocks, int per_block) {
  graph::Graph g;
  auto add = [&](std::string name, std::string op, std::vector<int> inputs, int channels) {
    graph::Node n;
    n.name = std::move(name);
    n.op = std::move(op);
    for (int i : inputs) n.inputs.push_back({i, 0});
    graph::TensorInfo info;
    info.dtype = DType::Float32;
    info.shape = PartialShape::of({1, 32, 32, channels});
    n.outputs.push_back(info);
    g.nodes.push_back(std::move(n));
    return static_cast<int>(g.nodes.size()) - 1;
  };
  int x = add("input", "Placeholder", {}, 3);
  std::vector<int> block_out;
  unsigned state = 12345;
  auto next = [&] {  // a small LCG: the same graph on every run
    state = state * 1103515245u + 12345u;
    return (state >> 16) & 0x7FFF;
  };
  for (int s = 0; s < stages; ++s) {
    for (int b = 0; b < blocks; ++b) {
      const std::string scope = "stage" + std::to_string(s) + "/block" + std::to_string(b);
      const int first = static_cast<int>(g.nodes.size());
      auto left = [&] { return per_block - (static_cast<int>(g.nodes.size()) - first); };
      int unit = 0;
      // A skip connection from five blocks back now and then.
      if (block_out.size() >= 5 && next() % 4 == 0 && left() >= 1)
        x = add(scope + "/skip_concat", "ConcatV2", {x, block_out[block_out.size() - 5]}, 64);
      while (left() > 0) {
        const std::string u = scope + "/unit" + std::to_string(unit++);
        const unsigned kind = next() % 10;
        if (kind < 5 && left() >= 3) {  // conv, norm, activation
          int c = add(u + "/conv", "Conv2D", {x}, 64);
          int n = add(u + "/bn", "FusedBatchNorm", {c}, 64);
          x = add(u + "/relu", "Relu", {n}, 64);
        } else if (kind < 8 && left() >= 5) {  // residual: two branches merged
          int a = add(u + "/branch_a/conv", "Conv2D", {x}, 64);
          int a2 = add(u + "/branch_a/relu", "Relu6", {a}, 64);
          int c = add(u + "/branch_b/dwconv", "DepthwiseConv2dNative", {x}, 64);
          int c2 = add(u + "/branch_b/sigmoid", "Sigmoid", {c}, 64);
          x = add(u + "/add", "AddV2", {a2, c2}, 64);
        } else if (left() >= 6) {  // attention
          int q = add(u + "/attn/q", "MatMul", {x}, 64);
          int k = add(u + "/attn/k", "MatMul", {x}, 64);
          int qk = add(u + "/attn/qk", "BatchMatMulV2", {q, k}, 64);
          int sm = add(u + "/attn/softmax", "Softmax", {qk}, 64);
          int v = add(u + "/attn/v", "BatchMatMulV2", {sm, x}, 64);
          x = add(u + "/attn/reshape", "Reshape", {v}, 64);
        } else {
          x = add(u + "/mul", "Mul", {x}, 64);
        }
      }
      block_out.push_back(x);
    }
  }
  add("output", "Identity", {x}, 64);
  g.rebuild_index();
  return g;
}

// `n` nodes in no scope at all: a few long chains that split and join.
inline graph::Graph synthetic_flat(int n) {
  graph::Graph g;
  for (int i = 0; i < n; ++i) {
    graph::Node node;
    node.name = "node_" + std::to_string(i);
    node.op = i % 3 == 0 ? "Conv2D" : i % 3 == 1 ? "Relu" : "AddV2";
    if (i > 0) node.inputs.push_back({i - 1, 0});
    if (i > 7 && i % 7 == 0) node.inputs.push_back({i - 7, 0});
    graph::TensorInfo info;
    info.dtype = DType::Float32;
    info.shape = PartialShape::of({1, 8});
    node.outputs.push_back(info);
    g.nodes.push_back(std::move(node));
  }
  g.rebuild_index();
  return g;
}

}  // namespace tfjsi::test
