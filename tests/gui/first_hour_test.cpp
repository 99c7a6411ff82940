// A new user's first hour with the app (issue 20), on a real MainWindow at 1280x800: opening a
// second model leaves nothing of the first in any panel; the memory verdict is not tripped by a
// backend's few bytes of bookkeeping and a flat run clears it; node names in the tables keep their
// distinctive end; "Colour graph by" says what the graph shows; the Open dialog, the export name,
// the title, the About text and the Properties text for an open group. Needs a display (xvfb-run).
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QTreeWidget>
#include <functional>

#include "graph_view.h"
#include "gui_run.h"
#include "gui_test_main.h"
#include "line_plot.h"
#include "main_window.h"
#include "memory_dock.h"
#include "node_colouring.h"
#include "outputs_dock.h"
#include "precision_dock.h"
#include "profile_dock.h"
#include "properties_dock.h"
#include "run_dock.h"
#include "support/test_support.h"

using namespace tfjsi;

namespace {

constexpr int kTimeoutMs = 300000;

QString sample_path() {
  return QString::fromStdString((test::source_dir() / "resources" / "sample").string());
}

// A memory reading taken after run `id` on gl, as the RunController sends them.
ui::MemorySample gl_sample(std::uint64_t id, std::size_t tensors, std::size_t gl_bytes) {
  ui::MemorySample s;
  s.run_id = id;
  s.backend = "gl";
  s.info.total = {tensors, tensors, gl_bytes};
  s.info.backends.push_back({"cpu", {}, {}});
  s.info.backends.push_back({"gl", {tensors, tensors, gl_bytes}, {4096, "programs"}});
  return s;
}

// Runs `check` on the modal dialog `trigger` opens, then closes the dialog.
void on_modal(const std::function<void()>& trigger, const std::function<void(QWidget*)>& check) {
  bool seen = false, done = false;
  QTimer::singleShot(0, [&] {
    // Runs inside the dialog's own event loop; it may take a few turns to show.
    for (int i = 0; i < 100 && !QApplication::activeModalWidget(); ++i) QTest::qWait(50);
    if (QWidget* w = QApplication::activeModalWidget()) {
      seen = true;
      check(w);
      if (auto* d = qobject_cast<QDialog*>(w)) d->reject();
    }
    done = true;
  });
  trigger();
  QTRY_VERIFY_WITH_TIMEOUT(done, 10000);
  QVERIFY2(seen, "no dialog opened");
}

}  // namespace

class FirstHourTest : public QObject {
  Q_OBJECT
  std::unique_ptr<ui::MainWindow> win_;

  ui::RunDock* run_dock() { return win_->run_dock(); }
  ui::PrecisionDock* precision() { return win_->findChild<ui::PrecisionDock*>("precisionDock"); }
  viewers::GraphView* view() { return win_->graph_view(); }

  void open(const QString& path) {
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    win_->open_model(path);
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(view()->has_layout() && !view()->layout_pending(), kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(run_dock()->backend_combo()->count() >= 3, kTimeoutMs);
  }
  void use_backend(const char* name) {
    const int i = run_dock()->backend_combo()->findData(name);
    QVERIFY(i >= 0);
    run_dock()->backend_combo()->setCurrentIndex(i);
  }
  void check_fp16() {
    QTRY_VERIFY_WITH_TIMEOUT(precision()->check_button()->isEnabled(), 30000);
    QSignalSpy done(win_.get(), &ui::MainWindow::checkFinished);
    QSignalSpy failed(win_.get(), &ui::MainWindow::checkFailed);
    precision()->check_button()->click();
    QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, kTimeoutMs);
    QCOMPARE(failed.count(), 0);
    QTRY_VERIFY(precision()->last_result() != nullptr);
  }
  QAction* menu_action(const QString& menu, const QString& text) {
    for (QAction* a : win_->menuBar()->actions())
      if (a->menu() && a->text().remove('&') == menu)
        for (QAction* b : a->menu()->actions())
          if (b->text().remove('&').startsWith(text)) return b;
    return nullptr;
  }
  void shot(const QString& name) {
    QTest::qWait(300);
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
    run_dock()->rerun_box()->setChecked(false);
  }

  // Item 3: runs, a check and a search on the sample, then blazeface opened: no panel still
  // shows the sample's.
  void openingAModelResetsEveryPanel() {
    open(sample_path());
    use_backend("cpu");
    for (int i = 0; i < 3; ++i) QVERIFY(test::run_and_wait(*win_));
    ui::MemoryDock* memory = win_->memory_dock();
    QTRY_VERIFY_WITH_TIMEOUT(memory->live_tree()->topLevelItemCount() > 0, kTimeoutMs);
    QTRY_VERIFY(!memory->verdict_label()->text().isEmpty());
    check_fp16();
    view()->set_find_text("conv");
    auto* status = win_->findChild<QLabel*>("runStatus");
    QVERIFY(status->text().startsWith("Last run"));
    QVERIFY(win_->outputs_dock()->tensor_count() > 0);
    QVERIFY(win_->profile_dock()->source()->rowCount() > 0);

    open(QString::fromStdString(test::corpus_model("blazeface").string()));
    shot("first_hour_second_model");
    for (const auto& s : memory->samples())
      QVERIFY2(s.run_id == 0, "a run sample of the previous model is still plotted");
    QCOMPARE(memory->live_tree()->topLevelItemCount(), 0);
    QVERIFY2(memory->verdict_label()->text().isEmpty(),
             qPrintable(memory->verdict_label()->text()));
    QVERIFY2(status->text().isEmpty(), qPrintable(status->text()));
    QCOMPARE(view()->find_text(), QString());
    QCOMPARE(win_->outputs_dock()->tensor_count(), 0);
    QCOMPARE(win_->profile_dock()->source()->rowCount(), 0);
    QVERIFY(!precision()->last_result());
    QCOMPARE(precision()->table()->rowCount(), 0);
  }

  // Item 4: the 160-byte move of gl's bookkeeping leaves memory flat; a leaked tensor
  // turns the verdict red, and the next flat run turns it back.
  void memoryVerdictIgnoresBookkeepingAndRecovers() {
    ui::MemoryDock dock;
    dock.add_sample(gl_sample(1, 40, 8079554));
    dock.add_sample(gl_sample(2, 40, 8079554));
    dock.add_sample(gl_sample(3, 40, 8079714));  // 160 bytes more
    for (std::uint64_t id = 4; id <= 6; ++id) {
      QVERIFY2(dock.verdict_label()->text().contains("Flat"),
               qPrintable(dock.verdict_label()->text()));
      dock.add_sample(gl_sample(id, 40, 8079714));
    }
    // The panel says what it judges against.
    QVERIFY2(dock.verdict_label()->text().contains(ui::format_bytes(64 * 1024)),
             qPrintable(dock.verdict_label()->text()));
    dock.add_sample(gl_sample(7, 41, 8079714 + 4096));  // a leaked tensor
    QVERIFY2(dock.verdict_label()->text().contains("Not flat"),
             qPrintable(dock.verdict_label()->text()));
    dock.add_sample(gl_sample(8, 41, 8079714 + 4096));  // flat again
    QVERIFY2(dock.verdict_label()->text().contains("Flat") &&
                 !dock.verdict_label()->text().contains("Not flat"),
             qPrintable(dock.verdict_label()->text()));
    // A leak on every run stays red.
    dock.add_sample(gl_sample(9, 42, 8079714 + 8192));
    dock.add_sample(gl_sample(10, 43, 8079714 + 12288));
    QVERIFY(dock.verdict_label()->text().contains("Not flat"));
  }

  // Item 5: long node names are cut in the middle, so rows keep the part that differs.
  void tableNodeNamesKeepTheirEnd() {
    open(QString::fromStdString(test::corpus_model("blazeface").string()));
    use_backend("cpu");
    QVERIFY(test::run_and_wait(*win_));
    auto* profile = win_->profile_dock();
    QCOMPARE(profile->table()->textElideMode(), Qt::ElideMiddle);
    // Wrapped, a name breaks after a '/' and only its first line shows ("StatefulPartitioned
    // Call/..."), whatever the elide mode.
    QVERIFY(!profile->table()->wordWrap());
    auto* proxy = profile->proxy();
    QVERIFY(proxy->rowCount() > 0);
    for (int r = 0; r < proxy->rowCount(); ++r) {
      const QModelIndex i = proxy->index(r, ui::ProfileDock::NodeName);
      QCOMPARE(i.data(Qt::ToolTipRole).toString(), i.data(Qt::DisplayRole).toString());
    }
    QCOMPARE(precision()->table()->textElideMode(), Qt::ElideMiddle);
    QVERIFY(!precision()->table()->wordWrap());
  }

  // Item 6: the choice says what the graph shows: op family before a run, the backend after
  // one, fp16 status once the Precision panel colours by it; picking op family goes back.
  void colourChoiceSaysWhatTheGraphShows() {
    open(sample_path());
    QComboBox* combo = run_dock()->colour_combo();
    QCOMPARE(run_dock()->graph_colour(), ui::GraphColour::OpFamily);
    QCOMPARE(view()->colouring().mode(), viewers::NodeColouring::Mode::Families);
    QVERIFY2(combo->findText("fp16 status", Qt::MatchContains) >= 0, "no fp16 entry");
    use_backend("cpu");
    QVERIFY(test::run_and_wait(*win_));
    QCOMPARE(run_dock()->graph_colour(), ui::GraphColour::Backend);
    QCOMPARE(view()->colouring().mode(), viewers::NodeColouring::Mode::Categories);
    check_fp16();
    precision()->show();
    precision()->colour_status_button()->click();
    QVERIFY2(combo->currentText().contains("fp16 status"), qPrintable(combo->currentText()));
    QVERIFY(QString::fromStdString(view()->colouring().title()).contains("fp16 status"));
    shot("first_hour_fp16_colour");
    // A run does not take the user's choice back.
    QVERIFY(test::run_and_wait(*win_));
    QVERIFY(combo->currentText().contains("fp16 status"));
    QVERIFY(QString::fromStdString(view()->colouring().title()).contains("fp16 status"));
    combo->setCurrentIndex(combo->findData(static_cast<int>(ui::GraphColour::OpFamily)));
    QCOMPARE(view()->colouring().mode(), viewers::NodeColouring::Mode::Families);
    // The next model starts on op family again.
    open(QString::fromStdString(test::corpus_model("blazeface").string()));
    QCOMPARE(run_dock()->graph_colour(), ui::GraphColour::OpFamily);
  }

  // Item 9: where the Open dialog starts, what an export is called, the About text.
  void dialogsStartFromTheModel() {
    test::TempDir tmp;
    const auto dir = tmp.path / "palm detector";
    std::filesystem::create_directories(dir);
    const auto src = test::corpus_model("blazeface");
    std::filesystem::copy_file(src, dir / "model.json");
    for (const auto& f : std::filesystem::directory_iterator(src.parent_path()))
      if (f.path().stem() == src.stem() && f.path().extension() == ".bin")
        std::filesystem::copy_file(f.path(), dir / f.path().filename());
    open(QString::fromStdString((dir / "model.json").string()));
    QVERIFY2(win_->windowTitle().startsWith("palm detector"), qPrintable(win_->windowTitle()));

    QAction* open_action = menu_action("File", "Open...");
    QVERIFY(open_action);
    on_modal([&] { open_action->trigger(); },
             [&](QWidget* w) {
               auto* d = qobject_cast<QFileDialog*>(w);
               QVERIFY(d);
               QCOMPARE(QFileInfo(d->directory().absolutePath()).canonicalFilePath(),
                        QFileInfo(QString::fromStdString(dir.string())).canonicalFilePath());
             });
    QAction* png = menu_action("File", "Export Graph");
    QVERIFY(png && png->menu());
    QAction* as_png = png->menu()->actions().value(0);
    on_modal([&] { as_png->trigger(); },
             [&](QWidget* w) {
               auto* d = qobject_cast<QFileDialog*>(w);
               QVERIFY(d);
               QCOMPARE(QFileInfo(d->selectedFiles().value(0)).fileName(),
                        QString("palm detector.png"));
             });
    QAction* about = menu_action("Help", "About TF.js Inspector");
    QVERIFY(about);
    on_modal([&] { about->trigger(); },
             [&](QWidget* w) {
               auto* box = qobject_cast<QMessageBox*>(w);
               QVERIFY(box);
               for (const char* word : {"xnnpack", "gl", "fp16", "memory", "tfjsi"})
                 QVERIFY2(box->text().contains(word), word);
             });
  }

  // Item 9: Properties says how to open a closed group, and how to close it once it is open.
  void propertiesFollowAGroupOpening() {
    open(QString::fromStdString(test::corpus_model("blazepose-detector").string()));
    view()->collapse_all();
    QTRY_VERIFY_WITH_TIMEOUT(!view()->layout_pending(), kTimeoutMs);
    QTest::qWait(300);  // a frame, so the toolbar and legend are where they are drawn
    // A closed group's box on screen, clear of the toolbar and the legend.
    const auto& nodes = win_->model()->graph->nodes;
    QPoint at(-1, -1);
    for (int i = 0; i < static_cast<int>(nodes.size()) && at.x() < 0; ++i) {
      const auto r = view()->node_screen_rect(i);
      if (!r || view()->node_has_own_box(i)) continue;
      const QPoint c = r->center().toPoint();
      if (view()->rect().contains(c) && !view()->over_overlay(c)) at = c;
    }
    QVERIFY2(at.x() >= 0, "no closed group on screen");
    QTest::mouseClick(view(), Qt::LeftButton, {}, at);
    QLabel* header = win_->properties_dock()->findChild<QLabel*>("propertiesHeader");
    QTRY_VERIFY(header->text().contains("<b>Group</b>"));
    QVERIFY2(header->text().contains("to open it"), qPrintable(header->text()));
    QTest::mouseDClick(view(), Qt::LeftButton, {}, at);
    QTRY_VERIFY_WITH_TIMEOUT(!view()->layout_pending(), kTimeoutMs);
    QVERIFY2(!header->text().contains("to open it"), qPrintable(header->text()));
    QVERIFY2(header->text().contains("close it"), qPrintable(header->text()));
  }

  void cleanupTestCase() { win_.reset(); }
};

int main(int argc, char** argv) {
  return tfjsi::test::run_gui_suite<FirstHourTest>(argc, argv, "tfjs-inspector-first-hour-test");
}

#include "first_hour_test.moc"
