// The Environment panel's op table as a user sees it, at 1280x800: one row per op of TF.js's
// converter (and per op a backend runs that the converter does not map), each cell what the
// engine's backends say (runtime::op_support, computed here on the test's thread): Conv2D's row
// is found and reads "yes" where a backend has its own kernel; typing in the filter leaves only
// matching rows. Saves a screenshot (screenshots/env_ops.png in the build folder).
// Needs a display (run under xvfb-run).
#include <QtTest>

#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QTreeWidget>

#include "backends/all_backends.h"
#include "env_dock.h"
#include "gui_test_main.h"
#include "main_window.h"
#include "ops/converter_ops.h"
#include "runtime/op_support.h"

using namespace tfjsi;

namespace {
constexpr int kTimeoutMs = 120000;

QTreeWidgetItem* row_of(QTreeWidget* tree, const QString& op) {
  for (int i = 0; i < tree->topLevelItemCount(); ++i)
    if (tree->topLevelItem(i)->text(0) == op) return tree->topLevelItem(i);
  return nullptr;
}
}  // namespace

class EnvOpsTest : public QObject {
  Q_OBJECT
  std::unique_ptr<ui::MainWindow> win_;

 private slots:
  void initTestCase() {
    win_ = std::make_unique<ui::MainWindow>();
    win_->resize(1280, 800);
    win_->show();
    QVERIFY(QTest::qWaitForWindowExposed(win_.get()));
    QTRY_VERIFY_WITH_TIMEOUT(!win_->env_dock()->environment().flags.empty(), kTimeoutMs);
  }

  // An op refused on purpose (TF Decision Forests) says why on its row.
  void refusedOpSaysWhy() {
    QTreeWidgetItem* it =
        row_of(win_->env_dock()->ops_tree(), QStringLiteral("SimpleMLInferenceOpWithHandle"));
    QVERIFY(it);
    QVERIFY2(it->toolTip(0).contains("Decision Forests"), qPrintable(it->toolTip(0)));
    QVERIFY2(it->toolTip(2).startsWith("Not run"), qPrintable(it->toolTip(2)));
  }

  void everyConverterOpHasARow() {
    runtime::Engine engine;
    backends::add_all_backends(engine);
    const auto want = runtime::op_support(engine);
    QTreeWidget* tree = win_->env_dock()->ops_tree();
    QCOMPARE(tree->topLevelItemCount(), static_cast<int>(want.size()));
    QVERIFY(want.size() >= ops::converter_ops().size());
    QCOMPARE(tree->headerItem()->text(2), QString("cpu"));
    for (const auto& s : want) {
      QTreeWidgetItem* it = row_of(tree, QString::fromStdString(s.op));
      QVERIFY2(it, s.op.c_str());
      QCOMPARE(it->text(1).toStdString(), s.category);
      for (std::size_t b = 0; b < s.native.size(); ++b) {
        const QString cell = it->text(2 + static_cast<int>(b));
        if (s.executor)
          QCOMPARE(cell, QString("executor"));
        else if (s.native[b].second)
          QCOMPARE(cell, QString("yes"));
        else
          QVERIFY2(cell == "cpu" || cell == "-",
                   qPrintable(QString::fromStdString(s.op) + ": " + cell));
      }
    }
    // A known op: every backend has its own Conv2D kernel.
    QTreeWidgetItem* conv = row_of(tree, "Conv2D");
    QVERIFY(conv);
    QCOMPARE(conv->text(1), QString("convolution"));
    for (int c = 2; c < tree->columnCount(); ++c) QCOMPARE(conv->text(c), QString("yes"));
    QVERIFY(win_->env_dock()
                ->findChild<QLabel*>("envOpsSummary")
                ->text()
                .contains(QString::number(ops::converter_ops().size()) + " ops"));
  }

  void filterFindsAnOp() {
    ui::EnvDock* env = win_->env_dock();
    env->show();
    env->raise();
    env->tabs()->setCurrentIndex(1);  // the Ops page
    QTest::keyClicks(env->ops_filter(), "conv2d");
    QTreeWidget* tree = env->ops_tree();
    int shown = 0;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
      QTreeWidgetItem* it = tree->topLevelItem(i);
      if (it->isHidden()) continue;
      ++shown;
      QVERIFY(it->text(0).contains("conv2d", Qt::CaseInsensitive));
    }
    QVERIFY(shown >= 3);  // Conv2D, _FusedConv2D, Conv2DBackpropInput, DepthwiseConv2d...
    QVERIFY(!row_of(tree, "Conv2D")->isHidden());
    QVERIFY(row_of(tree, "Relu")->isHidden());
    tree->scrollToItem(row_of(tree, "Conv2D"));
    QTest::qWait(300);
    const QString dir = QCoreApplication::applicationDirPath() + "/screenshots";
    QDir().mkpath(dir);
    QVERIFY(win_->grab_window().save(dir + "/env_ops.png"));
    env->ops_filter()->clear();
    QVERIFY(!row_of(tree, "Relu")->isHidden());
  }
};

int main(int argc, char** argv) {
  return tfjsi::test::run_gui_suite<EnvOpsTest>(argc, argv, "tfjs-inspector-test");
}
#include "env_ops_test.moc"
