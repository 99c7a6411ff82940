// The Run dock: backend (switches live; an unavailable one is disabled and says why), fp16 for gl,
// threads, where each model input comes from, Run, Benchmark (warmup and runs) and Cancel, with
// the last run's time. It only builds RunRequests and shows answers: MainWindow sends them on.
#pragma once

#include <QDockWidget>
#include <QString>
#include <vector>

#include "loaded_model.h"
#include "run_result.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QWidget;

namespace tfjsi::ui {

// What the graph's boxes show: op family (before any run), after a run the backend or the time
// per node, after an fp16 check (Precision panel) the fp16 status or error, after a comparison
// (Compare panel) each node's error between its two sides; FLOPs per node at any time.
enum class GraphColour { OpFamily, Backend, Time, Fp16Status, Fp16Error, CompareError, Flops };

class RunDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit RunDock(QWidget* parent = nullptr);

  void set_backends(const BackendList& backends);
  void set_model(LoadedModelPtr model);  // one input row per signature input
  RunRequest request(bool benchmark) const;
  // While running, the result line says `what` ("Running on cpu", "Checking fp16"); after a
  // run, show_result or show_error says how it went; after anything else, what it said before.
  void set_running(bool running, const QString& what = {});
  void show_progress(int done, int total);
  // Work before the first result (gl compiling its kernels): the result line counts it, and the
  // bar shows done of total when the total is known (busy otherwise).
  void show_compile_progress(const QString& stage, int done, int total);
  void show_result(const RunResult& r);
  void show_error(const QString& message, bool cancelled);

  // Sets where an input's values come from, as a user would with its row.
  void set_input(const QString& input, InputKind kind, const QString& path = {},
                 ImageScale scale = ImageScale::Unit);

  QComboBox* backend_combo() const { return backend_; }
  QCheckBox* fp16_box() const { return fp16_; }
  QSpinBox* threads_box() const { return threads_; }
  QCheckBox* keep_box() const { return keep_; }
  QCheckBox* rerun_box() const { return rerun_; }
  QSpinBox* warmup_box() const { return warmup_; }
  QSpinBox* runs_box() const { return runs_; }
  QPushButton* run_button() const { return run_; }
  QPushButton* benchmark_button() const { return bench_; }
  QPushButton* cancel_button() const { return cancel_; }
  QLabel* result_label() const { return result_; }
  QComboBox* colour_combo() const { return colour_; }
  GraphColour graph_colour() const;
  // Shows `c` as the choice without emitting graphColourChanged (the graph already shows it).
  void show_graph_colour(GraphColour c);
  // The fp16 entries can be chosen once an fp16 check has a result.
  void set_fp16_colours_enabled(bool enabled);
  // The compare entry can be chosen once a comparison has a result.
  void set_compare_colours_enabled(bool enabled);

 signals:
  void runRequested(bool benchmark);
  void cancelRequested();
  // The backend or precision changed (MainWindow re-runs when "run on change" is on).
  void settingsChanged();
  void graphColourChanged();

 private:
  struct InputRow {
    std::string name;
    QComboBox* source;
    QLineEdit* path;
    QPushButton* browse;
    QComboBox* scale;
  };
  void update_enabled();
  void browse(InputRow& row);
  // The result line when no run has said anything yet: no model, or ready to run.
  void show_idle();

  LoadedModelPtr model_;
  QComboBox* backend_;
  QCheckBox* fp16_;
  QSpinBox* threads_;
  QWidget* inputs_box_;
  QFormLayout* inputs_form_;
  std::vector<InputRow> rows_;
  QCheckBox* keep_;
  QCheckBox* rerun_;
  QSpinBox* warmup_;
  QSpinBox* runs_;
  QPushButton* run_;
  QPushButton* bench_;
  QPushButton* cancel_;
  QProgressBar* progress_;
  QLabel* result_;
  QComboBox* colour_;
  bool running_ = false;
  bool has_outcome_ = false;  // the result line shows a run's result or error
  QString before_busy_;       // the result line before set_running(true), with its style
  QString before_busy_style_;
};

}  // namespace tfjsi::ui
