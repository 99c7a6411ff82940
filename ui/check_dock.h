// What the Precision and Compare docks share: a long job on the Run panel's engine (started
// through the main window) shown by a progress bar and a stage line, with Cancel; the options on a
// few compact rows until a result comes, then the table and the graph buttons with more height;
// links from names to nodes of the graph; the "Reduce to a repro..." row.
#pragma once

#include <QDockWidget>
#include <functional>
#include <vector>

#include "loaded_model.h"
#include "run_result.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QWidget;

namespace tfjsi::viewers {
class GraphView;
}

namespace tfjsi::ui {

class MainWindow;
class ReduceRow;

class CheckDock : public QDockWidget {
  Q_OBJECT
 public:
  // Where the model inputs and the thread count come from (the Run dock's settings); the reduce
  // row takes them too.
  void set_run_settings(std::function<RunRequest()> settings);
  // Selects and centres the node in the graph (what a link or a table row does) and its table
  // row; false, said in the stage line, when the graph has no node of that name (a node inside a
  // function body).
  bool activate_node(const QString& name);
  // The height the dock needs before a result (its option rows and three lines of text).
  int compact_height() const;
  // Cancels the job under way (the Cancel button).
  void cancel_job();

  QProgressBar* progress_bar() const { return progress_; }
  QLabel* stage_label() const { return stage_; }
  QTableWidget* table() const { return table_; }
  ReduceRow* reduce_row() const { return reduce_row_; }

 protected:
  CheckDock(const QString& title, MainWindow& window);

  void showEvent(QShowEvent* e) override;
  // Before a result the dock holds its options on a few rows; with one, the table and the graph
  // buttons too, and the window gives it more height.
  void set_compact(bool compact);
  // "`step` N: stage, node d of t" in the stage line and the bar (total 0: busy).
  void show_progress(const QString& step, int pass, const QString& stage, int done, int total);
  // The stage line once a job stopped: cancelled (with cancel_reason_ when not by the user), or
  // failed with `message` in red. `cancelled_text` / `cancelled_because` / `failed` are the
  // dock's own words ("Check cancelled.", "Check cancelled: %1.", "Check failed: %1").
  void show_stopped(bool cancelled, const QString& message, const QString& cancelled_text,
                    const QString& cancelled_because, const QString& failed);
  void show_error(const QString& message);  // in the stage line, in red

  // The end of a dock's constructor: Cancel wired, idle, no result.
  void finish_setup();
  // Takes the model just opened; a job under way (the window cancels it) says why it stopped
  // when the cancel comes back.
  void take_model(LoadedModelPtr model);
  virtual void clear_result() = 0;
  // Enables the start button, Cancel, the progress bar and the options for a job under way or
  // not; busy_ says which.
  void set_busy(bool busy);
  // After asking the window to start a job (`accepted`: whether it took it): "Starting..." and
  // busy, or "Not now: ... `retry`." when another job holds the engine.
  void begin_job(bool accepted, const QString& retry);

  // The heights of the option rows (compact_height adds the title, margins and text lines).
  virtual int option_rows_height() const = 0;
  // The widgets a job under way disables.
  virtual std::vector<QWidget*> option_widgets() const = 0;
  // The table row of node `name` to select, or -1; and the column to scroll to.
  virtual int row_of_node(const QString& name) const;
  virtual int scroll_column() const { return 0; }

  MainWindow& window_;
  viewers::GraphView* view_;
  std::function<RunRequest()> settings_;
  LoadedModelPtr model_;
  bool busy_ = false;
  QString cancel_reason_;  // why the job under way was cancelled, when not by the user
  bool compact_ = false;
  bool shown_ = false;
  // Made by the dock's constructor.
  QPushButton* start_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* stage_ = nullptr;
  QWidget* graph_buttons_ = nullptr;
  QTableWidget* table_ = nullptr;
  ReduceRow* reduce_row_ = nullptr;
};

}  // namespace tfjsi::ui
