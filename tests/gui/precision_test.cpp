// The Precision dock as a user drives it, on the fp16 test models of tests/reference (made by
// real tfjs-layers): open the model, feed TF.js's golden input through the Run dock, press Check
// fp16, and hold what the dock shows against TF.js's own facts (precision/NAME.json names the layer
// that overflows or underflows): the right node first, the safe verdict for the safe model, the
// jump and the links selecting that node in the graph, the colouring marking it, the fix checked.
// Cancel on a corpus model. Saves screenshots in the build folder. Needs a display (xvfb-run).
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <fstream>
#include <limits>

#include "graph_view.h"
#include "gui_run.h"
#include "gui_test_main.h"
#include "main_window.h"
#include "node_colouring.h"
#include "precision_dock.h"
#include "run_controller.h"
#include "run_dock.h"
#include "support/test_support.h"

using namespace tfjsi;
using nlohmann::json;

namespace {

constexpr int kTimeoutMs = 300000;

json read_json(const std::filesystem::path& p) {
  std::ifstream in(p);
  if (!in) throw std::runtime_error("cannot open " + p.string());
  return json::parse(in);
}

std::optional<std::string> fact(const json& facts, const char* key) {
  if (facts[key].is_null()) return std::nullopt;
  return facts[key].get<std::string>();
}

}  // namespace

class PrecisionTest : public QObject {
  Q_OBJECT
  std::unique_ptr<ui::MainWindow> win_;
  ui::PrecisionDock* dock_ = nullptr;
  json facts_;

  viewers::GraphView* view() { return win_->graph_view(); }
  const graph::Graph& graph() { return *win_->model()->graph; }

  // The Keras layer a node belongs to (TF.js's facts are per layer).
  std::string layer_of(const std::optional<std::string>& node) {
    if (!node) return "(none)";
    const int i = graph().find(*node);
    if (i < 0) return "(not a node: " + *node + ")";
    return graph().nodes[static_cast<std::size_t>(i)].group;
  }

  void shot(const QString& name) {
    QTest::qWait(200);
    const QString dir = QCoreApplication::applicationDirPath() + "/screenshots";
    QDir().mkpath(dir);
    QVERIFY(win_->grab_window().save(dir + "/" + name + ".png"));
  }

  // Opens a reference model with TF.js's golden input set in the Run dock.
  void open(const std::string& name) {
    const auto root = test::reference_dir();
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    win_->open_model(QString::fromStdString((root / "layers" / name / "model.json").string()));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(view()->has_layout() && !view()->layout_pending(), kTimeoutMs);
    const auto gdir = root / "golden" / name;
    const json g = read_json(gdir / "golden.json");
    QCOMPARE(g["inputs"].size(), graph().inputs.size());
    for (std::size_t k = 0; k < g["inputs"].size(); ++k)
      win_->run_dock()->set_input(
          QString::fromStdString(graph().inputs[k].name), ui::InputKind::Npy,
          QString::fromStdString((gdir / g["inputs"][k]["file"].get<std::string>()).string()));
    facts_ = read_json(root / "precision" / (name + ".json"));
    QVERIFY(!dock_->last_result());
    QTRY_VERIFY_WITH_TIMEOUT(dock_->check_button()->isEnabled(), 30000);
  }

  // Presses Check fp16 and waits for the answer; fails the test if the check fails.
  ui::Fp16CheckResultPtr check() {
    QSignalSpy done(dock_, &ui::PrecisionDock::checkFinished);
    QSignalSpy failed(dock_, &ui::PrecisionDock::checkFailed);
    QTest::mouseClick(dock_->check_button(), Qt::LeftButton);
    [&] { QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, kTimeoutMs); }();
    if (failed.count()) {
      QTest::qFail(qPrintable("check failed: " + failed.at(0).at(0).toString()), __FILE__,
                   __LINE__);
      return nullptr;
    }
    return done.at(0).at(0).value<ui::Fp16CheckResultPtr>();
  }

  // Every href of the form node:NAME in a label, decoded.
  static QStringList node_links(const QLabel* label) {
    QStringList names;
    static const QRegularExpression re(QStringLiteral("href=\"node:([^\"]*)\""));
    for (auto it = re.globalMatch(label->text()); it.hasNext();)
      names << QUrl::fromPercentEncoding(it.next().captured(1).toLatin1());
    return names;
  }

  // Clicks the label's link to `node` as the label would report it.
  static void click_link(QLabel* label, const QString& node) {
    emit label->linkActivated(QStringLiteral("node:") +
                              QString::fromLatin1(QUrl::toPercentEncoding(node)));
  }

  // The graph's fill of `node`'s box equals the colour of `category` in the colouring.
  void expect_category(const std::string& node, const char* category) {
    const auto& c = view()->colouring();
    const int n = graph().find(node);
    QVERIFY2(n >= 0, node.c_str());
    const int k = c.category_of(n);
    QVERIFY2(k >= 0, node.c_str());
    QCOMPARE(c.categories()[static_cast<std::size_t>(k)].name, std::string(category));
    QTRY_VERIFY(!view()->box_fill_of_node(n).empty());
    const auto fill = view()->box_fill_of_node(n);
    bool found = false;
    for (const auto& band : fill) found |= band.color == c.categories()[std::size_t(k)].color;
    QVERIFY2(found, node.c_str());
  }

  // The table is sorted worst error first and has one row per node of the report.
  void expect_table(const analysis::Fp16Report& r) {
    QTableWidget* t = dock_->table();
    QCOMPARE(t->rowCount(), static_cast<int>(r.nodes.size()));
    for (int row = 1; row < t->rowCount(); ++row)
      QVERIFY(t->item(row - 1, ui::PrecisionDock::kError)->data(Qt::UserRole).toDouble() >=
              t->item(row, ui::PrecisionDock::kError)->data(Qt::UserRole).toDouble());
    // Re-sorted by the user on another column, then back.
    t->sortItems(ui::PrecisionDock::kMaxAbs, Qt::DescendingOrder);
    for (int row = 1; row < t->rowCount(); ++row)
      QVERIFY(t->item(row - 1, ui::PrecisionDock::kMaxAbs)->data(Qt::UserRole).toDouble() >=
              t->item(row, ui::PrecisionDock::kMaxAbs)->data(Qt::UserRole).toDouble());
    t->sortItems(ui::PrecisionDock::kError, Qt::DescendingOrder);
  }

  // The row of a node, or -1.
  int row_of(const std::string& node) {
    for (int row = 0; row < dock_->table()->rowCount(); ++row)
      if (dock_->table()->item(row, ui::PrecisionDock::kNode)->text().toStdString() == node)
        return row;
    return -1;
  }

  // The node's box is on screen, inside the canvas, after a jump or a link.
  void expect_selected_and_shown(const std::string& node) {
    const int n = graph().find(node);
    QCOMPARE(view()->selected_node(), n);
    QTRY_VERIFY(view()->node_screen_rect(n).has_value());
    const QRectF box = *view()->node_screen_rect(n);
    QVERIFY2(QRectF(view()->rect()).contains(box.center()), node.c_str());
  }

 private slots:
  void initTestCase() {
    win_ = std::make_unique<ui::MainWindow>();
    // The window installs the dock itself, once.
    QCOMPARE(win_->findChildren<ui::PrecisionDock*>().size(), 1);
    dock_ = win_->findChild<ui::PrecisionDock*>("precisionDock");
    QVERIFY(dock_);
    win_->resize(1280, 800);
    win_->show();
    QVERIFY(QTest::qWaitForWindowExposed(win_.get()));
    QVERIFY(!dock_->check_button()->isEnabled());  // no model yet
    // Compact until a check has run: the options' rows, no empty table taking the height.
    QTRY_VERIFY(dock_->height() <= dock_->compact_height() + 4);
    QVERIFY(dock_->table()->isHidden());
    QVERIFY(dock_->check_button()->isVisible());
    QVERIFY(dock_->verdict_label()->isVisible());
    // Listed in the View menu with the other docks.
    bool listed = false;
    for (QAction* a : win_->menuBar()->actions())
      if (a->menu())
        for (QAction* item : a->menu()->actions()) listed |= item == dock_->toggleViewAction();
    QVERIFY(listed);
  }

  void overflowModelNamesTheLayer() {
    open("fp16_overflow");
    const auto want = fact(facts_, "first_overflow_layer");
    QVERIFY(want);
    const auto res = check();
    QVERIFY(res);
    const auto& r = res->report;
    QCOMPARE(layer_of(r.first_overflow), *want);
    QCOMPARE(layer_of(r.first_error), *want);
    QVERIFY(!r.fp16_safe);
    QVERIFY(dock_->verdict_label()->text().contains("Not fp16-safe"));

    // The first overflow and the first past the threshold are named as links.
    const QStringList links = node_links(dock_->nodes_label());
    QVERIFY(!links.isEmpty());
    QCOMPARE(links.front().toStdString(), *r.first_overflow);
    QVERIFY(links.contains(QString::fromStdString(*r.first_error)));

    // Its row: the values TF.js saw in that layer pass 65504 in our fp32 run too (TF.js's
    // largest |x| of the layer's output is in precision/NAME.json).
    double tfjs_max = 0;
    for (const auto& l : facts_["layers"])
      if (l["layer"] == *want) tfjs_max = l["max_abs"].get<double>();
    QVERIFY(tfjs_max > 65504);
    double ours = 0;
    for (const auto& n : r.nodes)
      if (layer_of(n.name) == *want) ours = std::max(ours, n.fp32.max_abs);
    QVERIFY2(std::abs(ours - tfjs_max) <= 1e-3 * tfjs_max,
             qPrintable(QString("max |x| %1 vs TF.js %2").arg(ours).arg(tfjs_max)));
    const int row = row_of(*r.first_overflow);
    QVERIFY(row >= 0);
    QVERIFY(dock_->table()->item(row, ui::PrecisionDock::kOverflow)->data(Qt::UserRole).toDouble() >
            0);
    expect_table(r);

    // The driver's behaviour from the probe, and the emulation's rule (IEEE by default).
    const QString driver = dock_->driver_label()->text();
    if (r.probe.available) {
      QVERIFY(r.driver_rule);
      const bool inf = r.driver_rule->overflow == analysis::HalfOverflow::Inf;
      QVERIFY2(driver.contains(inf ? "overflow to <b>inf</b>" : "overflow to <b>clamp</b>"),
               qPrintable(driver));
    } else {
      QVERIFY(driver.contains("not probed"));
    }
    QVERIFY(
        driver.contains("<b>Emulation:</b> rounds to nearest even, a value past 65504 "
                        "becomes inf"));

    // The fix: every proposed fp32 node is in that layer, and the mixed run was within tolerance.
    QVERIFY(!r.fp32_nodes.empty());
    for (const auto& n : r.fp32_nodes) QCOMPARE(layer_of(n), *want);
    QVERIFY(r.fixed);
    QVERIFY(dock_->fix_label()->text().contains("outputs back within tolerance"));
    for (const auto& n : r.fp32_nodes)
      QVERIFY(node_links(dock_->fix_label()).contains(QString::fromStdString(n)));

    // Jump to the first overflow: selected and in view.
    view()->select_node(-1, false);
    QVERIFY(dock_->jump_button()->isEnabled());
    QTest::mouseClick(dock_->jump_button(), Qt::LeftButton);
    expect_selected_and_shown(*r.first_overflow);

    // Colour by fp16 status: that node is marked as overflowing; a layer TF.js saw stay small
    // is ok.
    QTest::mouseClick(dock_->colour_status_button(), Qt::LeftButton);
    QCOMPARE(view()->colouring().mode(), viewers::NodeColouring::Mode::Categories);
    QCOMPARE(view()->colouring().unmatched(), 0);
    expect_category(*r.first_overflow, ui::PrecisionDock::kOverflows);
    const json& first_layer = facts_["layers"][0];
    QCOMPARE(first_layer["overflow"].get<int>(), 0);
    int ok_nodes = 0;
    for (const auto& n : r.nodes)
      if (layer_of(n.name) == first_layer["layer"].get<std::string>()) {
        expect_category(n.name, ui::PrecisionDock::kOk);
        ++ok_nodes;
      }
    QVERIFY(ok_nodes > 0);
    shot("precision_overflow_status");

    // A link (the first past the threshold) selects its node too.
    view()->select_node(-1, false);
    click_link(dock_->nodes_label(), QString::fromStdString(*r.first_error));
    expect_selected_and_shown(*r.first_error);

    // Colour by error: log scale, that node's error past the threshold (inf: a new inf).
    QTest::mouseClick(dock_->colour_error_button(), Qt::LeftButton);
    QCOMPARE(view()->colouring().mode(), viewers::NodeColouring::Mode::Values);
    QVERIFY(view()->colouring().log_scale());
    const auto v = view()->colouring().value_of(graph().find(*r.first_overflow));
    QVERIFY(v && *v > r.node_threshold);
    shot("precision_overflow_error");
    QTest::mouseClick(dock_->jump_button(), Qt::LeftButton);
    QTest::mouseClick(dock_->colour_status_button(), Qt::LeftButton);
    shot("precision_overflow");
  }

  void overflowModelUnderMesasRule() {
    dock_->rule_combo()->setCurrentIndex(1);
    const auto res = check();
    dock_->rule_combo()->setCurrentIndex(0);
    QVERIFY(res);
    QCOMPARE(res->report.rule.overflow, analysis::HalfOverflow::Clamp);
    QCOMPARE(layer_of(res->report.first_overflow), *fact(facts_, "first_overflow_layer"));
    QVERIFY(dock_->driver_label()->text().contains("clamped to 65504"));
  }

  void underflowModelNamesTheLayer() {
    open("fp16_underflow");
    const auto want = fact(facts_, "first_underflow_layer");
    QVERIFY(want);
    QVERIFY(!fact(facts_, "first_overflow_layer"));
    const auto res = check();
    QVERIFY(res);
    const auto& r = res->report;
    QCOMPARE(layer_of(r.first_underflow), *want);
    QVERIFY(!r.first_overflow);
    QVERIFY(!r.fp16_safe);
    QVERIFY(!dock_->jump_button()->isEnabled());  // nothing overflows
    QVERIFY(node_links(dock_->nodes_label()).contains(QString::fromStdString(*r.first_underflow)));
    QVERIFY(r.fixed);
    QVERIFY(dock_->fix_label()->text().contains("outputs back within tolerance"));
    expect_table(r);
    QTest::mouseClick(dock_->colour_status_button(), Qt::LeftButton);
    expect_category(*r.first_underflow, ui::PrecisionDock::kUnderflows);
    click_link(dock_->nodes_label(), QString::fromStdString(*r.first_underflow));
    expect_selected_and_shown(*r.first_underflow);
    shot("precision_underflow");
  }

  void safeModelIsSafe() {
    open("fp16_safe");
    QVERIFY(!fact(facts_, "first_overflow_layer") && !fact(facts_, "first_underflow_layer"));
    const auto res = check();
    QVERIFY(res);
    const auto& r = res->report;
    QVERIFY(r.fp16_safe);
    QVERIFY(!r.first_overflow && !r.first_underflow);
    QVERIFY(r.fp32_nodes.empty());
    QVERIFY(dock_->verdict_label()->text().contains("fp16-safe."));
    QVERIFY(!dock_->verdict_label()->text().contains("Not"));
    QVERIFY(!dock_->jump_button()->isEnabled());
    QVERIFY(dock_->fix_label()->text().contains("none needed"));
    QTest::mouseClick(dock_->colour_status_button(), Qt::LeftButton);
    for (const auto& c : view()->colouring().categories())
      QVERIFY2(c.name == ui::PrecisionDock::kOk, c.name.c_str());
    shot("precision_safe");
  }

  // The check runs on the Run dock's engine and worker (the run controller emits its answer); no
  // run starts while it goes on, and a run after it works (its weights were made anew).
  void checkRunsOnTheRunControllersEngine() {
    open("fp16_overflow");
    QSignalSpy controller_done(win_->run_controller(), &ui::RunController::checkFinished);
    QSignalSpy controller_progress(win_->run_controller(), &ui::RunController::checkProgress);
    QSignalSpy done(dock_, &ui::PrecisionDock::checkFinished);
    QTest::mouseClick(dock_->check_button(), Qt::LeftButton);
    QVERIFY(win_->is_checking());
    QVERIFY(!win_->run_dock()->run_button()->isEnabled());
    QVERIFY(win_->run_dock()->result_label()->text().contains("Checking fp16"));
    win_->run_model(false);  // refused while the check holds the engine
    QVERIFY(!win_->is_running());
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kTimeoutMs);
    QCOMPARE(controller_done.count(), 1);
    QVERIFY(controller_progress.count() > 0);
    QVERIFY(!win_->is_checking());
    QVERIFY(dock_->table()->isVisible());
    QTRY_VERIFY(dock_->height() > dock_->compact_height());
    QVERIFY(win_->run_dock()->run_button()->isEnabled());
    const auto r = test::run_and_wait(*win_);
    QVERIFY(r);
    QVERIFY(r->cold);
    QVERIFY(win_->run_dock()->result_label()->text().contains("Ran"));
  }

  // A corpus model checked without gl: Cancel stops it at a node while the UI keeps answering.
  void cancelStopsTheCheck() {
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    win_->open_model(
        QString::fromStdString(test::corpus_dir().string() + "/movenet-lightning.json"));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kTimeoutMs);
    QVERIFY(!dock_->last_result());
    dock_->gl_box()->setChecked(false);
    QSignalSpy failed(dock_, &ui::PrecisionDock::checkFailed);
    QSignalSpy done(dock_, &ui::PrecisionDock::checkFinished);
    QTest::mouseClick(dock_->check_button(), Qt::LeftButton);
    QVERIFY(dock_->is_checking());
    QVERIFY(dock_->cancel_button()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(dock_->stage_label()->text().startsWith("Run "), kTimeoutMs);
    QTest::mouseClick(dock_->cancel_button(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(failed.count() + done.count() > 0, 30000);
    QCOMPARE(done.count(), 0);
    QVERIFY(failed.at(0).at(1).toBool());
    QVERIFY(!dock_->is_checking());
    QVERIFY(dock_->check_button()->isEnabled());
    QVERIFY(dock_->stage_label()->text().contains("cancelled"));
    dock_->gl_box()->setChecked(true);
  }

  // Opening another model during a check stops it; its answer never shows for the new model.
  void openingAnotherModelDropsTheCheck() {
    dock_->gl_box()->setChecked(false);
    QSignalSpy failed(dock_, &ui::PrecisionDock::checkFailed);
    QSignalSpy done(dock_, &ui::PrecisionDock::checkFinished);
    QTest::mouseClick(dock_->check_button(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(dock_->stage_label()->text().startsWith("Run "), kTimeoutMs);
    open("fp16_safe");
    QTRY_VERIFY2_WITH_TIMEOUT(failed.count() + done.count() > 0,
                              qPrintable(dock_->stage_label()->text()), 30000);
    QCOMPARE(done.count(), 0);
    QVERIFY(failed.at(0).at(1).toBool());
    QVERIFY2(dock_->stage_label()->text().contains("another model was opened"),
             qPrintable(dock_->stage_label()->text()));
    QVERIFY(!dock_->is_checking());
    QVERIFY(!dock_->last_result());
    QCOMPARE(dock_->table()->rowCount(), 0);
    dock_->gl_box()->setChecked(true);
    const auto res = check();
    QVERIFY(res);
    QCOMPARE(res->model, win_->model());
    QVERIFY(res->report.fp16_safe);
  }

  // Issue #25 item 4: a model whose fp32 outputs are already inf (a weight holding inf) gets
  // that as its verdict, naming the first node, not "fp16-safe".
  void nonfiniteReferenceIsTheVerdict() {
    test::TempDir dir;
    const json m = {
        {"format", "graph-model"},
        {"modelTopology",
         {{"node",
           {{{"name", "x"},
             {"op", "Placeholder"},
             {"attr",
              {{"dtype", {{"type", "DT_FLOAT"}}},
               {"shape", {{"shape", {{"dim", {{{"size", "1"}}, {{"size", "2"}}}}}}}}}}},
            {{"name", "w"}, {"op", "Const"}, {"attr", {{"dtype", {{"type", "DT_FLOAT"}}}}}},
            {{"name", "y"},
             {"op", "Mul"},
             {"input", {"x", "w"}},
             {"attr", {{"T", {{"type", "DT_FLOAT"}}}}}}}}}},
        {"weightsManifest",
         {{{"paths", {"w.bin"}},
           {"weights", {{{"name", "w"}, {"shape", {2}}, {"dtype", "float32"}}}}}}}};
    std::ofstream(dir.path / "model.json") << m.dump();
    const float w[2] = {std::numeric_limits<float>::infinity(), 1.f};
    std::ofstream(dir.path / "w.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(w), sizeof w);
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    win_->open_model(QString::fromStdString((dir.path / "model.json").string()));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(dock_->check_button()->isEnabled(), 30000);
    const auto res = check();
    QVERIFY(res);
    QVERIFY(res->report.fp32_nonfinite);
    QCOMPARE(res->report.fp32_nonfinite->node, std::string("y"));
    QVERIFY(!res->report.fp16_safe);
    const QString text = dock_->verdict_label()->text();
    QVERIFY2(text.contains("Not checked") && text.contains("'y'") && !text.contains("fp16-safe"),
             qPrintable(text));
    shot("precision_nonfinite_reference");
  }

  void cleanupTestCase() { win_.reset(); }
};

int main(int argc, char** argv) {
  return tfjsi::test::run_gui_suite<PrecisionTest>(argc, argv, "tfjs-inspector-test");
}
#include "precision_test.moc"
