#include "analysis/reduce_to_folder.h"

#include <chrono>

#include "analysis/loaded_model.h"
#include "core/error.h"
#include "io/npy.h"

namespace tfjsi::analysis {

std::optional<ReducedBundle> reduce_to_folder(runtime::Engine& engine, const model::Bundle& bundle,
                                              const graph::Graph& graph,
                                              const runtime::NamedTensors& inputs,
                                              const ReduceOptions& options, OutputFolder& folder) {
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<Reduction> r = reduce_model(engine, bundle, graph, inputs, options);
  if (!r) return std::nullopt;
  ReducedBundle out;
  const std::filesystem::path& dir = folder.staging();
  out.bytes = write_reduction(*r, bundle, graph, dir);

  // The bundle as written, read back by our loader and fed the .npy files written: it must show
  // the condition at the same node.
  const LoadedModel back = load_model(dir, false);
  runtime::NamedTensors feeds;
  for (std::size_t k = 0; k < r->subgraph.inputs.size(); ++k)
    feeds.emplace(r->subgraph.inputs[k].name,
                  io::read_npy(dir / ("input_" + std::to_string(k) + ".npy")));
  std::optional<Finding> again =
      check_at(engine, *back.graph, feeds, options.condition, r->reduced.node);
  if (!again)
    throw ModelError("internal: the bundle written for " + folder.out().string() +
                     " does not show the condition at node '" + r->reduced.node +
                     "' when read back; please report it");
  folder.commit();

  out.confirmed = std::move(*again);
  out.nodes_after = static_cast<int>(back.graph->nodes.size());
  out.files = {"model.json", "inputs.json", "repro.js"};
  for (const auto& s : back.bundle.shards) out.files.push_back(s.manifest_path);
  out.reduction = std::move(*r);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace tfjsi::analysis
