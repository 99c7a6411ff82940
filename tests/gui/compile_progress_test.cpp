// Switching to gl as a new user would, with nothing compiled anywhere (empty program and Mesa
// shader caches): the Run dock shows a determinate bar, "compiling N of M gl kernels", with the
// total M known (the kernels the run builds) and reached before the first result, and its result
// line then tells the compiling apart from the run. Switching to fp16 and back then compiles
// nothing (fp16 emulated in RGBA32F textures, gl.fp16_storage's default on llvmpipe). Cancel
// works while gl compiles (fp16's kernels in RGBA16F textures, gl.fp16_storage=native): the run
// ends cancelled, and the next one runs. A Keras Dense's bias, which fp16 adds apart, switches
// without a build too. Saves a screenshot of the dock while it compiles. Needs a display (run
// under xvfb-run).
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <algorithm>

#include "bar_chart.h"
#include "graph_view.h"
#include "gui_run.h"
#include "gui_test_main.h"
#include "main_window.h"
#include "profile_dock.h"
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
    struct Seen {
      int done, total, bar_max, bar_value;
    };
    std::vector<Seen> counts;
    bool shot = false;
    QSignalSpy done(win_.get(), &ui::MainWindow::runFinished);
    QSignalSpy failed(win_.get(), &ui::MainWindow::runFailed);
    auto c = connect(win_->run_controller(), &ui::RunController::compileProgress, this,
                     [&](const QString&, int done_count, int total) {
                       if (!done.isEmpty()) return;
                       // The dock's slot, connected first, has taken this report already.
                       seen << text->text();
                       counts.push_back({done_count, total, bar->maximum(), bar->value()});
                       QVERIFY(bar->isVisible());
                       if (!shot && done_count >= 3) {
                         shot = true;
                         const QString dir =
                             QCoreApplication::applicationDirPath() + "/screenshots";
                         QDir().mkpath(dir);
                         win_->grab_window().save(dir + "/gl_compile_progress.png");
                       }
                     });
    win_->run_model(false);
    QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, test::kGuiRunTimeoutMs);
    disconnect(c);
    QCOMPARE(failed.count(), 0);
    QVERIFY2(!seen.isEmpty(), "no compile progress before the first result");
    const auto r = done.at(0).at(0).value<ui::RunResultPtr>();
    const int m = static_cast<int>(r->gl_first.new_programs);
    QVERIFY(m > 0);
    // Every report knew a total; the last one, before the result, is M of M on a full bar.
    for (const Seen& s : counts) QVERIFY2(s.total > 0, "a report without the total");
    QCOMPARE(counts.back().total, m);
    QCOMPARE(counts.back().done, m);
    QCOMPARE(counts.back().bar_max, m);
    QCOMPARE(counts.back().bar_value, m);
    const QString last = QString("compiling %1 of %1 gl kernels").arg(m);
    QVERIFY2(seen.last().contains(last), qPrintable(seen.last() + " lacks " + last));
    // The result line says how much of the first run was compiling, and how many kernels.
    const QString want = QString("(%1 ms compiling %2 kernels)")
                             .arg(r->gl_first.compile_ms, 0, 'f', 0)
                             .arg(r->gl_first.new_programs);
    QVERIFY2(text->text().contains(want), qPrintable(text->text() + " lacks " + want));

    // The Profile dock lists what the compiling went to: every program built, longest first,
    // with the node that first needed it (a double click selects that node in the graph).
    ui::ProfileDock* profile = win_->profile_dock();
    profile->set_view(ui::ProfileDock::View::Builds);
    auto* p = profile->proxy();
    QCOMPARE(static_cast<std::size_t>(p->rowCount()), r->gl_first.builds.size());
    QCOMPARE(static_cast<std::int64_t>(p->rowCount()), r->gl_first.new_programs);
    std::vector<double> ms;
    for (int row = 0; row < p->rowCount(); ++row) {
      ms.push_back(p->index(row, ui::ProfileDock::BuildMs).data(Qt::UserRole).toDouble());
      QVERIFY(ms.back() > 0);
      QVERIFY(p->index(row, ui::ProfileDock::BuildKernel).data().toString().endsWith(".comp"));
    }
    QVERIFY(std::is_sorted(ms.rbegin(), ms.rend()));
    QCOMPARE(profile->chart()->bars().front().value, ms.front());
    const QModelIndex top = p->index(0, ui::ProfileDock::BuildNode);
    // The top row is the longest build.
    const auto longest = std::max_element(r->gl_first.builds.begin(), r->gl_first.builds.end(),
                                          [](const auto& a, const auto& b) { return a.ms < b.ms; });
    QCOMPARE(ms.front(), longest->ms);
    const QString node = QString::fromStdString(longest->node);
    QVERIFY(!node.isEmpty());
    emit profile->table()->doubleClicked(top);
    QCOMPARE(win_->graph_view()->selected_node(), win_->graph_view()->find_node(node));
    // The panel on its own, large enough to read its table and chart.
    profile->setFloating(true);
    profile->resize(1000, 640);
    profile->show();
    profile->raise();
    QTest::qWait(300);
    const QString dir = QCoreApplication::applicationDirPath() + "/screenshots";
    QDir().mkpath(dir);
    QVERIFY(profile->grab().save(dir + "/gl_programs_built.png"));
    profile->setFloating(false);
    profile->set_view(ui::ProfileDock::View::Nodes);
  }

  // The live precision switch, fp32 -> fp16 -> fp32, with fp16 emulated in RGBA32F textures
  // (the default where the build depends on the texture format, as on llvmpipe): fp16 runs the
  // very programs fp32 built, and llvmpipe's builds of them; back on fp32 nothing is built either.
  void precisionSwitchCompilesNothing() {
    QMetaObject::invokeMethod(win_->run_controller(), "setFlag", Qt::QueuedConnection,
                              Q_ARG(QString, "gl.fp16_storage"), Q_ARG(QString, "emulated"));
    auto* fp16 = dock()->findChild<QCheckBox*>("fp16Box");
    QVERIFY(fp16);
    const bool rerun = dock()->findChild<QCheckBox*>("rerunOnChange")->isChecked();
    for (const bool half : {true, false}) {
      QSignalSpy done(win_.get(), &ui::MainWindow::runFinished);
      QSignalSpy failed(win_.get(), &ui::MainWindow::runFailed);
      fp16->setChecked(half);
      if (!rerun) win_->run_model(false);
      QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, test::kGuiRunTimeoutMs);
      QCOMPARE(failed.count(), 0);
      const auto r = done.at(0).at(0).value<ui::RunResultPtr>();
      QCOMPARE(r->fp16, half);
      QCOMPARE(r->gl_first.new_programs, std::int64_t{0});
      QVERIFY2(!dock()->result_label()->text().contains("compiling"),
               qPrintable(dock()->result_label()->text()));
    }
  }

  void cancelWhileCompiling() {
    // fp16 in RGBA16F textures: its kernels are not built yet, so the run compiles again, and
    // Cancel stops it there.
    auto* fp16 = dock()->findChild<QCheckBox*>("fp16Box");
    QVERIFY(fp16);
    auto* cancel = dock()->findChild<QPushButton*>("cancelButton");
    QVERIFY(cancel);
    // Queued to the controller's thread, so it is set before the run below starts.
    QMetaObject::invokeMethod(win_->run_controller(), "setFlag", Qt::QueuedConnection,
                              Q_ARG(QString, "gl.fp16_storage"), Q_ARG(QString, "native"));
    QSignalSpy done(win_.get(), &ui::MainWindow::runFinished);
    QSignalSpy failed(win_.get(), &ui::MainWindow::runFailed);
    int total_at_cancel = -1;
    auto c = connect(win_->run_controller(), &ui::RunController::compileProgress, this,
                     [&](const QString&, int, int total) {
                       if (total_at_cancel >= 0) return;
                       total_at_cancel = total;
                       QVERIFY(cancel->isEnabled());
                       QTest::mouseClick(cancel, Qt::LeftButton);
                     });
    const bool rerun = dock()->findChild<QCheckBox*>("rerunOnChange")->isChecked();
    fp16->setChecked(true);
    if (!rerun) win_->run_model(false);
    QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, test::kGuiRunTimeoutMs);
    disconnect(c);
    QVERIFY2(total_at_cancel > 0, "no determinate compile progress to cancel in");
    QCOMPARE(done.count(), 0);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(failed.at(0).at(1).toBool(), true);  // cancelled, not failed
    QVERIFY2(dock()->result_label()->text().contains("Cancelled"),
             qPrintable(dock()->result_label()->text()));

    // The next run goes through.
    win_->run_model(false);
    QTRY_VERIFY_WITH_TIMEOUT(done.count() > 0 || failed.count() > 1, test::kGuiRunTimeoutMs);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(done.at(0).at(0).value<ui::RunResultPtr>()->fp16, true);
  }

  // A Keras Dense's MatMul -> BiasAdd: fp32 takes the bias into the product, fp16 following
  // TF.js webgl adds it apart with binary.comp, which no other node of the model needs. Built
  // after the fp32 run, the switch to fp16 finds it built. A new window: its engine has built
  // nothing yet (emotion's runs above built binary.comp in the old one).
  void precisionSwitchAfterADenseCompilesNothing() {
    win_.reset();
    win_ = std::make_unique<ui::MainWindow>();
    win_->show();
    QVERIFY(QTest::qWaitForWindowExposed(win_.get()));
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    win_->open_model(
        QString::fromStdString((test::reference_dir() / "layers/sample/model.json").string()));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, test::kGuiRunTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(dock()->backend_combo()->count() >= 3, test::kGuiRunTimeoutMs);
    QMetaObject::invokeMethod(win_->run_controller(), "setFlag", Qt::QueuedConnection,
                              Q_ARG(QString, "gl.fp16_storage"), Q_ARG(QString, "emulated"));
    dock()->backend_combo()->setCurrentIndex(dock()->backend_combo()->findData("gl"));
    auto* fp16 = dock()->findChild<QCheckBox*>("fp16Box");
    QVERIFY(fp16);
    QVERIFY(!fp16->isChecked());
    const bool rerun = dock()->findChild<QCheckBox*>("rerunOnChange")->isChecked();
    for (const bool half : {false, true}) {
      QSignalSpy done(win_.get(), &ui::MainWindow::runFinished);
      QSignalSpy failed(win_.get(), &ui::MainWindow::runFailed);
      if (half) {
        fp16->setChecked(true);
        if (!rerun) win_->run_model(false);
      } else {
        win_->run_model(false);  // the model's first run
      }
      QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, test::kGuiRunTimeoutMs);
      QCOMPARE(failed.count(), 0);
      const auto r = done.at(0).at(0).value<ui::RunResultPtr>();
      QCOMPARE(r->backend, std::string("gl"));
      QCOMPARE(r->fp16, half);
      if (!half) {
        QVERIFY2(r->gl_first.new_programs > 0, "the model's fp32 run built nothing");
      } else {
        QCOMPARE(r->gl_first.new_programs, std::int64_t{0});
        QVERIFY2(!dock()->result_label()->text().contains("compiling"),
                 qPrintable(dock()->result_label()->text()));
        const QString dir = QCoreApplication::applicationDirPath() + "/screenshots";
        QDir().mkpath(dir);
        win_->grab_window().save(dir + "/gl_precision_switch_dense.png");
      }
    }
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
