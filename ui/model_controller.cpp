#include "model_controller.h"

#include <QElapsedTimer>
#include <exception>

#include "analysis/model_summary.h"
#include "core/error.h"
#include "core/terminal_text.h"
#include "graph/build.h"
#include "model/bundle.h"

namespace tfjsi::ui {

void ModelController::open(const QString& path) {
  emit loadStarted(path);
  QElapsedTimer timer;
  timer.start();
  try {
    auto m = std::make_shared<LoadedModel>();
    emit loadProgress(tr("Reading model.json and weights"), 10);
    m->bundle = model::load_bundle(path.toStdString());
    emit loadProgress(tr("Building the graph"), 55);
    m->graph = std::make_shared<const graph::Graph>(graph::build_graph(m->bundle));
    emit loadProgress(tr("Summarizing"), 90);
    try {
      m->cost = analysis::graph_cost(*m->graph);
      m->summary = analysis::summarize_model(m->bundle, *m->graph, m->cost);
    } catch (const std::exception& e) {
      // The graph is still worth showing when only the summary fails; the dock says why.
      m->summary = {{"file", m->bundle.model_json.string()},
                    {"warnings", {std::string("model summary failed: ") + e.what()}}};
    }
    m->load_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    model_ = m;
    emit loadProgress(tr("Loaded"), 100);
    emit modelLoaded(model_);
  } catch (const ModelError& e) {
    emit loadFailed(path, QString::fromStdString(terminal_safe(e.what())));
  } catch (const std::exception& e) {
    // Anything else is our bug or the system's (out of memory...): still say which file.
    emit loadFailed(path, tr("%1: %2").arg(path, QString::fromStdString(terminal_safe(e.what()))));
  }
}

}  // namespace tfjsi::ui
