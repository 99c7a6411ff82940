// The main window: menus, the graph canvas in the middle, the Model and Properties docks, and
// the worker thread on which the ModelController loads models.
#pragma once

#include <QImage>
#include <QMainWindow>
#include <QThread>

#include "loaded_model.h"
#include "recent_files.h"

class QLabel;
class QMenu;
class QProgressBar;
class QAction;

namespace tfjsi::viewers {
class GraphView;
}

namespace tfjsi::ui {

class ModelController;
class ModelDock;
class PropertiesDock;

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
  // The window as it looks, the GL canvas included (QWidget::grab leaves GL areas blank).
  QImage grab_window();

 signals:
  void requestOpen(const QString& path);  // to the controller (queued)
  void modelOpened(const QString& path);
  void modelFailed(const QString& path, const QString& message);

 protected:
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;
  void closeEvent(QCloseEvent* e) override;

 private:
  void build_menus();
  void rebuild_recent_menu();
  void on_loaded(LoadedModelPtr model);
  void on_failed(const QString& path, const QString& message);
  void export_png();
  void export_svg();
  void about();

  QThread worker_;
  ModelController* controller_ = nullptr;  // lives on worker_
  LoadedModelPtr model_;
  bool loading_ = false;
  RecentFiles recent_;

  viewers::GraphView* graph_view_ = nullptr;
  ModelDock* model_dock_ = nullptr;
  PropertiesDock* properties_dock_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  QMenu* view_menu_ = nullptr;
  QAction* show_const_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
};

}  // namespace tfjsi::ui
