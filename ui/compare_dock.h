// The Compare dock: pick two sides (cpu, xnnpack, gl fp32, gl fp16), run both on the Run dock's
// inputs through analysis::compare_backends (on the RunController's engine and worker thread,
// cancellable between nodes, with progress), and see per node the scaled error
// max |a - b| / max(1, max |b|) (DESIGN.md's measure), the first node past the tolerance as a
// link into the graph, the divergent nodes that are wrong on their own inputs, and the graph
// coloured by the error; and reduces the model to a repro of the divergence. Tabbed with the
// Precision dock at the bottom of the window.
#pragma once

#include "check_dock.h"
#include "compare_job.h"
#include "loaded_model.h"
#include "run_result.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace tfjsi::ui {

class CompareDock : public CheckDock {
  Q_OBJECT
 public:
  // Table columns, in order.
  enum Column { kOrder, kNode, kError, kOp, kRanOn, kMaxDiff, kRefMax, kAlone, kColumns };

  // Comparisons run through `window` (its run controller's engine); the links and the colouring
  // act on its graph view.
  explicit CompareDock(MainWindow& window);

  void set_model(
      LoadedModelPtr model);  // clears the last result; a comparison under way is dropped
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

  bool is_comparing() const { return busy_; }
  CompareResultPtr last_result() const { return result_; }
  // The first node past the tolerance the panel names (empty when none or no result).
  QString first_divergent() const;

  QComboBox* test_combo() const { return test_; }
  QComboBox* reference_combo() const { return reference_; }
  QDoubleSpinBox* tolerance_box() const { return tolerance_; }
  QCheckBox* isolate_box() const { return isolate_; }
  QPushButton* compare_button() const { return start_; }
  QPushButton* cancel_button() const { return cancel_; }
  QPushButton* colour_button() const { return colour_; }
  QPushButton* first_button() const { return show_first_; }
  QLabel* summary_label() const { return summary_; }
  QLabel* first_label() const { return first_; }  // the first divergent node, as a link
  // reduce_row(): "Reduce to a repro..." for the first divergent node (diverge:REFERENCE,TEST).

 signals:
  void compareFinished(tfjsi::ui::CompareResultPtr result);
  void compareFailed(const QString& message, bool cancelled);
  void graphColoured();  // the graph now shows this panel's error
  void resultCleared();  // no result any more (another model was opened)

 protected:
  int option_rows_height() const override;
  int row_of_node(const QString& name) const override;
  std::vector<QWidget*> option_widgets() const override;

 private:
  void on_progress(int pass, const QString& stage, int done, int total);
  void on_finished(CompareResultPtr result);
  void on_failed(const QString& message, bool cancelled);
  void show_result();
  void fill_table();
  void clear_result() override;

  CompareResultPtr result_;

  QComboBox* test_;
  QComboBox* reference_;
  QDoubleSpinBox* tolerance_;
  QCheckBox* isolate_;
  QLabel* summary_;
  QLabel* first_;
  QLabel* isolated_;
  QPushButton* colour_;
  QPushButton* show_first_;
};

}  // namespace tfjsi::ui
