// The one object that owns the model (and, when the runtime lands, the engine). It lives on a
// worker thread; the UI calls its slots and hears back through queued signals only, so a slow
// load (or later a run) never blocks the window.
#pragma once

#include <QObject>
#include <QString>

#include "loaded_model.h"

namespace tfjsi::ui {

class ModelController : public QObject {
  Q_OBJECT
 public:
  using QObject::QObject;

 public slots:
  // Loads the bundle at `path` (a model.json or a folder holding one).
  void open(const QString& path);

 signals:
  void loadStarted(const QString& path);
  void loadProgress(const QString& stage, int percent);
  void modelLoaded(tfjsi::ui::LoadedModelPtr model);
  // `message` names the file, weight or node at fault.
  void loadFailed(const QString& path, const QString& message);

 private:
  LoadedModelPtr model_;  // the current model; the engine will hang off it
};

}  // namespace tfjsi::ui
