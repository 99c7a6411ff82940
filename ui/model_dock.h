// The Model dock: what `tfjsi info` shows, as a tree (kind, producer, inputs and outputs with
// shapes and dtypes, op histogram, weights by quantization, shards, warnings), and the
// "Quantize..." button that opens the Quantize dialog.
#pragma once

#include <QDockWidget>
#include <nlohmann/json.hpp>

class QPushButton;
class QTreeWidget;

namespace tfjsi::ui {

class ModelDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit ModelDock(QWidget* parent = nullptr);
  void show_summary(const nlohmann::json& summary);
  void clear();
  QTreeWidget* tree() const { return tree_; }
  QPushButton* quantize_button() const { return quantize_; }
  void set_quantize_enabled(bool enabled);

 signals:
  void quantizeRequested();
  // A node named in the dock (an input, an output) was activated.
  void nodeActivated(const QString& name);

 private:
  QTreeWidget* tree_;
  QPushButton* quantize_;
};

}  // namespace tfjsi::ui
