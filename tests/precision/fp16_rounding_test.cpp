// Half-float conversion under both rules, against IEEE 754 binary16 facts: the largest finite
// value, the rounding boundary to infinity, ties to even, subnormals and the flush bound, and a
// round trip of every half value.
#include <QtTest>
#include <bit>
#include <cmath>
#include <vector>

#include "analysis/fp16_rounding.h"

using namespace tfjsi::analysis;

namespace {
constexpr HalfRule kIeee{HalfRounding::NearestEven, HalfOverflow::Inf};
constexpr HalfRule kMesa{HalfRounding::TowardZero, HalfOverflow::Clamp};
}  // namespace

class Fp16RoundingTest : public QObject {
  Q_OBJECT
 private slots:
  void ieee_known_values() {
    struct Case {
      float v;
      std::uint16_t bits;
    };
    const Case cases[] = {{1.f, 0x3c00},
                          {-2.f, 0xc000},
                          {0.1f, 0x2e66},
                          {65504.f, 0x7bff},
                          {65519.99f, 0x7bff},
                          {65520.f, 0x7c00},
                          {1e9f, 0x7c00},
                          {-1e9f, 0xfc00},
                          {-INFINITY, 0xfc00},
                          {std::ldexp(1.f, -24), 0x0001},
                          {std::ldexp(1.f, -25), 0x0000},  // a tie: to even, zero
                          {std::ldexp(1.5f, -25), 0x0001},
                          {std::ldexp(1.f, -14), 0x0400},
                          {1.f + std::ldexp(1.f, -11), 0x3c00},  // tie to even
                          {1.f + 3 * std::ldexp(1.f, -11), 0x3c02},
                          {std::ldexp(1023.5f, -24), 0x0400},  // subnormal carries to normal
                          {0.f, 0x0000}};
    for (const Case& c : cases)
      QVERIFY2(float_to_half_bits(c.v, kIeee) == c.bits, qPrintable(QString::number(c.v)));
    QVERIFY(std::isnan(round_to_half(NAN, kIeee)));
    QVERIFY(std::isnan(round_to_half(NAN, kMesa)));
  }

  // The span form (uploads' fast path) gives what the single value does, on float bit patterns
  // across every exponent, both signs and both rules.
  void span_matches_single_values() {
    std::vector<float> v;
    for (std::uint64_t b = 0; b <= 0xffffffffu; b += 4093)
      v.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(b)));
    for (float x : {65504.f, 65519.f, 65520.f, 65535.f, std::ldexp(1.f, -14),
                    std::nextafter(std::ldexp(1.f, -14), 0.f), 1.f + std::ldexp(1.f, -11)})
      v.insert(v.end(), {x, -x});
    for (const HalfRule rule : {kIeee, kMesa}) {
      std::vector<float> r = v;
      round_to_half(std::span<float>(r), rule);
      for (std::size_t i = 0; i < v.size(); ++i) {
        const float want = round_to_half(v[i], rule);
        QVERIFY2(std::bit_cast<std::uint32_t>(r[i]) == std::bit_cast<std::uint32_t>(want) ||
                     (std::isnan(r[i]) && std::isnan(want)),
                 qPrintable(QString("%1: %2, not %3").arg(v[i]).arg(r[i]).arg(want)));
      }
    }
  }

  void truncating_clamp() {
    QCOMPARE(round_to_half(65520.f, kMesa), 65504.f);
    QCOMPARE(round_to_half(1e9f, kMesa), 65504.f);
    QCOMPARE(round_to_half(-1e9f, kMesa), -65504.f);
    QCOMPARE(round_to_half(INFINITY, kMesa), INFINITY);  // real infinities are kept
    // Just under the next half step: truncation stays, nearest goes up.
    const float x = 1.f + 0.75f / 1024.f;
    QCOMPARE(round_to_half(x, kMesa), 1.f);
    QCOMPARE(round_to_half(x, kIeee), 1.f + 1.f / 1024.f);
    QCOMPARE(round_to_half(-x, kMesa), -1.f);  // toward zero on both sides
    QCOMPARE(round_to_half(std::ldexp(1.5f, -25), kMesa), 0.f);
    QCOMPARE(round_to_half(4e-8f, kIeee), std::ldexp(1.f, -24));
    QCOMPARE(round_to_half(4e-8f, kMesa), 0.f);
    // Clamp with nearest rounding (SwiftShader-like rounding, saturating store).
    QCOMPARE(round_to_half(65520.f, HalfRule{HalfRounding::NearestEven, HalfOverflow::Clamp}),
             65504.f);
  }

  void every_half_round_trips() {
    for (std::uint32_t h = 0; h < 65536; ++h) {
      const float f = half_bits_to_float(static_cast<std::uint16_t>(h));
      if (std::isnan(f)) continue;
      QCOMPARE(float_to_half_bits(f, kIeee), static_cast<std::uint16_t>(h));
      QCOMPARE(float_to_half_bits(f, kMesa), static_cast<std::uint16_t>(h));
    }
  }

  void rounding_error_is_bounded() {
    // Relative error of a normal value: half a unit (2^-11) to nearest, a unit (2^-10) truncated.
    for (float v = 6.2e-5f; v < 65000.f; v *= 1.0137f) {
      QVERIFY(std::fabs(round_to_half(v, kIeee) - v) <= std::ldexp(v, -11));
      QVERIFY(std::fabs(round_to_half(v, kMesa) - v) < std::ldexp(v, -10));
      QVERIFY(std::fabs(round_to_half(v, kMesa)) <= v);
    }
  }
};

QTEST_APPLESS_MAIN(Fp16RoundingTest)
#include "fp16_rounding_test.moc"
