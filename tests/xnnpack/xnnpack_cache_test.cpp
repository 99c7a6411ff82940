// The operator cache: a node's XNNPACK operator (and its packed weights) is made once and reused by
// later runs, across input sizes where XNNPACK allows it, made again for new weights, and kept
// while the Engine switches cpu -> xnnpack -> cpu -> xnnpack.
#include <QtTest>

#include "runtime/executor.h"
#include "runtime/graph_builder.h"
#include "xnnpack/xnnpack_test_util.h"

using namespace tfjsi;
using namespace tfjsi::test;
using graph::Node;

namespace {

Node same_conv() {
  Node n = make_node("_FusedConv2D", 3);
  n.attrs["strides"] = std::vector<std::int64_t>{1, 2, 2, 1};
  n.attrs["dilations"] = std::vector<std::int64_t>{1, 1, 1, 1};
  n.attrs["padding"] = std::string("SAME");
  n.attrs["fused_ops"] = std::vector<std::string>{"BiasAdd", "Relu"};
  n.attrs["num_args"] = std::int64_t{1};
  return n;
}

}  // namespace

class XnnpackCacheTest : public QObject {
  Q_OBJECT

 private slots:
  void secondRunCreatesNoOperator() {
    XnnFixture f;
    const Node n = same_conv();
    const std::vector in{random_tensor({1, 9, 9, 5}, 1), random_tensor({3, 3, 5, 7}, 2),
                         random_tensor({7}, 3)};
    // Two operators: the convolution and its bias + Relu.
    const HostTensor first = f.run(n, in);
    QCOMPARE(f.xnn->cache().stats().created, std::int64_t{2});
    QCOMPARE(f.xnn->cache().size(), std::size_t{2});
    const HostTensor second = f.run(n, in);
    QCOMPARE(f.xnn->cache().stats().created, std::int64_t{2});
    QCOMPARE(f.xnn->cache().stats().reused, std::int64_t{2});
    expect_close(second, first, "second run");
    expect_close(second, run_cpu(n, in), "second run against cpu");
  }

  // With TF SAME padding XNNPACK works the pads out per input, so one operator serves every size.
  void newInputSizeReusesTheOperator() {
    XnnFixture f;
    const Node n = same_conv();
    const HostTensor filter = random_tensor({3, 3, 5, 7}, 2), bias = random_tensor({7}, 3);
    for (const Shape& s : {Shape{1, 9, 9, 5}, Shape{2, 12, 7, 5}, Shape{1, 4, 4, 5}}) {
      const std::vector in{random_tensor(s, 4), filter, bias};
      expect_close(f.run(n, in), run_cpu(n, in), "size " + shape_to_string(s));
      if (QTest::currentTestFailed()) return;
    }
    QCOMPARE(f.xnn->cache().stats().created, std::int64_t{2});
    QCOMPARE(f.xnn->xnn_stats().setups, std::int64_t{6});
  }

  // New weights (another buffer) make a new operator in place of the old one.
  void newWeightsMakeANewOperator() {
    XnnFixture f;
    const Node n = same_conv();
    const HostTensor x = random_tensor({1, 6, 6, 5}, 1), bias = random_tensor({7}, 3);
    const std::vector a{x, random_tensor({3, 3, 5, 7}, 2), bias};
    const std::vector b{x, random_tensor({3, 3, 5, 7}, 5), bias};
    expect_close(f.run(n, a), run_cpu(n, a), "weights a");
    expect_close(f.run(n, b), run_cpu(n, b), "weights b");
    // The convolution twice, the bias + Relu operator once.
    QCOMPARE(f.xnn->cache().stats().created, std::int64_t{3});
    QCOMPARE(f.xnn->cache().size(), std::size_t{2});  // b's convolution replaced a's
  }

  // Through the Engine: the operators made on the first xnnpack run survive a switch to cpu and
  // back, and every run gives the same answer.
  void switchKeepsTheCache() {
    runtime::Engine engine;
    engine.add_backend(xnnpack::make_xnnpack_backend());
    auto* xnn = dynamic_cast<xnnpack::XnnpackBackend*>(engine.find_backend("xnnpack"));
    QVERIFY(xnn);
    QVERIFY2(xnn->availability().available, xnn->availability().reason.c_str());

    GraphBuilder b;
    auto x = b.placeholder("x", DType::Float32, {1, 10, 10, 3});
    auto filter = b.add("filter", "Const");
    b.g.nodes[filter.node].value = random_tensor({3, 3, 3, 8}, 10);
    auto bias = b.add("bias", "Const");
    b.g.nodes[bias.node].value = random_tensor({8}, 11);
    Node conv = same_conv();
    auto c = b.add("conv", "_FusedConv2D", {x, filter, bias}, conv.attrs);
    auto dw_filter = b.add("dw_filter", "Const");
    b.g.nodes[dw_filter.node].value = random_tensor({3, 3, 8, 1}, 12);
    auto dw = b.add(
        "dw", "DepthwiseConv2dNative", {c, dw_filter},
        {{"strides", std::vector<std::int64_t>{1, 1, 1, 1}}, {"padding", std::string("SAME")}});
    auto axes = b.add("axes", "Const");
    b.g.nodes[axes.node].value = int_tensor({1, 2});
    auto mean = b.add("mean", "Mean", {dw, axes}, {{"keep_dims", false}});
    auto tanh = b.add("tanh", "Tanh", {mean});  // XNNPACK has none: a cpu kernel runs it
    b.output("y", tanh);
    const graph::Graph g = b.take();

    runtime::Executor ex(engine, g);
    runtime::NamedTensors inputs{{"x", random_tensor({1, 10, 10, 3}, 13)}};

    engine.set_backend("cpu");
    const HostTensor want = ex.run(inputs).at(0);

    engine.set_backend("xnnpack");
    expect_close(ex.run(inputs).at(0), want, "first xnnpack run");
    if (QTest::currentTestFailed()) return;
    const auto created = xnn->cache().stats().created;
    // conv and its bias + Relu, mean; the depthwise (multiplier 1) is the backend's own kernel
    QCOMPARE(created, std::int64_t{3});
    QCOMPARE(xnn->last_path(g.nodes[c.node]), xnnpack::Path::Xnnpack);
    QCOMPARE(xnn->last_path(g.nodes[dw.node]), xnnpack::Path::Xnnpack);
    QCOMPARE(xnn->last_path(g.nodes[mean.node]), xnnpack::Path::Xnnpack);
    QCOMPARE(xnn->last_path(g.nodes[tanh.node]), xnnpack::Path::CpuKernel);
    QVERIFY(ex.plan().fallbacks.empty());

    engine.set_backend("cpu");
    expect_close(ex.run(inputs).at(0), want, "cpu again");
    engine.set_backend("xnnpack");
    expect_close(ex.run(inputs).at(0), want, "xnnpack again");
    QCOMPARE(xnn->cache().stats().created, created);
    QCOMPARE(xnn->cache().size(), std::size_t{3});
    QVERIFY(xnn->memory().bytes > 0);
  }
};

QTEST_GUILESS_MAIN(XnnpackCacheTest)
#include "xnnpack_cache_test.moc"
