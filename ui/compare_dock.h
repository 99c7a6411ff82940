// The Compare dock: pick two sides (cpu, xnnpack, gl fp32, gl fp16), run both on the Run dock's
// inputs through analysis::compare_backends (on the RunController's engine and worker thread,
// cancellable between nodes, with progress), and see per node the scaled error
// max |a - b| / max(1, max |b|) (DESIGN.md's measure), the first node past the tolerance as a
// link into the graph, the divergent nodes that are wrong on their own inputs, and the graph
// coloured by the error; and reduces the model to a repro of the divergence. Tabbed with the
// Precision dock at the bottom of the window.
#pragma once

#include <QDockWidget>
#include <functional>

#include "compare_job.h"
#include "loaded_model.h"
#include "run_result.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace tfjsi::viewers {
class GraphView;
}

namespace tfjsi::ui {

class MainWindow;
class ReduceRow;

class CompareDock : public QDockWidget {
  Q_OBJECT
 public:
  // Table columns, in order.
  enum Column { kOrder, kNode, kError, kOp, kRanOn, kMaxDiff, kRefMax, kAlone, kColumns };

  // Comparisons run through `window` (its run controller's engine); the links and the colouring
  // act on its graph view.
  explicit CompareDock(MainWindow& window);

  void set_model(
      LoadedModelPtr model);  // clears the last result; a comparison under way is dropped
  // Where the model inputs and the thread count come from (the Run dock's settings).
  // (The reduce row takes them too.)
  void set_run_settings(std::function<RunRequest()> settings);
  // Says which sides cannot run here (their entries keep the reason as a tooltip).
  void set_backends(const BackendList& backends);
  // Picks the two sides as a user would with the combo boxes.
  void set_sides(const CompareSide& test, const CompareSide& reference);
  CompareSide test_side() const;
  CompareSide reference_side() const;

  // What the buttons do.
  void start_compare();
  void cancel_compare();
  void colour_by_error();
  // Selects and centres the node in the graph (what a link or a table row does); false when the
  // graph has no node of that name (a node inside a function body).
  bool activate_node(const QString& name);

  bool is_comparing() const { return comparing_; }
  CompareResultPtr last_result() const { return result_; }
  // The first node past the tolerance the panel names (empty when none or no result).
  QString first_divergent() const;
  int compact_height() const;

  QComboBox* test_combo() const { return test_; }
  QComboBox* reference_combo() const { return reference_; }
  QDoubleSpinBox* tolerance_box() const { return tolerance_; }
  QCheckBox* isolate_box() const { return isolate_; }
  QPushButton* compare_button() const { return compare_; }
  QPushButton* cancel_button() const { return cancel_; }
  QPushButton* colour_button() const { return colour_; }
  QPushButton* first_button() const { return show_first_; }
  QProgressBar* progress_bar() const { return progress_; }
  QLabel* stage_label() const { return stage_; }
  QLabel* summary_label() const { return summary_; }
  QLabel* first_label() const { return first_; }  // the first divergent node, as a link
  QTableWidget* table() const { return table_; }
  // "Reduce to a repro..." for the first divergent node (diverge:REFERENCE,TEST).
  ReduceRow* reduce_row() const { return reduce_row_; }

 signals:
  void compareFinished(tfjsi::ui::CompareResultPtr result);
  void compareFailed(const QString& message, bool cancelled);
  void graphColoured();  // the graph now shows this panel's error
  void resultCleared();  // no result any more (another model was opened)

 protected:
  void showEvent(QShowEvent* e) override;

 private:
  void on_progress(int pass, const QString& stage, int done, int total);
  void on_finished(CompareResultPtr result);
  void on_failed(const QString& message, bool cancelled);
  void set_comparing(bool comparing);
  void show_result();
  void fill_table();
  void clear_result();
  void set_compact(bool compact);
  void show_error(const QString& message);  // in the stage line, in red

  MainWindow& window_;
  viewers::GraphView* view_;
  LoadedModelPtr model_;
  CompareResultPtr result_;
  std::function<RunRequest()> settings_;
  bool comparing_ = false;
  QString cancel_reason_;  // why the comparison under way was cancelled, when not by the user
  bool compact_ = false;
  bool shown_ = false;

  QComboBox* test_;
  QComboBox* reference_;
  QDoubleSpinBox* tolerance_;
  QCheckBox* isolate_;
  QPushButton* compare_;
  QPushButton* cancel_;
  QProgressBar* progress_;
  QLabel* stage_;
  QLabel* summary_;
  QLabel* first_;
  QLabel* isolated_;
  QWidget* graph_buttons_;
  QPushButton* colour_;
  QPushButton* show_first_;
  QTableWidget* table_;
  ReduceRow* reduce_row_;
};

}  // namespace tfjsi::ui
