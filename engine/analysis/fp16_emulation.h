// The cpu emulation of half-float storage: every float tensor a node stores is rounded to half
// (what an RGBA16F texture does to it), the weights and model inputs too, under one HalfRule.
// Nodes in a keep set store fp32 instead: that is how a mixed fp16/fp32 plan is checked.
#pragma once

#include <functional>
#include <unordered_set>

#include "analysis/fp16_rounding.h"
#include "analysis/node_trace.h"
#include "graph/ir.h"
#include "runtime/executor.h"
#include "runtime/fp16_follow.h"
#include "runtime/observer.h"

namespace tfjsi::analysis {

// Following TF.js webgl (runtime/fp16_follow.h), what the lowering marks as computed inside one
// TF.js kernel is not rounded, and Mean, Sum and Softmax round their intermediate stages as TF.js
// stores them (ops/webgl_stages.h), recomputed from their (rounded) inputs.
class Fp16StorageEmulation final : public runtime::Observer {
 public:
  // `keep_fp32`: node ids (of `ids`) whose outputs are not rounded.
  Fp16StorageEmulation(const NodeIds& ids, HalfRule rule, std::unordered_set<int> keep_fp32 = {},
                       runtime::Fp16Follow follow = runtime::Fp16Follow::Webgl)
      : ids_(ids), rule_(rule), keep_(std::move(keep_fp32)), follow_(follow) {}
  void after_kernel(runtime::KernelEvent& event) override;

 private:
  const NodeIds& ids_;
  HalfRule rule_;
  std::unordered_set<int> keep_;
  runtime::Fp16Follow follow_;
};

// A rounded copy of a float32 tensor (other dtypes are returned as they are).
HostTensor rounded_to_half(const HostTensor& t, HalfRule rule);

// A copy of the main graph whose float Const values are rounded to half, except Consts whose every
// consumer is in `keep_fp32` (a node kept in fp32 keeps its weights in fp32 too). Function bodies
// are shared with `graph`, unrounded.
graph::Graph graph_with_half_weights(const graph::Graph& graph, HalfRule rule,
                                     const std::unordered_set<int>& keep_fp32);

// Model inputs rounded to half, except those whose every consumer is kept in fp32.
runtime::NamedTensors inputs_as_half(const graph::Graph& graph, const runtime::NamedTensors& inputs,
                                     HalfRule rule, const std::unordered_set<int>& keep_fp32);

}  // namespace tfjsi::analysis
