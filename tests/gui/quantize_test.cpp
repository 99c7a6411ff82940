// Issue #23's "Quantize..." in the Model dock as a user drives it, on a layers model of
// tests/reference (seq_cnn, made by real tfjs-layers) whose uint8 form tensorflowjs_converter
// also wrote (seq_cnn-q8): Advise fills the table and selects the smallest bundle within the
// tolerance, which fills in the dtype and the patterns; Write uint8 writes a bundle that loads,
// whose shards are at most 0.3x the float32 ones, as big as the converter's and decoding to its
// values within one quantization step; Open It opens it. A folder that will not do is refused in
// the dialog. Saves screenshots in the build folder. Needs a display (xvfb-run).
#include <QtTest>

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <cmath>
#include <fstream>
#include <map>

#include "analysis/loaded_model.h"
#include "graph_view.h"
#include "gui_test_main.h"
#include "main_window.h"
#include "model_dock.h"
#include "quantize_dialog.h"
#include "support/test_support.h"

using namespace tfjsi;
namespace fs = std::filesystem;

namespace {

constexpr int kTimeoutMs = 300000;

std::uint64_t shard_bytes(const fs::path& model_json) {
  const analysis::LoadedModel m = analysis::load_model(model_json, false);
  std::uint64_t n = 0;
  for (const auto& s : m.bundle.shards) n += fs::file_size(s.path);
  return n;
}

int partial_folders_beside(const fs::path& dir) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir.parent_path()))
    if (e.path().filename().string().starts_with("." + dir.filename().string() + ".partial")) ++n;
  return n;
}

}  // namespace

class QuantizeTest : public QObject {
  Q_OBJECT
  std::unique_ptr<ui::MainWindow> win_;
  test::TempDir tmp_;

  ui::QuantizeDialog* dialog() { return win_->quantize_dialog(); }
  fs::path model_path(const char* name) {
    return test::reference_dir() / "layers" / name / "model.json";
  }

  void shot(QWidget* w, const QString& name) {
    QTest::qWait(300);
    const QString dir = QCoreApplication::applicationDirPath() + "/screenshots";
    QDir().mkpath(dir);
    QVERIFY(w->grab().save(dir + "/" + name + ".png"));
  }

  void open(const fs::path& model_json) {
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    win_->open_model(QString::fromStdString(model_json.string()));
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(win_->graph_view()->has_layout(), kTimeoutMs);
  }

  // Presses Write with the dialog's fields as they are; the result, or null with `failure` set.
  ui::QuantizeResultPtr write(QString* failure) {
    QSignalSpy done(dialog(), &ui::QuantizeDialog::writeFinished);
    QSignalSpy failed(dialog(), &ui::QuantizeDialog::failed);
    QTest::mouseClick(dialog()->write_button(), Qt::LeftButton);
    [&] { QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, kTimeoutMs); }();
    if (failed.count()) {
      if (failure) *failure = failed.at(0).at(0).toString();
      return nullptr;
    }
    return done.at(0).at(0).value<ui::QuantizeResultPtr>();
  }

 private slots:
  void initTestCase() {
    win_ = std::make_unique<ui::MainWindow>();
    win_->resize(1280, 800);
    win_->show();
    QVERIFY(QTest::qWaitForWindowExposed(win_.get()));
    QVERIFY(!win_->model_dock()->quantize_button()->isEnabled());  // no model yet
  }

  void adviseSelectsTheSmallestWithinTolerance() {
    open(model_path("seq_cnn"));
    QTRY_VERIFY(win_->model_dock()->quantize_button()->isEnabled());
    QTest::mouseClick(win_->model_dock()->quantize_button(), Qt::LeftButton);
    QVERIFY(dialog());
    QTRY_VERIFY(dialog()->isVisible());
    QVERIFY(dialog()->folder_edit()->text().endsWith("seq_cnn-uint8"));
    QSignalSpy advised(dialog(), &ui::QuantizeDialog::adviceFinished);
    QSignalSpy failed(dialog(), &ui::QuantizeDialog::failed);
    QTest::mouseClick(dialog()->advise_button(), Qt::LeftButton);
    QVERIFY(dialog()->is_busy());
    QVERIFY(dialog()->cancel_button()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(advised.count() + failed.count() > 0, kTimeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
    const auto& a = advised.at(0).at(0).value<ui::QuantizeResultPtr>()->advice;

    // A row per option, every dtype measured.
    QTableWidget* t = dialog()->table();
    QCOMPARE(t->rowCount(), static_cast<int>(a.options.size()));
    for (const char* d : {"float16", "uint16", "uint8"}) {
      bool found = false;
      for (int row = 0; row < t->rowCount(); ++row)
        found |= t->item(row, ui::QuantizeDialog::kDtype)->text().startsWith(d);
      QVERIFY2(found, d);
    }
    // The recommended row: selected, within the tolerance, no smaller bundle within it; its
    // dtype and patterns fill the fields.
    QVERIFY(a.recommended);
    const int best = static_cast<int>(*a.recommended);
    QCOMPARE(t->currentRow(), best);
    QVERIFY(t->item(best, ui::QuantizeDialog::kDtype)->text().contains("recommended"));
    const auto& o = a.options[*a.recommended];
    QVERIFY(o.drift <= a.tolerance);
    for (const auto& other : a.options)
      if (other.drift <= a.tolerance) QVERIFY(other.bytes >= o.bytes);
    QCOMPARE(dialog()->dtype(), o.dtype);
    QCOMPARE(dialog()->keep_float(), o.keep_float);
    shot(dialog(), "quantize_advice");
  }

  void refusesAFolderThatWillNotDo() {
    const fs::path full = tmp_.path / "full";
    fs::create_directories(full);
    std::ofstream(full / "keep.txt") << "mine";
    dialog()->folder_edit()->setText(QString::fromStdString(full.string()));
    QString failure;
    QVERIFY(!write(&failure));
    QVERIFY2(failure.contains("not empty"), qPrintable(failure));
    QVERIFY(dialog()->status_label()->text().contains("not empty"));
    QVERIFY(!fs::exists(full / "model.json"));
    QCOMPARE(partial_folders_beside(full), 0);
    // A pattern that names no weight is refused before anything is written.
    dialog()->keep_edit()->setPlainText("nosuch/*");
    dialog()->folder_edit()->setText(QString::fromStdString((tmp_.path / "typo").string()));
    QVERIFY(!write(&failure));
    QVERIFY2(failure.contains("matches no weight"), qPrintable(failure));
    QVERIFY(!fs::exists(tmp_.path / "typo"));
    QVERIFY(dialog()->write_button()->isEnabled());
  }

  void writesUint8() {
    const fs::path src = model_path("seq_cnn"), out = tmp_.path / "seq_cnn-uint8";
    dialog()->dtype_combo()->setCurrentIndex(dialog()->dtype_combo()->findText("uint8"));
    dialog()->keep_edit()->clear();
    dialog()->folder_edit()->setText(QString::fromStdString(out.string()));
    QString failure;
    const auto r = write(&failure);
    QVERIFY2(r, qPrintable(failure));
    QVERIFY(fs::exists(out / "model.json"));
    QCOMPARE(partial_folders_beside(out), 0);

    // The shards on disk: at most 0.3x the float32 ones, as big as the converter's uint8 ones.
    const std::uint64_t ours = shard_bytes(out / "model.json"), float32 = shard_bytes(src);
    const std::uint64_t converter = shard_bytes(model_path("seq_cnn-q8"));
    qInfo("shards: float32 %llu, ours uint8 %llu, converter uint8 %llu",
          static_cast<unsigned long long>(float32), static_cast<unsigned long long>(ours),
          static_cast<unsigned long long>(converter));
    QVERIFY(ours * 10 <= float32 * 3);
    QCOMPARE(ours, converter);

    // It loads; every weight is uint8 and decodes to the converter's value within one step.
    const analysis::LoadedModel back = analysis::load_model(out / "model.json", false);
    const analysis::LoadedModel conv = analysis::load_model(model_path("seq_cnn-q8"), false);
    std::map<std::string, const model::Weight*> theirs;
    for (const auto& w : conv.bundle.weights) theirs[w.name] = &w;
    QVERIFY(!back.bundle.weights.empty());
    for (const auto& w : back.bundle.weights) {
      QCOMPARE(w.quantization, model::Quantization::Uint8);
      QVERIFY2(theirs.count(w.name), w.name.c_str());
      const model::Weight& c = *theirs[w.name];
      const auto a = w.value.values<float>(), b = c.value.values<float>();
      QCOMPARE(a.size(), b.size());
      for (std::size_t k = 0; k < a.size(); ++k)
        QVERIFY2(std::abs(double(a[k]) - double(b[k])) <= c.scale * 1.001 + 1e-7,
                 qPrintable(QString("%1[%2]: %3 vs converter %4")
                                .arg(QString::fromStdString(w.name))
                                .arg(k)
                                .arg(a[k])
                                .arg(b[k])));
    }
    // The drift was measured, and quantizing moved the outputs a little, not a lot.
    QVERIFY(r->written.drift);
    QVERIFY2(*r->written.drift > 0 && *r->written.drift < 0.5,
             qPrintable(QString::number(*r->written.drift)));
    QVERIFY(dialog()->result_label()->text().contains(QString::fromStdString(out.string())));
    QVERIFY(dialog()->open_button()->isEnabled());
    shot(dialog(), "quantize_written");

    // Open It opens the bundle written.
    QSignalSpy opened(win_.get(), &ui::MainWindow::modelOpened);
    QTest::mouseClick(dialog()->open_button(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, kTimeoutMs);
    QCOMPARE(fs::canonical(win_->model()->bundle.model_json), fs::canonical(out / "model.json"));
    QVERIFY(!dialog()->open_button()->isEnabled());  // the dialog now holds the new model
    QVERIFY(dialog()->table()->rowCount() == 0);
  }

  void cleanupTestCase() { win_.reset(); }
};

int main(int argc, char** argv) {
  return tfjsi::test::run_gui_suite<QuantizeTest>(argc, argv, "tfjsi-gui-quantize-test");
}
#include "quantize_test.moc"
