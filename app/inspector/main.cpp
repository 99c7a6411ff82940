// tfjs-inspector: the desktop app. Opens the model given on the command line, if any.
//   tfjs-inspector [MODEL] [--show-const] [--expand-all] [--select NODE] [--find TEXT]
//                  [--screenshot FILE] [--measure-frames N]
//   tfjs-inspector --export-graph OUT.png|OUT.svg MODEL
// --screenshot saves the window (GL canvas included) once the graph is laid out, then quits;
// --measure-frames pans the canvas N frames and prints frame times to stderr, then quits;
// --export-graph draws the model's graph to a file as the app lays it out, shows no window and
// needs no display; exit codes as tfjsi's: 0 ok, 1 bad model (or the file cannot be written),
// 2 usage.
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <string_view>
#include <vector>

#include "gl_format.h"
#include "graph/build.h"
#include "graph_export.h"
#include "graph_view.h"
#include "main_window.h"
#include "model/bundle.h"

namespace {

void measure_frames(tfjsi::viewers::GraphView* view, int frames) {
  view->set_finish_frames(true);  // count the rasterizing too, not just the draw calls
  // paintGL times itself (draw, ImGui render, glFinish); drive real frames through the event
  // loop and read those, since QOpenGLWidget paints when composed, not inside repaint().
  std::vector<double> times;
  for (int i = 0; i < frames; ++i) {
    view->pan_by(i % 40 < 20 ? 7.0f : -7.0f, 3.0f * ((i / 40) % 2 ? -1.0f : 1.0f));
    const double before = view->frame_times().empty() ? -1.0 : view->frame_times().back();
    const std::size_t n = view->frame_times().size();
    QElapsedTimer guard;
    guard.start();
    while (guard.elapsed() < 2000 && view->frame_times().size() == n &&
           (view->frame_times().empty() || view->frame_times().back() == before))
      QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    if (!view->frame_times().empty()) times.push_back(view->frame_times().back());
  }
  if (times.empty()) return;
  std::sort(times.begin(), times.end());
  double sum = 0;
  for (double x : times) sum += x;
  std::fprintf(
      stderr,
      "frames: %d boxes=%d zoom=%.2f  median %.2f ms  mean %.2f ms  p95 %.2f ms  max %.2f ms\n",
      frames, view->visible_box_count(), static_cast<double>(view->zoom()), times[times.size() / 2],
      sum / static_cast<double>(times.size()), times[times.size() * 95 / 100], times.back());
}

bool wants_export(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]).starts_with("--export-graph")) return true;
  return false;
}

// --export-graph OUT MODEL: no window, no GL.
int export_graph(const QString& out, const QStringList& models) {
  if (models.size() != 1) {
    std::fprintf(stderr, "usage: tfjs-inspector --export-graph OUT.png|OUT.svg MODEL\n");
    return 2;
  }
  if (!tfjsi::viewers::is_graph_export_file(out.toStdString())) {
    std::fprintf(stderr, "--export-graph %s: name the file .png or .svg\n", qPrintable(out));
    return 2;
  }
  try {
    const auto bundle = tfjsi::model::load_bundle(models.front().toStdString());
    const auto graph = tfjsi::graph::build_graph(bundle);
    const QString note = tfjsi::viewers::export_graph(graph, out.toStdString());
    std::fprintf(stderr, "wrote %s%s%s\n", qPrintable(out), note.isEmpty() ? "" : ": ",
                 qPrintable(note));
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  tfjsi::ui::use_app_gl_format();  // before QApplication
  Q_INIT_RESOURCE(resources);
  // An export draws with QPainter only: it needs no display, so it runs in scripts and CI.
  if (wants_export(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
    qputenv("QT_QPA_PLATFORM", "offscreen");

  QApplication app(argc, argv);
  QApplication::setApplicationName("tfjs-inspector");
  QApplication::setOrganizationName("tfjs-inspector");
  QApplication::setApplicationVersion(TFJSI_VERSION);

  QCommandLineParser cli;
  cli.setApplicationDescription("Inspect TensorFlow.js model bundles.");
  const QCommandLineOption help = cli.addHelpOption();
  const QCommandLineOption version = cli.addVersionOption();
  cli.addPositionalArgument("model", "model.json, or a folder holding one");
  QCommandLineOption shot("screenshot", "Save the window to FILE once laid out, then quit.",
                          "FILE");
  QCommandLineOption show_const("show-const", "Show Const nodes.");
  QCommandLineOption expand_all("expand-all", "Open every group.");
  QCommandLineOption select("select", "Select the node NAME.", "NAME");
  QCommandLineOption find("find", "Find TEXT (as Ctrl+F then typing it, then Enter).", "TEXT");
  QCommandLineOption frames("measure-frames", "Time N frames of panning, print, quit.", "N");
  QCommandLineOption size("size", "Window size WxH.", "WxH");
  QCommandLineOption export_to(
      "export-graph", "Draw MODEL's graph to FILE (.png or .svg) and quit; no window.", "FILE");
  cli.addOptions({shot, show_const, expand_all, select, find, frames, size, export_to});
  if (!cli.parse(QCoreApplication::arguments())) {
    std::fprintf(stderr, "%s\n", qPrintable(cli.errorText()));
    return 2;
  }
  if (cli.isSet(help)) cli.showHelp(0);
  if (cli.isSet(version)) cli.showVersion();
  if (cli.isSet(export_to)) return export_graph(cli.value(export_to), cli.positionalArguments());

  tfjsi::ui::MainWindow win;
  if (cli.isSet(size)) {
    const QStringList wh = cli.value(size).split('x');
    if (wh.size() == 2) win.resize(wh[0].toInt(), wh[1].toInt());
  }
  win.show();
  auto* view = win.graph_view();
  if (cli.isSet(show_const)) view->set_show_const(true);

  const bool scripted = cli.isSet(shot) || cli.isSet(frames);
  if (!cli.positionalArguments().isEmpty()) {
    bool first_layout = true;
    QObject::connect(view, &tfjsi::viewers::GraphView::layoutReady, &win, [&]() {
      if (!first_layout) {
        // Later layouts (groups opened by --expand-all or --select) end the script.
        if (view->layout_pending()) return;
      } else {
        first_layout = false;
        bool again = false;
        if (cli.isSet(expand_all)) {
          view->expand_all();
          again = view->layout_pending();
        }
        if (cli.isSet(select)) {
          int n = view->find_node(cli.value(select));
          if (n < 0) std::fprintf(stderr, "no node named %s\n", qPrintable(cli.value(select)));
          view->select_node(n, true);
          again = again || view->layout_pending();
        }
        if (cli.isSet(find)) {
          view->open_find();
          view->set_find_text(cli.value(find));
          view->find_next();
          again = again || view->layout_pending();
        }
        if (again) return;
      }
      if (!scripted) return;
      QTimer::singleShot(600, &win, [&]() {
        if (cli.isSet(frames)) measure_frames(view, cli.value(frames).toInt());
        if (cli.isSet(shot)) {
          if (!win.grab_window().save(cli.value(shot)))
            std::fprintf(stderr, "cannot write %s\n", qPrintable(cli.value(shot)));
        }
        QApplication::quit();
      });
    });
    QObject::connect(&win, &tfjsi::ui::MainWindow::modelFailed, &win,
                     [&](const QString&, const QString& msg) {
                       std::fprintf(stderr, "%s\n", qPrintable(msg));
                       if (scripted) {
                         QTimer::singleShot(300, &win, [&]() {
                           if (cli.isSet(shot)) win.grab_window().save(cli.value(shot));
                           QApplication::exit(1);
                         });
                       }
                     });
    win.open_model(cli.positionalArguments().first());
  }
  return QApplication::exec();
}
