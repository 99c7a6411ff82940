// The Outputs dock: after a run, each output (and, when intermediates were kept, the selected
// node's outputs): shape, dtype, statistics, the first values, top-k for classifier-like outputs,
// a heatmap or image of a chosen channel for 4-D and HxWxC tensors, and export as .npy.
#pragma once

#include <QDockWidget>
#include <string>
#include <vector>

#include "loaded_model.h"
#include "run_result.h"

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace tfjsi::ui {

class TensorView;

class OutputsDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit OutputsDock(QWidget* parent = nullptr);

  void set_model(LoadedModelPtr model);  // clears; class names come from its metadata
  void show_result(RunResultPtr result);
  // Adds the node's kept outputs to the list and shows the first, or says how to get them.
  void show_node(const std::string& node);

  int tensor_count() const { return static_cast<int>(entries_.size()); }
  // The tensor on show, or null.
  const HostTensor* current_tensor() const;
  QString current_title() const;
  // Writes the tensor on show as .npy; throws std::runtime_error on failure.
  void export_npy(const QString& file) const;

  QComboBox* tensor_combo() const { return combo_; }
  QTreeWidget* tree() const { return tree_; }
  TensorView* view() const { return view_; }
  QSpinBox* channel_box() const { return channel_; }
  QLabel* note() const { return note_; }

 private:
  struct Entry {
    QString title;
    HostTensor tensor;
    bool from_node = false;
  };
  void rebuild_combo(int select);
  void show_entry(int index);
  void export_dialog();

  LoadedModelPtr model_;
  RunResultPtr result_;
  std::vector<Entry> entries_;
  QComboBox* combo_;
  QPushButton* export_;
  QLabel* note_;
  QTreeWidget* tree_;
  QSpinBox* channel_;
  QSpinBox* batch_;
  QWidget* image_box_;
  TensorView* view_;
};

}  // namespace tfjsi::ui
