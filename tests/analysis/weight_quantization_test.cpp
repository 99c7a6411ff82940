// The converter's weight quantization on hand-made weights whose answers are worked out here by
// hand (tfjs-converter quantization.py): the nudged range, NumPy's round-half-even, a constant
// weight, a range that does not cover 0, float16's overflow and underflow; and --keep-float's
// globs (Python fnmatch: '*' crosses '/').
#include <QtTest>
#include <cmath>
#include <cstring>

#include "analysis/quantize_bundle.h"
#include "analysis/weight_quantization.h"
#include "core/error.h"

using tfjsi::HostTensor;
using tfjsi::analysis::quantize_weight;
using tfjsi::model::Quantization;

namespace {

HostTensor floats(std::vector<float> v) {
  HostTensor t = HostTensor::zeros(tfjsi::DType::Float32, {static_cast<std::int64_t>(v.size())});
  std::memcpy(t.buffer->mutable_data(), v.data(), v.size() * 4);
  return t;
}

std::vector<int> codes(const tfjsi::analysis::QuantizedWeight& q) {
  std::vector<int> out;
  const std::size_t width = q.dtype == Quantization::Uint8 ? 1 : 2;
  for (std::size_t i = 0; i < q.bytes.size(); i += width) {
    std::uint16_t v = 0;
    std::memcpy(&v, q.bytes.data() + i, width);
    out.push_back(v);
  }
  return out;
}

}  // namespace

class WeightQuantizationTest : public QObject {
  Q_OBJECT

 private slots:
  // [0, 255] in uint8: scale 1, min 0, so 126.5 is a tie: NumPy rounds it to 126 (even), where
  // JavaScript's Math.round would give 127; 127.5 goes to 128.
  void tiesRoundToEven() {
    const auto q = quantize_weight(floats({0.f, 126.5f, 127.5f, 255.f}), Quantization::Uint8, "w");
    QCOMPARE(q.scale, 1.0);
    QCOMPARE(q.min, 0.0);
    QCOMPARE(codes(q), (std::vector<int>{0, 126, 128, 255}));
    const auto back = q.dequantized.values<float>();
    QCOMPARE(back[1], 126.0f);
  }

  // [-1, 2] in uint8: scale 3/255; zero point -(-1)/scale = 85 exactly, so min stays -1.
  // [-0.3, 1] in uint8: scale 1.3/255, zero point 58.85 rounds to 59, min nudged to -59 * scale
  // (below -0.3), and 0.0 reads back as exactly 0.
  void rangeIsNudgedSoThatZeroIsAStep() {
    const auto a = quantize_weight(floats({-1.f, 0.f, 2.f}), Quantization::Uint8, "a");
    QCOMPARE(a.scale, 3.0 / 255);
    QCOMPARE(a.min, -85 * (3.0 / 255));
    QCOMPARE(codes(a), (std::vector<int>{0, 85, 255}));
    const double lo = double(-0.3f), scale = (1.0 - lo) / 255;
    const auto b = quantize_weight(floats({-0.3f, 0.f, 1.f}), Quantization::Uint8, "b");
    QCOMPARE(b.scale, scale);
    QCOMPARE(b.min, -59 * scale);
    QVERIFY(b.min < lo);
    QCOMPARE(codes(b)[1], 59);
    QCOMPARE(b.dequantized.values<float>()[1], 0.0f);
    // -0.3 lies inside [min, max] and rounds to the nearest step: (lo - min) / scale = 0.15 -> 0.
    QCOMPARE(codes(b)[0], 0);
    // max' = 255 * scale + min is below 1.0 now: 1.0 clamps to the top step.
    QCOMPARE(codes(b)[2], 255);
  }

  // All above zero: no nudge, min is the smallest value. uint16 has 65535 steps.
  void positiveRangeIsNotNudged() {
    const auto q = quantize_weight(floats({1.f, 3.f, 2.f}), Quantization::Uint16, "w");
    QCOMPARE(q.min, 1.0);
    QCOMPARE(q.scale, 2.0 / 65535);
    QCOMPARE(codes(q), (std::vector<int>{0, 65535, 32768}));  // 32767.5 -> even
  }

  // A constant weight: all zeros, scale 1, min the value.
  void constantWeight() {
    const auto q = quantize_weight(floats({-0.25f, -0.25f}), Quantization::Uint8, "w");
    QCOMPARE(q.scale, 1.0);
    QCOMPARE(q.min, -0.25);
    QCOMPARE(codes(q), (std::vector<int>{0, 0}));
    QCOMPARE(q.dequantized.values<float>()[0], -0.25f);
  }

  // IEEE half, nearest even: 0.1 -> 0x2e66; 65520 (halfway past 65504) -> inf; 1e-8 -> 0;
  // 2^-24 (smallest subnormal) kept.
  void float16() {
    const auto q = quantize_weight(floats({0.1f, 65520.f, 1e-8f, 5.9604644775390625e-08f, -2.f}),
                                   Quantization::Float16, "w");
    std::vector<std::uint16_t> h(5);
    std::memcpy(h.data(), q.bytes.data(), 10);
    QCOMPARE(h, (std::vector<std::uint16_t>{0x2e66, 0x7c00, 0x0000, 0x0001, 0xc000}));
    QVERIFY(std::isinf(q.dequantized.values<float>()[1]));
  }

  void affineRefusesNonFinite() {
    QVERIFY_THROWS_EXCEPTION(tfjsi::ModelError,
                             quantize_weight(floats({0.f, -INFINITY}), Quantization::Uint8, "w"));
  }

  void globsAreFnmatch() {
    using tfjsi::analysis::glob_escape;
    using tfjsi::analysis::glob_matches;
    QVERIFY(glob_matches("conv*", "conv1/kernel"));  // '*' crosses '/'
    QVERIFY(glob_matches("fc?/bias", "fc2/bias"));
    QVERIFY(!glob_matches("fc?/bias", "fc12/bias"));
    QVERIFY(glob_matches("[!c]*", "bn1/gamma"));
    QVERIFY(!glob_matches("[!c]*", "conv1/bias"));
    QVERIFY(!glob_matches("conv1", "conv1/bias"));  // whole names
    QVERIFY(glob_matches("a\\b", "a\\b"));          // no escape character
    const std::string odd = "w[0]*?";
    QCOMPARE(glob_escape(odd), std::string("w[[]0][*][?]"));
    QVERIFY(glob_matches(glob_escape(odd), odd));
    QVERIFY(!glob_matches(glob_escape(odd), "w[0]xy"));
  }
};

QTEST_GUILESS_MAIN(WeightQuantizationTest)
#include "weight_quantization_test.moc"
