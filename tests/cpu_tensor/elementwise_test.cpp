// cpu elementwise kernels: binary arithmetic with broadcasting, comparisons, logic, unary math,
// Cast, Select and ClipByValue, against hand-worked values and a naive broadcasting loop.
#include <pthreadpool.h>
#include <QtTest>
#include <cmath>
#include <limits>

#include "tensor_test_util.h"

using namespace tfjsi;
using namespace tfjsi::test::tensor;

class ElementwiseTest : public QObject {
  Q_OBJECT

 private:
  // Checks op(a, b) against the naive broadcast of each element through `ref`.
  void check_broadcast(const char* op, const HostTensor& a, const HostTensor& b, Shape want_shape,
                       float (*ref)(float, float), pthreadpool_t pool = nullptr) {
    auto out = run(make_node(op), {a, b}, pool);
    QCOMPARE(out.size(), std::size_t{1});
    QCOMPARE(out[0].shape, want_shape);
    QCOMPARE(out[0].dtype, DType::Float32);
    const auto got = fvals(out[0]);
    for (std::int64_t i = 0; i < num_elements(want_shape); ++i) {
      const float want =
          ref(broadcast_at<float>(a, want_shape, i), broadcast_at<float>(b, want_shape, i));
      if (got[i] != want)
        QFAIL(qPrintable(
            QString("%1 element %2: got %3 want %4").arg(op).arg(i).arg(got[i]).arg(want)));
    }
  }

 private slots:
  void addSameShape() {
    auto out = run1("AddV2", {f32({2, 2}, {1, 2, 3, 4}), f32({2, 2}, {10, 20, 30, 40})});
    EXPECT_SHAPE(out, 2, 2);
    EXPECT_FLOATS(out, 11, 22, 33, 44);
  }

  void broadcastScalarRowColumnRank() {
    auto add = [](float x, float y) { return x + y; };
    auto sub = [](float x, float y) { return x - y; };
    auto mul = [](float x, float y) { return x * y; };
    const HostTensor m = iota_f({3, 4}, 1.5f, -2.0f);
    check_broadcast("Add", m, scalar_f(2.5f), {3, 4}, add);
    check_broadcast("Sub", scalar_f(2.5f), m, {3, 4}, sub);
    check_broadcast("Mul", m, iota_f({4}, 0.5f, 1.0f), {3, 4}, mul);            // row
    check_broadcast("Sub", m, iota_f({3, 1}, 2.0f, 1.0f), {3, 4}, sub);         // column
    check_broadcast("Mul", iota_f({3, 1}), iota_f({1, 4}, 1, 1), {3, 4}, mul);  // outer
    // Rank mismatch with a middle broadcast dim: [2,1,3] with [4,1].
    check_broadcast("AddV2", iota_f({2, 1, 3}), iota_f({4, 1}, 10), {2, 4, 3}, add);
    check_broadcast("AddV2", iota_f({2, 3, 1, 5}), iota_f({3, 4, 1}, 0.25f), {2, 3, 4, 5}, add);
    // Dims of size 1 on both sides, and an empty result.
    check_broadcast("Sub", iota_f({1, 1, 5}), iota_f({1, 5}), {1, 1, 5}, sub);
    check_broadcast("Add", iota_f({0, 3}), iota_f({3}), {0, 3}, add);
  }

  void broadcastOnThreadPool() {
    pthreadpool_t pool = pthreadpool_create(2);
    auto add = [](float x, float y) { return x + y; };
    check_broadcast("Add", iota_f({64, 33, 40}, 0.5f), iota_f({33, 1}, 3.0f), {64, 33, 40}, add,
                    pool);
    check_broadcast(
        "Mul", iota_f({300, 257}, 0.01f), iota_f({257}, 0.1f), {300, 257},
        [](float x, float y) { return x * y; }, pool);
    pthreadpool_destroy(pool);
  }

  void badBroadcastNamesNodeAndShapes() {
    try {
      run1("AddV2", {iota_f({2, 3}), iota_f({4})});
      QFAIL("expected a ModelError");
    } catch (const ModelError& e) {
      const std::string msg = e.what();
      QVERIFY2(msg.find("test/AddV2") != std::string::npos, e.what());
      QVERIFY2(msg.find("[2,3]") != std::string::npos && msg.find("[4]") != std::string::npos,
               e.what());
    }
  }

  void intArithmetic() {
    auto a = i32({4}, {7, -7, 2147483647, 5});
    auto b = i32({4}, {2, 2, 1, -3});
    auto s = run1("AddV2", {a, b});
    QCOMPARE(s.dtype, DType::Int32);
    EXPECT_INTS(s, 9, -5, -2147483648, 2);  // wraps like an Int32Array
    EXPECT_INTS(run1("Mul", {a, b}), 14, -14, 2147483647, -15);
    EXPECT_INTS(run1("Sub", {a, b}), 5, -9, 2147483646, 8);
    // Division of two int32 tensors is floor division in TF.js.
    EXPECT_INTS(run1("RealDiv", {a, b}), 3, -4, 2147483647, -2);
    EXPECT_INTS(run1("Maximum", {a, b}), 7, 2, 2147483647, 5);
    EXPECT_INTS(run1("Minimum", {a, b}), 2, -7, 1, -3);
    EXPECT_INTS(run1("SquaredDifference", {i32({2}, {3, -4}), i32({2}, {5, 4})}), 4, 64);
    EXPECT_INTS(run1("Pow", {i32({3}, {2, 3, -2}), i32({3}, {10, 2, 3})}), 1024, 9, -8);
  }

  void floorDivAndFloorModSigns() {
    // TF.js: the remainder takes the divisor's sign; the quotient rounds toward -inf.
    auto a = i32({6}, {7, -7, 7, -7, 0, 5});
    auto b = i32({6}, {3, 3, -3, -3, 4, 0});
    EXPECT_INTS(run1("FloorDiv", {a, b}), 2, -3, -3, 2, 0, 0);
    EXPECT_INTS(run1("FloorMod", {a, b}), 1, 2, -2, -1, 0, 0);
    auto fa = f32({5}, {7.5f, -7.5f, 7.5f, -7.5f, 6.0f});
    auto fb = f32({5}, {2.0f, 2.0f, -2.0f, -2.0f, 3.0f});
    EXPECT_FLOATS(run1("FloorMod", {fa, fb}), 1.5f, 0.5f, -0.5f, -1.5f, 0.0f);
    // TF.js's FloorDiv returns int32 even for float inputs.
    auto q = run1("FloorDiv", {fa, fb});
    QCOMPARE(q.dtype, DType::Int32);
    EXPECT_INTS(q, 3, -4, -4, 3, 2);
    // Broadcast scalar divisor.
    EXPECT_INTS(run1("FloorMod", {i32({4}, {-5, -1, 4, 9}), scalar_i(4)}), 3, 3, 0, 1);
  }

  void floatDivisions() {
    auto a = f32({4}, {1, -1, 0, 6});
    auto b = f32({4}, {0, 0, 0, 4});
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_FLOATS(run1("RealDiv", {a, b}), inf, -inf, nan, 1.5f);
    EXPECT_FLOATS(run1("Div", {a, b}), inf, -inf, nan, 1.5f);
    EXPECT_FLOATS(run1("DivNoNan", {a, b}), 0, 0, 0, 1.5f);
  }

  void maxMinPropagateNaN() {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    auto a = f32({3}, {nan, 1, 2});
    auto b = f32({3}, {1, nan, 3});
    EXPECT_FLOATS(run1("Maximum", {a, b}), nan, nan, 3);
    EXPECT_FLOATS(run1("Minimum", {a, b}), nan, nan, 2);
  }

  void otherBinary() {
    EXPECT_FLOATS(run1("Pow", {f32({3}, {2, 4, 9}), f32({3}, {3, 0.5f, -1})}), 8, 2, 1.0f / 9);
    EXPECT_FLOATS(run1("SquaredDifference", {f32({2}, {1, 5}), scalar_f(3)}), 4, 4);
    EXPECT_FLOATS(run1("Atan2", {f32({2}, {1, -1}), f32({2}, {1, 0})}), std::atan2(1.0f, 1.0f),
                  std::atan2(-1.0f, 0.0f));
  }

  void mixedTypesPromote() {
    auto out = run1("Mul", {i32({2}, {2, 3}), f32({2}, {0.5f, 0.25f})});
    QCOMPARE(out.dtype, DType::Float32);
    EXPECT_FLOATS(out, 1.0f, 0.75f);
  }

  void addN() {
    auto out = run1("AddN", {f32({2}, {1, 2}), f32({2}, {10, 20}), f32({2}, {100, 200})});
    EXPECT_FLOATS(out, 111, 222);
    EXPECT_INTS(run1("AddN", {i32({1}, {4}), i32({1}, {5})}), 9);
    EXPECT_MODEL_ERROR(run1("AddN", {f32({2}, {1, 2}), f32({3}, {1, 2, 3})}));
  }

  void comparisons() {
    auto a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
    auto b = f32({3}, {2, 2, 7});
    auto lt = run1("Less", {a, b});
    QCOMPARE(lt.dtype, DType::Bool);
    EXPECT_SHAPE(lt, 2, 3);
    EXPECT_BOOLS(lt, 1, 0, 1, 0, 0, 1);
    EXPECT_BOOLS(run1("LessEqual", {a, b}), 1, 1, 1, 0, 0, 1);
    EXPECT_BOOLS(run1("Greater", {a, b}), 0, 0, 0, 1, 1, 0);
    EXPECT_BOOLS(run1("GreaterEqual", {a, b}), 0, 1, 0, 1, 1, 0);
    EXPECT_BOOLS(run1("Equal", {a, b}), 0, 1, 0, 0, 0, 0);
    EXPECT_BOOLS(run1("NotEqual", {a, b}), 1, 0, 1, 1, 1, 1);
    // int32 with a column broadcast
    EXPECT_BOOLS(run1("Less", {i32({2, 2}, {1, 5, 3, 3}), i32({2, 1}, {2, 3})}), 1, 0, 0, 0);
  }

  void logical() {
    auto a = b8({4}, {0, 0, 1, 1});
    auto b = b8({4}, {0, 1, 0, 1});
    EXPECT_BOOLS(run1("LogicalAnd", {a, b}), 0, 0, 0, 1);
    EXPECT_BOOLS(run1("LogicalOr", {a, b}), 0, 1, 1, 1);
    EXPECT_BOOLS(run1("LogicalNot", {a}), 1, 1, 0, 0);
    EXPECT_BOOLS(run1("LogicalAnd", {b8({2, 1}, {1, 0}), b8({3}, {1, 0, 1})}), 1, 0, 1, 0, 0, 0);
  }

  void select() {
    // SelectV2 broadcasts all three.
    auto c = b8({2, 1}, {1, 0});
    auto t = f32({2, 3}, {1, 2, 3, 4, 5, 6});
    auto e = scalar_f(-1);
    auto out = run1("SelectV2", {c, t, e});
    EXPECT_SHAPE(out, 2, 3);
    EXPECT_FLOATS(out, 1, 2, 3, -1, -1, -1);
    // Same-shape Select, int32.
    EXPECT_INTS(run1("Select", {b8({3}, {1, 0, 1}), i32({3}, {1, 2, 3}), i32({3}, {7, 8, 9})}), 1,
                8, 3);
    // TF's Select with a vector condition picks rows of a matrix.
    auto rows = run1("Select", {b8({3}, {0, 1, 0}), iota_f({3, 2}), iota_f({3, 2}, -1)});
    EXPECT_FLOATS(rows, 0, -1, 2, 3, -4, -5);
    EXPECT_MODEL_ERROR(run1("SelectV2", {b8({3}, {1, 0, 1}), iota_f({2, 2}), iota_f({2, 2})}));
  }

  void unaryFloat() {
    auto x = f32({4}, {-2.5f, -0.5f, 0.5f, 4});
    EXPECT_FLOATS(run1("Abs", {x}), 2.5f, 0.5f, 0.5f, 4);
    EXPECT_FLOATS(run1("Neg", {x}), 2.5f, 0.5f, -0.5f, -4);
    EXPECT_FLOATS(run1("Square", {x}), 6.25f, 0.25f, 0.25f, 16);
    EXPECT_FLOATS(run1("Sign", {x}), -1, -1, 1, 1);
    EXPECT_FLOATS(run1("Floor", {x}), -3, -1, 0, 4);
    EXPECT_FLOATS(run1("Ceil", {x}), -2, -0.0f, 1, 4);
    EXPECT_FLOATS(run1("Reciprocal", {x}), -0.4f, -2, 2, 0.25f);
    auto p = f32({3}, {0.25f, 1, 4});
    EXPECT_FLOATS(run1("Sqrt", {p}), 0.5f, 1, 2);
    EXPECT_FLOATS(run1("Rsqrt", {p}), 2, 1, 0.5f);
    EXPECT_FLOATS(run1("Exp", {f32({2}, {0, 1})}), 1, std::exp(1.0f));
    EXPECT_FLOATS(run1("Expm1", {f32({1}, {1e-10f})}), 1e-10f);
    EXPECT_FLOATS(run1("Log", {f32({2}, {1, std::exp(2.0f)})}), 0, 2);
    EXPECT_FLOATS(run1("Log1p", {f32({1}, {0})}), 0);
    const float a = 0.3f;
    EXPECT_FLOATS(run1("Sin", {f32({1}, {a})}), std::sin(a));
    EXPECT_FLOATS(run1("Cos", {f32({1}, {a})}), std::cos(a));
    EXPECT_FLOATS(run1("Tan", {f32({1}, {a})}), std::tan(a));
    EXPECT_FLOATS(run1("Asin", {f32({1}, {a})}), std::asin(a));
    EXPECT_FLOATS(run1("Acos", {f32({1}, {a})}), std::acos(a));
    EXPECT_FLOATS(run1("Atan", {f32({1}, {a})}), std::atan(a));
    EXPECT_FLOATS(run1("Sinh", {f32({1}, {a})}), std::sinh(a));
    // asinh(x) = ln(x + sqrt(x^2 + 1)), as TF.js's Math.asinh.
    EXPECT_FLOATS(run1("Asinh", {f32({4}, {-2, 0, 0.5f, 10})}), -1.4436355f, 0, 0.4812118f,
                  2.9982230f);
    EXPECT_FLOATS(run1("Cosh", {f32({1}, {a})}), std::cosh(a));
    EXPECT_FLOATS(run1("Erf", {f32({3}, {0, 0.5f, -3})}), 0, 0.5204999f, -0.9999779f);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_BOOLS(run1("IsNan", {f32({3}, {nan, 1, -nan})}), 1, 0, 1);
  }

  void roundIsBankers() {
    EXPECT_FLOATS(run1("Round", {f32({8}, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2.4f, -2.6f})}),
                  0, 2, 2, -0.0f, -2, -2, 2, -3);
  }

  void unaryInt() {
    auto x = i32({3}, {-3, 0, 4});
    auto abs = run1("Abs", {x});
    QCOMPARE(abs.dtype, DType::Int32);
    EXPECT_INTS(abs, 3, 0, 4);
    EXPECT_INTS(run1("Neg", {x}), 3, 0, -4);
    EXPECT_INTS(run1("Square", {x}), 9, 0, 16);
    EXPECT_INTS(run1("Sign", {x}), -1, 0, 1);
    auto sq = run1("Sqrt", {i32({2}, {4, 9})});
    QCOMPARE(sq.dtype, DType::Float32);
    EXPECT_FLOATS(sq, 2, 3);
  }

  void clipByValue() {
    EXPECT_FLOATS(run1("ClipByValue", {f32({4}, {-5, 0.5f, 3, 10}), scalar_f(0), scalar_f(6)}), 0,
                  0.5f, 3, 6);
    EXPECT_INTS(run1("ClipByValue", {i32({3}, {-5, 2, 9}), scalar_i(0), scalar_i(4)}), 0, 2, 4);
  }

  void cast() {
    using graph::TypeAttr;
    auto x = f32({6}, {1.7f, -1.7f, 0, 3e9f, std::numeric_limits<float>::quiet_NaN(), -0.2f});
    auto ti = run1("Cast", {x}, {{"DstT", TypeAttr{"DT_INT32"}}});
    QCOMPARE(ti.dtype, DType::Int32);
    // Truncation toward zero; out-of-range wraps as an Int32Array does; NaN -> 0.
    EXPECT_INTS(ti, 1, -1, 0, static_cast<std::int32_t>(3000000000u - 4294967296ll), 0, 0);
    auto tb = run1("Cast", {x}, {{"DstT", TypeAttr{"DT_BOOL"}}});
    EXPECT_BOOLS(tb, 1, 1, 0, 1, 1, 1);
    auto tf = run1("Cast", {b8({2}, {1, 0})}, {{"DstT", TypeAttr{"DT_FLOAT"}}});
    EXPECT_FLOATS(tf, 1, 0);
    auto t64 = run1("Cast", {f32({1}, {2.9f})}, {{"DstT", TypeAttr{"DT_INT64"}}});
    QCOMPARE(t64.dtype, DType::Int32);
    EXPECT_INTS(t64, 2);
  }
};

QTEST_GUILESS_MAIN(ElementwiseTest)
#include "elementwise_test.moc"
