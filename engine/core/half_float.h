// Float32 -> half -> float32, the way a half-float store does it, under the rule of one driver:
// IEEE conversion (round to nearest even, inf past the range; most GPUs and XNNPACK's f32->f16)
// or Mesa's (round toward zero, saturate at +-65504). The fp16 check's emulation and the gl
// backend's emulated fp16 storage follow either.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace tfjsi {

enum class HalfRounding { NearestEven, TowardZero };
// What a finite value past half's range becomes.
enum class HalfOverflow { Inf, Clamp };

struct HalfRule {
  HalfRounding rounding = HalfRounding::NearestEven;
  HalfOverflow overflow = HalfOverflow::Inf;
  bool operator==(const HalfRule&) const = default;
};

inline constexpr float kHalfMax = 65504.0f;
// Smallest positive normal half (2^-14) and smallest subnormal (2^-24).
inline constexpr float kHalfMinNormal = 6.103515625e-05f;
inline constexpr float kHalfMinSubnormal = 5.9604644775390625e-08f;

std::string_view to_string(HalfRounding r);  // "nearest-even", "toward-zero"
std::string_view to_string(HalfOverflow o);  // "inf", "clamp"

// Half bits of `x` under `rule`. NaN stays NaN and inf stays inf under either rule.
std::uint16_t float_to_half_bits(float x, HalfRule rule);
float half_bits_to_float(std::uint16_t h);
// `x` stored as half and read back.
float round_to_half(float x, HalfRule rule);
void round_to_half(std::span<float> values, HalfRule rule);

}  // namespace tfjsi
