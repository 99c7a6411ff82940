// Switching to gl as a new user would, with nothing compiled anywhere (empty program and Mesa
// shader caches): the Run dock counts the kernels being compiled while the first result is not
// there yet, and its result line then tells the compiling apart from the run. Saves a screenshot
// of the dock while it compiles. Needs a display (run under xvfb-run).
#include <QtTest>

#include <QComboBox>
#include <QLabel>
#include <QProgressBar>

#include "gui_run.h"
#include "gui_test_main.h"
#include "main_window.h"
#include "run_controller.h"
#include "run_dock.h"
#include "support/test_support.h"

using namespace tfjsi;

class CompileProgressTest : public QObject {
  Q_OBJECT
  std::unique_ptr<ui::MainWindow> win_;

  ui::RunDock* dock() { return win_->run_dock(); }

 private slots:
  void initTestCase() {
    win_ = std::make_unique<ui::MainWindow>();
    win_->show();
    QVERIFY(QTest::qWaitForWindowExposed(win_.get()));
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    win_->open_model(QString::fromStdString(test::corpus_model("emotion").string()));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, test::kGuiRunTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(dock()->backend_combo()->count() >= 3, test::kGuiRunTimeoutMs);
  }

  void switchingToGlCountsTheKernelsItCompiles() {
    const int gl = dock()->backend_combo()->findData("gl");
    QVERIFY(gl >= 0);
    dock()->backend_combo()->setCurrentIndex(gl);
    QLabel* text = dock()->result_label();
    auto* bar = dock()->findChild<QProgressBar*>("runProgress");
    QVERIFY(bar);
    // What the dock shows each time the engine reports a compiled kernel, seen from the UI thread
    // before the result arrives.
    QStringList seen;
    bool shot = false;
    QSignalSpy done(win_.get(), &ui::MainWindow::runFinished);
    QSignalSpy failed(win_.get(), &ui::MainWindow::runFailed);
    connect(win_->run_controller(), &ui::RunController::compileProgress, this,
            [&](const QString&, int done_count, int) {
              if (!done.isEmpty()) return;
              seen << text->text();
              QVERIFY(bar->isVisible());
              if (!shot && done_count >= 3) {
                shot = true;
                const QString dir = QCoreApplication::applicationDirPath() + "/screenshots";
                QDir().mkpath(dir);
                win_->grab_window().save(dir + "/gl_compile_progress.png");
              }
            });
    win_->run_model(false);
    QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, test::kGuiRunTimeoutMs);
    QCOMPARE(failed.count(), 0);
    QVERIFY2(!seen.isEmpty(), "no compile progress before the first result");
    QVERIFY2(seen.last().contains("compiling gl kernels: ") && seen.last().contains(" done"),
             qPrintable(seen.last()));
    const auto r = done.at(0).at(0).value<ui::RunResultPtr>();
    QVERIFY(r->gl_first.new_programs > 0);
    // The result line says how much of the first run was compiling, and how many kernels.
    const QString want = QString("(%1 ms compiling %2 kernels)")
                             .arg(r->gl_first.compile_ms, 0, 'f', 0)
                             .arg(r->gl_first.new_programs);
    QVERIFY2(text->text().contains(want), qPrintable(text->text() + " lacks " + want));
  }

  void cleanupTestCase() { win_.reset(); }
};

int main(int argc, char** argv) {
  // Nothing compiled anywhere: the program cache and Mesa's shader cache start empty.
  test::TempDir caches;
  qputenv("XDG_CACHE_HOME", QByteArray::fromStdString((caches.path / "xdg").string()));
  qputenv("MESA_SHADER_CACHE_DIR", QByteArray::fromStdString((caches.path / "mesa").string()));
  return tfjsi::test::run_gui_suite<CompileProgressTest>(argc, argv, "tfjs-inspector-test");
}

#include "compile_progress_test.moc"
