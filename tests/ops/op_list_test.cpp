// ops/op_def.h: every op a backend runs is known to the op layer once (a shape rule and a family
// from its family file), and the families the graph view colours by are the ones TF ops belong
// to.
#include <QObject>
#include <QTest>
#include <set>
#include <string>

#include "backends/cpu/kernel.h"
#include "ops/op_def.h"

using namespace tfjsi;

class OpListTest : public QObject {
  Q_OBJECT

 private slots:
  void every_cpu_kernel_has_an_op_def() {
    std::string missing;
    for (const cpu::KernelEntry& k : cpu::kernel_registry())
      if (!ops::find_op(k.op)) missing += " " + std::string(k.op);
    QVERIFY2(missing.empty(), ("cpu kernels whose op ops/ does not know:" + missing).c_str());
  }

  void each_op_once() {
    std::set<std::string> seen;
    for (const ops::OpDef* d : ops::all_ops())
      QVERIFY2(seen.insert(std::string(d->op)).second, std::string(d->op).c_str());
    QVERIFY(seen.size() > 150);
  }

  void families() {
    QCOMPARE(ops::find_op("Conv2D")->family, ops::Family::Conv);
    QCOMPARE(ops::find_op("FusedDepthwiseConv2dNative")->family, ops::Family::Conv);
    QCOMPARE(ops::find_op("MaxPool")->family, ops::Family::Pooling);
    QCOMPARE(ops::find_op("Mean")->family, ops::Family::Pooling);
    QCOMPARE(ops::find_op("Relu6")->family, ops::Family::Activation);
    QCOMPARE(ops::find_op("AddV2")->family, ops::Family::Elementwise);
    QCOMPARE(ops::find_op("Reshape")->family, ops::Family::Shape);
    QCOMPARE(ops::find_op("Enter")->family, ops::Family::Control);
    QCOMPARE(ops::find_op("Identity")->family, ops::Family::Output);
    QCOMPARE(ops::find_op("Placeholder")->family, ops::Family::Input);
    QVERIFY(!ops::find_op("NoSuchOp"));
  }

  void shape_rules_where_the_shape_follows() {
    // Ops whose output shape inference works out have a rule; an op known only for its family
    // (run by the executor) has none.
    for (const char* op : {"Conv2D", "MatMul", "Reshape", "Sum", "Merge", "TopKV2"})
      QVERIFY2(ops::find_op(op)->shape, op);
    QVERIFY(!ops::find_op("TensorListLength")->shape);
  }
};

QTEST_GUILESS_MAIN(OpListTest)
#include "op_list_test.moc"
