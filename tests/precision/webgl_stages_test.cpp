// TF.js 4.22 webgl's staged reductions and softmax (ops/webgl_stages.h) against what its
// reduce_util and kernel_utils/reduce do, worked out by hand: computeOptimalWindowSize keeps N up
// to 30 and otherwise takes the first divisor of N from floor(sqrt(N)) up (N itself for a prime),
// and every stage's partial results are stored (rounded to half here).
#include <QtTest>
#include <cmath>

#include "ops/webgl_stages.h"

using namespace tfjsi;

namespace {

constexpr HalfRule kMesa{HalfRounding::TowardZero, HalfOverflow::Clamp};

std::vector<std::array<std::int64_t, 3>> stages(std::int64_t n) {
  std::vector<std::array<std::int64_t, 3>> out;
  for (const auto& s : ops::webgl_reduce_stages(n))
    out.push_back({s.in_size, s.window, s.out_size});
  return out;
}

HostTensor tensor(const Shape& shape, const std::vector<float>& v) {
  HostTensor t = HostTensor::zeros(DType::Float32, shape);
  std::copy(v.begin(), v.end(), t.mutable_values<float>().begin());
  return t;
}

}  // namespace

class WebglStagesTest : public QObject {
  Q_OBJECT
 private slots:
  void windows_as_tfjs_chooses_them() {
    using S = std::vector<std::array<std::int64_t, 3>>;
    QCOMPARE(stages(1), (S{{1, 1, 1}}));
    QCOMPARE(stages(30), (S{{30, 30, 1}}));
    QCOMPARE(stages(49), (S{{49, 7, 7}, {7, 7, 1}}));  // a 7x7 global average pool
    QCOMPARE(stages(31), (S{{31, 31, 1}}));            // a prime: one window of all
    // 1024: 32 windows of 32; 32 > 30: sqrt 5, first divisor from 5 is 8: 4 windows of 8; 4.
    QCOMPARE(stages(1024), (S{{1024, 32, 32}, {32, 8, 4}, {4, 4, 1}}));
    QCOMPARE(stages(1000), (S{{1000, 40, 25}, {25, 25, 1}}));  // sqrt 31, first divisor 40
  }

  // 49 values of 1 + 2^-10 (a half float): the mean's first stage adds seven of x/49 each, stored
  // as a half (rounded toward zero), the second adds the seven partial means.
  void mean_rounds_each_stage() {
    const float v = 1.0f + std::ldexp(1.0f, -10);
    const HostTensor x = tensor({1, 7, 7, 1}, std::vector<float>(49, v));
    const HostTensor m = ops::webgl_staged_reduce(x, {1, 2}, true, false, kMesa);
    QCOMPARE(m.shape, (Shape{1, 1}));
    float part = 0;
    for (int i = 0; i < 7; ++i) part += v * static_cast<float>(1.0 / 49.0);
    part = round_to_half(part, kMesa);
    float total = 0;
    for (int i = 0; i < 7; ++i) total += part;
    QCOMPARE(m.values<float>()[0], round_to_half(total, kMesa));
    // Once rounded instead, the mean would be v itself: the stages lose a step.
    QVERIFY(m.values<float>()[0] < v);
  }

  // The kept axes stay in order, the reduced ones go last: a sum over axis 1 of [2, 3, 2].
  void sum_over_a_middle_axis_keeps_the_rest_in_order() {
    const HostTensor x = tensor({2, 3, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
    const HostTensor s = ops::webgl_staged_reduce(x, {1}, false, true, kMesa);
    QCOMPARE(s.shape, (Shape{2, 1, 2}));
    const auto v = s.values<float>();
    QCOMPARE(std::vector<float>(v.begin(), v.end()), (std::vector<float>{9, 12, 27, 30}));
  }

  // x - max, exp, sum and quotient each stored: a row of two equal logits is exactly 0.5 each,
  // and a row where exp(x - max) is not a half float rounds it before the sum.
  void softmax_stores_each_step() {
    const HostTensor x = tensor({2, 2}, {3, 3, 0, 1});
    const HostTensor y = ops::webgl_softmax(x, kMesa);
    const auto v = y.values<float>();
    QCOMPARE(v[0], 0.5f);
    QCOMPARE(v[1], 0.5f);
    const float e = round_to_half(std::exp(-1.0f), kMesa);
    const float sum = round_to_half(e + 1.0f, kMesa);
    QCOMPARE(v[2], round_to_half(e / sum, kMesa));
    QCOMPARE(v[3], round_to_half(1.0f / sum, kMesa));
  }
};

QTEST_GUILESS_MAIN(WebglStagesTest)
#include "webgl_stages_test.moc"
