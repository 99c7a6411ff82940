// Issue #23's "Reduce to a repro..." as a user drives it, on the fp16 test model of
// tests/reference (made by real tfjs-layers; precision/fp16_overflow.json names the layer that
// overflows). Check fp16, press Reduce, pick a folder: the bundle written loads, has fewer nodes,
// is the model now open with the inputs written beside it in the Run panel, and checked again in
// the same dock it overflows at the same node. Fed 1e37, the model's fp32 run holds an inf: the
// reduction keeps a node that held it, and the reduced bundle's fp32 run is not finite from there.
// In the Compare dock, gl fp16 against cpu: the reduced bundle keeps the first divergent node
// and, compared again, still parts there. A folder that will not do is refused in the dock;
// Cancel mid-way stops the reduction and leaves the folder as it was. Saves screenshots in the
// build folder. Needs a display (xvfb-run).
#include <QtTest>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSemaphore>
#include <atomic>
#include <fstream>

#include "analysis/loaded_model.h"
#include "compare_dock.h"
#include "graph_view.h"
#include "gui_test_main.h"
#include "io/npy.h"
#include "main_window.h"
#include "precision_dock.h"
#include "reduce_row.h"
#include "run_controller.h"
#include "run_dock.h"
#include "support/test_support.h"

using namespace tfjsi;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr int kTimeoutMs = 600000;

json read_json(const fs::path& p) {
  std::ifstream in(p);
  if (!in) throw std::runtime_error("cannot open " + p.string());
  return json::parse(in);
}

// Files beside `dir` left by a staging folder (".NAME.partial-...").
int partial_folders_beside(const fs::path& dir) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir.parent_path()))
    if (e.path().filename().string().starts_with("." + dir.filename().string() + ".partial")) ++n;
  return n;
}

}  // namespace

class ReduceTest : public QObject {
  Q_OBJECT
  std::unique_ptr<ui::MainWindow> win_;
  test::TempDir tmp_;

  ui::PrecisionDock* precision() { return win_->precision_dock(); }
  ui::CompareDock* compare() { return win_->compare_dock(); }
  const graph::Graph& graph() { return *win_->model()->graph; }

  void shot(const QString& name) {
    QTest::qWait(300);
    const QString dir = QCoreApplication::applicationDirPath() + "/screenshots";
    QDir().mkpath(dir);
    QVERIFY(win_->grab_window().save(dir + "/" + name + ".png"));
  }

  void open(const fs::path& model_json) {
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    win_->open_model(QString::fromStdString(model_json.string()));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(win_->graph_view()->has_layout(), kTimeoutMs);
  }

  // Opens a reference layers model with TF.js's golden input in the Run dock.
  void open_reference(const std::string& name) {
    const auto root = test::reference_dir();
    open(root / "layers" / name / "model.json");
    const auto gdir = root / "golden" / name;
    const json g = read_json(gdir / "golden.json");
    for (std::size_t k = 0; k < g["inputs"].size(); ++k)
      win_->run_dock()->set_input(
          QString::fromStdString(graph().inputs[k].name), ui::InputKind::Npy,
          QString::fromStdString((gdir / g["inputs"][k]["file"].get<std::string>()).string()));
  }

  // The Run dock's inputs are the .npy files the reduction wrote (inputs.json), as the app set
  // them when it opened the bundle.
  void expect_written_inputs_set(const fs::path& dir) {
    const json written = read_json(dir / "inputs.json");
    QVERIFY(!written.empty());
    const ui::RunRequest run = win_->run_settings();
    for (const auto& in : written) {
      bool found = false;
      for (const auto& spec : run.inputs)
        if (spec.input == in["name"].get<std::string>()) {
          QCOMPARE(spec.kind, ui::InputKind::Npy);
          QCOMPARE(fs::canonical(spec.path.toStdString()),
                   fs::canonical(dir / in["file"].get<std::string>()));
          found = true;
        }
      QVERIFY2(found, in["name"].get<std::string>().c_str());
    }
  }

  ui::Fp16CheckResultPtr check() {
    QSignalSpy done(precision(), &ui::PrecisionDock::checkFinished);
    QSignalSpy failed(precision(), &ui::PrecisionDock::checkFailed);
    [&] { QTRY_VERIFY_WITH_TIMEOUT(precision()->check_button()->isEnabled(), 30000); }();
    QTest::mouseClick(precision()->check_button(), Qt::LeftButton);
    [&] { QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, kTimeoutMs); }();
    if (failed.count()) {
      QTest::qFail(qPrintable("check failed: " + failed.at(0).at(0).toString()), __FILE__,
                   __LINE__);
      return nullptr;
    }
    return done.at(0).at(0).value<ui::Fp16CheckResultPtr>();
  }

  ui::CompareResultPtr run_compare() {
    QSignalSpy done(compare(), &ui::CompareDock::compareFinished);
    QSignalSpy failed(compare(), &ui::CompareDock::compareFailed);
    [&] { QTRY_VERIFY_WITH_TIMEOUT(compare()->compare_button()->isEnabled(), 30000); }();
    QTest::mouseClick(compare()->compare_button(), Qt::LeftButton);
    [&] { QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, kTimeoutMs); }();
    if (failed.count()) {
      QTest::qFail(qPrintable("compare failed: " + failed.at(0).at(0).toString()), __FILE__,
                   __LINE__);
      return nullptr;
    }
    return done.at(0).at(0).value<ui::CompareResultPtr>();
  }

  // Presses the row's Reduce with `folder` as the folder picked, and waits for the answer.
  // Returns the result, or null when it failed (`failure` then holds the message).
  ui::ReduceResultPtr reduce(ui::ReduceRow* row, const fs::path& folder, QString* failure) {
    row->set_folder_chooser([folder] { return QString::fromStdString(folder.string()); });
    QSignalSpy done(row, &ui::ReduceRow::reduceFinished);
    QSignalSpy failed(row, &ui::ReduceRow::reduceFailed);
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    [&] {
      QVERIFY(row->isVisible());
      QVERIFY(row->reduce_button()->isVisible());
      QVERIFY(row->reduce_button()->isEnabled());
    }();
    QTest::mouseClick(row->reduce_button(), Qt::LeftButton);
    [&] { QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, kTimeoutMs); }();
    if (failed.count()) {
      if (failure) *failure = failed.at(0).at(0).toString();
      return nullptr;
    }
    // It opens the bundle written, as File > Open would.
    [&] { QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kTimeoutMs); }();
    [&] { QTRY_VERIFY_WITH_TIMEOUT(win_->graph_view()->has_layout(), kTimeoutMs); }();
    return done.at(0).at(0).value<ui::ReduceResultPtr>();
  }

  // What every reduced bundle must be: written where asked, loadable, smaller, and open now.
  void expect_reduced_bundle(const fs::path& folder, const ui::ReduceResultPtr& r,
                             std::size_t nodes_before) {
    QVERIFY(fs::exists(folder / "model.json"));
    QVERIFY(fs::exists(folder / "inputs.json"));
    QVERIFY(fs::exists(folder / "repro.js"));
    QCOMPARE(partial_folders_beside(folder), 0);
    const analysis::LoadedModel back = analysis::load_model(folder, false);
    QVERIFY2(back.graph->nodes.size() < nodes_before,
             qPrintable(QString("%1 nodes of %2").arg(back.graph->nodes.size()).arg(nodes_before)));
    QCOMPARE(static_cast<std::size_t>(r->nodes_after), back.graph->nodes.size());
    QCOMPARE(static_cast<std::size_t>(r->nodes_before), nodes_before);
    // The model open now is the bundle written.
    QCOMPARE(fs::canonical(win_->model()->bundle.model_json), fs::canonical(folder / "model.json"));
    QCOMPARE(graph().nodes.size(), back.graph->nodes.size());
    QVERIFY(graph().find(r->culprit) >= 0);
  }

 private slots:
  void initTestCase() {
    win_ = std::make_unique<ui::MainWindow>();
    win_->resize(1280, 800);
    win_->show();
    QVERIFY(QTest::qWaitForWindowExposed(win_.get()));
    // Nothing to reduce before a finding.
    QVERIFY(!precision()->reduce_row()->isVisible());
    QVERIFY(!compare()->reduce_row()->isVisible());
  }

  // A folder that will not do is refused in the dock, and nothing else changes.
  void refusesAFolderThatWillNotDo() {
    open_reference("fp16_overflow");
    const auto r = check();
    QVERIFY(r && r->report.first_overflow);
    ui::ReduceRow* row = precision()->reduce_row();
    QTRY_VERIFY(row->isVisible());
    const fs::path full = tmp_.path / "full";
    fs::create_directories(full);
    std::ofstream(full / "keep.txt") << "mine";
    const fs::path model = win_->model()->bundle.model_json;
    QString failure;
    QVERIFY(!reduce(row, full, &failure));
    QVERIFY2(failure.contains("not empty"), qPrintable(failure));
    QVERIFY(row->status_label()->text().contains("not empty"));
    QVERIFY(row->status_label()->styleSheet().contains("#b00020"));
    QVERIFY(!fs::exists(full / "model.json"));
    QCOMPARE(win_->model()->bundle.model_json, model);  // still the model it was
    QCOMPARE(partial_folders_beside(full), 0);
    // The model's own folder is refused too.
    QVERIFY(!reduce(row, model.parent_path(), &failure));
    QVERIFY2(failure.contains("own folder"), qPrintable(failure));
    QVERIFY(row->reduce_button()->isEnabled());  // and it can be tried again
  }

  // Precision dock: the first overflow reduced to a repro, which overflows at the same node.
  void reducesTheFirstOverflow() {
    open_reference("fp16_overflow");
    const auto checked = check();
    QVERIFY(checked);
    const std::string first = *checked->report.first_overflow;
    const std::size_t nodes_before = graph().nodes.size();
    ui::ReduceRow* row = precision()->reduce_row();
    QVERIFY(row->isVisible());
    QVERIFY(row->reduce_button()->toolTip().contains("fp16-overflow"));
    shot("reduce_overflow_offered");
    const fs::path out = tmp_.path / "overflow-repro";
    QString failure;
    const auto r = reduce(row, out, &failure);
    QVERIFY2(r, qPrintable(failure));
    QCOMPARE(r->culprit, first);
    expect_reduced_bundle(out, r, nodes_before);
    // The dock says what was written, beside the reduced model now open.
    QVERIFY(row->isVisible());
    const QString note = row->status_label()->text();
    QVERIFY2(note.contains(QString("%1 of %2 nodes kept").arg(r->nodes_after).arg(nodes_before)),
             qPrintable(note));
    QVERIFY2(note.contains(QString::fromStdString(out.string())), qPrintable(note));
    QVERIFY(!precision()->last_result());  // the dock's check was of the other model
    shot("reduce_overflow_done");

    // The Run panel holds the inputs written; checked again in the same dock on them, it
    // overflows at the same node.
    expect_written_inputs_set(out);
    precision()->gl_box()->setChecked(false);
    const auto again = check();
    precision()->gl_box()->setChecked(true);
    QVERIFY(again);
    QVERIFY(again->report.first_overflow);
    QCOMPARE(*again->report.first_overflow, first);
    // Its own overflow is offered again (a repro of a repro is the same bundle).
    QVERIFY(row->is_offered());
    shot("reduce_overflow_checked_again");
  }

  // Precision dock, when the fp32 run itself is not finite (the fp16 test model fed 1e37: its
  // convolutions pass float32's range): the check says so and offers a repro of the NaN or inf on
  // cpu; the reduced bundle's culprit held them in the check's own fp32 run, and checked again on
  // the inputs written, the bundle's fp32 run is not finite from that node on.
  void reducesANonfiniteValue() {
    open_reference("fp16_overflow");
    const graph::Endpoint& in = graph().inputs.at(0);
    HostTensor huge = HostTensor::zeros(DType::Float32, Shape{1, 8, 8, 3});
    for (float& v : huge.mutable_values<float>()) v = 1e37f;
    const fs::path npy = tmp_.path / "huge.npy";
    io::write_npy(npy, huge);
    win_->run_dock()->set_input(QString::fromStdString(in.name), ui::InputKind::Npy,
                                QString::fromStdString(npy.string()));
    const auto checked = check();
    QVERIFY(checked);
    QVERIFY(checked->report.fp32_nonfinite);
    QVERIFY(precision()->verdict_label()->text().contains("Not checked"));
    ui::ReduceRow* row = precision()->reduce_row();
    QTRY_VERIFY(row->isVisible());
    QVERIFY(row->reduce_button()->toolTip().contains("nonfinite"));
    const std::size_t nodes_before = graph().nodes.size();
    const fs::path out = tmp_.path / "nonfinite-repro";
    QString failure;
    const auto r = reduce(row, out, &failure);
    QVERIFY2(r, qPrintable(failure));
    QCOMPARE(r->condition.kind, analysis::ReduceConditionKind::Nonfinite);
    bool held = false;
    for (const auto& n : checked->report.nodes)
      if (n.name == r->culprit) held = n.fp32.nan + n.fp32.inf > 0;
    QVERIFY2(held, r->culprit.c_str());
    expect_reduced_bundle(out, r, nodes_before);
    expect_written_inputs_set(out);
    const auto again = check();
    QVERIFY(again && again->report.fp32_nonfinite);
    QCOMPARE(again->report.fp32_nonfinite->node, r->culprit);
  }

  // Compare dock: gl fp16 against cpu; the reduced bundle keeps the first divergent node and,
  // compared again, parts from cpu there first.
  void reducesTheFirstDivergence() {
    open_reference("fp16_overflow");
    compare()->show();
    compare()->raise();
    compare()->set_sides({"gl", true}, {"cpu", false});
    compare()->tolerance_box()->setValue(0.01);
    const auto c = run_compare();
    QVERIFY(c);
    const QString first = compare()->first_divergent();
    QVERIFY(!first.isEmpty());
    const std::size_t nodes_before = graph().nodes.size();
    ui::ReduceRow* row = compare()->reduce_row();
    QTRY_VERIFY(row->isVisible());
    QVERIFY(row->reduce_button()->toolTip().contains("diverge:cpu,gl"));
    shot("reduce_diverge_offered");
    const fs::path out = tmp_.path / "diverge-repro";
    QString failure;
    const auto r = reduce(row, out, &failure);
    QVERIFY2(r, qPrintable(failure));
    QCOMPARE(QString::fromStdString(r->culprit), first);
    QCOMPARE(r->condition.precision, runtime::Precision::Fp16);
    expect_reduced_bundle(out, r, nodes_before);
    QVERIFY(row->status_label()->text().contains("nodes kept"));
    shot("reduce_diverge_done");

    expect_written_inputs_set(out);
    compare()->set_sides({"gl", true}, {"cpu", false});
    const auto again = run_compare();
    QVERIFY(again);
    QCOMPARE(compare()->first_divergent(), first);
  }

  // Cancel mid-way: Cancel while the reduction is between its first and its second candidate
  // stops it; the empty folder picked stays empty and no staging folder is left. (A reduction
  // takes milliseconds here and about a second on blazepose: the worker is held after its first
  // candidate, through the run controller's own progress signal, until Cancel has been pressed.)
  void cancelStopsTheReduction() {
    open_reference("fp16_overflow");
    precision()->raise();
    const auto checked = check();
    QVERIFY(checked && checked->report.first_overflow);
    ui::ReduceRow* row = precision()->reduce_row();
    QTRY_VERIFY(row->isVisible());
    const fs::path out = tmp_.path / "cancelled";
    fs::create_directories(out);
    row->set_folder_chooser([out] { return QString::fromStdString(out.string()); });
    QSignalSpy done(row, &ui::ReduceRow::reduceFinished);
    QSignalSpy failed(row, &ui::ReduceRow::reduceFailed);
    const fs::path model = win_->model()->bundle.model_json;
    QSemaphore go;
    std::atomic<int> candidates{0};
    struct Release {  // the worker never stays held, whatever the test does
      QSemaphore& s;
      ~Release() { s.release(100); }
    } release{go};
    const auto hold = connect(
        win_->run_controller(), &ui::RunController::reduceProgress, win_->run_controller(),
        [&](int step, const QString&, int, bool, int) {
          candidates = step;
          if (step == 1) go.acquire();
        },
        Qt::DirectConnection);
    QTest::mouseClick(row->reduce_button(), Qt::LeftButton);
    QVERIFY(row->is_reducing());
    QVERIFY(row->cancel_button()->isVisible() && row->cancel_button()->isEnabled());
    QVERIFY(row->progress_bar()->isVisible());
    QVERIFY(win_->is_reducing());
    win_->run_model(false);  // refused while the reduction holds the engine
    QVERIFY(!win_->is_running());
    // A few candidates have run: the step line counts the nodes left.
    QTRY_VERIFY_WITH_TIMEOUT(row->status_label()->text().contains("nodes left"), kTimeoutMs);
    shot("reduce_running");
    QCOMPARE(done.count() + failed.count(), 0);
    QTest::mouseClick(row->cancel_button(), Qt::LeftButton);
    go.release();
    QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, 60000);
    disconnect(hold);
    QCOMPARE(candidates.load(), 1);  // stopped before a second candidate was reported
    QCOMPARE(done.count(), 0);
    QVERIFY(failed.at(0).at(1).toBool());  // cancelled, not failed
    QVERIFY(!row->is_reducing());
    QVERIFY(!win_->is_reducing());
    QVERIFY(row->status_label()->text().contains("cancelled"));
    QVERIFY(fs::is_directory(out) && fs::is_empty(out));
    QCOMPARE(partial_folders_beside(out), 0);
    QCOMPARE(win_->model()->bundle.model_json, model);  // nothing opened
    QVERIFY(row->reduce_button()->isEnabled());
    shot("reduce_cancelled");
    // The engine is free again: a run works.
    QSignalSpy ran(win_.get(), &ui::MainWindow::runFinished);
    win_->run_model(false);
    QTRY_COMPARE_WITH_TIMEOUT(ran.count(), 1, kTimeoutMs);
  }

  void cleanupTestCase() { win_.reset(); }
};

int main(int argc, char** argv) {
  return tfjsi::test::run_gui_suite<ReduceTest>(argc, argv, "tfjsi-gui-reduce-test");
}
#include "reduce_test.moc"
