// The main window: menus, the graph canvas in the middle, the Model, Properties, Run and Outputs
// docks, and the worker thread on which the ModelController loads models and the RunController
// runs them.
#pragma once

#include <QImage>
#include <QMainWindow>
#include <QRect>
#include <QThread>
#include <atomic>
#include <initializer_list>
#include <memory>

#include "compare_job.h"
#include "fp16_check_job.h"
#include "loaded_model.h"
#include "quantize_job.h"
#include "recent_files.h"
#include "reduce_job.h"
#include "run_result.h"

class QLabel;
class QMenu;
class QProgressBar;
class QAction;

namespace tfjsi::viewers {
class GraphView;
}

namespace tfjsi::ui {

class CompareDock;
class EnvDock;
class MemoryDock;
class ModelController;
class ModelDock;
class OutputsDock;
class PrecisionDock;
class ProfileDock;
class PropertiesDock;
class QuantizeDialog;
class RunController;
class RunDock;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Starts loading on the worker thread; modelOpened or modelFailed tells how it went.
  void open_model(const QString& path);
  bool is_loading() const { return loading_; }
  LoadedModelPtr model() const { return model_; }

  viewers::GraphView* graph_view() const { return graph_view_; }
  ModelDock* model_dock() const { return model_dock_; }
  PropertiesDock* properties_dock() const { return properties_dock_; }
  RunDock* run_dock() const { return run_dock_; }
  OutputsDock* outputs_dock() const { return outputs_dock_; }
  MemoryDock* memory_dock() const { return memory_dock_; }
  ProfileDock* profile_dock() const { return profile_dock_; }
  EnvDock* env_dock() const { return env_dock_; }
  PrecisionDock* precision_dock() const { return precision_dock_; }
  CompareDock* compare_dock() const { return compare_dock_; }
  // Lives on the worker thread: connect to its signals, call its slots queued only.
  RunController* run_controller() const { return run_controller_; }

  // Runs (or benchmarks) the open model with the Run dock's settings, on the worker thread;
  // runFinished or runFailed tells how it went. Ignored while a run is under way.
  void run_model(bool benchmark = false);
  // Asks the run (or fp16 check) under way to stop at its next node.
  void cancel_run();
  bool is_running() const { return running_; }
  // Runs the fp16 check on the run controller's engine; false (and nothing sent) while a run, a
  // check or a load is under way. checkFinished or checkFailed tells how it went.
  bool check_fp16(Fp16CheckRequest request);
  bool is_checking() const { return checking_; }
  // Compares two backends on the run controller's engine, as check_fp16 checks: false (and
  // nothing sent) while a run, a check, a comparison or a load is under way.
  bool compare(CompareRequest request);
  bool is_comparing() const { return comparing_; }
  // Reduces the open model to a repro (the Precision and Compare docks' "Reduce to a repro..."),
  // as check_fp16 checks: false (and nothing sent) while the engine is busy or a load is under
  // way. reduceFinished or reduceFailed tells how it went.
  bool reduce(ReduceRequest request);
  bool is_reducing() const { return reducing_; }
  // The Quantize dialog's advice or write, the same way.
  bool quantize(QuantizeRequest request);
  bool is_quantizing() const { return quantizing_; }
  // What holds the engine now, as a user reads it ("a run", "an fp16 check"); empty when idle.
  QString busy_with() const;
  // The Run dock's settings (backend, inputs, threads) as a run would take them now.
  RunRequest run_settings() const;
  // The Model dock's "Quantize...": shows the dialog for the open model (made on first use).
  void open_quantize_dialog();
  QuantizeDialog* quantize_dialog() const { return quantize_dialog_; }
  // The geometry the window takes on `screen`'s available area: 1400x900 where it fits, else the
  // whole available area, centred.
  static QRect initial_geometry(const QRect& available);
  RunResultPtr last_result() const { return last_result_; }
  // The window as it looks, the GL canvas included (QWidget::grab leaves GL areas blank).
  QImage grab_window();

 signals:
  void requestOpen(const QString& path);  // to the controller (queued)
  void modelOpened(const QString& path);
  void modelFailed(const QString& path, const QString& message);
  void requestRun(tfjsi::ui::RunRequest request);  // to the run controller (queued)
  void runFinished(tfjsi::ui::RunResultPtr result);
  void runFailed(const QString& message, bool cancelled);
  void requestCheck(tfjsi::ui::Fp16CheckRequest request);  // to the run controller (queued)
  void checkFinished(tfjsi::ui::Fp16CheckResultPtr result);
  void checkFailed(const QString& message, bool cancelled);
  void requestCompare(tfjsi::ui::CompareRequest request);  // to the run controller (queued)
  void compareFinished(tfjsi::ui::CompareResultPtr result);
  void compareFailed(const QString& message, bool cancelled);
  void requestReduce(tfjsi::ui::ReduceRequest request);  // to the run controller (queued)
  void reduceFinished(tfjsi::ui::ReduceResultPtr result);
  void reduceFailed(const QString& message, bool cancelled);
  void requestQuantize(tfjsi::ui::QuantizeRequest request);  // to the run controller (queued)
  void quantizeFinished(tfjsi::ui::QuantizeResultPtr result);
  void quantizeFailed(const QString& message, bool cancelled);

 protected:
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;
  void closeEvent(QCloseEvent* e) override;

 private:
  void build_menus();
  void rebuild_recent_menu();
  void on_loaded(LoadedModelPtr model);
  void on_failed(const QString& path, const QString& message);
  void export_graph(bool png);
  // The folder holding the open model's model.json, else the last opened one's (empty if none).
  QString last_model_folder() const;
  // How the model is named to a user: its bundle folder's name for a model.json, else the
  // file's name without .json.
  QString model_display_name() const;
  // Where an export is proposed: the model's name with `suffix`, in the last export's folder.
  QString export_name(const QString& suffix) const;
  void about();
  void build_run_side();
  void build_run_menu();
  void on_run_finished(RunResultPtr result);
  void on_run_failed(const QString& message, bool cancelled);
  void colour_graph();  // by the Run dock's choice, from the last result
  // The Run dock's "Colour graph by" and the Precision panel's colour buttons kept in step.
  void connect_colour_choice();
  // The Memory, Profile and Environment docks, tabbed with Outputs, and their View menu entries.
  void build_panels();
  // The Precision and Compare docks, tabbed at the bottom, wired to the Run dock and the model.
  void build_check_docks();
  // Show/hide entries for `docks` in the View menu, with the other docks' (above its first
  // separator).
  void add_dock_toggles(std::initializer_list<QDockWidget*> docks);
  void on_check_done();
  void on_compare_done();
  // Reduce and quantize: their requests, answers and the Run dock's busy line.
  void build_tool_jobs();
  void on_tool_done();
  // A run, an fp16 check, a comparison, a reduction or a quantization holds the engine.
  bool engine_busy() const {
    return running_ || checking_ || comparing_ || reducing_ || quantizing_;
  }
  // The saved geometry when it fits the screen now, else a size made for that screen.
  void place_window();

  QThread worker_;
  ModelController* controller_ = nullptr;  // lives on worker_
  LoadedModelPtr model_;
  bool loading_ = false;
  RecentFiles recent_;
  RunController* run_controller_ = nullptr;  // lives on worker_ too (one thread drives the engine)
  std::shared_ptr<std::atomic<bool>> cancel_ = std::make_shared<std::atomic<bool>>(false);
  bool running_ = false;
  bool checking_ = false;
  bool comparing_ = false;
  bool reducing_ = false;
  bool quantizing_ = false;
  RunResultPtr last_result_;
  QString last_export_dir_;
  // The graph shows op families until a run; the first run then colours it by backend, unless
  // the user picked a colouring of their own.
  bool colour_follows_run_ = true;

  viewers::GraphView* graph_view_ = nullptr;
  ModelDock* model_dock_ = nullptr;
  PropertiesDock* properties_dock_ = nullptr;
  RunDock* run_dock_ = nullptr;
  OutputsDock* outputs_dock_ = nullptr;
  MemoryDock* memory_dock_ = nullptr;
  ProfileDock* profile_dock_ = nullptr;
  EnvDock* env_dock_ = nullptr;
  PrecisionDock* precision_dock_ = nullptr;
  CompareDock* compare_dock_ = nullptr;
  QuantizeDialog* quantize_dialog_ = nullptr;
  QAction* run_action_ = nullptr;
  QAction* bench_action_ = nullptr;
  QAction* cancel_action_ = nullptr;
  QLabel* run_status_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  QMenu* view_menu_ = nullptr;
  QAction* show_const_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
};

}  // namespace tfjsi::ui
