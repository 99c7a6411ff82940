// Complex numbers and the Fourier transforms (TF.js's basic_math complex ops and its spectral
// category): Complex, Real, Imag, ComplexAbs, FFT, IFFT, RFFT, IRFFT. The shapes are TF.js's,
// which differ from TF's for RFFT and IRFFT: its op mapper drops fft_length (the transform takes
// the input's innermost size) and irfft flattens every rank but 3 to [batch, n].
#include "ops/op_def.h"
#include "ops/shape_context.h"

namespace tfjsi::ops {
namespace {

// Complex(real, imag): TF.js asks for equal shapes (no broadcasting).
void complex(InferContext& c) {
  c.set(0, DType::Complex64, c.shape(0).rank_known ? c.shape(0) : c.shape(1));
}

// Real, Imag: one part of each element.
void part(InferContext& c) {
  c.set(0, DType::Float32, c.shape(0));
}

// ComplexAbs is TF.js's abs: |z| of a complex input, Abs of a real one (int32 stays int32).
void complex_abs(InferContext& c) {
  const auto in = c.in(0).dtype;
  c.set(0, in && *in != DType::Complex64 ? in : std::optional(DType::Float32), c.shape(0));
}

// FFT, IFFT: along the innermost axis, same shape.
void fft(InferContext& c) {
  c.set(0, DType::Complex64, c.shape(0));
}

// RFFT: the innermost size n becomes n / 2 + 1 (the other half mirrors it).
void rfft(InferContext& c) {
  PartialShape s = c.shape(0);
  if (s.rank_known && !s.dims.empty() && s.dims.back() >= 0) s.dims.back() = s.dims.back() / 2 + 1;
  c.set(0, DType::Complex64, s);
}

// IRFFT: the innermost size m gives n = 2 (m - 1) real values (m itself for m <= 2). TF.js keeps
// [batch, n] (outer axes flattened) unless the input has rank 3 and a non-zero first axis.
void irfft(InferContext& c) {
  const PartialShape& s = c.shape(0);
  if (!s.rank_known || s.dims.empty()) return c.set(0, DType::Float32, PartialShape::unknown());
  const std::int64_t m = s.dims.back();
  const std::int64_t n = m < 0 ? -1 : m <= 2 ? m : 2 * (m - 1);
  if (s.dims.size() == 3) {
    if (s.dims[0] < 0) return c.set(0, DType::Float32, PartialShape::unknown());
    if (s.dims[0] != 0)
      return c.set(0, DType::Float32, PartialShape::of({s.dims[0], s.dims[1], n}));
  }
  std::int64_t batch = 1;
  for (std::size_t i = 0; i + 1 < s.dims.size(); ++i) batch = dim_mul(batch, s.dims[i]);
  c.set(0, DType::Float32, PartialShape::of({batch, n}));
}

constexpr OpDef kOps[] = {
    {"Complex", complex, Family::Elementwise},
    {"ComplexAbs", complex_abs, Family::Elementwise},
    {"FFT", fft, Family::Other},
    {"IFFT", fft, Family::Other},
    {"IRFFT", irfft, Family::Other},
    {"Imag", part, Family::Elementwise},
    {"RFFT", rfft, Family::Other},
    {"Real", part, Family::Elementwise},
};

}  // namespace

std::span<const OpDef> spectral_ops() {
  return kOps;
}

}  // namespace tfjsi::ops
