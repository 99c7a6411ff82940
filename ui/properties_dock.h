// The Properties dock: the selected node's op, decoded attributes, inputs and outputs with their
// shapes and dtypes, and for Const nodes the weight (storage, statistics, histogram).
#pragma once

#include <QDockWidget>

#include "loaded_model.h"

class QLabel;
class QTreeWidget;

namespace tfjsi::ui {

class HistogramWidget;

class PropertiesDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit PropertiesDock(QWidget* parent = nullptr);
  void set_model(LoadedModelPtr model);
  void show_node(int node);  // -1 clears
  // A group selected in the graph; `open` says whether the graph shows it open (as a frame round
  // its nodes) or closed (one box).
  void show_group(const QString& path, int node_count, bool open);
  QString current_node_name() const { return current_; }
  QTreeWidget* tree() const { return tree_; }
  HistogramWidget* histogram() const { return histogram_; }

 signals:
  void nodeActivated(int node);  // an input or consumer was double-clicked

 private:
  LoadedModelPtr model_;
  QLabel* header_;
  QTreeWidget* tree_;
  HistogramWidget* histogram_;
  QString current_;
};

}  // namespace tfjsi::ui
