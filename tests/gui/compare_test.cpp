// The Compare panel (issue 20) on a real MainWindow at 1280x800: selfie compared on gl fp16
// against cpu names as its first divergent node the first node in run (topological) order whose
// scaled error passes the tolerance, as the engine's own comparison, run here on an engine of the
// test's, finds it; a click on the name selects that node in the graph; the graph is coloured by
// the comparison's error and "Colour graph by" says so. Opening another model clears the panel;
// Cancel stops a comparison; two equal sides are refused in the panel. Saves compare.png in the
// build's screenshots folder (the README's). Needs a display (xvfb-run).
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardItemModel>
#include <QTableWidget>
#include <future>
#include <map>
#include <thread>

#include "analysis/compare.h"
#include "backends/all_backends.h"
#include "compare_dock.h"
#include "graph_view.h"
#include "gui_test_main.h"
#include "input_source.h"
#include "main_window.h"
#include "node_colouring.h"
#include "run_controller.h"
#include "run_dock.h"
#include "runtime/engine.h"
#include "support/test_support.h"

using namespace tfjsi;

namespace {

constexpr int kTimeoutMs = 300000;

QString corpus(const char* name) {
  return QString::fromStdString(test::corpus_model(name).string());
}

// The engine's comparison of `graph` on gl fp16 against cpu, with the inputs the Run panel feeds
// by default (the generator), on an engine of its own made on a thread of its own (a gl context
// belongs to the thread that made it; the GUI thread's is Qt's).
analysis::CompareReport engine_compare(const graph::Graph& graph, double tolerance) {
  auto job = std::async(std::launch::async, [&] {
    runtime::Engine engine;
    backends::add_all_backends(engine);
    engine.set_log_sink([](std::string_view) {});
    runtime::NamedTensors inputs;
    for (const auto& e : graph.inputs) {
      ui::InputSpec spec;
      spec.input = e.name;
      inputs[e.name] = ui::make_input(e, spec);
    }
    analysis::CompareOptions options;
    options.backends = {"gl"};
    options.precision = runtime::Precision::Fp16;
    options.tolerance = tolerance;
    options.isolate = false;  // the first divergent node does not depend on it
    return analysis::compare_backends(engine, graph, inputs, options);
  });
  return job.get();
}

}  // namespace

class CompareTest : public QObject {
  Q_OBJECT
  std::unique_ptr<ui::MainWindow> win_;

  ui::CompareDock* dock() { return win_->compare_dock(); }
  viewers::GraphView* view() { return win_->graph_view(); }

  void open(const QString& path) {
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    win_->open_model(path);
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(view()->has_layout() && !view()->layout_pending(), kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(win_->run_dock()->backend_combo()->count() >= 3, kTimeoutMs);
  }
  // Presses Compare and waits; the result, or null (the test has failed) when it failed.
  ui::CompareResultPtr compare_and_wait() {
    QSignalSpy done(win_.get(), &ui::MainWindow::compareFinished);
    QSignalSpy failed(win_.get(), &ui::MainWindow::compareFailed);
    dock()->compare_button()->click();
    [&] { QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, kTimeoutMs); }();
    if (failed.count()) {
      QTest::qFail(qPrintable("compare failed: " + failed.at(0).at(0).toString()), __FILE__,
                   __LINE__);
      return nullptr;
    }
    if (done.isEmpty()) return nullptr;
    [&] { QTRY_VERIFY(dock()->last_result() != nullptr); }();
    return done.at(0).at(0).value<ui::CompareResultPtr>();
  }
  // Every node:NAME link in a label, decoded.
  static QStringList node_links(const QLabel* label) {
    QStringList names;
    static const QRegularExpression re(QStringLiteral("href=\"node:([^\"]*)\""));
    for (auto it = re.globalMatch(label->text()); it.hasNext();)
      names << QUrl::fromPercentEncoding(it.next().captured(1).toLatin1());
    return names;
  }
  void shot(const QString& name) {
    QTest::qWait(400);
    const QString dir = QCoreApplication::applicationDirPath() + "/screenshots";
    QDir().mkpath(dir);
    QVERIFY(win_->grab_window().save(dir + "/" + name + ".png"));
  }

 private slots:
  void initTestCase() {
    win_ = std::make_unique<ui::MainWindow>();
    win_->setGeometry(0, 0, 1280, 800);
    win_->show();
    QVERIFY(QTest::qWaitForWindowExposed(win_.get()));
    win_->run_dock()->rerun_box()->setChecked(false);
    QVERIFY2(dock(), "no Compare dock");
  }

  void glFp16AgainstCpuOnSelfie() {
    open(corpus("selfie"));
    dock()->show();
    dock()->raise();
    dock()->set_sides({"gl", true}, {"cpu", false});
    QCOMPARE(dock()->test_side().label(), QStringLiteral("gl fp16"));
    QCOMPARE(dock()->reference_side().label(), QStringLiteral("cpu"));
    const double tolerance = dock()->tolerance_box()->value();
    const ui::CompareResultPtr result = compare_and_wait();
    QVERIFY(result);
    const graph::Graph& graph = *win_->model()->graph;

    // The engine's comparison, run here, and the first node in its run order past the tolerance.
    const analysis::CompareReport expected = engine_compare(graph, tolerance);
    QCOMPARE(expected.backends.size(), std::size_t{1});
    QVERIFY2(expected.backends[0].available, expected.backends[0].reason.c_str());
    QString first;
    std::map<std::string, std::size_t> position;
    for (const auto& n : expected.nodes) {
      position[n.name] = position.size();
      if (first.isEmpty() && !n.results.empty() && n.results.front().error.normalized() > tolerance)
        first = QString::fromStdString(n.name);
    }
    QVERIFY2(!first.isEmpty(), "selfie on gl fp16 has no node past the tolerance");
    QCOMPARE(QString::fromStdString(expected.first_divergent.value_or("")), first);
    // That order is topological: every node comes after the nodes it reads.
    for (const auto& node : graph.nodes) {
      auto at = position.find(node.name);
      if (at == position.end()) continue;
      for (const auto& in : node.inputs) {
        auto from = position.find(graph.nodes[static_cast<std::size_t>(in.node)].name);
        if (from != position.end())
          QVERIFY2(from->second < at->second,
                   qPrintable(QString::fromStdString(node.name + " runs before its input " +
                                                     graph.nodes[in.node].name)));
      }
    }

    // The panel names it, as a link.
    QCOMPARE(dock()->first_divergent(), first);
    QVERIFY2(node_links(dock()->first_label()).contains(first),
             qPrintable(dock()->first_label()->text()));
    QVERIFY2(dock()->summary_label()->text().contains("gl fp16") &&
                 dock()->summary_label()->text().contains("cpu"),
             qPrintable(dock()->summary_label()->text()));
    QVERIFY(dock()->table()->rowCount() > 0);

    // The graph is coloured by the comparison's error, and the choice says so.
    QCOMPARE(win_->run_dock()->graph_colour(), ui::GraphColour::CompareError);
    QVERIFY2(win_->run_dock()->colour_combo()->currentText().contains("Compare error"),
             qPrintable(win_->run_dock()->colour_combo()->currentText()));
    QCOMPARE(view()->colouring().mode(), viewers::NodeColouring::Mode::Values);
    QVERIFY2(QString::fromStdString(view()->colouring().title()).contains("Compare error"),
             view()->colouring().title().c_str());
    const int node = graph.find(first.toStdString());
    QVERIFY(node >= 0);
    const auto coloured = view()->colouring().value_of(node);
    QVERIFY(coloured.has_value());
    QVERIFY2(*coloured > tolerance, qPrintable(QString::number(*coloured)));

    // A click on the name selects that node in the graph and shows it.
    view()->select_node(-1, false);
    QCOMPARE(view()->selected_node(), -1);
    emit dock()->first_label()->linkActivated(QStringLiteral("node:") +
                                              QString::fromLatin1(QUrl::toPercentEncoding(first)));
    QCOMPARE(view()->selected_node(), node);
    QTRY_VERIFY(view()->node_screen_rect(node).has_value());
    const QRectF box = *view()->node_screen_rect(node);
    QVERIFY2(QRectF(view()->rect()).intersects(box), "the selected node is off the canvas");
    shot("compare");
  }

  // Opening another model leaves nothing of the last comparison.
  void openingAnotherModelClearsIt() {
    if (!dock()->last_result()) {
      open(corpus("selfie"));
      dock()->set_sides({"cpu", false}, {"gl", false});
      QVERIFY(compare_and_wait());
    }
    QVERIFY(dock()->table()->rowCount() > 0);
    open(QString::fromStdString((test::source_dir() / "resources" / "sample").string()));
    QVERIFY(!dock()->last_result());
    QCOMPARE(dock()->table()->rowCount(), 0);
    QVERIFY(dock()->first_divergent().isEmpty());
    QVERIFY(node_links(dock()->first_label()).isEmpty());
    QVERIFY(dock()->first_label()->isHidden());
    QVERIFY2(dock()->summary_label()->text().contains("Compare"),
             qPrintable(dock()->summary_label()->text()));
    QCOMPARE(win_->run_dock()->graph_colour(), ui::GraphColour::OpFamily);
    QCOMPARE(view()->colouring().mode(), viewers::NodeColouring::Mode::Families);
    auto* items = qobject_cast<QStandardItemModel*>(win_->run_dock()->colour_combo()->model());
    const int entry =
        win_->run_dock()->colour_combo()->findData(static_cast<int>(ui::GraphColour::CompareError));
    QVERIFY(entry >= 0);
    QVERIFY2(!items->item(entry)->isEnabled(), "Compare error can be chosen without a result");
  }

  // Cancel stops a comparison as it stops a run, in the model runs and in the re-runs of
  // divergent nodes alone (which the executor does not see); the panel says so.
  void cancelStopsIt_data() {
    QTest::addColumn<int>("step");
    QTest::newRow("reference run") << 1;
    QTest::newRow("divergent nodes alone") << 3;
  }
  void cancelStopsIt() {
    QFETCH(int, step);
    open(corpus("selfie"));
    dock()->set_sides({"gl", true}, {"cpu", false});
    dock()->isolate_box()->setChecked(true);
    QSignalSpy done(win_.get(), &ui::MainWindow::compareFinished);
    QSignalSpy failed(win_.get(), &ui::MainWindow::compareFailed);
    // Cancel pressed while the worker is in that step: on the worker's thread, from its progress
    // report, so the comparison cannot end first.
    std::atomic<bool> pressed{false};
    QString seen;
    QMetaObject::Connection hook = connect(
        win_->run_controller(), &ui::RunController::compareProgress, win_->run_controller(),
        [&](int pass, const QString& stage, int, int) {
          if (pass != step || pressed.exchange(true)) return;
          seen = stage;
          win_->cancel_run();
        },
        Qt::DirectConnection);
    dock()->compare_button()->click();
    QVERIFY(dock()->is_comparing());
    QVERIFY(dock()->cancel_button()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, kTimeoutMs);
    disconnect(hook);
    QVERIFY2(pressed, "the comparison never reached that step");
    QVERIFY2(seen.contains(step == 1 ? "reference" : "alone"), qPrintable(seen));
    QCOMPARE(failed.count(), 1);
    QVERIFY(failed.at(0).at(1).toBool());
    QVERIFY2(dock()->stage_label()->text().contains("cancelled"),
             qPrintable(dock()->stage_label()->text()));
    QVERIFY(!dock()->last_result());
    QVERIFY(!win_->is_comparing());
    QVERIFY(dock()->compare_button()->isEnabled());
  }

  // Two equal sides: the panel says why nothing runs.
  void equalSidesAreRefused() {
    open(corpus("selfie"));
    dock()->set_sides({"cpu", false}, {"cpu", false});
    QSignalSpy asked(win_.get(), &ui::MainWindow::requestCompare);
    dock()->compare_button()->click();
    QCOMPARE(asked.count(), 0);
    QVERIFY2(dock()->stage_label()->text().contains("two different"),
             qPrintable(dock()->stage_label()->text()));
  }

  void cleanupTestCase() { win_.reset(); }
};

int main(int argc, char** argv) {
  return tfjsi::test::run_gui_suite<CompareTest>(argc, argv, "tfjsi-compare-test");
}

#include "compare_test.moc"
