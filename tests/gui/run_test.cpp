// The run side of the desktop app as a user drives it: open the bundled sample, run it on cpu and
// compare what the Outputs dock shows with a direct engine run; switch to xnnpack, gl and gl fp16
// and check the outputs move as they must; keep intermediates and look at a node; feed an image;
// feed a .npy of the wrong shape; benchmark; cancel a long run while the UI thread keeps ticking.
// Saves screenshots in the build folder. Needs a display (run under xvfb-run).
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QSurfaceFormat>
#include <QTreeWidget>
#include <cmath>
#include <fstream>
#include <unordered_map>

#include "graph_view.h"
#include "gui_run.h"
#include "gui_test_main.h"
#include "io/deterministic_input.h"
#include "io/npy.h"
#include "main_window.h"
#include "node_colouring.h"
#include "outputs_dock.h"
#include "run_dock.h"
#include "runtime/executor.h"
#include "support/test_support.h"
#include "tensor_stats.h"
#include "tensor_view.h"

using namespace tfjsi;

namespace {

constexpr int kTimeoutMs = 120000;

float max_abs_diff(const HostTensor& a, const HostTensor& b) {
  float d = 0;
  for (std::size_t i = 0; i < a.values<float>().size(); ++i)
    d = std::max(d, std::abs(a.values<float>()[i] - b.values<float>()[i]));
  return d;
}

QString tree_value(QTreeWidget* tree, const QString& key) {
  for (int i = 0; i < tree->topLevelItemCount(); ++i)
    if (tree->topLevelItem(i)->text(0) == key) return tree->topLevelItem(i)->text(1);
  return {};
}

QTreeWidgetItem* tree_item(QTreeWidget* tree, const QString& prefix) {
  for (int i = 0; i < tree->topLevelItemCount(); ++i)
    if (tree->topLevelItem(i)->text(0).startsWith(prefix)) return tree->topLevelItem(i);
  return nullptr;
}

}  // namespace

class RunTest : public QObject {
  Q_OBJECT
  std::unique_ptr<ui::MainWindow> win_;
  std::filesystem::path sample_;
  test::TempDir tmp_;
  HostTensor cpu_output_;  // the window's cpu result, for the other backends to be held against

  ui::RunDock* dock() { return win_->run_dock(); }
  ui::OutputsDock* outputs() { return win_->outputs_dock(); }
  const graph::Graph& graph() { return *win_->model()->graph; }
  std::string input_name() { return graph().inputs.at(0).name; }

  void shot(const QString& name) {
    QTest::qWait(150);
    const QString dir = QCoreApplication::applicationDirPath() + "/screenshots";
    QDir().mkpath(dir);
    QVERIFY(win_->grab_window().save(dir + "/" + name + ".png"));
  }

  // Runs with the dock's settings and returns the result; fails the test if the run fails.
  ui::RunResultPtr run(bool benchmark = false) { return test::run_and_wait(*win_, benchmark); }

  // Picks a backend in the chooser; with "run again on change" on, that runs the model.
  ui::RunResultPtr switch_to(const QString& backend, bool fp16) {
    QSignalSpy done(win_.get(), &ui::MainWindow::runFinished);
    const int i = dock()->backend_combo()->findData(backend);
    if (i < 0) return nullptr;
    const bool change = dock()->backend_combo()->currentIndex() != i;
    dock()->backend_combo()->setCurrentIndex(i);
    if (!change && dock()->fp16_box()->isChecked() == fp16) return run();
    dock()->fp16_box()->setChecked(fp16);
    [&] { QTRY_VERIFY_WITH_TIMEOUT(done.count() > 0 && !win_->is_running(), kTimeoutMs); }();
    return done.isEmpty() ? nullptr : done.last().at(0).value<ui::RunResultPtr>();
  }

  // The sample's outputs from an engine of our own on this thread, cpu only.
  std::vector<HostTensor> direct_cpu(const HostTensor& input,
                                     std::span<const std::string> outs = {}) {
    runtime::Engine engine;
    engine.set_backend("cpu");
    runtime::Executor ex(engine, graph());
    runtime::NamedTensors in;
    in[input_name()] = input;
    return ex.run(in, outs);
  }

  // After a run the graph is coloured by the backend each node ran on, or by its time.
  void checkGraphColouring(const ui::RunResult& r) {
    using Mode = viewers::NodeColouring::Mode;
    const auto& c = win_->graph_view()->colouring();
    QCOMPARE(dock()->graph_colour(), ui::GraphColour::Backend);
    QCOMPARE(c.mode(), Mode::Categories);
    QCOMPARE(c.unmatched(), 0);
    auto node_index = [&](const std::string& name) {
      for (int i = 0; i < static_cast<int>(graph().nodes.size()); ++i)
        if (graph().nodes[static_cast<std::size_t>(i)].name == name) return i;
      return -1;
    };
    std::unordered_map<std::string, const ui::NodeRun*> by_name;
    for (const auto& n : r.nodes) by_name[n.node] = &n;
    int fused = 0;
    for (const auto& n : r.nodes) {
      const int cat = c.category_of(node_index(n.node));
      QVERIFY(cat >= 0);
      std::string want = n.fallback                ? std::string("cpu fallback")
                         : n.backend == "executor" ? std::string("executor (no kernel)")
                                                   : n.backend;
      if (!n.fused_into.empty()) {
        // A node that ran inside its producer's kernel is shown on that kernel's backend, in a
        // shade of its own, and never as a fallback of its own.
        ++fused;
        QVERIFY(by_name.count(n.fused_into));
        QCOMPARE(n.backend, by_name.at(n.fused_into)->backend);
        QCOMPARE(n.fallback, by_name.at(n.fused_into)->fallback);
        want += " (fused)";
      }
      QCOMPARE(c.categories()[static_cast<std::size_t>(cat)].name, want);
    }
    // The sample's Conv2D -> BiasAdd -> Relu chains run as one gl kernel each.
    if (r.backend == "gl") QVERIFY(fused >= 4);
    for (const auto& cat : c.categories()) QVERIFY2(cat.name != "fused", cat.name.c_str());
    dock()->colour_combo()->setCurrentIndex(
        dock()->colour_combo()->findData(static_cast<int>(ui::GraphColour::Time)));
    QCOMPARE(c.mode(), Mode::Values);
    QVERIFY(c.log_scale());
    const auto v = c.value_of(node_index(r.nodes.front().node));
    QVERIFY(v.has_value());
    QCOMPARE(*v, r.nodes.front().ms);
    // Fused nodes have no time of their own (their producer's kernel holds it).
    for (const auto& n : r.nodes)
      if (!n.fused_into.empty()) QVERIFY(!c.value_of(node_index(n.node)).has_value());
    shot("run_gl_time");
    dock()->colour_combo()->setCurrentIndex(
        dock()->colour_combo()->findData(static_cast<int>(ui::GraphColour::Backend)));
    QCOMPARE(c.mode(), Mode::Categories);
  }

 private slots:
  void initTestCase() {
    sample_ = test::source_dir() / "resources" / "sample";
    win_ = std::make_unique<ui::MainWindow>();
    // The size the window picks for the screen (1280x800 in CI), as a user first sees it.
    win_->show();
    QVERIFY(QTest::qWaitForWindowExposed(win_.get()));
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    win_->open_model(QString::fromStdString(sample_.string()));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(dock()->backend_combo()->count() >= 3, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(win_->graph_view()->has_layout(), kTimeoutMs);
    QCOMPARE(graph().inputs.size(), std::size_t{1});
  }

  // The Run dock's result line says where things stand: no model, ready, running, the time of
  // the run just done (a failed run is checked in wrongNpyShapeNamesTheInput).
  void runDockTextFollowsTheState() {
    {
      ui::MainWindow empty;
      QVERIFY(empty.run_dock()->result_label()->text().contains("No model open"));
      QVERIFY(!empty.run_dock()->run_button()->isEnabled());
    }
    QLabel* text = dock()->result_label();
    QVERIFY2(text->text().startsWith("Ready"), qPrintable(text->text()));
    QVERIFY(text->text().contains(
        QString::fromStdString(win_->model()->bundle.model_json.filename().string())));
    const int cpu = dock()->backend_combo()->findData("cpu");
    dock()->backend_combo()->setCurrentIndex(cpu);
    QVERIFY2(text->text().contains("on cpu"), qPrintable(text->text()));
    QSignalSpy done(win_.get(), &ui::MainWindow::runFinished);
    win_->run_model(false);
    QVERIFY2(text->text().startsWith("Running on cpu"), qPrintable(text->text()));
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kTimeoutMs);
    const auto r = done.at(0).at(0).value<ui::RunResultPtr>();
    QVERIFY2(text->text().contains(QString("on cpu")) &&
                 text->text().contains(QString::number(r->run_ms, 'f', 2) + " ms"),
             qPrintable(text->text()));
    // Opening a model again: ready for it, the old result gone.
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    win_->open_model(QString::fromStdString(sample_.string()));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kTimeoutMs);
    QVERIFY2(text->text().startsWith("Ready"), qPrintable(text->text()));
  }

  void backendChooserSaysWhatCanRun() {
    // What the engine itself says, backend by backend.
    runtime::Engine engine;  // cpu; the others are asked in the window's engine, on its thread
    QVERIFY(dock()->backend_combo()->findData("cpu") >= 0);
    QVERIFY(dock()->backend_combo()->findData("xnnpack") >= 0);
    QVERIFY(dock()->backend_combo()->findData("gl") >= 0);
    auto* model = qobject_cast<QStandardItemModel*>(dock()->backend_combo()->model());
    // gl runs here (EGL on llvmpipe), so every entry is enabled.
    for (int i = 0; i < model->rowCount(); ++i) QVERIFY(model->item(i)->isEnabled());
    QVERIFY(!dock()->fp16_box()->isEnabled() || dock()->backend_combo()->currentData() == "gl");

    // An unavailable backend is disabled and says why (the list the controller would send).
    const QString before = dock()->backend_combo()->currentData().toString();
    dock()->set_backends({{"cpu", 100, true, {}}, {"gl", 300, false, "no EGL display: test"}});
    const int gl = dock()->backend_combo()->findData("gl");
    QVERIFY(!model->item(gl)->isEnabled());
    QVERIFY(model->item(gl)->toolTip().contains("no EGL display: test"));
    QCOMPARE(dock()->backend_combo()->currentData().toString(), QString("cpu"));
    // Back to the real list.
    dock()->set_backends(
        {{"cpu", 100, true, {}}, {"gl", 300, true, {}}, {"xnnpack", 200, true, {}}});
    Q_UNUSED(before);
  }

  void cpuRunShowsTheEngineValues() {
    dock()->rerun_box()->setChecked(false);
    dock()->backend_combo()->setCurrentIndex(dock()->backend_combo()->findData("cpu"));
    dock()->set_input(QString::fromStdString(input_name()), ui::InputKind::Generator);
    auto r = run();
    QVERIFY(r);
    QCOMPARE(r->backend, std::string("cpu"));
    QCOMPARE(r->outputs.size(), graph().outputs.size());
    QVERIFY(!r->nodes.empty());
    for (const auto& n : r->nodes) QCOMPARE(n.backend, std::string("cpu"));

    const auto& e = graph().inputs[0];
    const HostTensor input = io::deterministic_tensor(*e.dtype, io::default_shape(e.shape));
    const auto expected = direct_cpu(input);
    QCOMPARE(outputs()->tensor_count(), static_cast<int>(expected.size()));
    const HostTensor* shown = outputs()->current_tensor();
    QVERIFY(shown);
    QCOMPARE(shown->shape, expected[0].shape);
    QCOMPARE(max_abs_diff(*shown, expected[0]), 0.0f);  // same kernels, same input
    cpu_output_ = expected[0];

    // The dock's numbers are the tensor's.
    const auto s = ui::tensor_stats(expected[0]);
    QCOMPARE(tree_value(outputs()->tree(), "Min").toFloat(), static_cast<float>(s.min));
    QCOMPARE(tree_value(outputs()->tree(), "Max").toFloat(), static_cast<float>(s.max));
    QCOMPARE(tree_value(outputs()->tree(), "Shape"),
             QString::fromStdString(shape_to_string(expected[0].shape)));
    QVERIFY(tree_value(outputs()->tree(), "First values")
                .startsWith(QString::number(expected[0].values<float>()[0], 'g', 9)));
    // A [1,4] softmax: top-5 lists the classes, largest first.
    QTreeWidgetItem* top = tree_item(outputs()->tree(), "Top");
    QVERIFY(top);
    QCOMPARE(top->childCount(), static_cast<int>(expected[0].shape.back()));
    QCOMPARE(top->child(0)->text(1).toFloat(), static_cast<float>(s.max));
    QVERIFY(win_->findChild<QLabel*>("runStatus")->text().contains("cpu"));
    shot("run_cpu");
  }

  void npyInputIsClassified() {
    // The sample's own drawn shapes, as .npy: the classifier names each one's class on top.
    for (const char* shape : {"circle", "square", "triangle", "cross"}) {
      const auto file = sample_ / "inputs" / (std::string(shape) + ".npy");
      dock()->set_input(QString::fromStdString(input_name()), ui::InputKind::Npy,
                        QString::fromStdString(file.string()));
      auto r = run();
      QVERIFY(r);
      const auto direct = direct_cpu(io::read_npy(file));
      QCOMPARE(max_abs_diff(r->outputs[0].tensor, direct[0]), 0.0f);
      QTreeWidgetItem* top = tree_item(outputs()->tree(), "Top");
      QVERIFY(top);
      QVERIFY2(top->child(0)->text(0).startsWith(shape), qPrintable(top->child(0)->text(0)));
    }
    dock()->set_input(QString::fromStdString(input_name()), ui::InputKind::Generator);
  }

  void otherBackendsAndFp16() {
    dock()->rerun_box()->setChecked(true);
    auto x = switch_to("xnnpack", false);
    QVERIFY(x);
    QCOMPARE(x->backend, std::string("xnnpack"));
    const float tol = 1e-3f;
    QVERIFY2(max_abs_diff(x->outputs[0].tensor, cpu_output_) <= tol,
             qPrintable(QString::number(max_abs_diff(x->outputs[0].tensor, cpu_output_))));
    bool any_xnn = false;
    for (const auto& n : x->nodes) any_xnn = any_xnn || n.backend == "xnnpack";
    QVERIFY(any_xnn);

    auto g32 = switch_to("gl", false);
    QVERIFY(g32);
    QCOMPARE(g32->backend, std::string("gl"));
    QVERIFY(!g32->fp16);
    QVERIFY(dock()->fp16_box()->isEnabled());
    QVERIFY2(max_abs_diff(g32->outputs[0].tensor, cpu_output_) <= tol,
             qPrintable(QString::number(max_abs_diff(g32->outputs[0].tensor, cpu_output_))));
    QVERIFY(win_->findChild<QLabel*>("runStatus")->text().contains("gl fp32"));
    checkGraphColouring(*g32);

    auto g16 = switch_to("gl", true);
    QVERIFY(g16);
    QVERIFY(g16->fp16);
    const float d16 = max_abs_diff(g16->outputs[0].tensor, g32->outputs[0].tensor);
    // Half floats keep about 3 decimal digits: the probabilities move, but not far.
    QVERIFY2(d16 > 0.0f, "fp16 gave exactly the fp32 outputs");
    QVERIFY2(d16 < 0.05f, qPrintable(QString::number(d16)));
    QVERIFY(win_->findChild<QLabel*>("runStatus")->text().contains("gl fp16"));
    QVERIFY(outputs()->note()->text().contains("gl fp16"));
    shot("run_gl_fp16");

    // Back to fp32: the same numbers as the first gl fp32 run (weights were made anew, not
    // left as half floats).
    auto back = switch_to("gl", false);
    QVERIFY(back);
    QCOMPARE(max_abs_diff(back->outputs[0].tensor, g32->outputs[0].tensor), 0.0f);
    dock()->rerun_box()->setChecked(false);
    dock()->backend_combo()->setCurrentIndex(dock()->backend_combo()->findData("cpu"));
  }

  void intermediatesOfSelectedNode() {
    // A drawn circle, so the activations have a shape to look at.
    const auto circle = sample_ / "inputs" / "circle.npy";
    dock()->set_input(QString::fromStdString(input_name()), ui::InputKind::Npy,
                      QString::fromStdString(circle.string()));
    dock()->keep_box()->setChecked(true);
    auto r = run();
    QVERIFY(r);
    QVERIFY(!r->intermediates.empty());
    // The first 4-D intermediate (a conv's activations): its heatmap, against a direct run of
    // that node.
    int node = -1;
    for (const auto& n : r->nodes) {
      auto it = r->intermediates.find(n.node);
      if (it != r->intermediates.end() && !it->second.empty() && it->second[0].rank() == 4 &&
          it->second[0].shape[3] > 1) {
        for (int i = 0; i < static_cast<int>(graph().nodes.size()); ++i)
          if (graph().nodes[static_cast<std::size_t>(i)].name == n.node) node = i;
        break;
      }
    }
    QVERIFY(node >= 0);
    const std::string name = graph().nodes[static_cast<std::size_t>(node)].name;
    win_->graph_view()->select_node(node, true);
    QTRY_VERIFY(outputs()->current_title().startsWith(QString::fromStdString(name)));
    const HostTensor* t = outputs()->current_tensor();
    QVERIFY(t);
    const std::string out = name;
    const auto direct = direct_cpu(io::read_npy(circle), std::span<const std::string>(&out, 1));
    QCOMPARE(t->shape, direct[0].shape);
    QCOMPARE(max_abs_diff(*t, direct[0]), 0.0f);
    // The heatmap is one pixel per element of the chosen channel.
    outputs()->channel_box()->setValue(1);
    const auto& img = outputs()->view()->rendered();
    QCOMPARE(img.image.width(), static_cast<int>(t->shape[2]));
    QCOMPARE(img.image.height(), static_cast<int>(t->shape[1]));
    const auto s = ui::tensor_stats(*t);
    QVERIFY(img.lo >= s.min && img.hi <= s.max);
    shot("run_intermediate");

    // Export as .npy gives back the same tensor.
    const QString file = QString::fromStdString((tmp_.path / "node.npy").string());
    outputs()->export_npy(file);
    const HostTensor back = io::read_npy(file.toStdString());
    QCOMPARE(back.shape, t->shape);
    QCOMPARE(max_abs_diff(back, *t), 0.0f);
    dock()->keep_box()->setChecked(false);
    dock()->set_input(QString::fromStdString(input_name()), ui::InputKind::Generator);
  }

  void overlaysMarkNanInfAndFp16Range() {
    HostTensor t = HostTensor::zeros(DType::Float32, {1, 2, 3, 2});
    auto v = t.mutable_values<float>();
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
    v[0] = std::nanf("");                           // y0 x0 c0
    v[2] = std::numeric_limits<float>::infinity();  // y0 x1 c0
    v[4] = 70000.0f;                                // y0 x2 c0
    const auto img = ui::render_channel(t, 0, 0);
    QCOMPARE(img.image.size(), QSize(3, 2));
    QCOMPARE(img.image.pixel(0, 0), ui::kNanColour);
    QCOMPARE(img.image.pixel(1, 0), ui::kInfColour);
    QCOMPARE(img.image.pixel(2, 0), ui::kOverFp16Colour);
    QCOMPARE(img.nan, 1);
    QCOMPARE(img.inf, 1);
    QCOMPARE(img.over_fp16, 1);
    // Channel 1 has none of them: plain heatmap colours, darkest at its minimum.
    const auto c1 = ui::render_channel(t, 0, 1);
    QCOMPARE(c1.nan + c1.inf + c1.over_fp16, 0);
    QCOMPARE(c1.lo, 1.0);
    QVERIFY(c1.image.pixel(0, 0) != ui::kNanColour);
    const auto s = ui::tensor_stats(t);
    QCOMPARE(s.nan, 1);
    QCOMPARE(s.inf, 1);
    QCOMPARE(s.overflow, std::int64_t{1});
  }

  void imageInputIsResizedAndScaled() {
    // A light disc on a dark 100x80 picture, as a user's PNG.
    QImage pic(100, 80, QImage::Format_RGB32);
    pic.fill(Qt::black);
    {
      QPainter p(&pic);
      p.setBrush(Qt::white);
      p.setPen(Qt::NoPen);
      p.drawEllipse(QPoint(50, 40), 30, 30);
    }
    const QString file = QString::fromStdString((tmp_.path / "disc.png").string());
    QVERIFY(pic.save(file));
    for (auto [scale, lo, hi] : {std::tuple{ui::ImageScale::Unit, 0.0f, 1.0f},
                                 std::tuple{ui::ImageScale::Signed, -1.0f, 1.0f},
                                 std::tuple{ui::ImageScale::Bytes, 0.0f, 255.0f}}) {
      dock()->set_input(QString::fromStdString(input_name()), ui::InputKind::Image, file, scale);
      auto r = run();
      QVERIFY(r);
      const HostTensor& in = r->inputs[0].tensor;
      QCOMPARE(in.shape, (Shape{1, 28, 28, 1}));
      const auto s = ui::tensor_stats(in);
      QCOMPARE(static_cast<float>(s.min), lo);  // the dark corners
      QCOMPARE(static_cast<float>(s.max), hi);  // the disc's middle
      const float centre = in.values<float>()[14 * 28 + 14];
      QCOMPARE(centre, hi);
      if (scale == ui::ImageScale::Unit) {
        QTreeWidgetItem* top = tree_item(outputs()->tree(), "Top");
        QVERIFY(top && top->child(0)->text(0).startsWith("circle"));
      }
    }
    dock()->set_input(QString::fromStdString(input_name()), ui::InputKind::Generator);
  }

  void wrongNpyShapeNamesTheInput() {
    const auto bad = tmp_.path / "bad.npy";
    io::write_npy(bad, HostTensor::zeros(DType::Float32, {1, 10, 10, 1}));
    dock()->set_input(QString::fromStdString(input_name()), ui::InputKind::Npy,
                      QString::fromStdString(bad.string()));
    QSignalSpy failed(win_.get(), &ui::MainWindow::runFailed);
    win_->run_model(false);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kTimeoutMs);
    const QString msg = failed.at(0).at(0).toString();
    QVERIFY(!failed.at(0).at(1).toBool());
    QVERIFY2(msg.contains(QString::fromStdString(input_name())), qPrintable(msg));
    QVERIFY2(msg.contains("[1,10,10,1]"), qPrintable(msg));
    QVERIFY(dock()->result_label()->text().contains(QString::fromStdString(input_name())));
    QVERIFY(dock()->result_label()->text().contains("Run failed"));
    QVERIFY(!win_->is_running());
    QVERIFY(dock()->run_button()->isEnabled());
    shot("run_bad_input");
    // Still usable.
    dock()->set_input(QString::fromStdString(input_name()), ui::InputKind::Generator);
    QVERIFY(run());
  }

  // File > Export Graph > As SVG keeps the run's colouring: the colours of the boxes and the
  // legend are the ones the canvas shows.
  void svgShowsTheRunColours() {
    QVERIFY(switch_to("cpu", false));
    const auto& c = win_->graph_view()->colouring();
    QCOMPARE(c.mode(), viewers::NodeColouring::Mode::Categories);
    const auto file = tmp_.path / "run.svg";
    win_->graph_view()->export_svg(QString::fromStdString(file.string()));
    std::ifstream in(file);
    const std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    QVERIFY(svg.find("Legend: " + c.title()) != std::string::npos);
    auto css = [](std::uint32_t abgr) {  // the canvas's 0xAABBGGRR as SVG's #RRGGBB
      return QString::asprintf("#%02X%02X%02X", abgr & 0xFF, (abgr >> 8) & 0xFF,
                               (abgr >> 16) & 0xFF)
          .toStdString();
    };
    QVERIFY(!c.categories().empty());
    for (const auto& cat : c.categories()) {
      // Once in the legend, and on the boxes of that category.
      const std::string fill = "fill=\"" + css(cat.color) + "\"";
      std::size_t n = 0;
      for (auto at = svg.find(fill); at != std::string::npos; at = svg.find(fill, at + 1)) ++n;
      QVERIFY2(n >= 2, cat.name.c_str());
      QVERIFY2(svg.find(cat.name + "  (" + std::to_string(cat.count) + ")") != std::string::npos,
               cat.name.c_str());
    }
    // Time colouring: the value scale and its range.
    dock()->colour_combo()->setCurrentIndex(
        dock()->colour_combo()->findData(static_cast<int>(ui::GraphColour::Time)));
    win_->graph_view()->export_svg(QString::fromStdString(file.string()));
    std::ifstream in2(file);
    const std::string svg2((std::istreambuf_iterator<char>(in2)), std::istreambuf_iterator<char>());
    QVERIFY(svg2.find("Legend: " + c.title()) != std::string::npos);
    QVERIFY(svg2.find("log10 scale") != std::string::npos);
    dock()->colour_combo()->setCurrentIndex(
        dock()->colour_combo()->findData(static_cast<int>(ui::GraphColour::Backend)));
  }

  void benchmarkReportsMedianMinFirst() {
    dock()->warmup_box()->setValue(2);
    dock()->runs_box()->setValue(7);
    auto r = run(true);
    QVERIFY(r);
    QVERIFY(r->benchmark);
    QCOMPARE(r->runs, 7);
    QCOMPARE(r->warmup, 2);
    QVERIFY(r->min_ms > 0 && r->min_ms <= r->median_ms && r->median_ms <= r->max_ms);
    QVERIFY(r->first_ms > 0);
    // The timed runs go unprofiled; the cold run and one after them fill the profile.
    QVERIFY(!r->first_nodes.empty() && !r->nodes.empty());
    const QString label = dock()->result_label()->text();
    QVERIFY(label.contains("median") && label.contains("min") && label.contains("first"));
  }

  void cancelWhileTheWindowKeepsTicking() {
    dock()->warmup_box()->setValue(0);
    dock()->runs_box()->setValue(1000000);  // far longer than the test waits
    dock()->threads_box()->setValue(1);     // one core stays for the UI thread
    int ticks = 0;
    QTimer timer;
    timer.setInterval(20);
    connect(&timer, &QTimer::timeout, [&] { ++ticks; });
    timer.start();
    QSignalSpy failed(win_.get(), &ui::MainWindow::runFailed);
    QSignalSpy done(win_.get(), &ui::MainWindow::runFinished);
    win_->run_model(true);
    QVERIFY(win_->is_running());
    QVERIFY(dock()->cancel_button()->isEnabled());
    QTest::qWait(1500);
    QVERIFY(win_->is_running());
    // The UI thread was free: a blocked one would see one tick at most; 75 are due, and a
    // machine shared with builds delays some.
    QVERIFY2(ticks >= 15, qPrintable(QString::number(ticks)));
    shot("run_benchmark_running");
    // Run > Cancel, the action Esc triggers (Xvfb has no window manager to make the window
    // active, which a key shortcut needs).
    auto* cancel = win_->findChild<QAction*>("cancelRunAction");
    QVERIFY(cancel && cancel->isEnabled());
    QCOMPARE(cancel->shortcut(), QKeySequence(Qt::Key_Escape));
    cancel->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
    QVERIFY(failed.at(0).at(1).toBool());
    QCOMPARE(done.count(), 0);
    QVERIFY(!win_->is_running());
    QVERIFY(!cancel->isEnabled());  // Esc goes back to the canvas
    dock()->threads_box()->setValue(0);
    dock()->runs_box()->setValue(3);
    QVERIFY(run());  // the engine is fine after a cancel
  }

  void cleanupTestCase() { win_.reset(); }
};

int main(int argc, char** argv) {
  return tfjsi::test::run_gui_suite<RunTest>(argc, argv, "tfjs-inspector-test");
}

#include "run_test.moc"
