// Complex numbers and the Fourier transforms as TF.js's cpu backend computes them (tfjs-core's
// ops/spectral, tfjs-backend-cpu's fft_utils): Complex, Real, Imag, ComplexAbs, FFT, IFFT, RFFT,
// IRFFT. Each row of the innermost axis is transformed alone: radix-2 Cooley-Tukey when its size
// is a power of two, with every complex multiply, add and sub rounded to float32 as TF.js's
// kernels store them, otherwise the naive DFT summed in double. RFFT and IRFFT ignore fft_length
// (TF.js's op mapper marks it notSupported); IRFFT's output is [batch, n] except for rank 3.
#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <vector>

#include "backends/cpu/tensor_util.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

using Cx = std::complex<float>;

const HostTensor& complex_input(const KernelContext& ctx, std::size_t i) {
  if (i >= ctx.inputs.size()) fail(ctx, "input " + std::to_string(i) + " is missing");
  const HostTensor& t = ctx.inputs[i];
  if (t.dtype != DType::Complex64)
    fail(ctx, "input " + std::to_string(i) + " must be complex64, got " +
                  std::string(to_string(t.dtype)));
  if (!t.buffer) fail(ctx, "input " + std::to_string(i) + " has no data");
  return t;
}

// a * b, a + b, a - b of TF.js's complex kernels: each part computed in double from float parts
// and stored to a Float32Array.
Cx mul(Cx a, Cx b) {
  const double ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  return {static_cast<float>(ar * br - ai * bi), static_cast<float>(ar * bi + ai * br)};
}

double angle(double k, double n, bool inverse) {
  return (inverse ? 2.0 : -2.0) * std::numbers::pi * (k / n);
}

// fftRadix2: even and odd halves transformed alone, joined through the twiddles exp(-+2 pi i k/n)
// held as float32 (backend_util.exponents). No scaling here: the caller divides an inverse.
std::vector<Cx> radix2(const std::vector<Cx>& x, bool inverse) {
  const std::size_t n = x.size();
  if (n == 1) return x;
  const std::size_t half = n / 2;
  std::vector<Cx> even(half), odd(half);
  for (std::size_t i = 0; i < half; ++i) even[i] = x[2 * i], odd[i] = x[2 * i + 1];
  const std::vector<Cx> e = radix2(even, inverse), o = radix2(odd, inverse);
  std::vector<Cx> out(n);
  for (std::size_t i = 0; i < half; ++i) {
    const double a = angle(static_cast<double>(i), static_cast<double>(n), inverse);
    const Cx t = mul({static_cast<float>(std::cos(a)), static_cast<float>(std::sin(a))}, o[i]);
    out[i] = {e[i].real() + t.real(), e[i].imag() + t.imag()};
    out[i + half] = {e[i].real() - t.real(), e[i].imag() - t.imag()};
  }
  return out;
}

// fourierTransformByMatmul: every output a sum in double over the inputs.
std::vector<Cx> naive_dft(const std::vector<Cx>& x, bool inverse) {
  const std::size_t n = x.size();
  std::vector<Cx> out(n);
  for (std::size_t r = 0; r < n; ++r) {
    double re = 0, im = 0;
    for (std::size_t c = 0; c < n; ++c) {
      const double a = angle(static_cast<double>(r * c), static_cast<double>(n), inverse);
      const double er = std::cos(a), ei = std::sin(a);
      const double tr = x[c].real(), ti = x[c].imag();
      re += tr * er - ti * ei;
      im += tr * ei + ti * er;
    }
    if (inverse) re /= static_cast<double>(n), im /= static_cast<double>(n);
    out[r] = {static_cast<float>(re), static_cast<float>(im)};
  }
  return out;
}

// One row (fftImpl).
std::vector<Cx> transform(const std::vector<Cx>& x, bool inverse) {
  const std::size_t n = x.size();
  if ((n & (n - 1)) != 0) return naive_dft(x, inverse);
  std::vector<Cx> y = radix2(x, inverse);
  if (inverse)  // realDiv by the size, float32 by float32
    for (Cx& v : y)
      v = {static_cast<float>(double{v.real()} / static_cast<double>(static_cast<float>(n))),
           static_cast<float>(double{v.imag()} / static_cast<double>(static_cast<float>(n)))};
  return y;
}

// Rows of n values handed to a pool worker at a time: about 4096 values' worth.
std::int64_t row_grain(std::int64_t n) {
  return std::max<std::int64_t>(1, 4096 / std::max<std::int64_t>(n, 1));
}

// Every row of `rows` x `n` values in `src` transformed into `dst`, rows in parallel.
void transform_rows(const KernelContext& ctx, const Cx* src, Cx* dst, std::int64_t rows,
                    std::int64_t n, bool inverse) {
  parallel_for(ctx.pool, rows, row_grain(n), [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t r = begin; r < end; ++r) {
      const std::vector<Cx> row(src + r * n, src + (r + 1) * n);
      const std::vector<Cx> y = transform(row, inverse);
      std::copy(y.begin(), y.end(), dst + r * n);
    }
  });
}

std::int64_t inner_size(const KernelContext& ctx, const HostTensor& x) {
  if (x.rank() < 1) fail(ctx, "input must have rank >= 1, got a scalar");
  return x.shape.back();
}

std::vector<HostTensor> fft(const KernelContext& ctx, bool inverse) {
  require_inputs(ctx, 1, 1);
  const HostTensor& x = complex_input(ctx, 0);
  const std::int64_t n = inner_size(ctx, x);
  HostTensor out = HostTensor::uninitialized(DType::Complex64, x.shape);
  if (x.num_elements() == 0) return {out};
  transform_rows(ctx, x.values<Cx>().data(), out.mutable_values<Cx>().data(), x.num_elements() / n,
                 n, inverse);
  return {out};
}

// A float32 tensor of f(z) for every value z of the one complex64 input.
template <class F>
std::vector<HostTensor> per_element(const KernelContext& ctx, F f) {
  require_inputs(ctx, 1, 1);
  const HostTensor& x = complex_input(ctx, 0);
  HostTensor out = HostTensor::uninitialized(DType::Float32, x.shape);
  const auto v = x.values<Cx>();
  auto o = out.mutable_values<float>();
  for (std::size_t k = 0; k < o.size(); ++k) o[k] = f(v[k]);
  return {out};
}

}  // namespace

// Complex(real, imag): shapes must be equal, as TF.js's complex() asserts.
std::vector<HostTensor> Complex(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const HostTensor re = convert(input(ctx, 0), DType::Float32);
  const HostTensor im = convert(input(ctx, 1), DType::Float32);
  if (re.shape != im.shape)
    fail(ctx, "real and imag shapes, " + shape_to_string(re.shape) + " and " +
                  shape_to_string(im.shape) + ", must match");
  HostTensor out = HostTensor::uninitialized(DType::Complex64, re.shape);
  const auto r = re.values<float>(), i = im.values<float>();
  auto o = out.mutable_values<Cx>();
  for (std::size_t k = 0; k < o.size(); ++k) o[k] = {r[k], i[k]};
  return {out};
}

std::vector<HostTensor> Real(const KernelContext& ctx) {
  return per_element(ctx, [](Cx z) { return z.real(); });
}

std::vector<HostTensor> Imag(const KernelContext& ctx) {
  return per_element(ctx, [](Cx z) { return z.imag(); });
}

std::vector<HostTensor> Abs(const KernelContext& ctx);

// TF.js maps ComplexAbs to abs(): Math.hypot of the parts for complex64, Abs otherwise.
std::vector<HostTensor> ComplexAbs(const KernelContext& ctx) {
  require_inputs(ctx, 1, 1);
  if (ctx.inputs[0].dtype != DType::Complex64) return Abs(ctx);
  return per_element(
      ctx, [](Cx z) { return static_cast<float>(std::hypot(double{z.real()}, double{z.imag()})); });
}

std::vector<HostTensor> FFT(const KernelContext& ctx) {
  return fft(ctx, false);
}

std::vector<HostTensor> IFFT(const KernelContext& ctx) {
  return fft(ctx, true);
}

// RFFT(x, fft_length): the FFT of x (imaginary parts 0) over the innermost axis, keeping its
// first n / 2 + 1 values. fft_length is read by TF but not by TF.js, whose result this is.
std::vector<HostTensor> RFFT(const KernelContext& ctx) {
  require_inputs(ctx, 1, 2);
  const HostTensor& x = input(ctx, 0);
  if (x.dtype != DType::Float32)
    fail(ctx, "input 0 must be float32, got " + std::string(to_string(x.dtype)));
  const std::int64_t n = inner_size(ctx, x);
  if (n == 0) fail(ctx, "the innermost axis is empty");
  const std::int64_t half = n / 2 + 1, rows = x.num_elements() / n;
  Shape shape = x.shape;
  shape.back() = half;
  HostTensor out = HostTensor::uninitialized(DType::Complex64, shape);
  const float* src = x.values<float>().data();
  Cx* dst = out.mutable_values<Cx>().data();
  parallel_for(ctx.pool, rows, row_grain(n), [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t r = begin; r < end; ++r) {
      std::vector<Cx> row(static_cast<std::size_t>(n));
      for (std::int64_t k = 0; k < n; ++k) row[k] = {src[r * n + k], 0.0f};
      const std::vector<Cx> y = transform(row, false);
      std::copy(y.begin(), y.begin() + half, dst + r * half);
    }
  });
  return {out};
}

// IRFFT(x, fft_length): the inverse of RFFT for the innermost size m: the m values and the
// mirrored conjugates of values 1..m-2 make n = 2 (m - 1) (for m <= 2 the m values alone), whose
// inverse FFT's real parts are the result. TF.js's shape: [d0, d1, n] for a rank-3 input with
// d0 != 0, [batch, n] (outer axes flattened) for every other rank.
std::vector<HostTensor> IRFFT(const KernelContext& ctx) {
  require_inputs(ctx, 1, 2);
  const HostTensor& x = complex_input(ctx, 0);
  const std::int64_t m = inner_size(ctx, x);
  if (m == 0) fail(ctx, "the innermost axis is empty");
  const std::int64_t n = m <= 2 ? m : 2 * (m - 1), rows = x.num_elements() / m;
  const Shape shape =
      x.rank() == 3 && x.shape[0] != 0 ? Shape{x.shape[0], x.shape[1], n} : Shape{rows, n};
  HostTensor out = HostTensor::uninitialized(DType::Float32, shape);
  const Cx* src = x.values<Cx>().data();
  float* dst = out.mutable_values<float>().data();
  parallel_for(ctx.pool, rows, row_grain(n), [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t r = begin; r < end; ++r) {
      const Cx* in = src + r * m;
      std::vector<Cx> row(in, in + m);
      // The conjugate mirror; the imaginary part's sign flips as mul(..., scalar(-1)) does.
      for (std::int64_t k = m - 2; m > 2 && k >= 1; --k)
        row.push_back({in[k].real(), -in[k].imag()});
      const std::vector<Cx> y = transform(row, true);
      for (std::int64_t k = 0; k < n; ++k) dst[r * n + k] = y[k].real();
    }
  });
  return {out};
}

}  // namespace tfjsi::cpu::tensor_ops
