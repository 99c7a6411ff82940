// The newcomer path, at the size a fresh start gives on a 1280x800 screen: open a corpus
// model (blazeface), run it on cpu, xnnpack and gl in turn with the Run dock's own controls, toggle
// fp16, watch the Memory panel stay flat across runs, find the slowest node in the Profile panel
// and show it in the graph, then check fp16. Saves a screenshot of each step in the build folder
// (newcomer_*.png). Needs a display (run under xvfb-run -s "-screen 0 1280x800x24").
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <map>

#include "graph_view.h"
#include "gui_run.h"
#include "gui_test_main.h"
#include "main_window.h"
#include "memory_dock.h"
#include "precision_dock.h"
#include "profile_dock.h"
#include "run_dock.h"
#include "support/test_support.h"

using namespace tfjsi;

namespace {

constexpr int kTimeoutMs = 180000;

}  // namespace

class NewcomerTest : public QObject {
  Q_OBJECT
  std::unique_ptr<ui::MainWindow> win_;

  ui::RunDock* dock() { return win_->run_dock(); }

  void shot(const QString& name) {
    QTest::qWait(300);
    const QString dir = QCoreApplication::applicationDirPath() + "/screenshots";
    QDir().mkpath(dir);
    QVERIFY(win_->grab_window().save(dir + "/newcomer_" + name + ".png"));
  }

  // Picks a backend as a user does; "run again on change" (on by default) then runs it.
  ui::RunResultPtr choose(const QString& backend) {
    QSignalSpy done(win_.get(), &ui::MainWindow::runFinished);
    QSignalSpy failed(win_.get(), &ui::MainWindow::runFailed);
    const int i = dock()->backend_combo()->findData(backend);
    if (i < 0) return nullptr;
    dock()->backend_combo()->setCurrentIndex(i);
    [&] { QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, kTimeoutMs); }();
    if (failed.count()) {
      QTest::qFail(qPrintable(failed.at(0).at(0).toString()), __FILE__, __LINE__);
      return nullptr;
    }
    return done.isEmpty() ? nullptr : done.at(0).at(0).value<ui::RunResultPtr>();
  }

 private slots:
  void initTestCase() {
    QSettings().remove("window/geometry");  // a fresh start
    win_ = std::make_unique<ui::MainWindow>();
    win_->show();
    QVERIFY(QTest::qWaitForWindowExposed(win_.get()));
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    win_->open_model(QString::fromStdString(test::corpus_model("blazeface").string()));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(dock()->backend_combo()->count() >= 3, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(win_->graph_view()->has_layout(), kTimeoutMs);
    QVERIFY(dock()->rerun_box()->isChecked());
    QVERIFY2(dock()->result_label()->text().startsWith("Ready"),
             qPrintable(dock()->result_label()->text()));
    shot("open");
  }

  void runsOnEachBackendInTurn() {
    // The first run by the Run button; the others by choosing the backend.
    dock()->backend_combo()->setCurrentIndex(dock()->backend_combo()->findData("cpu"));
    QSignalSpy done(win_.get(), &ui::MainWindow::runFinished);
    QTest::mouseClick(dock()->run_button(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kTimeoutMs);
    QCOMPARE(done.at(0).at(0).value<ui::RunResultPtr>()->backend, std::string("cpu"));
    QVERIFY(dock()->result_label()->text().contains("on cpu"));
    shot("cpu");
    for (const char* backend : {"xnnpack", "gl"}) {
      const auto r = choose(backend);
      QVERIFY(r);
      QCOMPARE(r->backend, std::string(backend));
      QVERIFY2(dock()->result_label()->text().contains(QString("on ") + backend),
               qPrintable(dock()->result_label()->text()));
      // The legend names only backends, nodes that ran inside a kernel of the backend (fused),
      // cpu fallbacks and the executor's own nodes.
      for (const auto& cat : win_->graph_view()->colouring().categories())
        QVERIFY2(cat.name == backend || cat.name == std::string(backend) + " (fused)" ||
                     cat.name == "cpu" || cat.name == "cpu fallback" ||
                     cat.name == "executor (no kernel)",
                 cat.name.c_str());
      shot(backend);
    }
  }

  void togglesFp16() {
    QVERIFY(dock()->fp16_box()->isEnabled());
    QSignalSpy done(win_.get(), &ui::MainWindow::runFinished);
    dock()->fp16_box()->click();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kTimeoutMs);
    const auto r = done.at(0).at(0).value<ui::RunResultPtr>();
    QVERIFY(r->fp16);
    QVERIFY(dock()->result_label()->text().contains("gl fp16"));
    shot("gl_fp16");
  }

  void memoryStaysFlat() {
    ui::MemoryDock* memory = win_->memory_dock();
    memory->show();
    memory->raise();
    for (int i = 0; i < 5; ++i) QVERIFY(test::run_and_wait(*win_));
    QTest::qWait(200);  // the run's sample reaches the panel
    QString why;
    QVERIFY2(memory->flat_after_first_run("gl", &why), qPrintable(why));
    QVERIFY2(memory->verdict_label()->text().contains("Flat"),
             qPrintable(memory->verdict_label()->text()));
    shot("memory");
  }

  void findsTheSlowestNode() {
    ui::ProfileDock* profile = win_->profile_dock();
    profile->show();
    profile->raise();
    const auto r = win_->last_result();
    QVERIFY(r);
    std::map<std::string, double> ms;  // a node run more than once counts its total
    for (const auto& n : r->nodes) ms[n.node] += n.ms;
    auto slowest = ms.begin();
    for (auto it = ms.begin(); it != ms.end(); ++it)
      if (it->second > slowest->second) slowest = it;
    QCOMPARE(profile->slowest_node(), slowest->first);
    QVERIFY(profile->slowest_label()->text().contains(QString::fromStdString(slowest->first)));
    auto* show = profile->findChild<QPushButton*>("showSlowest");
    QVERIFY(show && show->isEnabled());
    show->click();
    const int n = win_->graph_view()->find_node(QString::fromStdString(slowest->first));
    QVERIFY(n >= 0);
    QTRY_COMPARE(win_->graph_view()->selected_node(), n);
    shot("profile");
  }

  void checksFp16() {
    auto* precision = win_->findChild<ui::PrecisionDock*>("precisionDock");
    QVERIFY(precision);
    QSignalSpy done(precision, &ui::PrecisionDock::checkFinished);
    QTest::mouseClick(precision->check_button(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kTimeoutMs);
    QVERIFY(!precision->verdict_label()->text().isEmpty());
    QVERIFY(precision->table()->rowCount() > 0);
    precision->colour_status_button()->click();
    shot("precision");
    // A run after the check works on the same engine.
    QVERIFY(test::run_and_wait(*win_));
  }

  void cleanupTestCase() { win_.reset(); }
};

int main(int argc, char** argv) {
  return tfjsi::test::run_gui_suite<NewcomerTest>(argc, argv, "tfjs-inspector-test");
}

#include "newcomer_test.moc"
