// `tfjsi quantize --advise`: which weight quantization a model survives. For each dtype the whole
// model is quantized and run on the engine's active backend (cpu), in memory; its output drift
// against float32 is DESIGN.md's measure, max over float outputs of
// max|quantized - float| / max(1, max|float|). When the drift is past the tolerance, a bounded
// greedy search looks for the weight groups whose keeping in float32 recovers most of it.
//
// A weight group is the weights one op reads: for graph models the float32 Const inputs of one
// node (a weight read by several nodes belongs to the first), for layers models one layer's
// weights. The search runs at most 2K quantized models per dtype (K = `candidates`), besides the
// one float32 run: the K groups whose quantized weights are furthest from their float values
// (relative RMS error) are each measured kept alone (K runs, after the all-quantized one); then,
// best first, each is added to the kept set when it lowers the drift by 1% or more (at most
// K - 1 more runs),
// until the drift is within tolerance. A dtype within tolerance as it is is not searched.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "graph/ir.h"
#include "model/bundle.h"
#include "runtime/engine.h"
#include "runtime/executor.h"

namespace tfjsi::analysis {

struct WeightGroup {
  std::string name;                  // the node (graph models) or layer (layers models)
  std::vector<std::size_t> weights;  // float32 weights, indexes into bundle.weights
};

// The float32 weights of `bundle` in groups, in graph order.
std::vector<WeightGroup> weight_groups(const model::Bundle& bundle, const graph::Graph& graph);

// DESIGN.md's drift of `test` against `reference` (same outputs, same order): max over float32
// outputs of max|test - ref| / max(1, max|ref|); infinite for a new NaN or inf or a shape change.
double output_drift(const std::vector<HostTensor>& reference, const std::vector<HostTensor>& test);

// Builds `bundle`'s graph and runs it once on the engine's active backend.
std::vector<HostTensor> run_bundle(runtime::Engine& engine, const model::Bundle& bundle,
                                   const runtime::NamedTensors& inputs);

struct QuantizeOption {
  model::Quantization dtype = model::Quantization::None;
  std::vector<std::string> kept_groups;  // groups left float32, in the order they were added
  std::vector<std::string> keep_float;   // --keep-float patterns that write it (escaped names)
  std::uint64_t bytes = 0;               // shard bytes
  double drift = 0;
};

struct AdviceOptions {
  double tolerance = 1e-2;
  int candidates = 8;
  std::function<void(std::string_view)> progress;  // one line per model run
  // When set, advise_quantization throws Cancelled at the next kernel or between model runs
  // (analysis/cancel_watch.h).
  const std::atomic<bool>* cancel = nullptr;
};

struct QuantizeAdvice {
  double tolerance = 0;
  int candidates = 0;
  std::uint64_t float_bytes = 0;           // shard bytes with every float32 weight float32
  std::vector<QuantizeOption> options;     // per dtype: all quantized, then each kept group added
  std::optional<std::size_t> recommended;  // smallest option within tolerance
  int runs = 0;                            // quantized model runs made
};

QuantizeAdvice advise_quantization(runtime::Engine& engine, const model::Bundle& bundle,
                                   const graph::Graph& graph, const runtime::NamedTensors& inputs,
                                   const AdviceOptions& options);

nlohmann::json to_json(const QuantizeOption& o);
nlohmann::json to_json(const QuantizeAdvice& a);

}  // namespace tfjsi::analysis
