// The desktop app as a user drives it: open a corpus model through the real MainWindow, read the
// Model dock, click a node on the canvas, find a node with the keyboard, export the canvas, and
// survive a broken model.json. Needs a display (run under xvfb-run).
#include <QtTest>

#include <QDockWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QSurfaceFormat>
#include <QTreeWidget>
#include <fstream>
#include <set>

#include "graph_view.h"
#include "gui_test_main.h"
#include "main_window.h"
#include "model_dock.h"
#include "properties_dock.h"
#include "support/test_support.h"

using namespace tfjsi;

namespace {

constexpr int kLoadTimeoutMs = 120000;

// The input shapes as the model.json itself states them (signature, else the Placeholders'
// `shape` attribute), written the way the dock writes shapes: "[?,128,128,3]".
std::vector<std::string> declared_input_shapes(const std::filesystem::path& model_json) {
  std::ifstream f(model_json);
  auto j = nlohmann::json::parse(f);
  auto dims_text = [](const nlohmann::json& dims) {
    std::string s = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) {
      if (i) s += ",";
      long long v = std::stoll(dims[i].value("size", std::string("-1")));
      s += v < 0 ? "?" : std::to_string(v);
    }
    return s + "]";
  };
  std::vector<std::string> out;
  const auto& topo = j["modelTopology"];
  nlohmann::json sig = j.contains("signature") ? j["signature"] : nlohmann::json();
  if (sig.is_object() && sig.contains("inputs")) {
    for (auto& [k, v] : sig["inputs"].items())
      out.push_back(dims_text(v["tensorShape"].value("dim", nlohmann::json::array())));
    return out;
  }
  for (const auto& n : topo["node"])
    if (n.value("op", "") == "Placeholder")
      out.push_back(dims_text(n["attr"]["shape"]["shape"].value("dim", nlohmann::json::array())));
  return out;
}

QStringList children_text(QTreeWidget* tree, const QString& section, int column) {
  QStringList out;
  for (int i = 0; i < tree->topLevelItemCount(); ++i) {
    auto* top = tree->topLevelItem(i);
    if (top->text(0) != section) continue;
    for (int c = 0; c < top->childCount(); ++c) out << top->child(c)->text(column);
  }
  return out;
}

}  // namespace

class MainWindowTest : public QObject {
  Q_OBJECT
  std::unique_ptr<ui::MainWindow> win_;
  std::filesystem::path model_;
  test::TempDir tmp_;

  viewers::GraphView* view() { return win_->graph_view(); }

  void wait_for_layout() {
    QTRY_VERIFY_WITH_TIMEOUT(view()->has_layout() && !view()->layout_pending(), kLoadTimeoutMs);
    QTest::qWait(100);  // a frame or two with the new layout
  }

 private slots:
  void initTestCase() {
    model_ = test::corpus_model("blazeface");
    win_ = std::make_unique<ui::MainWindow>();
    win_->resize(1280, 780);
    win_->show();
    QVERIFY(QTest::qWaitForWindowExposed(win_.get()));
  }

  // As a fresh start places it (no saved geometry): inside the screen's available area, every
  // dock on screen and wide and tall enough to use, the Run menu before Help. The CI screen is
  // 1280x800 (xvfb-run -s "-screen 0 1280x800x24").
  void windowFitsTheScreen() {
    QSettings().remove("window/geometry");
    ui::MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QRect avail = w.screen()->availableGeometry();
    QVERIFY2(avail.contains(w.frameGeometry()),
             qPrintable(QString("window %1x%2+%3+%4, screen %5x%6")
                            .arg(w.frameGeometry().width())
                            .arg(w.frameGeometry().height())
                            .arg(w.frameGeometry().x())
                            .arg(w.frameGeometry().y())
                            .arg(avail.width())
                            .arg(avail.height())));
    const auto docks = w.findChildren<QDockWidget*>();
    QVERIFY(docks.size() >= 8);
    for (QDockWidget* d : docks) {
      if (d->isHidden() || d->visibleRegion().isEmpty()) continue;  // a tab behind another
      const QRect r(d->mapTo(&w, QPoint(0, 0)), d->size());
      QVERIFY2(w.rect().contains(r), qPrintable(d->objectName()));
      QVERIFY2(d->width() >= 250 && d->height() >= 80, qPrintable(d->objectName()));
    }
    // The graph keeps a usable area between the docks.
    QVERIFY(w.graph_view()->width() >= 400);
    QVERIFY(w.graph_view()->height() >= 400);
    const auto menus = w.menuBar()->actions();
    QCOMPARE(menus.constLast()->text(), QString("&Help"));
    QCOMPARE(menus.at(menus.size() - 2)->text(), QString("&Run"));
  }

  // A screen of any size gets a window inside it: 1400x900 where that fits, else the screen.
  void initialGeometryFitsAnyScreen() {
    for (const QRect screen : {QRect(0, 0, 1280, 800), QRect(0, 0, 1920, 1080),
                               QRect(1920, 0, 1024, 700), QRect(0, 30, 1366, 738)}) {
      const QRect g = ui::MainWindow::initial_geometry(screen);
      QVERIFY(screen.contains(g));
      QCOMPARE(g.width(), std::min(1400, screen.width()));
      QCOMPARE(g.height(), std::min(900, screen.height()));
    }
  }

  // A geometry saved on a bigger screen is not restored; one that fits is.
  void savedGeometryOnlyWhenItFits() {
    const QRect avail = QGuiApplication::primaryScreen()->availableGeometry();
    {
      ui::MainWindow big;
      big.setGeometry(avail.x(), avail.y(), avail.width() + 600, avail.height() + 400);
      QSettings().setValue("window/geometry", big.saveGeometry());
    }
    {
      ui::MainWindow w;
      QVERIFY(avail.contains(w.geometry()));
    }
    // Smaller than the screen, not smaller than the window can be.
    const QRect small(avail.x() + 20, avail.y() + 20, avail.width() - 60, avail.height() - 50);
    {
      ui::MainWindow w;
      w.setGeometry(small);
      w.show();
      QVERIFY(QTest::qWaitForWindowExposed(&w));
      w.close();  // saves its geometry
    }
    {
      ui::MainWindow w;
      QCOMPARE(w.geometry().size(), small.size());
    }
    QSettings().remove("window/geometry");
  }

  void opensModelAndShowsInputs() {
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    win_->open_model(QString::fromStdString(model_.string()));
    QVERIFY(win_->is_loading());
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kLoadTimeoutMs);
    QVERIFY(!win_->is_loading());

    const auto expected = declared_input_shapes(model_);
    QVERIFY(!expected.empty());
    const QStringList shown = children_text(win_->model_dock()->tree(), "Inputs", 1);
    QCOMPARE(shown.size(), static_cast<qsizetype>(expected.size()));
    for (std::size_t i = 0; i < expected.size(); ++i)
      QVERIFY2(shown[static_cast<qsizetype>(i)].startsWith(QString::fromStdString(expected[i])),
               qPrintable(shown[static_cast<qsizetype>(i)] + " vs " +
                          QString::fromStdString(expected[i])));
    // The op histogram counts every node of the model.
    int total = 0;
    for (const QString& n : children_text(win_->model_dock()->tree(), "Ops", 1)) total += n.toInt();
    QCOMPARE(total, static_cast<int>(win_->model()->graph->nodes.size()));
    wait_for_layout();
    QVERIFY(view()->visible_box_count() > 0);
  }

  void clickSelectsNodeInProperties() {
    wait_for_layout();
    const auto& g = *win_->model()->graph;
    // The node box nearest the middle of the canvas that nothing covers.
    const QPoint mid(view()->width() / 2, view()->height() / 2);
    int best = -1;
    int best_d = 1 << 30;
    for (int n = 0; n < static_cast<int>(g.nodes.size()); ++n) {
      if (!view()->node_has_own_box(n)) continue;
      auto p = view()->node_position(n);
      if (!p || !view()->rect().contains(*p) || view()->over_overlay(*p)) continue;
      int d = (*p - mid).manhattanLength();
      if (d < best_d) {
        best_d = d;
        best = n;
      }
    }
    QVERIFY2(best >= 0, "no node box on screen");
    const QString name = QString::fromStdString(g.nodes[static_cast<size_t>(best)].name);
    QTest::mouseClick(view(), Qt::LeftButton, {}, *view()->node_position(best));
    QTRY_COMPARE(win_->properties_dock()->current_node_name(), name);
    QCOMPARE(view()->selected_node(), best);
    const QStringList node_rows = children_text(win_->properties_dock()->tree(), "Node", 1);
    QVERIFY(node_rows.contains(QString::fromStdString(g.nodes[static_cast<size_t>(best)].op)));
    // Its outputs are listed with what shape inference knows.
    QCOMPARE(children_text(win_->properties_dock()->tree(), "Outputs", 1).size(),
             static_cast<qsizetype>(g.nodes[static_cast<size_t>(best)].outputs.size()));
  }

  void findByKeyboardSelectsNode() {
    wait_for_layout();
    const auto& g = *win_->model()->graph;
    // A visible node whose name no other visible node's name contains, far from the selection.
    int target = -1;
    for (int n = static_cast<int>(g.nodes.size()) - 1; n >= 0 && target < 0; --n) {
      if (g.nodes[static_cast<size_t>(n)].op == "Const" || n == view()->selected_node()) continue;
      const auto& name = g.nodes[static_cast<size_t>(n)].name;
      bool unique = true;
      for (int m = 0; m < static_cast<int>(g.nodes.size()) && unique; ++m)
        if (m != n && g.nodes[static_cast<size_t>(m)].name.find(name) != std::string::npos)
          unique = false;
      if (unique && g.nodes[static_cast<size_t>(n)].op.find(name) == std::string::npos) target = n;
    }
    QVERIFY(target >= 0);
    view()->setFocus();
    QTest::keyClick(view(), Qt::Key_F, Qt::ControlModifier);
    QTest::keyClicks(view(), QString::fromStdString(g.nodes[static_cast<size_t>(target)].name));
    QTest::keyClick(view(), Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(view()->selected_node(), target, 30000);
    QTRY_COMPARE(win_->properties_dock()->current_node_name(),
                 QString::fromStdString(g.nodes[static_cast<size_t>(target)].name));
    wait_for_layout();
    // The found node is on screen.
    auto p = view()->node_position(target);
    QVERIFY(p && view()->rect().contains(*p));
    QTest::keyClick(view(), Qt::Key_Escape);  // leave the find field
  }

  void arrowKeysFollowEdges() {
    wait_for_layout();
    const auto& g = *win_->model()->graph;
    const int start = view()->selected_node();
    QVERIFY(start >= 0);
    view()->setFocus();
    QTest::keyClick(view(), Qt::Key_Up);
    // Up goes to a box feeding the selection (a node, or a group holding one of its inputs).
    QTRY_VERIFY(view()->selected_node() != start);
    const int up = view()->selected_node();
    if (up >= 0) {
      bool feeds = false;
      for (const auto& ref : g.nodes[static_cast<size_t>(start)].inputs)
        feeds = feeds || ref.node == up;
      QVERIFY2(feeds, "Up did not move to an input");
    }
  }

  void exportsPngAndSvg() {
    wait_for_layout();
    view()->fit();
    QTest::qWait(200);
    const QString png = QString::fromStdString((tmp_.path / "graph.png").string());
    view()->export_png(png);
    QImage img(png);
    QVERIFY(!img.isNull());
    // The whole graph drawn off screen (gui_graph_export_test checks it against the SVG), not
    // the view's pixels.
    QVERIFY(img.width() > view()->width() || img.height() > view()->height());
    // Not blank: many colours (the background, node fills by op family, text, edges).
    std::set<QRgb> colours;
    for (int y = 0; y < img.height(); y += 3)
      for (int x = 0; x < img.width(); x += 3) colours.insert(img.pixel(x, y));
    QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));

    const QString svg = QString::fromStdString((tmp_.path / "graph.svg").string());
    view()->export_svg(svg);
    QFile f(svg);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.contains("<svg"));
    QCOMPARE(text.count("<g class=\"node\">") + text.count("<g class=\"group\">"),
             static_cast<qsizetype>(view()->visible_box_count()));
    // The op-family legend the canvas shows, beside the graph.
    QVERIFY(text.contains("Legend: op family"));
    QVERIFY(text.contains("convolution"));
  }

  void brokenModelShowsDialogAndWindowStaysUsable() {
    const auto broken = tmp_.path / "broken" / "model.json";
    std::filesystem::create_directories(broken.parent_path());
    std::ofstream(broken)
        << R"({"format": "graph-model", "modelTopology": {"node": [)";  // cut short
    QSignalSpy failed(win_.get(), &ui::MainWindow::modelFailed);
    win_->open_model(QString::fromStdString(broken.string()));
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kLoadTimeoutMs);
    QMessageBox* box = nullptr;
    QTRY_VERIFY((box = win_->findChild<QMessageBox*>("loadErrorDialog")) != nullptr);
    QVERIFY(box->isVisible());
    const QString said = box->text() + "\n" + box->informativeText();
    QVERIFY2(said.contains(QString::fromStdString(broken.string())), qPrintable(said));
    box->accept();
    QTRY_VERIFY(win_->findChild<QMessageBox*>("loadErrorDialog") == nullptr);

    // Still usable: the previous model is still shown, and another model opens.
    QVERIFY(view()->graph() != nullptr);
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    win_->open_model(QString::fromStdString(model_.parent_path().string() + "/blazeface.json"));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kLoadTimeoutMs);
    wait_for_layout();
  }

  void cleanupTestCase() { win_.reset(); }
};

int main(int argc, char** argv) {
  return tfjsi::test::run_gui_suite<MainWindowTest>(argc, argv, "tfjs-inspector-test");
}

#include "main_window_test.moc"
