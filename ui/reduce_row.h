// The "Reduce to a repro..." row of the Precision and Compare docks: under a finding (an fp16
// overflow, a NaN or inf, two backends parting), it asks for a new or empty folder, reduces the
// model there to the smallest subgraph that still shows it (analysis::reduce_to_folder, on the
// run controller's engine, through the window), shows each candidate as it runs with Cancel,
// then opens the reduced bundle as File > Open would, with its recorded inputs in the Run dock,
// and says what was written. A cancelled or
// failed reduction leaves the folder as it was.
#pragma once

#include <QString>
#include <QWidget>
#include <functional>
#include <optional>

#include "analysis/reduce_condition.h"
#include "loaded_model.h"
#include "reduce_job.h"
#include "run_result.h"

class QLabel;
class QProgressBar;
class QPushButton;

namespace tfjsi::ui {

class MainWindow;

class ReduceRow : public QWidget {
  Q_OBJECT
 public:
  ReduceRow(MainWindow& window, QWidget* parent);

  // What the dock found: the condition to reduce to and a phrase naming it ("the fp16 overflow at
  // node 'x'"). Nullopt: nothing to reduce; the button hides (a note of the last reduction stays).
  void offer(std::optional<analysis::ReduceCondition> condition, const QString& what);
  // The model now open. The note of the last reduction stays when it is the bundle written.
  void set_model(LoadedModelPtr model);
  // Where the model inputs and the thread count come from (the Run dock's settings).
  void set_run_settings(std::function<RunRequest()> settings) { settings_ = std::move(settings); }
  // How the folder is asked for: a folder dialog unless set (tests set one). Empty: not chosen.
  void set_folder_chooser(std::function<QString()> choose) { choose_ = std::move(choose); }

  // What the buttons do: ask for a folder, then reduce into it; stop the reduction.
  void start();
  // Reduces into `folder`; false (and says why) when the window's engine is busy.
  bool start_in(const QString& folder);
  void cancel();

  bool is_reducing() const { return reducing_; }
  bool is_offered() const { return condition_.has_value(); }
  ReduceResultPtr last_result() const { return result_; }
  QPushButton* reduce_button() const { return reduce_; }
  QPushButton* cancel_button() const { return cancel_; }
  QProgressBar* progress_bar() const { return progress_; }
  QLabel* status_label() const { return status_; }

 signals:
  void reduceFinished(tfjsi::ui::ReduceResultPtr result);
  void reduceFailed(const QString& message, bool cancelled);

 private:
  void on_progress(int step, const QString& phase, int nodes, bool holds, int smallest);
  void on_finished(ReduceResultPtr result);
  void on_failed(const QString& message, bool cancelled);
  void set_reducing(bool reducing);
  void say(const QString& html, bool error = false);
  QString default_folder() const;
  // Sets the Run dock's inputs to the .npy files the reduction wrote (inputs.json).
  void feed_written_inputs();

  MainWindow& window_;
  LoadedModelPtr model_;
  std::optional<analysis::ReduceCondition> condition_;
  QString what_;
  std::function<RunRequest()> settings_;
  std::function<QString()> choose_;
  bool reducing_ = false;
  QString folder_;         // the folder of the reduction under way
  QString cancel_reason_;  // why it was cancelled, when not by the user
  QString written_;        // the model.json of the last bundle written (its note stays with it)
  ReduceResultPtr result_;

  QPushButton* reduce_;
  QPushButton* cancel_;
  QProgressBar* progress_;
  QLabel* status_;
};

}  // namespace tfjsi::ui
