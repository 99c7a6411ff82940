// A model as the GUI holds it once loaded (analysis/loaded_model.h, the CLI's too): immutable and
// shared between the controller (worker thread) and the widgets (UI thread).
#pragma once

#include <QMetaType>
#include <memory>

#include "analysis/loaded_model.h"

namespace tfjsi::ui {

using analysis::LoadedModel;
using LoadedModelPtr = std::shared_ptr<const LoadedModel>;

}  // namespace tfjsi::ui

Q_DECLARE_METATYPE(tfjsi::ui::LoadedModelPtr)
