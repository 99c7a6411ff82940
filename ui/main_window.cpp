#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>

#include "compare_dock.h"
#include "env_dock.h"
#include "graph/transpose_sinking.h"
#include "graph_view.h"
#include "memory_dock.h"
#include "model_controller.h"
#include "model_dock.h"
#include "outputs_dock.h"
#include "precision_dock.h"
#include "profile_dock.h"
#include "properties_dock.h"
#include "quantize_dialog.h"
#include "run_controller.h"
#include "run_dock.h"

namespace tfjsi::ui {
namespace {

// A dropped or given path we can open: a .json file or a folder holding model.json.
bool openable(const QString& path) {
  QFileInfo fi(path);
  if (fi.isDir()) return QFileInfo::exists(fi.filePath() + "/model.json");
  return fi.isFile() && fi.suffix().compare("json", Qt::CaseInsensitive) == 0;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  qRegisterMetaType<LoadedModelPtr>();
  setWindowTitle(tr("TF.js Inspector"));
  setWindowIcon(QIcon(":/icons/tfjs-inspector.png"));
  setAcceptDrops(true);
  // Sized first: the docks' sizes set below are then kept rather than scaled from a default size.
  place_window();
  // The left column (Model, Run) runs down to the status bar: the Precision dock, which grows
  // after a check, takes its height from the graph and the panels on the right, never from
  // the Model dock.
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  setCorner(Qt::BottomRightCorner, Qt::BottomDockWidgetArea);

  graph_view_ = new viewers::GraphView(this);
  graph_view_->setObjectName("graphView");
  setCentralWidget(graph_view_);

  model_dock_ = new ModelDock(this);
  properties_dock_ = new PropertiesDock(this);
  addDockWidget(Qt::LeftDockWidgetArea, model_dock_);
  addDockWidget(Qt::RightDockWidgetArea, properties_dock_);
  resizeDocks({model_dock_, properties_dock_}, {310, 360}, Qt::Horizontal);

  progress_ = new QProgressBar(this);
  progress_->setObjectName("loadProgress");
  progress_->setRange(0, 100);
  progress_->setMaximumWidth(220);
  progress_->hide();
  status_ = new QLabel(tr("Ready"), this);
  statusBar()->addWidget(status_, 1);
  statusBar()->addPermanentWidget(progress_);

  controller_ = new ModelController;
  controller_->moveToThread(&worker_);
  connect(&worker_, &QThread::finished, controller_, &QObject::deleteLater);
  connect(this, &MainWindow::requestOpen, controller_, &ModelController::open,
          Qt::QueuedConnection);
  connect(controller_, &ModelController::loadProgress, this, [this](const QString& stage, int pct) {
    status_->setText(stage + QStringLiteral("..."));
    progress_->setValue(pct);
  });
  connect(controller_, &ModelController::modelLoaded, this, &MainWindow::on_loaded);
  connect(controller_, &ModelController::loadFailed, this, &MainWindow::on_failed);
  build_run_side();
  worker_.setObjectName("model-worker");
  worker_.start();
  QMetaObject::invokeMethod(run_controller_, &RunController::start, Qt::QueuedConnection);

  connect(graph_view_, &viewers::GraphView::nodeSelected, properties_dock_, [this](int n) {
    if (n >= 0 || properties_dock_->current_node_name().size()) properties_dock_->show_node(n);
  });
  connect(graph_view_, &viewers::GraphView::groupSelected, properties_dock_,
          &PropertiesDock::show_group);
  connect(properties_dock_, &PropertiesDock::nodeActivated, graph_view_,
          [this](int n) { graph_view_->select_node(n, true); });
  connect(model_dock_, &ModelDock::nodeActivated, graph_view_, [this](const QString& name) {
    int n = graph_view_->find_node(name);
    if (n >= 0) graph_view_->select_node(n, true);
  });
  connect(graph_view_, &viewers::GraphView::layoutFailed, this,
          [this](const QString& msg) { status_->setText(tr("Layout failed: %1").arg(msg)); });
  connect(graph_view_, &viewers::GraphView::layoutReady, this, [this] {
    if (!loading_)
      status_->setText(tr("%1 boxes laid out in %2 ms")
                           .arg(graph_view_->visible_box_count())
                           .arg(graph_view_->last_layout_ms(), 0, 'f', 0));
  });
  build_menus();
  build_run_menu();
  build_panels();
  build_check_docks();
  build_tool_jobs();
  connect_colour_choice();
}

QRect MainWindow::initial_geometry(const QRect& available) {
  const QSize size = QSize(1400, 900).boundedTo(available.size());
  const QSize margin = (available.size() - size) / 2;
  return QRect(available.topLeft() + QPoint(margin.width(), margin.height()), size);
}

void MainWindow::place_window() {
  QScreen* screen = QGuiApplication::primaryScreen();
  const QByteArray saved = QSettings().value(QStringLiteral("window/geometry")).toByteArray();
  if (!saved.isEmpty() && restoreGeometry(saved)) {
    // A geometry saved on a bigger or another screen would put docks out of reach.
    QScreen* on = QGuiApplication::screenAt(geometry().center());
    if (on && on->availableGeometry().contains(geometry())) return;
    screen = on ? on : screen;
  }
  if (!screen) {
    resize(1280, 800);
    return;
  }
  setGeometry(initial_geometry(screen->availableGeometry()));
}

MainWindow::~MainWindow() {
  cancel_->store(true);  // a run under way stops at its next node, so the worker can quit
  worker_.quit();
  worker_.wait();
}

void MainWindow::build_menus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open..."), this, [this] {
    QString path = QFileDialog::getOpenFileName(this, tr("Open a TF.js model"), last_model_folder(),
                                                tr("TF.js model (*.json);;All files (*)"));
    if (!path.isEmpty()) open_model(path);
  });
  open->setShortcut(QKeySequence::Open);
  file->addAction(tr("Open &Folder..."), this, [this] {
    // From the folder that holds the last model's folder: its neighbours are the likely next.
    const QString last = last_model_folder();
    QString dir = QFileDialog::getExistingDirectory(
        this, tr("Open a folder holding model.json"),
        last.isEmpty() ? QString() : QFileInfo(last).absolutePath());
    if (!dir.isEmpty()) open_model(dir);
  });
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  rebuild_recent_menu();
  file->addSeparator();
  QMenu* exp = file->addMenu(tr("&Export Graph"));
  exp->addAction(tr("As &PNG..."), this, [this] { export_graph(true); });
  exp->addAction(tr("As &SVG..."), this, [this] { export_graph(false); });
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
  quit->setShortcut(QKeySequence::Quit);

  view_menu_ = menuBar()->addMenu(tr("&View"));
  view_menu_->addAction(model_dock_->toggleViewAction());
  view_menu_->addAction(properties_dock_->toggleViewAction());
  view_menu_->addAction(run_dock_->toggleViewAction());
  view_menu_->addAction(outputs_dock_->toggleViewAction());
  view_menu_->addSeparator();
  QAction* find =
      view_menu_->addAction(tr("&Find in Graph"), graph_view_, &viewers::GraphView::open_find);
  find->setShortcut(QKeySequence::Find);
  find->setShortcutContext(Qt::WindowShortcut);
  view_menu_->addAction(tr("&Fit Graph"), graph_view_,
                        [this] { graph_view_->fit(); });  // F on the canvas
  show_const_ = view_menu_->addAction(tr("Show &Const Nodes"));
  show_const_->setCheckable(true);
  show_const_->setChecked(graph_view_->show_const());
  connect(show_const_, &QAction::toggled, graph_view_, &viewers::GraphView::set_show_const);
  connect(graph_view_, &viewers::GraphView::showConstChanged, show_const_, &QAction::setChecked);
  view_menu_->addAction(tr("&Expand All Groups"), graph_view_, &viewers::GraphView::expand_all);
  view_menu_->addAction(tr("C&ollapse All Groups"), graph_view_, &viewers::GraphView::collapse_all);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About TF.js Inspector"), this, &MainWindow::about);
  help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

QString MainWindow::last_model_folder() const {
  if (model_) return QString::fromStdString(model_->bundle.model_json.parent_path().string());
  const QStringList files = recent_.list();
  return files.isEmpty() ? QString() : QFileInfo(files.front()).absolutePath();
}

QString MainWindow::model_display_name() const {
  if (!model_) return QString();
  const QFileInfo json(QString::fromStdString(model_->bundle.model_json.string()));
  // Every converted bundle's file is model.json: its folder's name is what tells them apart.
  if (json.fileName().compare(QStringLiteral("model.json"), Qt::CaseInsensitive) == 0 &&
      !json.absoluteDir().dirName().isEmpty())
    return json.absoluteDir().dirName();
  return json.completeBaseName();
}

void MainWindow::rebuild_recent_menu() {
  recent_menu_->clear();
  const QStringList files = recent_.list();
  for (const QString& f : files) {
    recent_menu_->addAction(f, this, [this, f] { open_model(f); });
  }
  if (files.isEmpty()) recent_menu_->addAction(tr("(none)"))->setEnabled(false);
  recent_menu_->addSeparator();
  recent_menu_->addAction(tr("Clear List"), this, [this] {
    recent_.clear();
    rebuild_recent_menu();
  });
}

void MainWindow::open_model(const QString& path) {
  loading_ = true;
  status_->setText(tr("Opening %1...").arg(path));
  progress_->setValue(0);
  progress_->show();
  // The worker takes requests in order: a run under way would hold the new model back until it
  // ended, so it is cancelled (its result is for the model being replaced anyway).
  if (engine_busy()) cancel_->store(true);
  emit requestOpen(path);
}

void MainWindow::on_loaded(LoadedModelPtr model) {
  loading_ = false;
  progress_->hide();
  model_ = std::move(model);
  const QString path = QString::fromStdString(model_->bundle.model_json.string());
  recent_.add(path);
  rebuild_recent_menu();
  setWindowTitle(tr("%1 - TF.js Inspector").arg(model_display_name()));
  setWindowFilePath(path);
  model_dock_->show_summary(model_->summary);
  properties_dock_->set_model(model_);
  // Every per-model panel starts afresh (the Memory, Profile and Precision docks on modelOpened):
  // a run time, a search or a verdict of the last model would read as this one's.
  run_status_->clear();
  graph_view_->set_find_text(QString());
  graph_view_->set_graph(model_->graph);
  run_dock_->set_model(model_);
  outputs_dock_->set_model(model_);
  last_result_.reset();
  graph_view_->clear_node_colouring();
  colour_follows_run_ = true;
  run_dock_->show_graph_colour(GraphColour::OpFamily);
  run_dock_->set_fp16_colours_enabled(false);
  run_dock_->set_compare_colours_enabled(false);
  status_->setText(tr("Loaded %1 in %2 ms: %3 nodes")
                       .arg(path)
                       .arg(model_->load_ms, 0, 'f', 0)
                       .arg(model_->graph->nodes.size()));
  emit modelOpened(path);
}

// ---- the run side: the RunController on the worker, the Run and Outputs docks, the Run menu ----

void MainWindow::build_run_side() {
  qRegisterMetaType<RunRequest>();
  qRegisterMetaType<RunResultPtr>();
  qRegisterMetaType<BackendList>();
  run_dock_ = new RunDock(this);
  outputs_dock_ = new OutputsDock(this);
  addDockWidget(Qt::LeftDockWidgetArea, run_dock_);
  splitDockWidget(model_dock_, run_dock_, Qt::Vertical);
  addDockWidget(Qt::RightDockWidgetArea, outputs_dock_);
  splitDockWidget(properties_dock_, outputs_dock_, Qt::Vertical);
  run_status_ = new QLabel(this);
  run_status_->setObjectName("runStatus");
  statusBar()->addPermanentWidget(run_status_);

  run_controller_ = new RunController(cancel_);
  run_controller_->moveToThread(&worker_);
  connect(&worker_, &QThread::finished, run_controller_, &QObject::deleteLater);
  // Both live on the worker: the model reaches the run controller there, in load order.
  connect(controller_, &ModelController::modelLoaded, run_controller_, &RunController::setModel);
  connect(this, &MainWindow::requestRun, run_controller_, &RunController::run,
          Qt::QueuedConnection);
  connect(run_controller_, &RunController::backendsReady, run_dock_, &RunDock::set_backends);
  connect(run_controller_, &RunController::runStarted, this,
          [this](const QString& what) { status_->setText(what + QStringLiteral("...")); });
  connect(run_controller_, &RunController::runProgress, run_dock_, &RunDock::show_progress);
  connect(run_controller_, &RunController::compileProgress, run_dock_,
          &RunDock::show_compile_progress);
  connect(run_controller_, &RunController::runFinished, this, &MainWindow::on_run_finished);
  connect(run_controller_, &RunController::runFailed, this, &MainWindow::on_run_failed);
  qRegisterMetaType<Fp16CheckRequest>();
  qRegisterMetaType<Fp16CheckResultPtr>();
  connect(this, &MainWindow::requestCheck, run_controller_, &RunController::checkFp16,
          Qt::QueuedConnection);
  connect(run_controller_, &RunController::checkFinished, this, [this](Fp16CheckResultPtr r) {
    on_check_done();
    emit checkFinished(std::move(r));
  });
  connect(run_controller_, &RunController::checkFailed, this,
          [this](const QString& message, bool cancelled) {
            on_check_done();
            emit checkFailed(message, cancelled);
          });
  qRegisterMetaType<CompareRequest>();
  qRegisterMetaType<CompareResultPtr>();
  connect(this, &MainWindow::requestCompare, run_controller_, &RunController::compare,
          Qt::QueuedConnection);
  connect(run_controller_, &RunController::compareFinished, this, [this](CompareResultPtr r) {
    on_compare_done();
    emit compareFinished(std::move(r));
  });
  connect(run_controller_, &RunController::compareFailed, this,
          [this](const QString& message, bool cancelled) {
            on_compare_done();
            emit compareFailed(message, cancelled);
          });

  connect(run_dock_, &RunDock::runRequested, this, &MainWindow::run_model);
  connect(run_dock_, &RunDock::cancelRequested, this, &MainWindow::cancel_run);
  connect(run_dock_, &RunDock::settingsChanged, this, [this] {
    if (run_dock_->rerun_box()->isChecked() && last_result_ && !running_) run_model(false);
  });
  connect(run_dock_, &RunDock::graphColourChanged, this, [this] {
    colour_follows_run_ = false;  // the user chose
    colour_graph();
  });
  connect(graph_view_, &viewers::GraphView::nodeSelected, outputs_dock_, [this](int n) {
    if (n >= 0 && model_ && n < static_cast<int>(model_->graph->nodes.size()))
      outputs_dock_->show_node(model_->graph->nodes[static_cast<std::size_t>(n)].name);
  });
}

void MainWindow::build_run_menu() {
  QAction* help = menuBar()->actions().constLast();  // Help stays last
  auto* run = new QMenu(tr("&Run"), this);
  run_action_ = run->addAction(tr("&Run"), this, [this] { run_model(false); });
  run_action_->setObjectName("runAction");
  run_action_->setShortcut(Qt::Key_F5);
  bench_action_ = run->addAction(tr("&Benchmark"), this, [this] { run_model(true); });
  bench_action_->setShortcut(Qt::CTRL | Qt::Key_F5);
  cancel_action_ = run->addAction(tr("&Cancel"), this, &MainWindow::cancel_run);
  // Enabled only during a run, so Esc still reaches the graph's find field otherwise.
  cancel_action_->setObjectName("cancelRunAction");
  cancel_action_->setShortcut(Qt::Key_Escape);
  cancel_action_->setEnabled(false);
  menuBar()->insertMenu(help, run);
}

void MainWindow::run_model(bool benchmark) {
  if (engine_busy() || !model_ || loading_) return;
  running_ = true;
  cancel_->store(false);  // before the request: a Cancel pressed from now on counts
  RunRequest request = run_dock_->request(benchmark);
  const QString where = QString::fromStdString(request.backend) +
                        (request.backend == "gl" ? (request.fp16 ? " fp16" : " fp32") : "");
  run_dock_->set_running(
      true, benchmark ? tr("Benchmarking on %1").arg(where) : tr("Running on %1").arg(where));
  cancel_action_->setEnabled(true);
  emit requestRun(std::move(request));
}

void MainWindow::cancel_run() {
  if (engine_busy()) cancel_->store(true);
}

bool MainWindow::check_fp16(Fp16CheckRequest request) {
  if (engine_busy() || !model_ || loading_) return false;
  checking_ = true;
  cancel_->store(false);
  request.model = model_;
  run_dock_->set_running(true, tr("Checking fp16 (see the Precision panel)"));
  cancel_action_->setEnabled(true);
  status_->setText(tr("Checking fp16..."));
  emit requestCheck(std::move(request));
  return true;
}

void MainWindow::on_check_done() {
  checking_ = false;
  cancel_action_->setEnabled(false);
  run_dock_->set_running(false);
  status_->setText(tr("fp16 check ended: see the Precision panel"));
}

bool MainWindow::compare(CompareRequest request) {
  if (engine_busy() || !model_ || loading_) return false;
  comparing_ = true;
  cancel_->store(false);
  request.model = model_;
  run_dock_->set_running(true, tr("Comparing %1 with %2 (see the Compare panel)")
                                   .arg(request.test.label(), request.reference.label()));
  cancel_action_->setEnabled(true);
  status_->setText(tr("Comparing..."));
  emit requestCompare(std::move(request));
  return true;
}

void MainWindow::on_compare_done() {
  comparing_ = false;
  cancel_action_->setEnabled(false);
  run_dock_->set_running(false);
  status_->setText(tr("Comparison ended: see the Compare panel"));
}

// ---- reduce and quantize: long jobs on the run controller's engine ----

void MainWindow::build_tool_jobs() {
  qRegisterMetaType<ReduceRequest>();
  qRegisterMetaType<ReduceResultPtr>();
  qRegisterMetaType<QuantizeRequest>();
  qRegisterMetaType<QuantizeResultPtr>();
  connect(this, &MainWindow::requestReduce, run_controller_, &RunController::reduce,
          Qt::QueuedConnection);
  connect(run_controller_, &RunController::reduceFinished, this, [this](ReduceResultPtr r) {
    on_tool_done();
    emit reduceFinished(std::move(r));
  });
  connect(run_controller_, &RunController::reduceFailed, this,
          [this](const QString& message, bool cancelled) {
            on_tool_done();
            emit reduceFailed(message, cancelled);
          });
  connect(this, &MainWindow::requestQuantize, run_controller_, &RunController::quantize,
          Qt::QueuedConnection);
  connect(run_controller_, &RunController::quantizeFinished, this, [this](QuantizeResultPtr r) {
    on_tool_done();
    emit quantizeFinished(std::move(r));
  });
  connect(run_controller_, &RunController::quantizeFailed, this,
          [this](const QString& message, bool cancelled) {
            on_tool_done();
            emit quantizeFailed(message, cancelled);
          });
  connect(model_dock_, &ModelDock::quantizeRequested, this, &MainWindow::open_quantize_dialog);
  connect(this, &MainWindow::modelOpened, this, [this] {
    model_dock_->set_quantize_enabled(model_ != nullptr);
    if (quantize_dialog_) quantize_dialog_->set_model(model_);
  });
}

QString MainWindow::busy_with() const {
  if (loading_) return tr("the model is still loading");
  if (running_) return tr("a run is under way");
  if (checking_) return tr("an fp16 check is under way");
  if (comparing_) return tr("a comparison is under way");
  if (reducing_) return tr("a reduction is under way");
  if (quantizing_) return tr("a quantization is under way");
  return QString();
}

RunRequest MainWindow::run_settings() const {
  return run_dock_->request(false);
}

bool MainWindow::reduce(ReduceRequest request) {
  if (engine_busy() || !model_ || loading_) return false;
  reducing_ = true;
  cancel_->store(false);
  request.model = model_;
  run_dock_->set_running(
      true, tr("Reducing to a repro (%1)").arg(QString::fromStdString(request.condition.text())));
  cancel_action_->setEnabled(true);
  status_->setText(tr("Reducing..."));
  emit requestReduce(std::move(request));
  return true;
}

bool MainWindow::quantize(QuantizeRequest request) {
  if (engine_busy() || !model_ || loading_) return false;
  quantizing_ = true;
  cancel_->store(false);
  request.model = model_;
  run_dock_->set_running(true,
                         request.advise ? tr("Measuring quantization advice") : tr("Quantizing"));
  cancel_action_->setEnabled(true);
  status_->setText(request.advise ? tr("Measuring quantization advice...") : tr("Quantizing..."));
  emit requestQuantize(std::move(request));
  return true;
}

void MainWindow::on_tool_done() {
  const bool was_reducing = reducing_;
  reducing_ = false;
  quantizing_ = false;
  cancel_action_->setEnabled(false);
  run_dock_->set_running(false);
  status_->setText(was_reducing ? tr("Reduction ended") : tr("Quantization ended"));
}

void MainWindow::open_quantize_dialog() {
  if (!quantize_dialog_) {
    quantize_dialog_ = new QuantizeDialog(*this);
    quantize_dialog_->set_model(model_);
  }
  quantize_dialog_->show();
  quantize_dialog_->raise();
  quantize_dialog_->activateWindow();
}

void MainWindow::on_run_finished(RunResultPtr result) {
  running_ = false;
  cancel_action_->setEnabled(false);
  last_result_ = result;
  run_dock_->set_running(false);
  run_dock_->show_result(*result);
  outputs_dock_->show_result(result);
  const QString where = QString::fromStdString(result->backend) +
                        (result->backend == "gl" ? (result->fp16 ? " fp16" : " fp32") : "");
  run_status_->setText(tr("Last run: %1 ms on %2%3")
                           .arg(result->run_ms, 0, 'f', 2)
                           .arg(where, result->benchmark ? tr(" (median)") : QString()));
  status_->setText(tr("Done"));
  if (colour_follows_run_ && run_dock_->graph_colour() == GraphColour::OpFamily)
    run_dock_->show_graph_colour(GraphColour::Backend);
  colour_graph();
  emit runFinished(result);
}

void MainWindow::connect_colour_choice() {
  if (!precision_dock_) return;
  connect(this, &MainWindow::checkFinished, run_dock_, [this](const Fp16CheckResultPtr& r) {
    run_dock_->set_fp16_colours_enabled(r != nullptr);
  });
  // The panel's buttons colour the graph themselves: the choice then says what they did.
  connect(precision_dock_->colour_status_button(), &QPushButton::clicked, this, [this] {
    colour_follows_run_ = false;
    run_dock_->show_graph_colour(GraphColour::Fp16Status);
  });
  connect(precision_dock_->colour_error_button(), &QPushButton::clicked, this, [this] {
    colour_follows_run_ = false;
    run_dock_->show_graph_colour(GraphColour::Fp16Error);
  });
  if (!compare_dock_) return;
  // A comparison colours the graph by its error as it ends; the choice says so.
  connect(compare_dock_, &CompareDock::graphColoured, this, [this] {
    colour_follows_run_ = false;
    run_dock_->set_compare_colours_enabled(true);
    run_dock_->show_graph_colour(GraphColour::CompareError);
  });
  connect(compare_dock_, &CompareDock::resultCleared, this, [this] {
    run_dock_->set_compare_colours_enabled(false);
    if (run_dock_->graph_colour() == GraphColour::CompareError) {
      run_dock_->show_graph_colour(GraphColour::OpFamily);
      colour_graph();
    }
  });
}

void MainWindow::colour_graph() {
  const GraphColour mode = run_dock_->graph_colour();
  if (mode == GraphColour::Fp16Status || mode == GraphColour::Fp16Error) {
    if (precision_dock_ && precision_dock_->last_result()) {
      if (mode == GraphColour::Fp16Status)
        precision_dock_->colour_by_status();
      else
        precision_dock_->colour_by_error();
    }
    return;
  }
  if (mode == GraphColour::Flops) {
    // From the shapes, so before any run too.
    std::unordered_map<std::string, double> flops;
    if (model_ && model_->graph)
      for (std::size_t i = 0; i < model_->cost.nodes.size(); ++i)
        if (model_->cost.nodes[i].known && model_->cost.nodes[i].flops > 0)
          flops[model_->graph->nodes[i].name] = static_cast<double>(model_->cost.nodes[i].flops);
    graph_view_->set_node_values(tr("FLOPs per node"), flops, true);
    return;
  }
  if (mode == GraphColour::CompareError) {
    if (compare_dock_ && compare_dock_->last_result()) compare_dock_->colour_by_error();
    return;
  }
  if (!last_result_ || mode == GraphColour::OpFamily) {
    graph_view_->clear_node_colouring();
    return;
  }
  const QString where =
      QString::fromStdString(last_result_->backend) +
      (last_result_->backend == "gl" ? (last_result_->fp16 ? " fp16" : " fp32") : "");
  if (mode == GraphColour::Backend) {
    std::unordered_map<std::string, std::string> by_node;
    for (const auto& n : last_result_->nodes) by_node[n.node] = backend_category(n);
    graph_view_->set_node_categories(tr("Backend (run on %1)").arg(where), by_node);
  } else {
    std::unordered_map<std::string, double> ms;
    // Loops run a node often. Fused nodes have no time of their own: their producer's holds it.
    for (const auto& n : last_result_->nodes)
      if (n.fused_into.empty()) ms[n.node] += n.ms;
    graph_view_->set_node_values(tr("ms per node (%1)").arg(where), ms, true);
  }
}

// ---- the Memory, Profile and Environment panels ----

void MainWindow::build_panels() {
  qRegisterMetaType<MemorySample>();
  qRegisterMetaType<EnvInfo>();
  memory_dock_ = new MemoryDock(this);
  profile_dock_ = new ProfileDock(this);
  env_dock_ = new EnvDock(this);
  // Tabbed with Outputs, so that 1280x800 keeps room for the graph; Outputs stays in front.
  for (QDockWidget* d : std::initializer_list<QDockWidget*>{profile_dock_, memory_dock_, env_dock_})
    tabifyDockWidget(outputs_dock_, d);
  outputs_dock_->raise();
  // A little wider than the Outputs dock alone: the panels' tables have several columns.
  // Not more: at 1280 wide the graph keeps about 560 pixels between the docks.
  resizeDocks({outputs_dock_}, {400}, Qt::Horizontal);

  // The controller lives on the worker: these connections are queued both ways.
  connect(run_controller_, &RunController::memorySampled, memory_dock_, &MemoryDock::add_sample);
  connect(memory_dock_, &MemoryDock::resetRequested, run_controller_, &RunController::resetMemory);
  connect(run_controller_, &RunController::environmentReady, env_dock_, &EnvDock::show_environment);
  connect(run_controller_, &RunController::flagRejected, env_dock_, &EnvDock::show_rejected);
  connect(env_dock_, &EnvDock::flagEdited, run_controller_, &RunController::setFlag);
  // Two flags are also the Run dock's settings, which every run applies: keep them in step.
  connect(env_dock_, &EnvDock::flagEdited, this, [this](const QString& name, const QString& v) {
    if (name == "threads")
      run_dock_->threads_box()->setValue(v.toInt());
    else if (name == "gl.float32_enabled")
      run_dock_->fp16_box()->setChecked(v != "true");
  });
  connect(this, &MainWindow::modelOpened, this, [this] {
    memory_dock_->set_model(model_);
    profile_dock_->set_model(model_);
  });
  connect(this, &MainWindow::runFinished, profile_dock_, &ProfileDock::show_result);
  auto select = [this](const QString& name) {
    int n = graph_view_->find_node(name);
    // A node the run moved a Transpose past (graph::sink_transposes) ran under another name.
    if (n < 0) {
      const std::string full = name.toStdString();
      n = graph_view_->find_node(QString::fromStdString(std::string(graph::sunk_origin(full))));
    }
    if (n >= 0) graph_view_->select_node(n, true);
  };
  connect(profile_dock_, &ProfileDock::nodeActivated, graph_view_, select);
  connect(memory_dock_, &MemoryDock::nodeActivated, graph_view_, select);

  // The controller may have started before these connections: ask for a first reading.
  QMetaObject::invokeMethod(run_controller_, &RunController::sampleMemory, Qt::QueuedConnection);
  QMetaObject::invokeMethod(run_controller_, &RunController::requestEnvironment,
                            Qt::QueuedConnection);

  add_dock_toggles({memory_dock_, profile_dock_, env_dock_});
}

void MainWindow::add_dock_toggles(std::initializer_list<QDockWidget*> docks) {
  QAction* after = nullptr;  // the View menu's first separator: the dock toggles go above it
  for (QAction* a : view_menu_->actions())
    if (a->isSeparator()) {
      after = a;
      break;
    }
  for (QDockWidget* d : docks) view_menu_->insertAction(after, d->toggleViewAction());
}

// ---- the Precision and Compare panels ----

void MainWindow::build_check_docks() {
  precision_dock_ = new PrecisionDock(*this);
  addDockWidget(Qt::BottomDockWidgetArea, precision_dock_);
  // Sized to its rows, as it shows until a check has run.
  resizeDocks({precision_dock_}, {precision_dock_->compact_height()}, Qt::Vertical);
  compare_dock_ = new CompareDock(*this);
  tabifyDockWidget(precision_dock_, compare_dock_);
  precision_dock_->raise();  // in front until a comparison is asked for

  // Both take the Run dock's settings (backend, threads, inputs) when they start.
  precision_dock_->set_run_settings([this] { return run_dock_->request(false); });
  compare_dock_->set_run_settings([this] { return run_dock_->request(false); });
  precision_dock_->set_model(model_);
  compare_dock_->set_model(model_);
  connect(this, &MainWindow::modelOpened, this, [this] {
    precision_dock_->set_model(model_);
    compare_dock_->set_model(model_);
  });
  // The controller may have said which backends it has before these connections: the
  // environment, sent after every run and on request (build_panels asks), says it again.
  connect(run_controller_, &RunController::backendsReady, compare_dock_,
          &CompareDock::set_backends);
  connect(run_controller_, &RunController::environmentReady, compare_dock_,
          [this](const EnvInfo& env) { compare_dock_->set_backends(env.backends); });
  add_dock_toggles({precision_dock_, compare_dock_});
}

void MainWindow::on_run_failed(const QString& message, bool cancelled) {
  running_ = false;
  cancel_action_->setEnabled(false);
  run_dock_->set_running(false);
  run_dock_->show_error(message, cancelled);
  status_->setText(cancelled ? tr("Run cancelled") : tr("Run failed: %1").arg(message));
  emit runFailed(message, cancelled);
}

void MainWindow::on_failed(const QString& path, const QString& message) {
  loading_ = false;
  progress_->hide();
  status_->setText(tr("Could not open %1").arg(path));
  // Not exec(): the window stays live (and testable) while the dialog is up.
  auto* box = new QMessageBox(QMessageBox::Critical, tr("Cannot open model"),
                              tr("Could not open %1").arg(path), QMessageBox::Ok, this);
  box->setObjectName("loadErrorDialog");
  box->setInformativeText(message);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->setWindowModality(Qt::WindowModal);
  box->open();
  if (recent_.list().contains(QFileInfo(path).absoluteFilePath()) && !QFileInfo::exists(path)) {
    recent_.remove(QFileInfo(path).absoluteFilePath());
    rebuild_recent_menu();
  }
  emit modelFailed(path, message);
}

void MainWindow::export_graph(bool png) {
  const QString file = QFileDialog::getSaveFileName(
      this, png ? tr("Export graph as PNG") : tr("Export graph as SVG"),
      export_name(png ? "png" : "svg"), png ? tr("PNG image (*.png)") : tr("SVG image (*.svg)"));
  if (file.isEmpty()) return;
  last_export_dir_ = QFileInfo(file).absolutePath();
  try {
    // A PNG of a very large graph is drawn smaller; the note says so.
    const QString note = png ? graph_view_->export_png(file) : QString();
    if (!png) graph_view_->export_svg(file);
    status_->setText(note.isEmpty() ? tr("Saved %1").arg(file)
                                    : tr("Saved %1, %2").arg(file, note));
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Export failed"), QString::fromUtf8(e.what()));
  }
}

QString MainWindow::export_name(const QString& suffix) const {
  const QString name = model_ ? model_display_name() : QStringLiteral("graph");
  return QDir(last_export_dir_.isEmpty() ? QDir::currentPath() : last_export_dir_)
      .filePath(name + "." + suffix);
}

void MainWindow::about() {
  QMessageBox::about(
      this, tr("About TF.js Inspector"),
      tr("<b>TF.js Inspector %1</b><p>Opens TensorFlow.js model bundles (graph and layers "
         "models) and shows their graph, ops, shapes, weights and quantization.</p><p>Runs them "
         "on three backends, switched live: cpu (reference kernels), xnnpack and gl (OpenGL "
         "compute shaders, fp32 or fp16 textures). Checks whether a model survives fp16 and "
         "names the node that first leaves half's range; compares two backends node by node and "
         "names the first node where they part; shows memory and tensor leaks per run, "
         "where a run's time goes per node, and each output.</p><p>The same engine answers on "
         "the command line: <tt>tfjsi</tt> (info, run, bench, check-fp16, compare, memcheck, "
         "reduce, quantize).</p><p>Graph layout by Graphviz, canvas by Dear ImGui, windows by "
         "Qt %2.</p>")
          .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
  if (e->mimeData()->hasUrls())
    for (const QUrl& u : e->mimeData()->urls())
      if (u.isLocalFile() && openable(u.toLocalFile())) {
        e->acceptProposedAction();
        return;
      }
}

void MainWindow::dropEvent(QDropEvent* e) {
  for (const QUrl& u : e->mimeData()->urls())
    if (u.isLocalFile() && openable(u.toLocalFile())) {
      e->acceptProposedAction();
      open_model(u.toLocalFile());
      return;
    }
}

void MainWindow::closeEvent(QCloseEvent* e) {
  QSettings().setValue(QStringLiteral("window/geometry"), saveGeometry());
  QMainWindow::closeEvent(e);
}

QImage MainWindow::grab_window() {
  QImage img = grab().toImage();
  QImage gl = graph_view_->grabFramebuffer();
  QPainter p(&img);
  const QPoint at = graph_view_->mapTo(this, QPoint(0, 0));
  p.drawImage(QRect(at, graph_view_->size()), gl);
  return img;
}

}  // namespace tfjsi::ui
