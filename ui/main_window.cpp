#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
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
#include <QStatusBar>

#include "graph_view.h"
#include "model_controller.h"
#include "model_dock.h"
#include "properties_dock.h"

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
  resize(1400, 900);

  graph_view_ = new viewers::GraphView(this);
  graph_view_->setObjectName("graphView");
  setCentralWidget(graph_view_);

  model_dock_ = new ModelDock(this);
  properties_dock_ = new PropertiesDock(this);
  addDockWidget(Qt::LeftDockWidgetArea, model_dock_);
  addDockWidget(Qt::RightDockWidgetArea, properties_dock_);
  resizeDocks({model_dock_, properties_dock_}, {330, 360}, Qt::Horizontal);

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
  worker_.setObjectName("model-worker");
  worker_.start();

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
}

MainWindow::~MainWindow() {
  worker_.quit();
  worker_.wait();
}

void MainWindow::build_menus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open..."), this, [this] {
    QString path = QFileDialog::getOpenFileName(this, tr("Open a TF.js model"), QString(),
                                                tr("TF.js model (*.json);;All files (*)"));
    if (!path.isEmpty()) open_model(path);
  });
  open->setShortcut(QKeySequence::Open);
  file->addAction(tr("Open &Folder..."), this, [this] {
    QString dir = QFileDialog::getExistingDirectory(this, tr("Open a folder holding model.json"));
    if (!dir.isEmpty()) open_model(dir);
  });
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  rebuild_recent_menu();
  file->addSeparator();
  QMenu* exp = file->addMenu(tr("&Export Graph"));
  exp->addAction(tr("As &PNG..."), this, &MainWindow::export_png);
  exp->addAction(tr("As &SVG..."), this, &MainWindow::export_svg);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
  quit->setShortcut(QKeySequence::Quit);

  view_menu_ = menuBar()->addMenu(tr("&View"));
  view_menu_->addAction(model_dock_->toggleViewAction());
  view_menu_->addAction(properties_dock_->toggleViewAction());
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
  emit requestOpen(path);
}

void MainWindow::on_loaded(LoadedModelPtr model) {
  loading_ = false;
  progress_->hide();
  model_ = std::move(model);
  const QString path = QString::fromStdString(model_->bundle.model_json.string());
  recent_.add(path);
  rebuild_recent_menu();
  setWindowTitle(tr("%1 - TF.js Inspector").arg(QFileInfo(path).fileName()));
  model_dock_->show_summary(model_->summary);
  properties_dock_->set_model(model_);
  graph_view_->set_graph(model_->graph);
  status_->setText(tr("Loaded %1 in %2 ms: %3 nodes")
                       .arg(path)
                       .arg(model_->load_ms, 0, 'f', 0)
                       .arg(model_->graph->nodes.size()));
  emit modelOpened(path);
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

void MainWindow::export_png() {
  QString file = QFileDialog::getSaveFileName(this, tr("Export graph as PNG"), "graph.png",
                                              tr("PNG image (*.png)"));
  if (file.isEmpty()) return;
  try {
    graph_view_->export_png(file);
    status_->setText(tr("Saved %1").arg(file));
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Export failed"), QString::fromUtf8(e.what()));
  }
}

void MainWindow::export_svg() {
  QString file = QFileDialog::getSaveFileName(this, tr("Export graph as SVG"), "graph.svg",
                                              tr("SVG image (*.svg)"));
  if (file.isEmpty()) return;
  try {
    graph_view_->export_svg(file);
    status_->setText(tr("Saved %1").arg(file));
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Export failed"), QString::fromUtf8(e.what()));
  }
}

void MainWindow::about() {
  QMessageBox::about(this, tr("About TF.js Inspector"),
                     tr("<b>TF.js Inspector %1</b><p>Opens TensorFlow.js model bundles and shows "
                        "their graph, ops, shapes and weights.</p><p>Graph layout by Graphviz, "
                        "canvas by Dear ImGui, windows by Qt %2.</p>")
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
