#include "core/half_float.h"

#include <bit>
#include <cmath>

namespace tfjsi {

std::string_view to_string(HalfRounding r) {
  return r == HalfRounding::NearestEven ? "nearest-even" : "toward-zero";
}

std::string_view to_string(HalfOverflow o) {
  return o == HalfOverflow::Inf ? "inf" : "clamp";
}

std::uint16_t float_to_half_bits(float x, HalfRule rule) {
  const std::uint32_t f = std::bit_cast<std::uint32_t>(x);
  const std::uint16_t sign = static_cast<std::uint16_t>((f >> 16) & 0x8000u);
  const std::uint32_t exp = (f >> 23) & 0xffu;
  const std::uint32_t mant = f & 0x7fffffu;
  if (exp == 0xffu) return sign | (mant ? 0x7e00u : 0x7c00u);  // NaN (quiet) or inf
  if (exp == 0) return sign;  // float32 zeros and subnormals are far below half's range
  const int e = static_cast<int>(exp) - 127;
  const std::uint32_t m = mant | 0x800000u;  // 24 significant bits: value = m * 2^(e-23)
  std::uint32_t bits;                        // magnitude, before rounding
  std::uint32_t rem, halfway;
  if (e >= -14) {
    // Normal half: keep 10 of the 23 fraction bits. Exponents past 15 land at or beyond
    // 0x7c00 below and are treated as overflow.
    if (e > 15) return sign | (rule.overflow == HalfOverflow::Inf ? 0x7c00u : 0x7bffu);
    bits = (static_cast<std::uint32_t>(e + 15) << 10) | (mant >> 13);
    rem = mant & 0x1fffu;
    halfway = 0x1000u;
  } else {
    // Subnormal half: units of 2^-24, so the count is m * 2^(e+1).
    const int shift = -(e + 1);   // >= 14
    if (shift > 24) return sign;  // below 2^-25: zero under either rounding
    bits = m >> shift;
    rem = m & ((1u << shift) - 1u);
    halfway = 1u << (shift - 1);
  }
  if (rule.rounding == HalfRounding::NearestEven &&
      (rem > halfway || (rem == halfway && (bits & 1u))))
    ++bits;  // a carry into the exponent is the right answer too
  if (bits >= 0x7c00u) bits = rule.overflow == HalfOverflow::Inf ? 0x7c00u : 0x7bffu;
  return static_cast<std::uint16_t>(sign | bits);
}

float half_bits_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  const std::uint32_t mant = h & 0x3ffu;
  if (exp == 0x1fu) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    const float v = std::ldexp(static_cast<float>(mant), -24);  // exact
    return sign ? -v : v;
  }
  return std::bit_cast<float>(sign | ((exp + 112u) << 23) | (mant << 13));
}

float round_to_half(float x, HalfRule rule) {
  return half_bits_to_float(float_to_half_bits(x, rule));
}

void round_to_half(std::span<float> values, HalfRule rule) {
  // Normal halves (2^-14 up to 65504, what weights nearly all are) are cut on the float's own
  // bits, without the round trip through half bits (fp16 uploads: movenet's 1.2M weights 20 ms
  // -> a few); a result past 65504, and everything outside that range, takes the full path.
  constexpr std::uint32_t kMinNormal = 0x38800000u, kMax = 0x477fe000u;  // 2^-14, 65504
  const bool nearest = rule.rounding == HalfRounding::NearestEven;
  for (float& v : values) {
    const std::uint32_t f = std::bit_cast<std::uint32_t>(v), a = f & 0x7fffffffu;
    if (a >= kMinNormal && a <= kMax) {
      // Half way up (0xfff) plus the last kept bit: ties go to the even neighbour.
      const std::uint32_t cut = (nearest ? a + 0xfffu + ((a >> 13) & 1u) : a) & 0xffffe000u;
      if (cut <= kMax) {
        v = std::bit_cast<float>(cut | (f & 0x80000000u));
        continue;
      }
    }
    v = round_to_half(v, rule);
  }
}

}  // namespace tfjsi
