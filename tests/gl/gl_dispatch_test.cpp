// Grids larger than the driver's work-group count limits: the limits are queried per axis, and a
// dispatch that passes one (lowered by a test hook) runs as several, for every kernel family
// (elementwise, the shape-op gather, softmax, the tiled GEMM of MatMul and Conv2D), with the same
// results as cpu.
#include <QtTest>

#include "gl/gl_test_util.h"

using namespace tfjsi;
using graph::Node;
using I64s = std::vector<std::int64_t>;

class GlDispatchTest : public QObject {
  Q_OBJECT
  test::GlFixture f;
  std::uint32_t seed_ = 7;

  HostTensor rnd(Shape s) { return test::random_tensor(std::move(s), seed_++); }

  // Runs `node` on gl and on cpu; checks they agree and whether gl had to split a dispatch.
  void check(const Node& node, const std::vector<HostTensor>& in, bool expect_split,
             const std::string& what) {
    QVERIFY2(f.gl->supports(node), (what + ": gl does not support the node").c_str());
    const HostTensor want = test::run_cpu(node, in);
    f.gl->reset_stats();
    HostTensor got;
    try {
      got = f.run_gl(node, in);
    } catch (const std::exception& e) {
      QFAIL((what + ": gl threw: " + e.what()).c_str());
    }
    test::expect_close(got, want, false, what);
    if (QTest::currentTestFailed()) return;
    const auto splits = f.gl->stats().split_dispatches;
    QVERIFY2((splits > 0) == expect_split,
             (what + ": " + std::to_string(splits) + " split dispatches").c_str());
  }

 private slots:
  void limits_are_queried_per_axis() {
    QVERIFY(f.gl->availability().available);
    const gl::GlLimits& l = f.gl->context()->limits();
    std::printf(
        "%s: max work group count %d %d %d, size %d %d %d, invocations %d, texture %d, "
        "timer queries %s, reset notification %s\n",
        f.gl->context()->renderer().c_str(), l.max_group_count[0], l.max_group_count[1],
        l.max_group_count[2], l.max_group_size[0], l.max_group_size[1], l.max_group_size[2],
        l.max_group_invocations, l.max_texture_size, l.timer_queries ? "yes" : "no",
        l.reset_notification ? "yes" : "no");
    for (int i = 0; i < 3; ++i) {
      QVERIFY(l.max_group_count[i] >= 65535);  // the GL 4.3 minimum
      QVERIFY(l.max_group_size[i] >= (i < 2 ? 1024 : 64));
    }
  }

  // A gather (ConcatV2) and an elementwise op on vectors of more slices than the driver's
  // work-group count along z: a vector of C floats is one texel column of C/4 slices, and its
  // work groups run 64 texels each in a line, so this stays one dispatch (8x8x1 groups made one
  // group per slice and had to be cut).
  void vectors_past_the_z_limit() {
    const std::int64_t limit_z = f.gl->context()->limits().max_group_count[2];
    const std::int64_t half = 2 * (limit_z + 8);  // two halves: C / 4 = limit + 8 slices
    Node concat = test::make_node("ConcatV2", 3);
    concat.attrs["N"] = std::int64_t{2};
    check(concat, {rnd({half}), rnd({half}), test::int_tensor({0})}, false,
          "ConcatV2 to " + std::to_string(2 * half));
    if (QTest::currentTestFailed()) return;
    check(test::make_node("Relu"), {rnd({2 * half})}, false, "Relu " + std::to_string(2 * half));
  }

  // The same kernels and more with limits lowered by the test hook, so that every axis is cut
  // (and cut unevenly) on small tensors.
  void every_kernel_family_splits() {
    f.gl->test_hooks().max_group_count = {2, 3, 2};
    struct Restore {
      gl::GlBackend& gl;
      ~Restore() { gl.test_hooks().max_group_count = {0, 0, 0}; }
    } restore{*f.gl};

    check(test::make_node("Relu"), {rnd({2, 37, 29, 11})}, true, "Relu");
    if (QTest::currentTestFailed()) return;
    Node add = test::make_node("AddV2", 2);
    check(add, {rnd({3, 21, 40, 9}), rnd({1, 1, 40, 9})}, true, "AddV2 broadcast");
    if (QTest::currentTestFailed()) return;
    Node transpose = test::make_node("Transpose", 2);
    check(transpose, {rnd({3, 19, 33, 7}), test::int_tensor({0, 2, 1, 3}, {4})}, true,
          "Transpose (gather)");
    if (QTest::currentTestFailed()) return;
    check(test::make_node("Softmax"), {rnd({2, 30, 27, 13})}, true, "Softmax");
    if (QTest::currentTestFailed()) return;
    Node matmul = test::make_node("MatMul", 2);
    matmul.attrs["transpose_a"] = false;
    matmul.attrs["transpose_b"] = false;
    check(matmul, {rnd({150, 37}), rnd({37, 130})}, true, "MatMul (tiled GEMM)");
    if (QTest::currentTestFailed()) return;
    Node batched = test::make_node("BatchMatMulV2", 2);
    batched.attrs["adj_x"] = false;
    batched.attrs["adj_y"] = false;
    check(batched, {rnd({5, 70, 20}), rnd({5, 20, 45})}, true, "BatchMatMulV2 (GEMM over z)");
    if (QTest::currentTestFailed()) return;
    Node conv = test::make_node("Conv2D", 2);
    conv.attrs["strides"] = I64s{1, 1, 1, 1};
    conv.attrs["dilations"] = I64s{1, 1, 1, 1};
    conv.attrs["padding"] = std::string("SAME");
    check(conv, {rnd({1, 20, 21, 5}), rnd({3, 3, 5, 70})}, true, "Conv2D");
    if (QTest::currentTestFailed()) return;
    Node pool = test::make_node("MaxPool");
    pool.attrs["ksize"] = I64s{1, 3, 3, 1};
    pool.attrs["strides"] = I64s{1, 2, 2, 1};
    pool.attrs["padding"] = std::string("SAME");
    check(pool, {rnd({2, 33, 35, 10})}, true, "MaxPool");
    if (QTest::currentTestFailed()) return;
    Node dw = test::make_node("DepthwiseConv2dNative", 2);
    dw.attrs["strides"] = I64s{1, 1, 1, 1};
    dw.attrs["dilations"] = I64s{1, 1, 1, 1};
    dw.attrs["padding"] = std::string("VALID");
    check(dw, {rnd({1, 30, 26, 12}), rnd({3, 3, 12, 1})}, true, "DepthwiseConv2dNative");
  }

  // The same programs afterwards, without the lowered limits: one dispatch each again (the base
  // uniform is reset, not left at the last chunk's offset).
  void unsplit_after_split() {
    check(test::make_node("Relu"), {rnd({2, 37, 29, 11})}, false, "Relu");
    if (QTest::currentTestFailed()) return;
    check(test::make_node("Softmax"), {rnd({2, 30, 27, 13})}, false, "Softmax");
  }
};

QTEST_GUILESS_MAIN(GlDispatchTest)
#include "gl_dispatch_test.moc"
