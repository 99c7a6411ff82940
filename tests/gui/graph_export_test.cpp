// The graph exported as PNG holds the whole graph, as the SVG does (issue 20, item 1): from File >
// Export (the window's graph view) and from `tfjs-inspector --export-graph`, on
// blazepose-detector. The PNG's aspect is the SVG's within 10%, its long side is at least 1500 px,
// and its margins are the page's background, where the view's toolbar and status line would sit.
// The command line needs no display and exits as tfjsi does. Needs a display for the window part.
#include <QtTest>

#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <fstream>

#include "graph_view.h"
#include "gui_test_main.h"
#include "main_window.h"
#include "support/test_support.h"

using namespace tfjsi;

namespace {

constexpr int kTimeoutMs = 300000;

QSizeF svg_size(const QString& file) {
  QFile f(file);
  if (!f.open(QIODevice::ReadOnly)) return {};
  const QString text = QString::fromUtf8(f.read(4096));
  const auto m =
      QRegularExpression(R"re(<svg[^>]*width="([0-9.]+)"[^>]*height="([0-9.]+)")re").match(text);
  if (!m.hasMatch()) return {};
  return {m.captured(1).toDouble(), m.captured(2).toDouble()};
}

// Whether every pixel of the rows [y0, y1) is the page's background.
bool background_rows(const QImage& img, int y0, int y1) {
  const QRgb bg = qRgb(0xFA, 0xFA, 0xFA);
  for (int y = y0; y < y1; ++y)
    for (int x = 0; x < img.width(); ++x)
      if ((img.pixel(x, y) & 0xFFFFFF) != (bg & 0xFFFFFF)) return false;
  return true;
}

// The issue's demands on a PNG of the whole graph, against the SVG of the same graph.
void check_png_against_svg(const QString& png, const QString& svg) {
  const QImage img(png);
  QVERIFY2(!img.isNull(), qPrintable(png));
  const QSizeF page = svg_size(svg);
  QVERIFY2(page.width() > 0 && page.height() > 0, qPrintable(svg));
  const double a_png = static_cast<double>(img.width()) / img.height();
  const double a_svg = page.width() / page.height();
  QVERIFY2(std::abs(a_png / a_svg - 1) <= 0.10, qPrintable(QString("PNG %1x%2, SVG %3x%4")
                                                               .arg(img.width())
                                                               .arg(img.height())
                                                               .arg(page.width())
                                                               .arg(page.height())));
  QVERIFY2(std::max(img.width(), img.height()) >= 1500,
           qPrintable(QString("PNG %1x%2").arg(img.width()).arg(img.height())));
  // The page's margin (10 points, scaled) is plain background at the top, where the view's
  // toolbar sits, and at the bottom, where its status line sits.
  const int margin = static_cast<int>(10.0 * img.width() / page.width()) - 2;
  QVERIFY(margin >= 5);
  QVERIFY2(background_rows(img, 0, margin), "something is drawn over the top margin (a toolbar?)");
  QVERIFY2(background_rows(img, img.height() - margin, img.height()),
           "something is drawn over the bottom margin (a status line?)");
  // And it is a graph, not an empty page: many pixels are not background.
  int drawn = 0;
  for (int y = 0; y < img.height(); y += 4)
    for (int x = 0; x < img.width(); x += 4) drawn += img.pixel(x, y) != qRgb(0xFA, 0xFA, 0xFA);
  QVERIFY(drawn > 1000);
}

test::ProcessResult run_inspector(const QStringList& args) {
  test::ProcessResult r;
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.remove("DISPLAY");  // the export needs no display
  env.remove("WAYLAND_DISPLAY");
  p.setProcessEnvironment(env);
  p.start(qEnvironmentVariable("TFJSI_INSPECTOR_BIN"), args);
  if (!p.waitForFinished(kTimeoutMs)) {
    p.kill();
    p.waitForFinished();
    r.crashed = true;
    return r;
  }
  r.crashed = p.exitStatus() == QProcess::CrashExit;
  r.exit_code = p.exitCode();
  r.out = p.readAllStandardOutput();
  r.err = p.readAllStandardError();
  return r;
}

}  // namespace

class GraphExportTest : public QObject {
  Q_OBJECT
  test::TempDir tmp_;
  QString model_;

  QString out(const char* name) { return QString::fromStdString((tmp_.path / name).string()); }

 private slots:
  void initTestCase() {
    model_ = QString::fromStdString(test::corpus_model("blazepose-detector").string());
    QVERIFY(!qEnvironmentVariable("TFJSI_INSPECTOR_BIN").isEmpty());
  }

  void windowExportHoldsTheWholeGraph() {
    ui::MainWindow win;
    win.setGeometry(0, 0, 1280, 800);
    win.show();
    QVERIFY(QTest::qWaitForWindowExposed(&win));
    QSignalSpy opened(&win, &ui::MainWindow::modelOpened);
    win.open_model(model_);
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kTimeoutMs);
    auto* view = win.graph_view();
    QTRY_VERIFY_WITH_TIMEOUT(view->has_layout() && !view->layout_pending(), kTimeoutMs);
    QTest::qWait(300);
    view->export_png(out("window.png"));
    view->export_svg(out("window.svg"));
    check_png_against_svg(out("window.png"), out("window.svg"));
    // The view's own size has nothing to do with it.
    const QImage img(out("window.png"));
    QVERIFY(img.width() > view->width() || img.height() > view->height());
    QDir().mkpath(QCoreApplication::applicationDirPath() + "/screenshots");
    QVERIFY(img.copy(0, 0, std::min(img.width(), 2000), std::min(img.height(), 1400))
                .save(QCoreApplication::applicationDirPath() + "/screenshots/export_top.png"));
  }

  void commandLineWritesPngAndSvg() {
    auto png = run_inspector({"--export-graph", out("cli.png"), model_});
    QVERIFY2(!png.crashed && png.exit_code == 0, png.err.constData());
    auto svg = run_inspector({"--export-graph", out("cli.svg"), model_});
    QVERIFY2(!svg.crashed && svg.exit_code == 0, svg.err.constData());
    check_png_against_svg(out("cli.png"), out("cli.svg"));
  }

  void commandLineExitCodes() {
    // Usage: no model, a format it cannot tell.
    auto r = run_inspector({"--export-graph", out("x.png")});
    QCOMPARE(r.exit_code, 2);
    r = run_inspector({"--export-graph", out("x.jpg"), model_});
    QCOMPARE(r.exit_code, 2);
    QVERIFY(r.err.contains(".png or .svg"));
    // A bad model: stderr names the file.
    const auto bad = tmp_.path / "bad" / "model.json";
    std::filesystem::create_directories(bad.parent_path());
    std::ofstream(bad) << "{ not json";
    r = run_inspector({"--export-graph", out("x.png"), QString::fromStdString(bad.string())});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.err.contains("model.json"), r.err.constData());
    QVERIFY(!QFile::exists(out("x.png")));
  }
};

int main(int argc, char** argv) {
  return tfjsi::test::run_gui_suite<GraphExportTest>(argc, argv, "tfjs-inspector-export-test");
}

#include "graph_export_test.moc"
