#include "analysis/loaded_model.h"

#include <chrono>
#include <exception>

#include "analysis/model_summary.h"
#include "graph/build.h"

namespace tfjsi::analysis {

LoadedModel load_model(const std::filesystem::path& path, bool summarize,
                       const std::function<void(LoadStep)>& on_step) {
  const auto t0 = std::chrono::steady_clock::now();
  auto step = [&](LoadStep s) {
    if (on_step) on_step(s);
  };
  LoadedModel m;
  step(LoadStep::Reading);
  m.bundle = model::load_bundle(path);
  step(LoadStep::Building);
  m.graph = std::make_shared<const graph::Graph>(graph::build_graph(m.bundle));
  if (summarize) {
    step(LoadStep::Summarizing);
    try {
      m.cost = graph_cost(*m.graph);
      m.summary = summarize_model(m.bundle, *m.graph, m.cost);
    } catch (const std::exception& e) {
      m.summary = {{"file", m.bundle.model_json.string()},
                   {"warnings", {std::string("model summary failed: ") + e.what()}}};
    }
  }
  m.load_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return m;
}

}  // namespace tfjsi::analysis
