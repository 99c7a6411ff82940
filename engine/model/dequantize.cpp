#include "model/dequantize.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace tfjsi::model {
namespace {

static_assert(std::endian::native == std::endian::little,
              "weight shards are little-endian and read in place");

std::uint32_t load_quantized(const std::byte* p, std::size_t bytes_per_value) {
  if (bytes_per_value == 1) return static_cast<std::uint8_t>(*p);
  std::uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}

// A double stored into a Float32Array: rounded to nearest, overflowing to +-inf. A plain cast of
// an out-of-range double is undefined behaviour in C++, so the overflow is handled here.
float to_float(double x) {
  constexpr double kRoundsToInf = 0x1.ffffffp+127;  // halfway between FLT_MAX and 2^128
  const double a = std::fabs(x);
  if (a >= kRoundsToInf) return std::copysign(std::numeric_limits<float>::infinity(), x);
  if (a > std::numeric_limits<float>::max())
    return std::copysign(std::numeric_limits<float>::max(), x);
  return static_cast<float>(x);  // NaN passes through
}

}  // namespace

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  std::uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);  // inf or NaN, payload kept
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (mant << 13);  // rebias 15 -> 127
  } else if (mant == 0) {
    bits = sign;  // +-0
  } else {
    // Subnormal half: normalise the mantissa into a float's implicit-one form.
    std::uint32_t e = 113;  // exponent of 2^-14 in float bias, before shifting
    while ((mant & 0x400u) == 0) {
      mant <<= 1;
      --e;
    }
    bits = sign | (e << 23) | ((mant & 0x3ffu) << 13);
  }
  return std::bit_cast<float>(bits);
}

void dequantize_float16(std::span<const std::byte> src, std::span<float> dst) {
  for (std::size_t i = 0; i < dst.size(); ++i) {
    std::uint16_t h;
    std::memcpy(&h, src.data() + 2 * i, 2);
    dst[i] = half_to_float(h);
  }
}

void dequantize_affine(std::span<const std::byte> src, std::size_t bytes_per_value, double scale,
                       double min, std::span<float> dst) {
  for (std::size_t i = 0; i < dst.size(); ++i) {
    const double q = load_quantized(src.data() + i * bytes_per_value, bytes_per_value);
    dst[i] = to_float(q * scale + min);
  }
}

void dequantize_affine(std::span<const std::byte> src, std::size_t bytes_per_value, double scale,
                       double min, std::span<std::int32_t> dst) {
  for (std::size_t i = 0; i < dst.size(); ++i) {
    const double q = load_quantized(src.data() + i * bytes_per_value, bytes_per_value);
    dst[i] = js_round_to_int32(q * scale + min);
  }
}

std::int32_t js_round_to_int32(double x) {
  if (!std::isfinite(x)) return 0;
  // floor(x + 0.5) would round 0.49999999999999994 up; the fractional part is exact.
  double r = std::floor(x);
  if (x - r >= 0.5) r += 1.0;
  // ToInt32: the integer modulo 2^32, read as two's complement. fmod keeps it exact.
  double m = std::fmod(r, 4294967296.0);
  if (m < 0) m += 4294967296.0;
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(m));
}

}  // namespace tfjsi::model
