// Opening models the ways a user does besides File > Open: dropping a model folder (or a
// model.json) onto the window, and File > Open Recent, which lists what was opened, newest
// first, reopens it, and forgets a model that has gone. Drag events are sent to the canvas of
// a shown MainWindow, as the window system delivers them. Needs a display (xvfb-run).
#include <QtTest>

#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSurfaceFormat>
#include <filesystem>
#include <fstream>

#include "graph_view.h"
#include "gui_test_main.h"
#include "main_window.h"
#include "support/test_support.h"

using namespace tfjsi;

namespace {

constexpr int kLoadTimeoutMs = 120000;

// A model folder as users keep them: model.json and its shard side by side.
std::filesystem::path model_folder(const std::filesystem::path& root, const std::string& name,
                                   const std::string& corpus_model) {
  const auto src = test::corpus_model(corpus_model);
  const auto dir = root / name;
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(src, dir / "model.json");
  for (const auto& f : std::filesystem::directory_iterator(src.parent_path()))
    if (f.path().stem() == src.stem() && f.path().extension() == ".bin")
      std::filesystem::copy_file(f.path(), dir / f.path().filename());
  return dir;
}

QMimeData* urls(const QStringList& paths) {
  auto* m = new QMimeData;
  QList<QUrl> list;
  for (const auto& p : paths) list << QUrl::fromLocalFile(p);
  m->setUrls(list);
  return m;
}

}  // namespace

class OpenPathsTest : public QObject {
  Q_OBJECT
  std::unique_ptr<ui::MainWindow> win_;
  test::TempDir tmp_;
  std::filesystem::path a_, b_;

  // Drags `paths` over the canvas and drops them; returns whether the window took the drag.
  bool drop(const QStringList& paths) {
    QWidget* target = win_->graph_view();
    const QPointF at(target->width() / 2.0, target->height() / 2.0);
    std::unique_ptr<QMimeData> data(urls(paths));
    QDragEnterEvent enter(at.toPoint(), Qt::CopyAction, data.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    if (!enter.isAccepted()) {
      QDragLeaveEvent leave;
      QApplication::sendEvent(target, &leave);
      return false;
    }
    QDropEvent dropped(at, Qt::CopyAction, data.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &dropped);
    return dropped.isAccepted();
  }

  QMenu* recent_menu() {
    for (QAction* a : win_->menuBar()->actions())
      if (a->menu())
        for (QAction* b : a->menu()->actions())
          if (b->menu() && b->text().remove('&') == "Open Recent") return b->menu();
    return nullptr;
  }
  QStringList recent_entries() {
    QStringList out;
    for (QAction* a : recent_menu()->actions())
      if (!a->isSeparator() && a->isEnabled() && a->text().remove('&') != "Clear List")
        out << a->text();
    return out;
  }

 private slots:
  void initTestCase() {
    a_ = model_folder(tmp_.path, "first model", "blazeface");
    b_ = model_folder(tmp_.path, "second", "emotion");
    win_ = std::make_unique<ui::MainWindow>();
    win_->resize(1200, 760);
    win_->show();
    QVERIFY(QTest::qWaitForWindowExposed(win_.get()));
    QVERIFY(recent_menu());
    QVERIFY(recent_entries().isEmpty());
  }

  void dropsOfOtherThingsAreRefused() {
    const auto txt = tmp_.path / "notes.txt";
    std::ofstream(txt) << "not a model";
    QVERIFY(!drop({QString::fromStdString(txt.string())}));
    // A folder without model.json is not a model either.
    std::filesystem::create_directories(tmp_.path / "empty");
    QVERIFY(!drop({QString::fromStdString((tmp_.path / "empty").string())}));
    QVERIFY(!win_->is_loading());
    QVERIFY(!win_->model());
  }

  void droppedFolderOpens() {
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    QVERIFY(drop({QString::fromStdString(a_.string())}));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kLoadTimeoutMs);
    QVERIFY(win_->model());
    QCOMPARE(win_->model()->bundle.dir, a_);
    // The title names the bundle by its folder: every bundle's file is model.json.
    QVERIFY2(win_->windowTitle().startsWith("first model"), qPrintable(win_->windowTitle()));
    QTRY_VERIFY_WITH_TIMEOUT(
        win_->graph_view()->has_layout() && !win_->graph_view()->layout_pending(), kLoadTimeoutMs);
    QCOMPARE(recent_entries(), QStringList{QString::fromStdString((a_ / "model.json").string())});
  }

  void droppedModelJsonOpens() {
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    // Among several dropped files, the first model is opened.
    QVERIFY(drop({QString::fromStdString((tmp_.path / "notes.txt").string()),
                  QString::fromStdString((b_ / "model.json").string())}));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kLoadTimeoutMs);
    QCOMPARE(win_->model()->bundle.dir, b_);
    // Newest first.
    QCOMPARE(recent_entries(), (QStringList{QString::fromStdString((b_ / "model.json").string()),
                                            QString::fromStdString((a_ / "model.json").string())}));
    QTRY_VERIFY_WITH_TIMEOUT(
        win_->graph_view()->has_layout() && !win_->graph_view()->layout_pending(), kLoadTimeoutMs);
    QTest::qWait(200);
    QImage shot = win_->grab_window();
    QVERIFY(shot.save(QDir::current().filePath("open_paths_dropped.png")));
  }

  void recentMenuReopens() {
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    const QString first = QString::fromStdString((a_ / "model.json").string());
    QAction* entry = nullptr;
    for (QAction* a : recent_menu()->actions())
      if (a->text() == first) entry = a;
    QVERIFY(entry);
    entry->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kLoadTimeoutMs);
    QCOMPARE(win_->model()->bundle.dir, a_);
    QCOMPARE(recent_entries().front(), first);  // moved back to the top
    QCOMPARE(recent_entries().size(), 2);
  }

  void recentModelThatHasGoneIsForgotten() {
    const QString second = QString::fromStdString((b_ / "model.json").string());
    std::filesystem::remove_all(b_);
    QAction* entry = nullptr;
    for (QAction* a : recent_menu()->actions())
      if (a->text() == second) entry = a;
    QVERIFY(entry);
    QSignalSpy failed(win_.get(), &ui::MainWindow::modelFailed);
    entry->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kLoadTimeoutMs);
    QMessageBox* box = nullptr;
    QTRY_VERIFY((box = win_->findChild<QMessageBox*>("loadErrorDialog")) != nullptr);
    box->accept();
    QCOMPARE(recent_entries(), QStringList{QString::fromStdString((a_ / "model.json").string())});
    // The model that was open stays open.
    QCOMPARE(win_->model()->bundle.dir, a_);
  }

  void clearListEmptiesTheMenu() {
    QAction* clear = nullptr;
    for (QAction* a : recent_menu()->actions())
      if (a->text().remove('&') == "Clear List") clear = a;
    QVERIFY(clear);
    clear->trigger();
    QVERIFY(recent_entries().isEmpty());
  }

  void cleanupTestCase() { win_.reset(); }
};

int main(int argc, char** argv) {
  return tfjsi::test::run_gui_suite<OpenPathsTest>(argc, argv, "tfjs-inspector-open-paths-test");
}

#include "open_paths_test.moc"
