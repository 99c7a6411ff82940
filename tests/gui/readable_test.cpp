// Issue 20's readability items on a real MainWindow at 1280x800: the graph is labelled at the
// zoom it opens at (item 2), groups are as wide as their titles, shape labels never overlap, the
// legend folds and moves and leaves a node jumped to in view; the panels fit the screen (item 7);
// outputs are drawn as a user reads them (item 8: a [1, N, K] output as a 2-D heatmap, no RGB
// choice for one channel, top-k only for class scores). Needs a display (xvfb-run).
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QFontMetricsF>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QTreeWidget>
#include <cmath>

#include "graph_view.h"
#include "gui_run.h"
#include "gui_test_main.h"
#include "main_window.h"
#include "model_dock.h"
#include "outputs_dock.h"
#include "precision_dock.h"
#include "profile_dock.h"
#include "properties_dock.h"
#include "run_dock.h"
#include "support/test_support.h"
#include "tensor_stats.h"
#include "tensor_view.h"

using namespace tfjsi;

namespace {

constexpr int kTimeoutMs = 300000;

QString corpus(const char* name) {
  return QString::fromStdString(test::corpus_model(name).string());
}

bool all_whole_numbers(const HostTensor& t) {
  for (std::int64_t i = 0; i < t.num_elements(); ++i) {
    const double v = ui::element(t, i);
    if (std::isfinite(v) && v != std::floor(v)) return false;
  }
  return true;
}

bool tree_has(QTreeWidget* tree, const QString& prefix) {
  for (int i = 0; i < tree->topLevelItemCount(); ++i)
    if (tree->topLevelItem(i)->text(0).startsWith(prefix)) return true;
  return false;
}

}  // namespace

class ReadableTest : public QObject {
  Q_OBJECT
  std::unique_ptr<ui::MainWindow> win_;

  viewers::GraphView* view() { return win_->graph_view(); }
  ui::OutputsDock* outputs() { return win_->outputs_dock(); }
  ui::PrecisionDock* precision() { return win_->findChild<ui::PrecisionDock*>("precisionDock"); }

  void open(const QString& path) {
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    win_->open_model(path);
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(view()->has_layout() && !view()->layout_pending(), kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(win_->run_dock()->backend_combo()->count() >= 3, kTimeoutMs);
    QTest::qWait(400);  // frames drawn at the opening zoom
  }
  void run_on_cpu() {
    auto* combo = win_->run_dock()->backend_combo();
    combo->setCurrentIndex(combo->findData("cpu"));
    QVERIFY(test::run_and_wait(*win_));
  }
  void shot(const QString& name) {
    QTest::qWait(300);
    const QString dir = QCoreApplication::applicationDirPath() + "/screenshots";
    QDir().mkpath(dir);
    QVERIFY(win_->grab_window().save(dir + "/" + name + ".png"));
  }
  // Whether `w` is shown whole inside the window (not clipped by its scroll area or the screen).
  bool fully_visible(QWidget* w) {
    if (!w->isVisible()) return false;
    const QRect in_window(w->mapTo(win_.get(), QPoint(0, 0)), w->size());
    return win_->rect().contains(in_window) && w->visibleRegion().boundingRect() == w->rect();
  }

 private slots:
  void initTestCase() {
    win_ = std::make_unique<ui::MainWindow>();
    win_->setGeometry(0, 0, 1280, 800);
    win_->show();
    QVERIFY(QTest::qWaitForWindowExposed(win_.get()));
    win_->run_dock()->rerun_box()->setChecked(false);
  }

  // Item 2: at the zoom a model opens at, boxes carry labels (a short op far out).
  void graphIsLabelledAtTheOpeningZoom() {
    for (const char* name : {"blazepose-detector", "centernet", "selfie"}) {
      open(corpus(name));
      // Titles are drawn from 8 px up, 14-point titles from a zoom of 0.57.
      QVERIFY2(view()->zoom() >= 0.57f,
               qPrintable(QString("%1 opens at zoom %2").arg(name).arg(view()->zoom())));
      const int boxes = view()->boxes_on_screen();
      const int labelled = view()->labelled_boxes();
      shot(QString("readable_open_%1").arg(name));
      QVERIFY2(boxes > 5, name);
      QVERIFY2(labelled >= boxes * 8 / 10,
               qPrintable(QString("%1: %2 of %3 boxes labelled at zoom %4")
                              .arg(name)
                              .arg(labelled)
                              .arg(boxes)
                              .arg(view()->zoom())));
    }
  }

  // Item 2: a closed group's box holds its title, an open group's frame its title bar's text.
  void groupsAreAsWideAsTheirTitles() {
    open(corpus("blazepose-detector"));
    // The canvas's fonts as Qt measures them: ImGui's size is a line's height (ascent plus
    // descent, 1.164 em for DejaVu Sans), so its 14-point titles are 12-pixel-em text and its
    // 12-point group titles 10.3-pixel-em text.
    QFont bold("DejaVu Sans");
    bold.setBold(true);
    bold.setPixelSize(12);
    QFont cluster = bold;
    cluster.setPixelSize(10);
    view()->collapse_all();
    QTRY_VERIFY_WITH_TIMEOUT(!view()->layout_pending(), kTimeoutMs);
    int groups = 0;
    for (std::size_t i = 0; i < view()->scene()->items.size(); ++i) {
      const auto& it = view()->scene()->items[i];
      if (!it.is_group) continue;
      ++groups;
      const auto& r = view()->layout()->items[i];
      const double text =
          QFontMetricsF(bold).horizontalAdvance(QString::fromStdString("+ " + it.title));
      QVERIFY2(r.x1 - r.x0 >= 0.97 * text + 8, qPrintable(QString("%1: box %2, title %3")
                                                              .arg(QString::fromStdString(it.title))
                                                              .arg(r.x1 - r.x0)
                                                              .arg(text)));
    }
    QVERIFY(groups > 0);
    view()->expand_all();
    QTRY_VERIFY_WITH_TIMEOUT(!view()->layout_pending(), kTimeoutMs);
    QVERIFY(!view()->scene()->clusters.empty());
    for (std::size_t c = 0; c < view()->scene()->clusters.size(); ++c) {
      const auto& r = view()->layout()->clusters[c];
      const double text = QFontMetricsF(cluster).horizontalAdvance(
          QString::fromStdString("- " + view()->scene()->clusters[c].label));
      QVERIFY2(r.x1 - r.x0 >= 0.97 * text + 6, view()->scene()->clusters[c].label.c_str());
    }
  }

  // Item 2: shape labels overlap neither each other nor a box.
  void shapeLabelsDoNotOverlap() {
    const auto* scene = view()->scene();
    const auto* layout = view()->layout();
    std::vector<viewers::RectF> placed;
    for (std::size_t e = 0; e < scene->edges.size(); ++e) {
      if (!layout->edge_labels[e]) continue;
      const auto r = viewers::edge_label_rect(scene->edges[e].label, *layout->edge_labels[e]);
      for (const auto& p : placed) QVERIFY(!p.overlaps(r));
      for (const auto& box : layout->items) QVERIFY(!box.overlaps(r));
      placed.push_back(r);
    }
    QVERIFY2(placed.size() > 20, "hardly any shape labelled");
    view()->set_find_text("Conv2D");
    view()->find_next();
    shot("readable_shape_labels");
    view()->set_find_text({});
  }

  // Item 2: the legend folds, and its title bar drags it off the nodes.
  void legendFoldsAndMoves() {
    view()->fit();
    view()->set_legend_collapsed(false);
    QTest::qWait(300);
    const QRectF before = view()->legend_rect();
    QVERIFY(!before.isEmpty());
    const QPoint grab(static_cast<int>(before.center().x()), static_cast<int>(before.top()) + 8);
    QTest::mousePress(view(), Qt::LeftButton, {}, grab);
    for (int k = 1; k <= 10; ++k) {
      QTest::mouseMove(view(), grab + QPoint(-20 * k, 10 * k));
      QTest::qWait(40);
    }
    QTest::mouseRelease(view(), Qt::LeftButton, {}, grab + QPoint(-200, 100));
    QTest::qWait(300);
    const QRectF after = view()->legend_rect();
    QVERIFY2(after.left() < before.left() - 120 && after.top() > before.top() + 60,
             qPrintable(QString("legend at %1,%2, was at %3,%4")
                            .arg(after.left())
                            .arg(after.top())
                            .arg(before.left())
                            .arg(before.top())));
    view()->set_legend_collapsed(true);
    QTRY_VERIFY(view()->legend_rect().height() < before.height() / 3);
    view()->set_legend_collapsed(false);
    view()->move_legend(static_cast<float>(before.left() - after.left()),
                        static_cast<float>(before.top() - after.top()));
  }

  // Item 2 and 7: after the fp16 check, the jump and the colouring by status leave the
  // overflowing node in view beside the legend; the Precision buttons are on screen.
  void overflowNodeStaysClearOfTheLegend() {
    open(QString::fromStdString(
        (test::reference_dir() / "layers" / "fp16_overflow" / "model.json").string()));
    const int model_dock_width = win_->model_dock()->width();
    QTRY_VERIFY_WITH_TIMEOUT(precision()->check_button()->isEnabled(), 30000);
    QSignalSpy done(win_.get(), &ui::MainWindow::checkFinished);
    precision()->check_button()->click();
    QTRY_VERIFY_WITH_TIMEOUT(done.count() > 0, kTimeoutMs);
    QTRY_VERIFY(precision()->last_result() != nullptr);
    QVERIFY(precision()->last_result()->report.first_overflow);
    shot("readable_fp16_checked");
    for (QPushButton* b : {precision()->colour_status_button(), precision()->jump_button(),
                           precision()->check_button()})
      QVERIFY2(fully_visible(b), qPrintable(b->text()));
    precision()->jump_button()->click();
    precision()->colour_status_button()->click();
    QTest::qWait(500);
    const int n = view()->find_node(
        QString::fromStdString(*precision()->last_result()->report.first_overflow));
    const auto r = view()->node_screen_rect(n);
    QVERIFY(r);
    QVERIFY2(!r->intersects(view()->legend_rect()), "the legend covers the overflowing node");
    QVERIFY(view()->rect().contains(r->center().toPoint()));
    shot("readable_fp16_status");
    // Item 7: the Model dock keeps its width through the check and into the next model.
    QVERIFY2(
        win_->model_dock()->width() >= model_dock_width - 4,
        qPrintable(QString("%1 -> %2").arg(model_dock_width).arg(win_->model_dock()->width())));
    open(corpus("blazeface"));
    QVERIFY2(
        win_->model_dock()->width() >= model_dock_width - 4,
        qPrintable(QString("%1 -> %2").arg(model_dock_width).arg(win_->model_dock()->width())));
  }

  // Item 7: the Profile table shows a good number of rows at 1280x800.
  void profileTableShowsRows() {
    open(corpus("blazeface"));
    run_on_cpu();
    auto* profile = win_->profile_dock();
    profile->show();
    profile->raise();
    QTest::qWait(300);
    auto* table = profile->table();
    const int rows =
        table->viewport()->height() / std::max(1, table->verticalHeader()->defaultSectionSize());
    shot("readable_profile");
    QVERIFY2(rows >= 8, qPrintable(QString("%1 rows in view").arg(rows)));
  }

  // Item 8: blazeface's [1, N, K] outputs are 2-D heatmaps of N rows and K columns, big enough to
  // read; not one-pixel strips.
  void matrixOutputsAreTwoDimensional() {
    outputs()->show();
    outputs()->raise();
    int seen = 0;
    for (int i = 0; i < outputs()->tensor_count(); ++i) {
      outputs()->tensor_combo()->setCurrentIndex(i);
      const HostTensor* t = outputs()->current_tensor();
      if (!t || t->rank() != 3 || t->shape[2] <= 4) continue;
      ++seen;
      const auto& img = outputs()->view()->rendered();
      QCOMPARE(img.image.height(), static_cast<int>(t->shape[1]));
      QCOMPARE(img.image.width(), static_cast<int>(t->shape[2]));
      QTest::qWait(100);
      const QRect drawn = outputs()->view()->image_rect();
      QVERIFY2(drawn.width() >= 100 && drawn.height() >= 100,
               qPrintable(QString("%1x%2").arg(drawn.width()).arg(drawn.height())));
      QVERIFY(!outputs()->channel_box()->isEnabled());
    }
    QVERIFY2(seen > 0, "blazeface has no [1, N, K] output");
    shot("readable_heatmap");
  }

  // Item 8: a one-channel mask has no RGB choice.
  void maskHasNoRgbChoice() {
    open(corpus("selfie"));
    run_on_cpu();
    outputs()->tensor_combo()->setCurrentIndex(0);
    const HostTensor* t = outputs()->current_tensor();
    QVERIFY(t && t->rank() == 4 && t->shape[3] == 1);
    QVERIFY2(!outputs()->channel_box()->text().contains("RGB"),
             qPrintable(outputs()->channel_box()->text()));
    QVERIFY(!outputs()->channel_box()->isEnabled());
  }

  // Item 8: top-k appears for class scores only; handtrack's class ids get none.
  void topKOnlyForClassScores() {
    open(corpus("handtrack"));
    run_on_cpu();
    int ids = 0;
    for (int i = 0; i < outputs()->tensor_count(); ++i) {
      outputs()->tensor_combo()->setCurrentIndex(i);
      const HostTensor* t = outputs()->current_tensor();
      QVERIFY(t);
      if (t->dtype == DType::Float32 && t->rank() == 2 && t->shape[1] > 5 &&
          all_whole_numbers(*t)) {
        ++ids;
        QVERIFY2(!tree_has(outputs()->tree(), "Top 5"),
                 qPrintable(outputs()->current_title() + " (whole numbers) shows a top 5"));
      }
    }
    QVERIFY2(ids > 0, "handtrack has no output of class ids");
    // A classifier's softmax row does get its top 5, as classes.
    open(corpus("emotion"));
    run_on_cpu();
    outputs()->tensor_combo()->setCurrentIndex(0);
    QVERIFY(tree_has(outputs()->tree(), "Top 5"));
  }

  // Issue #23: "Colour graph by: FLOPs" works before any run, and the Properties dock gives a
  // node's FLOPs. seq_cnn's conv1 is 3x3 filters over 3 channels, SAME on 17x19, 5 filters:
  // 2 x 17*19*5 x 3*3*3 = 87210 FLOPs, counted by hand from tests/reference/make-layers.mjs.
  void flopsColouringAndProperties() {
    open(QString::fromStdString((test::reference_dir() / "layers" / "seq_cnn").string()));
    auto* colour = win_->run_dock()->colour_combo();
    QVERIFY(colour);
    const int flops = colour->findData(static_cast<int>(ui::GraphColour::Flops));
    QVERIFY(flops >= 0);
    colour->setCurrentIndex(flops);
    const auto& c = view()->colouring();
    QCOMPARE(QString::fromStdString(c.title()), QStringLiteral("FLOPs per node"));
    const auto* model = win_->model().get();
    const int conv = model->graph->find("conv1/Conv2D");
    const int reshape = model->graph->find("flat");
    QVERIFY(conv >= 0 && reshape >= 0);
    QCOMPARE(c.value_of(conv).value_or(-1), 87210.0);
    QVERIFY(!c.value_of(reshape));     // data movement costs nothing: grey
    QCOMPARE(c.max_value(), 87210.0);  // the costliest node of seq_cnn

    view()->select_node(conv);
    auto* tree = win_->properties_dock()->tree();
    QTRY_VERIFY(!tree->findItems("FLOPs", Qt::MatchExactly | Qt::MatchRecursive).isEmpty());
    const QString text =
        tree->findItems("FLOPs", Qt::MatchExactly | Qt::MatchRecursive).front()->text(1);
    QVERIFY2(text.contains("87.2 kFLOP") && text.contains(QLocale().toString(87210)),
             qPrintable(text));
    shot("flops");
  }

  void cleanupTestCase() { win_.reset(); }
};

int main(int argc, char** argv) {
  return tfjsi::test::run_gui_suite<ReadableTest>(argc, argv, "tfjs-inspector-readable-test");
}

#include "readable_test.moc"
