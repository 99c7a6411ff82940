#include "model_controller.h"

#include <exception>

#include "core/error.h"
#include "core/terminal_text.h"

namespace tfjsi::ui {

void ModelController::open(const QString& path) {
  emit loadStarted(path);
  try {
    auto m = std::make_shared<LoadedModel>(
        analysis::load_model(path.toStdString(), true, [this](analysis::LoadStep step) {
          switch (step) {
            case analysis::LoadStep::Reading:
              emit loadProgress(tr("Reading model.json and weights"), 10);
              break;
            case analysis::LoadStep::Building:
              emit loadProgress(tr("Building the graph"), 55);
              break;
            case analysis::LoadStep::Summarizing:
              emit loadProgress(tr("Summarizing"), 90);
              break;
          }
        }));
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
