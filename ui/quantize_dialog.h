// The Model dock's "Quantize..." dialog: writes a copy of the open model with its float32 weights
// quantized to float16, uint16 or uint8 as tensorflowjs_converter writes them, some kept float32
// by glob (analysis::quantize_to_folder), and says what it cost in drift. "Advise" first measures
// every dtype and the weight groups worth keeping float32 (analysis::advise_quantization, as
// `tfjsi quantize --advise`), shows the table and selects the smallest bundle within the
// tolerance, which fills in the dtype and patterns. Both run on the run controller's engine (cpu)
// with progress and Cancel; a write that fails or is cancelled leaves no folder behind.
#pragma once

#include <QDialog>

#include "loaded_model.h"
#include "quantize_job.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace tfjsi::ui {

class MainWindow;

class QuantizeDialog : public QDialog {
  Q_OBJECT
 public:
  enum Column { kDtype, kKept, kBytes, kDrift, kColumns };

  explicit QuantizeDialog(MainWindow& window);

  // The model to quantize; clears the advice and the last result.
  void set_model(LoadedModelPtr model);

  // What the buttons do.
  void start_advice();
  void start_write();
  void cancel();
  void open_result();  // opens the bundle written, as File > Open would

  bool is_busy() const { return busy_; }
  QuantizeResultPtr last_advice() const { return advice_; }
  QuantizeResultPtr last_written() const { return written_; }
  // The dtype and the keep-float patterns the fields hold.
  model::Quantization dtype() const;
  std::vector<std::string> keep_float() const;

  QComboBox* dtype_combo() const { return dtype_; }
  QPlainTextEdit* keep_edit() const { return keep_; }
  QLineEdit* folder_edit() const { return folder_; }
  QDoubleSpinBox* tolerance_box() const { return tolerance_; }
  QPushButton* advise_button() const { return advise_; }
  QPushButton* write_button() const { return write_; }
  QPushButton* cancel_button() const { return cancel_; }
  QPushButton* open_button() const { return open_; }
  QProgressBar* progress_bar() const { return progress_; }
  QLabel* status_label() const { return status_; }
  QLabel* result_label() const { return result_; }
  QTableWidget* table() const { return table_; }

 signals:
  void adviceFinished(tfjsi::ui::QuantizeResultPtr result);
  void writeFinished(tfjsi::ui::QuantizeResultPtr result);
  void failed(const QString& message, bool cancelled);

 private:
  bool send(QuantizeRequest request);
  void on_progress(const QString& line);
  void on_finished(QuantizeResultPtr result);
  void on_failed(const QString& message, bool cancelled);
  void set_busy(bool busy);
  void say(const QString& text, bool error = false);
  void show_advice();
  void pick_option(int row);  // fills the dtype and the patterns from an advice row
  QString suggested_folder() const;

  MainWindow& window_;
  LoadedModelPtr model_;
  QuantizeResultPtr advice_, written_;
  bool busy_ = false;
  bool advising_ = false;  // the job under way is the advice
  QString suggested_;      // the folder last proposed (replaced when the dtype changes)
  QString cancel_reason_;

  QLabel* model_label_;
  QComboBox* dtype_;
  QPlainTextEdit* keep_;
  QLineEdit* folder_;
  QPushButton* browse_;
  QDoubleSpinBox* tolerance_;
  QPushButton* advise_;
  QPushButton* write_;
  QPushButton* cancel_;
  QPushButton* open_;
  QProgressBar* progress_;
  QLabel* status_;
  QTableWidget* table_;
  QLabel* result_;
};

}  // namespace tfjsi::ui
