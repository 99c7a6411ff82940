// cpu selection kernels: TopKV2 (ties), NonMaxSuppressionV3/V4/V5 on a small hand-made box set,
// Where on a mask, SparseToDense.
#include <QtTest>
#include <cmath>

#include "tensor_test_util.h"

using namespace tfjsi;
using namespace tfjsi::test::tensor;

namespace {

// Six boxes [y1, x1, y2, x2]: 0, 1, 2 overlap (IoU 0.82 with box 0), 3 and 4 overlap, 5 is alone.
HostTensor boxes() {
  return f32({6, 4}, {0, 0,     1, 1,      //
                      0, 0.1f,  1, 1.1f,   //
                      0, -0.1f, 1, 0.9f,   //
                      0, 10,    1, 11,     //
                      0, 10.1f, 1, 11.1f,  //
                      0, 100,   1, 101});
}
HostTensor scores() {
  return f32({6}, {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f});
}

}  // namespace

class SelectionTest : public QObject {
  Q_OBJECT

 private slots:
  void topKTiesKeepLowerIndex() {
    auto x = f32({2, 5}, {1, 3, 3, 2, 3, 5, 4, 3, 2, 1});
    auto out = run(make_node("TopKV2", {{"sorted", true}}), {x, scalar_i(3)});
    QCOMPARE(out.size(), std::size_t{2});
    EXPECT_SHAPE(out[0], 2, 3);
    EXPECT_FLOATS(out[0], 3, 3, 3, 5, 4, 3);
    QCOMPARE(out[1].dtype, DType::Int32);
    EXPECT_INTS(out[1], 1, 2, 4, 0, 1, 2);
    auto ints = run(make_node("TopKV2"), {i32({4}, {-1, 7, 7, 0}), scalar_i(2)});
    EXPECT_INTS(ints[0], 7, 7);
    EXPECT_INTS(ints[1], 1, 2);
    EXPECT_MODEL_ERROR(run(make_node("TopKV2"), {x, scalar_i(6)}));
  }

  void nmsV3() {
    auto sel = run1("NonMaxSuppressionV3",
                    {boxes(), scores(), scalar_i(3), scalar_f(0.5f), scalar_f(-1e9f)});
    QCOMPARE(sel.dtype, DType::Int32);
    EXPECT_INTS(sel, 3, 0, 5);
    EXPECT_INTS(run1("NonMaxSuppressionV3",
                     {boxes(), scores(), scalar_i(2), scalar_f(0.5f), scalar_f(-1e9f)}),
                3, 0);
    // Score threshold drops box 5; a loose IoU threshold keeps the overlapping ones.
    EXPECT_INTS(run1("NonMaxSuppressionV3",
                     {boxes(), scores(), scalar_i(10), scalar_f(0.5f), scalar_f(0.4f)}),
                3, 0);
    EXPECT_INTS(run1("NonMaxSuppressionV3",
                     {boxes(), scores(), scalar_i(10), scalar_f(0.9f), scalar_f(0.4f)}),
                3, 0, 1, 2, 4);
    // Equal scores: the lower box index comes first.
    auto far = f32({3, 4}, {0, 20, 1, 21, 0, 0, 1, 1, 0, 10, 1, 11});
    EXPECT_INTS(run1("NonMaxSuppressionV3",
                     {far, f32({3}, {0.5f, 0.5f, 0.5f}), scalar_i(3), scalar_f(0.5f), scalar_f(0)}),
                0, 1, 2);
    EXPECT_MODEL_ERROR(
        run1("NonMaxSuppressionV3", {f32({2, 3}, {0, 0, 0, 0, 0, 0}), f32({2}, {1, 1}), scalar_i(1),
                                     scalar_f(0.5f), scalar_f(0)}));
  }

  void nmsV4Padded() {
    auto out = run(make_node("NonMaxSuppressionV4", {{"pad_to_max_output_size", true}}),
                   {boxes(), scores(), scalar_i(5), scalar_f(0.5f), scalar_f(0.4f)});
    QCOMPARE(out.size(), std::size_t{2});
    EXPECT_INTS(out[0], 3, 0, 0, 0, 0);
    EXPECT_SHAPE(out[1]);
    EXPECT_INTS(out[1], 2);
    auto unpadded = run(make_node("NonMaxSuppressionV4"),
                        {boxes(), scores(), scalar_i(5), scalar_f(0.5f), scalar_f(0.4f)});
    EXPECT_INTS(unpadded[0], 3, 0);
  }

  void nmsV5SoftSigma() {
    // Two boxes with IoU 1/3: hard NMS at 0.3 drops the second; soft-NMS (sigma 0.5, IoU
    // threshold 1) keeps it with score 0.8 * exp(-0.5 / 0.5 * (1/3)^2).
    auto b = f32({2, 4}, {0, 0, 1, 1, 0, 0.5f, 1, 1.5f});
    auto s = f32({2}, {0.9f, 0.8f});
    auto hard = run(make_node("NonMaxSuppressionV5"),
                    {b, s, scalar_i(2), scalar_f(0.3f), scalar_f(0), scalar_f(0)});
    EXPECT_INTS(hard[0], 0);
    EXPECT_FLOATS(hard[1], 0.9f);
    auto soft = run(make_node("NonMaxSuppressionV5"),
                    {b, s, scalar_i(2), scalar_f(1.0f), scalar_f(0), scalar_f(0.5f)});
    EXPECT_INTS(soft[0], 0, 1);
    const float decayed = static_cast<float>(double{0.8f} * std::exp(-1.0 / 9.0));
    EXPECT_FLOATS(soft[1], 0.9f, decayed);
    EXPECT_INTS(soft[2], 2);
  }

  void whereOnMask() {
    auto w = run1("Where", {b8({3, 2}, {1, 0, 0, 1, 1, 1})});
    QCOMPARE(w.dtype, DType::Int32);
    EXPECT_SHAPE(w, 4, 2);
    EXPECT_INTS(w, 0, 0, 1, 1, 2, 0, 2, 1);
    auto wf = run1("Where", {f32({3}, {0, 2, -1})});
    EXPECT_SHAPE(wf, 2, 1);
    EXPECT_INTS(wf, 1, 2);
    EXPECT_SHAPE(run1("Where", {b8({2}, {0, 0})}), 0, 1);
  }

  void sparseToDense() {
    auto d = run1("SparseToDense",
                  {i32({2, 2}, {0, 1, 2, 0}), i32({2}, {3, 2}), f32({2}, {5, 6}), scalar_f(-1)});
    EXPECT_SHAPE(d, 3, 2);
    EXPECT_FLOATS(d, -1, 5, -1, -1, 6, -1);
    EXPECT_INTS(run1("SparseToDense", {i32({2}, {1, 3}), i32({1}, {4}), scalar_i(1), scalar_i(0)}),
                0, 1, 0, 1);
    EXPECT_MODEL_ERROR(
        run1("SparseToDense", {i32({1}, {4}), i32({1}, {4}), scalar_i(1), scalar_i(0)}));
  }
};

QTEST_GUILESS_MAIN(SelectionTest)
#include "selection_test.moc"
