#include "analysis/quantize_advice.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

#include "analysis/cancel_watch.h"
#include "analysis/quantize_bundle.h"
#include "analysis/tensor_error.h"
#include "graph/build.h"

namespace tfjsi::analysis {
namespace {

// A group is kept only when it takes at least 1% off the drift: outputs that move in steps (the
// top-k of a detector reordered) can otherwise gain 1e-6 from each of many groups.
constexpr double kMinGain = 0.99;

constexpr model::Quantization kDtypes[] = {model::Quantization::Float16,
                                           model::Quantization::Uint16, model::Quantization::Uint8};

// sqrt(sum (w - q)^2) / sqrt(sum w^2) over the group's weights: how far quantization moved them,
// relative to their size.
double relative_rms_error(const model::Bundle& bundle, const QuantizedBundle& q,
                          const WeightGroup& g) {
  double err = 0, norm = 0;
  for (const std::size_t i : g.weights) {
    if (!q.weights[i]) continue;
    const auto w = bundle.weights[i].value.values<float>();
    const auto d = q.weights[i]->dequantized.values<float>();
    for (std::size_t k = 0; k < w.size(); ++k) {
      const double e = double(w[k]) - double(d[k]);
      err += e * e;
      norm += double(w[k]) * double(w[k]);
    }
  }
  return norm > 0 ? std::sqrt(err / norm) : (err > 0 ? INFINITY : 0.0);
}

bool has_quantized(const QuantizedBundle& q, const WeightGroup& g) {
  return std::any_of(g.weights.begin(), g.weights.end(),
                     [&](std::size_t i) { return q.weights[i] != nullptr; });
}

}  // namespace

std::vector<WeightGroup> weight_groups(const model::Bundle& bundle, const graph::Graph& graph) {
  std::unordered_map<std::string, std::size_t> float_weight;  // name -> index in bundle.weights
  for (std::size_t i = 0; i < bundle.weights.size(); ++i)
    if (bundle.weights[i].dtype == DType::Float32) float_weight.emplace(bundle.weights[i].name, i);

  std::vector<WeightGroup> groups;
  std::map<std::string, std::size_t> by_name;
  std::vector<bool> placed(bundle.weights.size(), false);
  auto add = [&](const std::string& group, std::size_t w) {
    if (placed[w]) return;
    placed[w] = true;
    auto [it, fresh] = by_name.emplace(group, groups.size());
    if (fresh) groups.push_back({group, {}});
    groups[it->second].weights.push_back(w);
  };
  if (bundle.kind == model::ModelKind::Layers) {
    // tfjs-layers names weights "<layer>/<weight>" (or "<model>/<layer>/<weight>").
    for (std::size_t i = 0; i < bundle.weights.size(); ++i) {
      if (bundle.weights[i].dtype != DType::Float32) continue;
      const std::string& n = bundle.weights[i].name;
      const auto slash = n.rfind('/');
      add(slash == std::string::npos ? n : n.substr(0, slash), i);
    }
    return groups;
  }
  // Graph models: a Const node is named as its weight; the group is the first node reading it.
  for (const graph::Node& node : graph.nodes) {
    if (node.op == "Const") continue;
    for (const graph::TensorRef& in : node.inputs) {
      if (in.node < 0) continue;
      const graph::Node& src = graph.nodes[static_cast<std::size_t>(in.node)];
      if (src.op != "Const") continue;
      if (const auto it = float_weight.find(src.name); it != float_weight.end())
        add(node.name, it->second);
    }
  }
  // Weights read only inside control-flow bodies or by the initializer: a group each.
  for (std::size_t i = 0; i < bundle.weights.size(); ++i)
    if (bundle.weights[i].dtype == DType::Float32) add(bundle.weights[i].name, i);
  return groups;
}

double output_drift(const std::vector<HostTensor>& reference, const std::vector<HostTensor>& test) {
  if (reference.size() != test.size()) return INFINITY;
  double drift = 0;
  for (std::size_t k = 0; k < reference.size(); ++k) {
    if (reference[k].dtype != DType::Float32) continue;
    drift = std::max(drift, tensor_error(reference[k], test[k]).normalized());
  }
  return drift;
}

std::vector<HostTensor> run_bundle(runtime::Engine& engine, const model::Bundle& bundle,
                                   const runtime::NamedTensors& inputs) {
  const graph::Graph graph = graph::build_graph(bundle);
  runtime::Executor executor(engine, graph);
  return executor.run(inputs);
}

QuantizeAdvice advise_quantization(runtime::Engine& engine, const model::Bundle& bundle,
                                   const graph::Graph& graph, const runtime::NamedTensors& inputs,
                                   const AdviceOptions& options) {
  const CancelWatch cancel(engine, options.cancel);
  QuantizeAdvice advice;
  advice.tolerance = options.tolerance;
  advice.candidates = options.candidates;
  std::vector<HostTensor> reference;
  {
    runtime::Executor executor(engine, graph);
    reference = executor.run(inputs);
  }
  const std::vector<WeightGroup> groups = weight_groups(bundle, graph);
  auto say = [&](const std::string& line) {
    if (options.progress) options.progress(line);
  };
  auto measure = [&](const QuantizedBundle& q) {
    cancel.check();
    ++advice.runs;
    return output_drift(reference, run_bundle(engine, dequantized_copy(bundle, q), inputs));
  };
  auto without = [&](QuantizedBundle q, const std::vector<const WeightGroup*>& kept) {
    for (const WeightGroup* g : kept)
      for (const std::size_t i : g->weights) q.weights[i] = nullptr;
    recount_bytes(bundle, q);
    return q;
  };
  auto option = [&](const QuantizedBundle& q, const std::vector<const WeightGroup*>& kept,
                    double drift) {
    QuantizeOption o;
    o.dtype = q.dtype;
    o.bytes = q.bytes;
    o.drift = drift;
    for (const WeightGroup* g : kept) {
      o.kept_groups.push_back(g->name);
      for (const std::size_t i : g->weights)
        o.keep_float.push_back(glob_escape(bundle.weights[i].name));
    }
    say(std::string(model::to_string(q.dtype)) + ": " + std::to_string(kept.size()) +
        " groups kept float32, " + std::to_string(q.bytes) + " bytes, drift " +
        std::to_string(drift));
    advice.options.push_back(std::move(o));
  };

  for (const model::Quantization dtype : kDtypes) {
    cancel.check();
    const QuantizedBundle all = quantize_bundle(bundle, dtype, {});
    advice.float_bytes = all.float_bytes;
    const double drift0 = measure(all);
    option(all, {}, drift0);
    if (drift0 <= options.tolerance) continue;

    // Candidates: the K groups quantization moved furthest, relatively.
    std::vector<std::pair<double, const WeightGroup*>> ranked;
    for (const WeightGroup& g : groups)
      if (has_quantized(all, g)) ranked.emplace_back(relative_rms_error(bundle, all, g), &g);
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    if (ranked.size() > static_cast<std::size_t>(options.candidates))
      ranked.resize(static_cast<std::size_t>(options.candidates));

    // Each alone, then added best first while it helps.
    std::vector<std::pair<double, const WeightGroup*>> alone;
    for (const auto& [score, g] : ranked) alone.emplace_back(measure(without(all, {g})), g);
    std::stable_sort(alone.begin(), alone.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<const WeightGroup*> kept;
    double current = drift0;
    for (const auto& [drift_alone, g] : alone) {
      if (current <= options.tolerance) break;
      std::vector<const WeightGroup*> next = kept;
      next.push_back(g);
      const QuantizedBundle q = without(all, next);
      const double drift = kept.empty() ? drift_alone : measure(q);
      if (!(drift < kMinGain * current)) continue;  // noise, or a change of a few ulps
      kept = std::move(next);
      current = drift;
      option(q, kept, drift);
    }
  }

  for (std::size_t i = 0; i < advice.options.size(); ++i) {
    const QuantizeOption& o = advice.options[i];
    if (!(o.drift <= options.tolerance)) continue;
    if (!advice.recommended || o.bytes < advice.options[*advice.recommended].bytes ||
        (o.bytes == advice.options[*advice.recommended].bytes &&
         o.drift < advice.options[*advice.recommended].drift))
      advice.recommended = i;
  }
  return advice;
}

nlohmann::json to_json(const QuantizeOption& o) {
  return {{"dtype", std::string(model::to_string(o.dtype))},
          {"kept_groups", o.kept_groups},
          {"keep_float", o.keep_float},
          {"bytes", o.bytes},
          {"drift", json_number(o.drift)}};
}

nlohmann::json to_json(const QuantizeAdvice& a) {
  nlohmann::json j;
  j["tolerance"] = a.tolerance;
  j["candidates"] = a.candidates;
  j["float_bytes"] = a.float_bytes;
  j["runs"] = a.runs;
  j["options"] = nlohmann::json::array();
  for (const auto& o : a.options) j["options"].push_back(to_json(o));
  j["recommended"] = a.recommended ? to_json(a.options[*a.recommended]) : nlohmann::json();
  return j;
}

}  // namespace tfjsi::analysis
