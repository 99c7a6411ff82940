// The canvas at scale: frame times (median and p95 over many frames, rasterizing included) for
// facemesh-attention (2140 nodes) and a synthetic 20000-node network with every group open,
// fitted and while panning; layout times; a huge flat scope gets the simple layout and a note.
// Prints the figures and asserts no time: speed belongs to bench/, and an Xvfb canvas under the
// sanitizers on a shared machine is no clock (a p95 bound failed there on a healthy view). What
// is asserted is that every frame was drawn and every box laid out. Needs a display.
#include <QtTest>

#include <QElapsedTimer>
#include <algorithm>

#include "graph/build.h"
#include "graph_view.h"
#include "gui_test_main.h"
#include "model/bundle.h"
#include "support/test_support.h"
#include "synthetic_graph.h"

using namespace tfjsi;
using namespace tfjsi::viewers;

namespace {

constexpr int kLayoutTimeoutMs = 300000;

struct Frames {
  double median = 0, p95 = 0, max = 0;
  int count = 0;
};

// Drives real frames through the event loop (QOpenGLWidget paints when composed) and reads
// the time paintGL measured for each, glFinish included.
Frames measure(GraphView& view, int frames, float dx, float dy) {
  view.set_finish_frames(true);
  std::vector<double> times;
  for (int i = 0; i < frames; ++i) {
    const float sign = (i / 20) % 2 ? -1.0f : 1.0f;
    const std::size_t n = view.frame_times().size();
    const double before = n ? view.frame_times().back() : -1.0;
    view.pan_by(sign * dx, sign * dy);
    QElapsedTimer guard;
    guard.start();
    while (guard.elapsed() < 3000 && view.frame_times().size() == n &&
           (n == 0 || view.frame_times().back() == before))
      QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    if (!view.frame_times().empty()) times.push_back(view.frame_times().back());
  }
  view.set_finish_frames(false);
  Frames f;
  if (times.empty()) return f;
  std::sort(times.begin(), times.end());
  f.count = static_cast<int>(times.size());
  f.median = times[times.size() / 2];
  f.p95 = times[times.size() * 95 / 100];
  f.max = times.back();
  return f;
}

double wait_layout(GraphView& view) {
  QElapsedTimer t;
  t.start();
  QCoreApplication::processEvents();
  while (t.elapsed() < kLayoutTimeoutMs && (view.layout_pending() || !view.has_layout()))
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  return static_cast<double>(t.elapsed());
}

}  // namespace

class GraphScaleTest : public QObject {
  Q_OBJECT
 private:
  // Opens the graph, expands everything, and reports layout and frame times.
  void run(const QString& name, std::shared_ptr<const graph::Graph> graph, int expect_boxes) {
    GraphView view;
    view.resize(1280, 800);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QElapsedTimer t;
    t.start();
    view.set_graph(graph);
    const double open_ms = wait_layout(view);
    QVERIFY(view.has_layout() && !view.layout_pending());
    const double open_layout_ms = view.last_layout_ms();
    view.expand_all();
    const double expand_ms = wait_layout(view);
    QVERIFY(view.has_layout() && !view.layout_pending());
    if (expect_boxes > 0) QCOMPARE(view.visible_box_count(), expect_boxes);
    // The UI thread stayed free while laying out: the wait above spun the event loop.
    view.fit();
    const double fitted_zoom = static_cast<double>(view.zoom());
    const Frames fitted = measure(view, 120, 1.0f, 1.0f);
    QImage shot = view.grabFramebuffer();
    QVERIFY(shot.save(QDir::current().filePath("graph_scale_" + name + "_fitted.png")));
    // Panning at a zoom where text shows.
    view.select_node(graph->find(graph->nodes[graph->nodes.size() / 2].name), true);
    QTRY_VERIFY(!view.layout_pending());
    const Frames panning = measure(view, 120, 9.0f, 5.0f);
    QVERIFY(view.grabFramebuffer().save(
        QDir::current().filePath("graph_scale_" + name + "_zoomed.png")));
    std::fprintf(stderr,
                 "%s: %zu nodes, %d boxes expanded | open: %.0f ms wall (layout %.0f ms) | "
                 "expand all: %.0f ms wall (layout %.0f ms) | fitted at zoom %.3f: median %.2f ms, "
                 "p95 %.2f ms, max %.2f ms over %d frames | panning at zoom %.2f: median %.2f ms, "
                 "p95 %.2f ms, max %.2f ms over %d frames\n",
                 qPrintable(name), graph->nodes.size(), view.visible_box_count(), open_ms,
                 open_layout_ms, expand_ms, view.last_layout_ms(), fitted_zoom, fitted.median,
                 fitted.p95, fitted.max, fitted.count, static_cast<double>(view.zoom()),
                 panning.median, panning.p95, panning.max, panning.count);
    QVERIFY(fitted.count >= 100 && panning.count >= 100);
  }

 private slots:
  void facemeshAttention() {
    auto bundle = model::load_bundle(test::corpus_model("facemesh-attention"));
    run("facemesh_attention", std::make_shared<const graph::Graph>(graph::build_graph(bundle)), -1);
  }

  void synthetic20000() {
    auto g = std::make_shared<const graph::Graph>(test::synthetic_network(10, 20, 100));
    QCOMPARE(g->nodes.size(), std::size_t(20002));  // input and output outside the blocks
    run("synthetic_20000", g, 20002);
  }

  void hugeFlatScopeIsLaidOutQuicklyWithANote() {
    auto g = std::make_shared<const graph::Graph>(test::synthetic_flat(5000));
    GraphView view;
    view.resize(1000, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.set_graph(g);
    const double ms = wait_layout(view);
    QVERIFY(view.has_layout());
    QCOMPARE(view.visible_box_count(), 5000);
    QVERIFY(!view.layout_notes().isEmpty());
    QVERIFY(view.layout_notes().front().contains("simple layered layout"));
    std::fprintf(stderr, "flat 5000: layout %.0f ms (%.0f ms wall)\n", view.last_layout_ms(), ms);
  }
};

int main(int argc, char** argv) {
  return tfjsi::test::run_gui_suite<GraphScaleTest>(argc, argv, "tfjs-inspector-test");
}
#include "graph_scale_test.moc"
