// gl kernels check their own limits: a node whose shader loops could not run to the end (Mesa's
// llvmpipe stops a shader's loops after 65535 iterations, silently) runs on cpu instead, with a
// warning naming it, and gives cpu's answer. Issue #25 item 3: a 16384 x 16384 MaxPool/AvgPool
// returned zeros or -inf on gl with exit code 0; a mean over 300 x 300, a sum and a softmax over
// 100000 values were as wrong.
#include <QtTest>

#include "gl/gl_test_util.h"
#include "graph/build.h"
#include "runtime/executor.h"
#include "runtime/graph_builder.h"
#include "support/kernel_inputs.h"

using namespace tfjsi;

namespace {

using I64s = std::vector<std::int64_t>;

graph::Graph finish(test::GraphBuilder& b, graph::TensorRef y) {
  b.output("y", y);
  graph::Graph g = b.take();
  graph::infer_shapes(g);
  return g;
}

graph::Graph pool(const std::string& op, const Shape& x, std::int64_t k, const std::string& pad) {
  test::GraphBuilder b;
  auto in = b.placeholder("x", DType::Float32, x);
  return finish(b, b.add("p", op, {in},
                         {{"ksize", I64s{1, k, k, 1}},
                          {"strides", I64s{1, 1, 1, 1}},
                          {"padding", pad},
                          {"T", graph::TypeAttr{"DT_FLOAT"}}}));
}

graph::Graph reduce(const std::string& op, const Shape& x, std::vector<std::int32_t> axes) {
  test::GraphBuilder b;
  auto in = b.placeholder("x", DType::Float32, x);
  auto a = b.add("axes", "Const");
  b.g.nodes[a.node].value = test::ints({static_cast<std::int64_t>(axes.size())}, axes);
  return finish(b, b.add("p", op, {in, a}, {{"T", graph::TypeAttr{"DT_FLOAT"}}}));
}

graph::Graph softmax(const Shape& x) {
  test::GraphBuilder b;
  auto in = b.placeholder("x", DType::Float32, x);
  return finish(b, b.add("p", "Softmax", {in}, {{"T", graph::TypeAttr{"DT_FLOAT"}}}));
}

// A filter or right-hand operand as a Const of pseudo-random values in [-0.5, 0.5).
graph::TensorRef weights(test::GraphBuilder& b, const Shape& shape) {
  auto w = b.add("w", "Const");
  b.g.nodes[w.node].value = test::random_tensor(shape, 7, -0.5f, 0.5f);
  return w;
}

graph::Graph matmul(const Shape& x, const Shape& w, bool transpose_b = false) {
  test::GraphBuilder b;
  auto in = b.placeholder("x", DType::Float32, x);
  auto wt = weights(b, w);
  return finish(b, b.add("p", "MatMul", {in, wt},
                         {{"transpose_a", false},
                          {"transpose_b", transpose_b},
                          {"T", graph::TypeAttr{"DT_FLOAT"}}}));
}

graph::Graph conv(const std::string& op, const Shape& x, const Shape& f) {
  test::GraphBuilder b;
  auto in = b.placeholder("x", DType::Float32, x);
  auto wt = weights(b, f);
  return finish(b, b.add("p", op, {in, wt},
                         {{"strides", I64s{1, 1, 1, 1}},
                          {"padding", std::string("VALID")},
                          {"T", graph::TypeAttr{"DT_FLOAT"}}}));
}

graph::Graph conv_transpose(const Shape& dy, const Shape& f, const Shape& out) {
  test::GraphBuilder b;
  auto sizes = b.add("sizes", "Const");
  b.g.nodes[sizes.node].value =
      test::ints({4}, {static_cast<std::int32_t>(out[0]), static_cast<std::int32_t>(out[1]),
                       static_cast<std::int32_t>(out[2]), static_cast<std::int32_t>(out[3])});
  auto wt = weights(b, f);
  auto in = b.placeholder("x", DType::Float32, dy);
  return finish(b, b.add("p", "Conv2DBackpropInput", {sizes, wt, in},
                         {{"strides", I64s{1, 1, 1, 1}},
                          {"padding", std::string("VALID")},
                          {"T", graph::TypeAttr{"DT_FLOAT"}}}));
}

}  // namespace

class GlLimitsTest : public QObject {
  Q_OBJECT

  // Runs `g` on cpu, then with gl active; the outputs must agree, and a node expected off gl
  // must be named in a warning.
  void check(const graph::Graph& g, bool stays_on_gl, const std::string& what) {
    test::GlEngine e;
    QVERIFY2(e.gl->availability().available, e.gl->availability().reason.c_str());
    const Shape& shape = g.inputs.at(0).shape.dims;
    HostTensor x = HostTensor::zeros(DType::Float32, shape);
    auto v = x.mutable_values<float>();
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = static_cast<float>((i * 2654435761u) % 1000) / 1000.f - 0.25f;
    runtime::Executor ex(e.engine, g);
    e.engine.set_backend("cpu");
    const HostTensor want = ex.run({{"x", x}}).at(0);
    e.engine.set_backend("gl");
    e.log.clear();
    const HostTensor got = ex.run({{"x", x}}).at(0);
    test::expect_close(got, want, false, what);
    if (QTest::currentTestFailed()) return;
    const bool warned = e.warnings().find("'p'") != std::string::npos;
    QVERIFY2(warned != stays_on_gl, (what + ": " + e.warnings()).c_str());
  }

 private slots:
  void poolsPastTheLoopBoundRunOnCpu() {
    for (const char* op : {"MaxPool", "AvgPool"}) {
      const std::string o = op;
      check(pool(op, {1, 9, 9, 5}, 3, "SAME"), true, o + " 3x3");
      check(pool(op, {1, 8, 8, 5}, 16384, "SAME"), false, o + " 16384x16384 on 8x8");
      check(pool(op, {1, 300, 300, 5}, 300, "VALID"), false, o + " 300x300");
      if (QTest::currentTestFailed()) return;
    }
    // The rule itself, as supports() sees a node (no shapes needed: the window is attributes).
    test::GlFixture f;
    QVERIFY(f.gl->supports(pool("MaxPool", {1, 200, 200, 4}, 180, "VALID").nodes[1]));
    QVERIFY(!f.gl->supports(pool("MaxPool", {1, 200, 200, 4}, 182, "VALID").nodes[1]));
  }

  void longReductionsAndSoftmaxesRunOnCpu() {
    check(reduce("Mean", {1, 12, 12, 4}, {1, 2}), true, "Mean 12x12");
    check(reduce("Mean", {1, 300, 300, 4}, {1, 2}), false, "Mean 300x300");
    check(reduce("Sum", {1, 1, 1, 100000}, {3}), false, "Sum 100000");
    check(reduce("Max", {2, 100000}, {1}), false, "Max 100000");
    // Mean, Sum and Softmax in TF.js's stages (webgl_stages.comp): where the reduced axis is the
    // last, each of an invocation's four lanes loops over its own row, and llvmpipe cut the fourth
    // lane's loops short (exit code 0) when only one row was counted.
    check(reduce("Sum", {4, 20000}, {1}), false, "Sum 4 rows of 20000");
    // Channels kept: a texel's four lanes share one loop (centernet's global means).
    check(reduce("Mean", {1, 128, 128, 8}, {1, 2}), true, "Mean 128x128");
    check(softmax({1, 1, 1, 100000}), false, "Softmax 100000");
    // Following TF.js webgl (the default), Softmax runs its stages, whose loops turn once per value
    // of the row and once per texel of it: past the bound for 30000 values, where softmax.comp's
    // three walks over 7500 texels would not be.
    check(softmax({1, 30000}), false, "Softmax 30000");
    if (QTest::currentTestFailed()) return;
    // The rule itself, as the plan sees a Softmax whose row shape inference knows: it ran on gl
    // and was refused at run time before.
    test::GlFixture f;
    const graph::Graph g = softmax({1, 30000});
    const graph::Node& node = g.nodes[1];
    for (const auto& [n, on_gl] : {std::pair<std::int64_t, bool>{30000, false},
                                   {26203, true},
                                   {1000, true},
                                   {50000, false}}) {
      const graph::TensorInfo row{DType::Float32, PartialShape::of({1, n})};
      const graph::TensorInfo* infos[] = {&row};
      QVERIFY2(f.gl->supports_inputs(node, infos) == on_gl, std::to_string(n).c_str());
    }
    check(softmax({2, 3, 10}), true, "Softmax 10");
  }

  // The sums of products loop over the shared dimension (and the window) in one invocation.
  void longProductsRunOnCpu() {
    check(matmul({1, 256}, {256, 8}), true, "MatMul 1x256x8 (gemv)");
    check(matmul({1, 400000}, {400000, 4}), false, "MatMul 1x400000x4 (gemv)");
    check(matmul({8, 300000}, {300000, 8}), false, "MatMul 8x300000x8 (gemm)");
    check(matmul({2, 300000}, {8, 300000}, true), false, "MatMul 2x300000x8, b transposed");
    check(conv("Conv2D", {1, 3, 3, 1024}, {3, 3, 1024, 8}), true, "Conv2D 3x3x1024");
    check(conv("Conv2D", {1, 1, 1, 400000}, {1, 1, 400000, 4}), false, "Conv2D 1x1x400000");
    check(conv("DepthwiseConv2dNative", {1, 300, 300, 4}, {300, 300, 4, 1}), false,
          "DepthwiseConv2dNative 300x300");
    check(conv_transpose({1, 1, 1, 300000}, {1, 1, 4, 300000}, {1, 1, 1, 4}), false,
          "Conv2DBackpropInput over 300000 channels");
  }
};

QTEST_GUILESS_MAIN(GlLimitsTest)
#include "gl_limits_test.moc"
