#include "analysis/tensor_error.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace tfjsi::analysis {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}

TensorError tensor_error(const HostTensor& ref, const HostTensor& test) {
  TensorError e;
  if (ref.dtype != test.dtype || ref.shape != test.shape || !ref.buffer != !test.buffer) {
    e.shape_mismatch = true;
    return e;
  }
  e.count = ref.num_elements();
  if (ref.dtype == DType::String || !ref.buffer) return e;
  if (ref.dtype != DType::Float32 && ref.dtype != DType::Complex64) {
    const std::size_t w = element_size(ref.dtype);
    const std::byte* a = ref.buffer->data();
    const std::byte* b = test.buffer->data();
    for (std::int64_t i = 0; i < e.count; ++i)
      if (std::memcmp(a + i * w, b + i * w, w) != 0) ++e.mismatched;
    return e;
  }
  // complex64: the real and imaginary parts are compared as floats, each against its own.
  const std::span<const float> r = ref.float_parts(), t = test.float_parts();
  for (std::size_t i = 0; i < r.size(); ++i) {
    const float x = r[i], y = t[i];
    if (std::isnan(y)) ++e.nan;
    if (std::isinf(y)) ++e.inf;
    const bool fx = std::isfinite(x), fy = std::isfinite(y);
    if (fx) e.ref_max_abs = std::max(e.ref_max_abs, std::fabs(static_cast<double>(x)));
    if (fx && fy) {
      e.max_abs_error =
          std::max(e.max_abs_error, std::fabs(static_cast<double>(x) - static_cast<double>(y)));
    } else if (fx) {
      ++e.new_nonfinite;
    } else if (!(std::isnan(x) && std::isnan(y)) && x != y) {
      ++e.lost_nonfinite;
    }
  }
  return e;
}

double TensorError::relative() const {
  if (shape_mismatch || new_nonfinite > 0 || lost_nonfinite > 0) return kInf;
  if (mismatched > 0) return static_cast<double>(mismatched) / static_cast<double>(count);
  return ref_max_abs > 0 ? max_abs_error / ref_max_abs : max_abs_error;
}

double TensorError::normalized() const {
  if (shape_mismatch || new_nonfinite > 0 || lost_nonfinite > 0) return kInf;
  if (mismatched > 0) return static_cast<double>(mismatched) / static_cast<double>(count);
  return max_abs_error / std::max(1.0, ref_max_abs);
}

void TensorError::merge(const TensorError& o) {
  shape_mismatch = shape_mismatch || o.shape_mismatch;
  max_abs_error = std::max(max_abs_error, o.max_abs_error);
  ref_max_abs = std::max(ref_max_abs, o.ref_max_abs);
  new_nonfinite += o.new_nonfinite;
  lost_nonfinite += o.lost_nonfinite;
  nan += o.nan;
  inf += o.inf;
  mismatched += o.mismatched;
  count += o.count;
}

nlohmann::json json_number(double v) {
  if (!std::isfinite(v)) return nullptr;
  return v;
}

nlohmann::json to_json(const TensorError& e) {
  nlohmann::json j = {{"max_abs_error", e.max_abs_error},
                      {"rel_error", json_number(e.relative())},
                      {"normalized_error", json_number(e.normalized())},
                      {"nan", e.nan},
                      {"inf", e.inf},
                      {"new_nonfinite", e.new_nonfinite}};
  if (e.shape_mismatch) j["shape_mismatch"] = true;
  if (e.mismatched) j["mismatched"] = e.mismatched;
  if (e.lost_nonfinite) j["lost_nonfinite"] = e.lost_nonfinite;
  return j;
}

}  // namespace tfjsi::analysis
