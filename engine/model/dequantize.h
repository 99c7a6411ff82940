// Decoding quantized weights the way TF.js 4.x does (tfjs-core io_utils): once, at load.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace tfjsi::model {

// IEEE half to float, exactly (subnormals, infinities and NaNs included).
float half_to_float(std::uint16_t bits);

// `src` holds little-endian halves, dst.size() of them; src may be unaligned.
void dequantize_float16(std::span<const std::byte> src, std::span<float> dst);

// value = q * scale + min, computed in double and rounded to float as TF.js stores it in a
// Float32Array. `bytes_per_value` is 1 (uint8) or 2 (uint16, little-endian).
void dequantize_affine(std::span<const std::byte> src, std::size_t bytes_per_value, double scale,
                       double min, std::span<float> dst);

// The int32 form: Math.round(q * scale + min), then wrapped to int32 as an Int32Array store does.
void dequantize_affine(std::span<const std::byte> src, std::size_t bytes_per_value, double scale,
                       double min, std::span<std::int32_t> dst);

// JavaScript's Math.round (halves go up, toward +inf) followed by ToInt32 (wrap modulo 2^32;
// NaN and infinities become 0).
std::int32_t js_round_to_int32(double x);

}  // namespace tfjsi::model
