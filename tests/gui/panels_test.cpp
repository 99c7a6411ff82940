// The Memory, Profile and Environment panels as a user drives them, at 1280x800: the bundled
// sample run 20 times on cpu, xnnpack and gl with the memory plot flat after the first run on each
// backend and no tensor left behind but the weights; Reset; the profile table holding every node
// that ran with times > 0, slowest first, sortable, a row selecting its node in the graph; the
// first and warm runs side by side and gl's compile and upload time; flags edited in the
// Environment panel reaching the engine. Saves a screenshot of each panel in the build folder.
// Needs a display (run under xvfb-run).
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>
#include <QTableWidget>
#include <QTreeWidget>
#include <set>

#include "backends/all_backends.h"
#include "bar_chart.h"
#include "compare_dock.h"
#include "env_dock.h"
#include "graph_view.h"
#include "gui_run.h"
#include "gui_test_main.h"
#include "line_plot.h"
#include "main_window.h"
#include "memory_dock.h"
#include "outputs_dock.h"
#include "precision_dock.h"
#include "profile_dock.h"
#include "run_controller.h"
#include "run_dock.h"
#include "support/test_support.h"

using namespace tfjsi;

namespace {

constexpr int kTimeoutMs = 120000;
constexpr int kRuns = 20;

}  // namespace

class PanelsTest : public QObject {
  Q_OBJECT
  std::unique_ptr<ui::MainWindow> win_;

  ui::RunDock* dock() { return win_->run_dock(); }
  ui::MemoryDock* memory() { return win_->memory_dock(); }
  ui::ProfileDock* profile() { return win_->profile_dock(); }
  ui::EnvDock* env() { return win_->env_dock(); }
  const graph::Graph& graph() { return *win_->model()->graph; }

  void shot(QDockWidget* panel, const QString& name) {
    panel->show();
    panel->raise();
    QTest::qWait(300);
    const QString dir = QCoreApplication::applicationDirPath() + "/screenshots";
    QDir().mkpath(dir);
    QVERIFY(win_->grab_window().save(dir + "/" + name + ".png"));
  }

  // One run with the Run dock's settings; waits for its memory sample too.
  ui::RunResultPtr run(bool benchmark = false) {
    auto r = test::run_and_wait(*win_, benchmark);
    if (!r) return nullptr;
    [&] { QTRY_VERIFY_WITH_TIMEOUT(sample_of(r->id) >= 0, kTimeoutMs); }();
    return r;
  }

  // The plotted index of the sample taken right after run `id`, or -1. Idle samples may follow it.
  int sample_of(std::uint64_t id) {
    const auto& s = memory()->samples();
    for (std::size_t i = s.size(); i-- > 0;)
      if (s[i].run_id == id) return static_cast<int>(i);
    return -1;
  }

  void use_backend(const char* name) {
    const int i = dock()->backend_combo()->findData(name);
    QVERIFY(i >= 0);
    dock()->backend_combo()->setCurrentIndex(i);
  }

  std::size_t const_nodes() {
    std::size_t n = 0;
    for (const auto& node : graph().nodes) n += node.op == "Const";
    return n;
  }

  // The proxy's rows, in the order shown.
  std::vector<double> column(int c) {
    std::vector<double> v;
    auto* p = profile()->proxy();
    for (int r = 0; r < p->rowCount(); ++r)
      v.push_back(p->index(r, c).data(Qt::UserRole).toDouble());
    return v;
  }

 private slots:
  void initTestCase() {
    win_ = std::make_unique<ui::MainWindow>();
    win_->resize(1280, 800);
    win_->show();
    QVERIFY(QTest::qWaitForWindowExposed(win_.get()));
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    win_->open_model(
        QString::fromStdString((test::source_dir() / "resources" / "sample").string()));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(dock()->backend_combo()->count() >= 3, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(win_->graph_view()->has_layout(), kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!env()->environment().flags.empty(), kTimeoutMs);
    dock()->rerun_box()->setChecked(false);
  }

  void panelsAreTabbedAndInTheViewMenu() {
    const auto tabs = win_->tabifiedDockWidgets(win_->outputs_dock());
    for (QDockWidget* d : std::initializer_list<QDockWidget*>{memory(), profile(), env()}) {
      QVERIFY(tabs.contains(d));
      bool in_menu = false;
      for (QAction* a : win_->menuBar()->actions())
        if (a->menu())
          for (QAction* b : a->menu()->actions()) in_menu = in_menu || b == d->toggleViewAction();
      QVERIFY(in_menu);
    }
    // The two check panels: tabbed together, listed with the other docks in the View menu.
    auto* precision = win_->precision_dock();
    auto* compare = win_->compare_dock();
    QVERIFY(precision && compare);
    QVERIFY(win_->tabifiedDockWidgets(precision).contains(compare));
    for (QDockWidget* d : std::initializer_list<QDockWidget*>{precision, compare}) {
      bool in_menu = false;
      for (QAction* a : win_->menuBar()->actions())
        if (a->menu())
          for (QAction* b : a->menu()->actions()) in_menu = in_menu || b == d->toggleViewAction();
      QVERIFY2(in_menu, qPrintable(d->windowTitle()));
    }
  }

  void memoryStaysFlatAcrossRuns() {
    // The idle timer samples while nothing runs.
    const std::size_t before = memory()->samples().size();
    QTRY_VERIFY_WITH_TIMEOUT(memory()->samples().size() >= before + 2, 5000);
    QCOMPARE(memory()->samples().back().run_id, std::uint64_t{0});

    for (const char* backend : {"cpu", "xnnpack", "gl"}) {
      use_backend(backend);
      std::vector<std::size_t> at;  // the plotted index of each run's sample
      for (int i = 0; i < kRuns; ++i) {
        auto r = run();
        QVERIFY(r);
        QCOMPARE(r->backend, std::string(backend));
        at.push_back(static_cast<std::size_t>(sample_of(r->id)));
        // After every run only the weights are alive, each made by its Const node.
        if (i == 0 || i + 1 == kRuns) {
          QTreeWidget* live = memory()->live_tree();
          QCOMPARE(static_cast<std::size_t>(live->topLevelItemCount()), const_nodes());
          for (int k = 0; k < live->topLevelItemCount(); ++k)
            QCOMPARE(live->topLevelItem(k)->text(1), QString("weight"));
        }
      }
      // What the plots draw at those samples: every series the same from the second run on.
      for (ui::LinePlot* plot : {memory()->bytes_plot(), memory()->counts_plot()})
        for (const auto& s : plot->series()) {
          QCOMPARE(s.values.size(), memory()->samples().size());
          for (std::size_t k = 2; k < at.size(); ++k)
            QVERIFY2(s.values[at[k]] == s.values[at[1]],
                     qPrintable(QString("%1 on %2: run %3 has %4, run 2 had %5")
                                    .arg(s.name, backend)
                                    .arg(k + 1)
                                    .arg(s.values[at[k]])
                                    .arg(s.values[at[1]])));
        }
      // The weights are counted: a flat line at zero would prove nothing.
      QVERIFY(memory()->bytes_plot()->series()[0].values[at.back()] > 0);
      QVERIFY(memory()->counts_plot()->series()[0].values[at.back()] >= double(const_nodes()));
      QString why;
      QVERIFY2(memory()->flat_after_first_run(backend, &why), qPrintable(why));
      QVERIFY(memory()->verdict_label()->text().contains("Flat"));
    }
    shot(memory(), "panel_memory");
  }

  void resetClearsThePlotAndThePool() {
    // The runs' storage, kept for the next run.
    QVERIFY(memory()
                ->samples()[static_cast<std::size_t>(sample_of(win_->last_result()->id))]
                .info.cached_bytes > 0);
    memory()->reset_button()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!memory()->samples().empty() && memory()->samples().front().reset,
                             kTimeoutMs);
    const auto& s = memory()->samples().front();
    QCOMPARE(s.disposed, std::size_t{0});  // the runs left nothing behind
    QCOMPARE(s.info.cached_bytes, std::size_t{0});
    QCOMPARE(s.info.total.num_tensors, const_nodes());                // the weights stay
    QVERIFY(memory()->bytes_plot()->series()[0].values.size() <= 2);  // an idle sample may follow
    auto r = run();
    QVERIFY(r);
    QVERIFY(memory()->samples()[static_cast<std::size_t>(sample_of(r->id))].info.cached_bytes > 0);
  }

  void profileHoldsEveryNodeSlowestFirst() {
    use_backend("gl");
    auto r = run();
    QVERIFY(r);
    QVERIFY(!r->cold);  // gl ran 20 times above: this is a warm run
    profile()->set_view(ui::ProfileDock::View::Nodes);
    std::set<std::string> ran;
    for (const auto& n : r->nodes) ran.insert(n.node);
    auto* p = profile()->proxy();
    QCOMPARE(static_cast<std::size_t>(p->rowCount()), ran.size());
    std::set<std::string> shown;
    for (int row = 0; row < p->rowCount(); ++row)
      shown.insert(p->index(row, ui::ProfileDock::NodeName).data().toString().toStdString());
    QCOMPARE(shown, ran);
    // Times > 0 for the warm run. The first gl run (a plain Run) met its programs ahead,
    // unprofiled (#19): it has a total and compile counts (below) but no per-node times.
    for (double ms : column(ui::ProfileDock::NodeWarmMs)) QVERIFY(ms > 0);
    for (double ms : column(ui::ProfileDock::NodeFirstMs)) QVERIFY(ms < 0);
    // Slowest first by default, and the slowest named above the table.
    const auto warm = column(ui::ProfileDock::NodeWarmMs);
    QVERIFY(std::is_sorted(warm.rbegin(), warm.rend()));
    QCOMPARE(p->index(0, ui::ProfileDock::NodeName).data().toString().toStdString(),
             profile()->slowest_node());
    QVERIFY(profile()->slowest_label()->text().contains(
        QString::fromStdString(profile()->slowest_node())));
    // The warm column is this run's profile.
    double total = 0, shown_total = 0;
    for (const auto& n : r->nodes) total += n.ms;
    for (double ms : warm) shown_total += ms;
    QCOMPARE(shown_total, total);
    // The first gl run built (or loaded) the programs and uploaded the weights.
    QVERIFY(profile()->gl_label()->isVisible() || !profile()->gl_label()->text().isEmpty());
    QVERIFY(profile()->gl_label()->text().contains("gl first run"));
    QVERIFY(profile()->gl_label()->text().contains("compile"));
    QVERIFY(r->gl_last.present);
    QCOMPARE(r->gl_last.new_programs, std::int64_t{0});  // warm: nothing new to build

    // The chart: the top rows, longest first.
    const auto& bars = profile()->chart()->bars();
    QCOMPARE(static_cast<int>(bars.size()),
             std::min<int>(ui::ProfileDock::kChartBars, p->rowCount()));
    QCOMPARE(bars.front().value, warm.front());
    for (std::size_t i = 1; i < bars.size(); ++i) QVERIFY(bars[i].value <= bars[i - 1].value);
    shot(profile(), "panel_profile");

    // Sorting by name, then back to time.
    profile()->table()->horizontalHeader()->sectionClicked(ui::ProfileDock::NodeName);
    profile()->table()->sortByColumn(ui::ProfileDock::NodeName, Qt::AscendingOrder);
    QStringList names;
    for (int row = 0; row < p->rowCount(); ++row)
      names << p->index(row, ui::ProfileDock::NodeName).data().toString().toLower();
    QStringList sorted = names;
    sorted.sort();
    QCOMPARE(names, sorted);
    profile()->table()->sortByColumn(ui::ProfileDock::NodeWarmMs, Qt::DescendingOrder);

    // Double-clicking a row selects its node in the graph.
    const QModelIndex last = p->index(p->rowCount() - 1, ui::ProfileDock::NodeOp);
    const QString node = p->index(last.row(), ui::ProfileDock::NodeName).data().toString();
    emit profile()->table()->doubleClicked(last);
    QCOMPARE(win_->graph_view()->selected_node(), win_->graph_view()->find_node(node));

    // Per op: the same time, by op.
    profile()->set_view(ui::ProfileDock::View::Ops);
    std::map<std::string, double> by_op;
    for (const auto& n : r->nodes) by_op[n.op] += n.ms;
    QCOMPARE(static_cast<std::size_t>(p->rowCount()), by_op.size());
    const auto op_ms = column(ui::ProfileDock::OpWarmMs);
    QVERIFY(std::is_sorted(op_ms.rbegin(), op_ms.rend()));
    for (int row = 0; row < p->rowCount(); ++row)
      QCOMPARE(op_ms[static_cast<std::size_t>(row)],
               by_op.at(p->index(row, ui::ProfileDock::OpName).data().toString().toStdString()));
    profile()->set_view(ui::ProfileDock::View::Nodes);
  }

  // Nodes that ran inside the kernel of a node before them.
  static int fused_nodes(const ui::RunResult& r) {
    int n = 0;
    for (const auto& node : r.nodes) n += !node.fused_into.empty();
    return n;
  }

  void benchmarkKeepsFirstAndWarmSideBySide() {
    use_backend("gl");
    dock()->fp16_box()->setChecked(false);
    auto r32 = run();
    QVERIFY(r32 && !r32->fp16);
    // gl fp16 is a new configuration: its first run is cold, inside the benchmark.
    dock()->fp16_box()->setChecked(true);
    dock()->warmup_box()->setValue(1);
    dock()->runs_box()->setValue(3);
    auto r = run(true);
    QVERIFY(r);
    QVERIFY(r->cold);
    QVERIFY(r->fp16);
    QCOMPARE(r->first_nodes.size(), r->nodes.size());
    QVERIFY(r->gl_first.present);
    // Where fp16 is emulated in RGBA32F textures (drivers that build per texture format, as
    // llvmpipe), fp16 runs the fp32 programs: nothing new to build but, rounding as TF.js webgl
    // (the default), the kernels of what fp16 runs apart where fp32 fuses (at most two for each
    // fusion given up: gl_fp16_storage_test). With native RGBA16F storage the driver builds every
    // program again.
    const runtime::Flag* storage = nullptr;
    for (const auto& f : env()->environment().flags)
      if (f.name == "gl.fp16_storage") storage = &f;
    QVERIFY(storage);
    if (runtime::flag_value_to_string(storage->value) == "emulated") {
      const int given_up = fused_nodes(*r32) - fused_nodes(*r);
      QVERIFY(given_up >= 0);
      QVERIFY2(r->gl_first.new_programs <= 2 * given_up,
               qPrintable(QString("%1 programs built, %2 fusions given up")
                              .arg(r->gl_first.new_programs)
                              .arg(given_up)));
    } else {
      QVERIFY(r->gl_first.new_programs > 0);
    }
    QVERIFY(r->gl_first.upload_ms > 0);
    double first = 0;
    for (const auto& n : r->first_nodes) first += n.ms;
    double shown_first = 0;
    for (double ms : column(ui::ProfileDock::NodeFirstMs)) shown_first += ms;
    QCOMPARE(shown_first, first);
    QVERIFY(profile()->runs_label()->text().contains("gl fp16"));
    dock()->fp16_box()->setChecked(false);
  }

  void everyFlagIsListed() {
    // What a fresh engine with every backend defines, here on the test's thread.
    runtime::Engine engine;
    backends::add_all_backends(engine);
    const auto& flags = engine.flags().list();
    QTableWidget* table = env()->flags_table();
    QCOMPARE(table->rowCount(), 2 * static_cast<int>(flags.size()));
    for (int k = 0; k < static_cast<int>(flags.size()); ++k) {
      const auto& f = flags[static_cast<std::size_t>(k)];
      QCOMPARE(table->item(ui::EnvDock::name_row(k), ui::EnvDock::FlagName)->text().toStdString(),
               f.name);
      QVERIFY(table->item(ui::EnvDock::help_row(k), 0)
                  ->text()
                  .startsWith(QString::fromStdString(f.help)));
      QWidget* ed = env()->editor(QString::fromStdString(f.name));
      QVERIFY(ed);
      QCOMPARE(ed->isEnabled(), !f.read_only);
      if (std::holds_alternative<bool>(f.value)) QVERIFY(qobject_cast<QCheckBox*>(ed));
      if (std::holds_alternative<std::int64_t>(f.value)) QVERIFY(qobject_cast<QSpinBox*>(ed));
    }
    // Backends as the engine says, and the gl context with the fp16 store probe.
    const auto backends = engine.backends();
    QCOMPARE(env()->backends_tree()->topLevelItemCount(), static_cast<int>(backends.size()));
    const auto& e = env()->environment();
    QVERIFY(e.gl);
    QVERIFY(!e.gl_renderer.empty());
    QVERIFY(e.probe_done);
    QVERIFY(e.store_overflow == "inf" || e.store_overflow == "clamp");
    QVERIFY(!e.store_samples.empty());
    QVERIFY(env()->gl_tree()->topLevelItemCount() >= 6);
  }

  void flagEditsReachTheEngine() {
    use_backend("cpu");
    // threads: the spin box, as a user types 2 and leaves it.
    auto* threads = qobject_cast<QSpinBox*>(env()->editor("threads"));
    QVERIFY(threads);
    threads->setValue(2);
    emit threads->editingFinished();
    auto flag = [&](const std::string& name) {
      for (const auto& f : env()->environment().flags)
        if (f.name == name) return f.value;
      return runtime::FlagValue{};
    };
    QTRY_VERIFY_WITH_TIMEOUT(flag("threads") == runtime::FlagValue{std::int64_t{2}}, kTimeoutMs);
    QCOMPARE(dock()->threads_box()->value(), 2);  // the Run dock follows
    auto r = run();
    QVERIFY(r);
    QCOMPARE(r->threads, std::size_t{2});

    // debug: the check box.
    auto* debug = qobject_cast<QCheckBox*>(env()->editor("debug"));
    QVERIFY(debug);
    QVERIFY(!debug->isChecked());
    debug->click();
    QTRY_VERIFY_WITH_TIMEOUT(flag("debug") == runtime::FlagValue{true}, kTimeoutMs);
    shot(env(), "panel_environment");
    debug->click();
    QTRY_VERIFY_WITH_TIMEOUT(flag("debug") == runtime::FlagValue{false}, kTimeoutMs);

    // A read-only flag cannot be set: the engine says why and the panel shows it.
    emit env()->flagEdited("gl.float32_capable", "false");
    QTRY_VERIFY_WITH_TIMEOUT(env()->message_label()->isVisible(), kTimeoutMs);
    QVERIFY(env()->message_label()->text().contains("gl.float32_capable"));
    threads->setValue(0);
    emit threads->editingFinished();
    QTRY_VERIFY_WITH_TIMEOUT(flag("threads") == runtime::FlagValue{std::int64_t{0}}, kTimeoutMs);
  }

  void cleanupTestCase() { win_.reset(); }
};

int main(int argc, char** argv) {
  return tfjsi::test::run_gui_suite<PanelsTest>(argc, argv, "tfjs-inspector-test");
}
#include "panels_test.moc"
