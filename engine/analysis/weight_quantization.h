// One float32 weight quantized the way tensorflowjs_converter does it (tfjs-converter's
// quantization.py and write_weights.py), and read back the way TF.js 4.x reads it.
//
// uint8 / uint16, affine over the weight's [min, max], in float64 as NumPy 2 computes it:
//   scale = (max - min) / qmax                                   qmax = 255 or 65535
//   when min <= 0 <= max the range is nudged (as TF Lite does) so that 0.0 is exactly a step:
//     zero = round_half_even(-min / scale);  min' = -zero * scale;  max' = qmax * scale + min'
//   q = round_half_even((clamp(x, min', max') - min') / scale)
//   a constant weight (min == max) is all zeros with scale 1 and min = that constant.
// (NumPy 1.x's value-based casting runs the last line in float32; a value lying within float32
// rounding of a half step can then land one step away. Both are what "the converter" wrote.)
// float16: IEEE round to nearest even, inf past 65504 (NumPy's astype).
// TF.js reads q * scale + min in double, stored as float32; a half is widened exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/host_tensor.h"
#include "model/bundle.h"

namespace tfjsi::analysis {

struct AffineRange {
  double scale = 1.0;
  double min = 0.0;  // the (nudged) value of q = 0
  double max = 0.0;  // the (nudged) value of q = qmax; values above it clamp to it
  bool constant = false;
};

// The converter's range for values spanning [lo, hi] (lo <= hi, both finite) and `qmax` steps.
AffineRange affine_range(double lo, double hi, std::uint32_t qmax);

struct QuantizedWeight {
  model::Quantization dtype = model::Quantization::None;
  double scale = 0.0, min = 0.0;  // uint8 / uint16 only
  std::vector<std::byte> bytes;   // as stored in a shard, little-endian
  HostTensor dequantized;         // what TF.js (and our loader) reads back from `bytes`
};

// Quantizes a float32 tensor. `dtype` is Uint8, Uint16 or Float16. Throws ModelError naming
// `name` when an affine dtype meets a NaN or an infinity (the converter's range would be
// meaningless).
QuantizedWeight quantize_weight(const HostTensor& value, model::Quantization dtype,
                                const std::string& name);

// Bytes one element takes once quantized to `dtype` (1, 2, 2; 4 for None).
std::size_t quantized_element_size(model::Quantization dtype);

}  // namespace tfjsi::analysis
