#include "analysis/weight_quantization.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "analysis/fp16_rounding.h"
#include "core/error.h"
#include "model/dequantize.h"

namespace tfjsi::analysis {
namespace {

// NumPy's np.round: halves go to the even neighbour (nearbyint under the default rounding mode).
double round_half_even(double x) {
  return std::nearbyint(x);
}

}  // namespace

AffineRange affine_range(double lo, double hi, std::uint32_t qmax) {
  AffineRange r;
  if (lo == hi) {
    r.constant = true;
    r.scale = 1.0;
    r.min = r.max = lo;
    return r;
  }
  r.scale = (hi - lo) / qmax;
  r.min = lo;
  r.max = hi;
  // Nudged only when the range covers zero, so that padding's zeros stay exact.
  if (lo <= 0 && 0 <= hi) {
    const double zero = round_half_even((0 - lo) / r.scale);
    r.min = -zero * r.scale;
    r.max = qmax * r.scale + r.min;
  }
  return r;
}

std::size_t quantized_element_size(model::Quantization dtype) {
  switch (dtype) {
    case model::Quantization::Uint8:
      return 1;
    case model::Quantization::Uint16:
    case model::Quantization::Float16:
      return 2;
    case model::Quantization::None:
      break;
  }
  return 4;
}

QuantizedWeight quantize_weight(const HostTensor& value, model::Quantization dtype,
                                const std::string& name) {
  if (value.dtype != DType::Float32)
    throw ModelError("weight '" + name + "': only float32 weights are quantized");
  const std::span<const float> x = value.values<float>();
  QuantizedWeight out;
  out.dtype = dtype;
  out.dequantized = HostTensor::uninitialized(DType::Float32, value.shape);
  const std::span<float> back = out.dequantized.mutable_values<float>();

  if (dtype == model::Quantization::Float16) {
    out.bytes.resize(2 * x.size());
    const HalfRule ieee{HalfRounding::NearestEven, HalfOverflow::Inf};
    for (std::size_t i = 0; i < x.size(); ++i) {
      const std::uint16_t h = float_to_half_bits(x[i], ieee);
      std::memcpy(out.bytes.data() + 2 * i, &h, 2);
    }
    model::dequantize_float16(out.bytes, back);
    return out;
  }
  if (dtype != model::Quantization::Uint8 && dtype != model::Quantization::Uint16)
    throw ModelError("weight '" + name + "': no quantization asked");

  const std::size_t width = quantized_element_size(dtype);
  const std::uint32_t qmax = width == 1 ? 255u : 65535u;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const float v : x) {
    if (!std::isfinite(v))
      throw ModelError("weight '" + name + "' holds a NaN or an infinity: affine " +
                       std::string(model::to_string(dtype)) +
                       " quantization cannot represent it (keep it float32 with --keep-float, "
                       "or use float16)");
    lo = std::min(lo, double(v));
    hi = std::max(hi, double(v));
  }
  if (x.empty()) lo = hi = 0;
  const AffineRange r = affine_range(lo, hi, qmax);
  out.scale = r.scale;
  out.min = r.min;
  out.bytes.assign(width * x.size(), std::byte{0});
  if (!r.constant) {
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double c = std::clamp(double(x[i]), r.min, r.max);
      const double q = std::clamp(round_half_even((c - r.min) / r.scale), 0.0, double(qmax));
      const auto qi = static_cast<std::uint16_t>(q);
      if (width == 1)
        out.bytes[i] = static_cast<std::byte>(qi);
      else
        std::memcpy(out.bytes.data() + 2 * i, &qi, 2);
    }
  }
  model::dequantize_affine(out.bytes, width, out.scale, out.min, back);
  return out;
}

}  // namespace tfjsi::analysis
