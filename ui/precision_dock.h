// The Precision dock: "Check fp16" runs analysis::check_fp16 on the open model (through the main
// window, on the RunController's engine and worker thread, cancellable between nodes, with
// progress) and shows the
// verdict, what the gl driver does with a value past 65504 and the rule the emulation used, the
// first overflowing node and the first past the error threshold as links into the graph, the path
// the error takes to the outputs, the proposed fp32 set and whether the checked mixed run brings
// the outputs back, and a sortable table of every node (worst first). It colours the graph by
// fp16 status or by error, and jumps to the first overflow.
#pragma once

#include <memory>

#include "check_dock.h"
#include "fp16_check_job.h"
#include "loaded_model.h"
#include "run_result.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace tfjsi::ui {

class PrecisionDock : public CheckDock {
  Q_OBJECT
 public:
  // Table columns, in order.
  enum Column { kNode, kOp, kMaxAbs, kOverflow, kSubnormal, kFlushed, kError, kGlError, kColumns };
  // Category names of "Colour graph by fp16 status".
  static constexpr const char* kOverflows = "overflows";
  static constexpr const char* kUnderflows = "underflows";
  static constexpr const char* kPastThreshold = "error past threshold";
  static constexpr const char* kOk = "ok";

  // Checks run through `window` (its run controller's engine); the links, the jump and the
  // colouring act on its graph view.
  explicit PrecisionDock(MainWindow& window);

  void set_model(LoadedModelPtr model);  // clears the last result; a check under way is dropped

  // What the buttons do.
  void start_check();
  void cancel_check();
  void colour_by_status();
  void colour_by_error();
  void jump_to_first_overflow();

  bool is_checking() const { return busy_; }
  Fp16CheckResultPtr last_result() const { return result_; }
  // A node's fp16 status, one of the k* category names, from the last result (empty if none).
  static std::string status_of(const analysis::Fp16NodeReport& n, double threshold);

  QPushButton* check_button() const { return start_; }
  QPushButton* cancel_button() const { return cancel_; }
  QLabel* verdict_label() const { return verdict_; }
  QLabel* driver_label() const { return driver_; }
  QLabel* nodes_label() const { return nodes_; }  // first overflow / underflow / error, path
  QLabel* fix_label() const { return fix_; }
  QPushButton* colour_status_button() const { return colour_status_; }
  QPushButton* colour_error_button() const { return colour_error_; }
  QPushButton* jump_button() const { return jump_; }
  QComboBox* rule_combo() const { return rule_; }
  QComboBox* follow_combo() const { return follow_; }
  QCheckBox* gl_box() const { return use_gl_; }
  QDoubleSpinBox* threshold_box() const { return threshold_; }
  QDoubleSpinBox* tolerance_box() const { return tolerance_; }
  // reduce_row(): "Reduce to a repro..." for the first overflow (or the fp32 run's NaN or inf).

 signals:
  void checkFinished(tfjsi::ui::Fp16CheckResultPtr result);
  void checkFailed(const QString& message, bool cancelled);

 protected:
  int option_rows_height() const override;
  std::vector<QWidget*> option_widgets() const override;

 private:
  void on_progress(int pass, const QString& stage, int done, int total);
  void on_finished(Fp16CheckResultPtr result);
  void on_failed(const QString& message, bool cancelled);
  void show_result();
  void fill_table();
  void clear_result() override;

  Fp16CheckResultPtr result_;

  QComboBox* rule_;
  QComboBox* follow_;
  QCheckBox* use_gl_;
  QDoubleSpinBox* threshold_;
  QDoubleSpinBox* tolerance_;
  QLabel* verdict_;
  QLabel* driver_;
  QLabel* nodes_;
  QLabel* fix_;
  QPushButton* colour_status_;
  QPushButton* colour_error_;
  QPushButton* jump_;
};

}  // namespace tfjsi::ui
