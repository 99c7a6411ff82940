// cpu kernels of complex numbers and the FFTs (issue #26) against the DFT's definition, summed in
// double here, and TF.js's shapes (RFFT/IRFFT ignore fft_length; IRFFT's [batch, n]); Cast to and
// from complex64; and the refusals: a kernel written for real numbers names the node and the
// complex64 input instead of reading the pairs as floats. The conformance suite (tests/ops)
// checks the same ops against real TF.js's outputs.
#include <QtTest>
#include <complex>
#include <numbers>

#include "backends/cpu/reference.h"
#include "tensor_test_util.h"

using namespace tfjsi;
using namespace tfjsi::test::tensor;

namespace {

using Cx = std::complex<float>;
using Cd = std::complex<double>;

HostTensor c64(Shape shape, const std::vector<Cx>& v) {
  HostTensor t = HostTensor::zeros(DType::Complex64, std::move(shape));
  if (static_cast<std::int64_t>(v.size()) != t.num_elements())
    throw std::logic_error("c64: value count does not match the shape");
  std::copy(v.begin(), v.end(), t.mutable_values<Cx>().begin());
  return t;
}

// Deterministic parts in [-1, 1).
std::vector<Cx> some_values(std::size_t n, unsigned seed) {
  std::vector<Cx> v(n);
  std::uint32_t h = seed * 2654435761u + 1;
  auto next = [&] {
    h = h * 1664525u + 1013904223u;
    return static_cast<float>(h >> 8) / static_cast<float>(1 << 23) - 1.0f;
  };
  for (auto& x : v) x = {next(), next()};
  return v;
}

// The DFT by its definition: sum_k x_k exp(-+2 pi i j k / n), the inverse divided by n.
std::vector<Cd> dft(const std::vector<Cx>& x, bool inverse) {
  const std::size_t n = x.size();
  std::vector<Cd> y(n);
  for (std::size_t j = 0; j < n; ++j) {
    Cd s = 0;
    for (std::size_t k = 0; k < n; ++k)
      s +=
          Cd(x[k]) * std::polar(1.0, (inverse ? 2 : -2) * std::numbers::pi *
                                         static_cast<double>((j * k) % n) / static_cast<double>(n));
    y[j] = inverse ? s / static_cast<double>(n) : s;
  }
  return y;
}

double max_error(std::span<const Cx> got, const std::vector<Cd>& want) {
  double e = 0;
  for (std::size_t i = 0; i < want.size(); ++i) e = std::max(e, std::abs(Cd(got[i]) - want[i]));
  return e;
}

// Runs `op` through the reference kernels' entry point, as the engine's backends do.
std::vector<HostTensor> run_ref(const std::string& op, std::vector<HostTensor> in) {
  return cpu::run_reference(make_node(op), in, nullptr);
}

}  // namespace

class SpectralTest : public QObject {
  Q_OBJECT
 private slots:
  // Powers of two take the radix-2 path, the other sizes the naive DFT; rows are independent.
  void fft_and_ifft_follow_the_definition() {
    for (std::int64_t n : {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 32}) {
      const auto v = some_values(static_cast<std::size_t>(3 * n), static_cast<unsigned>(n));
      const HostTensor x = c64({3, n}, v);
      for (bool inverse : {false, true}) {
        const HostTensor y = run1(inverse ? "IFFT" : "FFT", {x});
        QCOMPARE(y.dtype, DType::Complex64);
        QCOMPARE(y.shape, (Shape{3, n}));
        for (std::int64_t r = 0; r < 3; ++r) {
          const std::vector<Cx> row(v.begin() + r * n, v.begin() + (r + 1) * n);
          const double e = max_error(y.values<Cx>().subspan(r * n, n), dft(row, inverse));
          QVERIFY2(
              e < 1e-5 * n,
              qPrintable(
                  QString("n %1 row %2 inverse %3: error %4").arg(n).arg(r).arg(inverse).arg(e)));
        }
      }
    }
  }

  void fft_of_an_impulse() {
    const HostTensor y = run1("FFT", {c64({4}, {{0, 0}, {1, 0}, {0, 0}, {0, 0}})});
    const auto v = y.values<Cx>();
    const std::vector<Cx> want = {{1, 0}, {0, -1}, {-1, 0}, {0, 1}};
    for (std::size_t i = 0; i < 4; ++i) {
      QCOMPARE(v[i].real() + 2.0f, want[i].real() + 2.0f);  // -0 and tiny twiddle residues alike
      QCOMPARE(v[i].imag() + 2.0f, want[i].imag() + 2.0f);
    }
  }

  // RFFT keeps n / 2 + 1 values of the FFT of (x, 0); fft_length is ignored as by TF.js.
  void rfft_is_half_the_fft() {
    for (std::int64_t n : {5, 6, 8}) {
      std::vector<float> x(static_cast<std::size_t>(2 * n));
      for (std::size_t i = 0; i < x.size(); ++i)
        x[i] = std::sin(0.7f * static_cast<float>(i)) + 0.1f;
      const HostTensor y = run1("RFFT", {f32({2, n}, x), i32({1}, {32})});
      QCOMPARE(y.shape, (Shape{2, n / 2 + 1}));
      for (std::int64_t r = 0; r < 2; ++r) {
        std::vector<Cx> row;
        for (std::int64_t k = 0; k < n; ++k) row.push_back({x[r * n + k], 0});
        auto full = dft(row, false);
        full.resize(static_cast<std::size_t>(n / 2 + 1));
        QVERIFY(max_error(y.values<Cx>().subspan(r * (n / 2 + 1), n / 2 + 1), full) < 1e-5 * n);
      }
    }
  }

  // IRFFT of an RFFT gives the even-length signal back; its shape is TF.js's.
  void irfft_inverts_rfft() {
    std::vector<float> x(24);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::cos(0.3f * static_cast<float>(i * i));
    const HostTensor spectrum = run1("RFFT", {f32({2, 2, 6}, x), i32({1}, {6})});
    QCOMPARE(spectrum.shape, (Shape{2, 2, 4}));
    const HostTensor back = run1("IRFFT", {spectrum, i32({1}, {99})});
    QCOMPARE(back.shape, (Shape{2, 2, 6}));
    const auto got = fvals(back);
    for (std::size_t i = 0; i < x.size(); ++i) QVERIFY(std::abs(got[i] - x[i]) < 1e-5);
    // Other ranks come out as [batch, n]; inner sizes up to 2 are inverted as they are.
    QCOMPARE(run1("IRFFT", {c64({4}, some_values(4, 1)), i32({1}, {6})}).shape, (Shape{1, 6}));
    QCOMPARE(run1("IRFFT", {c64({2, 1, 3, 4}, some_values(24, 2)), i32({1}, {6})}).shape,
             (Shape{6, 6}));
    QCOMPARE(run1("IRFFT", {c64({0, 2, 4}, {}), i32({1}, {6})}).shape, (Shape{0, 6}));
    const HostTensor two = run1("IRFFT", {c64({1, 2}, {{3, 1}, {1, 5}}), i32({1}, {2})});
    QCOMPARE(two.shape, (Shape{1, 2}));
    QCOMPARE(fvals(two), (std::vector<float>{2, 1}));  // ifft: ((3+1)/2, (3-1)/2) real parts
  }

  void parts_and_magnitude() {
    const HostTensor z = run1("Complex", {f32({3}, {3, -1, 0}), i32({3}, {4, 2, -5})});
    QCOMPARE(z.dtype, DType::Complex64);
    QCOMPARE(fvals(run1("Real", {z})), (std::vector<float>{3, -1, 0}));
    QCOMPARE(fvals(run1("Imag", {z})), (std::vector<float>{4, 2, -5}));
    const auto abs = fvals(run1("ComplexAbs", {z}));
    QCOMPARE(abs[0], 5.0f);
    QCOMPARE(abs[1], static_cast<float>(std::sqrt(5.0)));
    QCOMPARE(abs[2], 5.0f);
    // TF.js's abs() of a real tensor: Abs, int32 kept.
    QCOMPARE(ivals(run1("ComplexAbs", {i32({2}, {-3, 4})})), (std::vector<std::int32_t>{3, 4}));
    QVERIFY_THROWS_EXCEPTION(ModelError, run1("Complex", {f32({2}, {1, 2}), f32({1}, {1})}));
    QVERIFY_THROWS_EXCEPTION(ModelError, run1("Real", {f32({1}, {1})}));
    QVERIFY_THROWS_EXCEPTION(ModelError, run1("FFT", {f32({2}, {1, 2})}));
  }

  void cast_to_and_from_complex() {
    const graph::Node to = make_node("Cast", {{"DstT", graph::TypeAttr{"DT_COMPLEX64"}}});
    const HostTensor z = run(to, {i32({2}, {7, -2})}).front();
    QCOMPARE(z.dtype, DType::Complex64);
    QCOMPARE(z.values<Cx>()[0], Cx(7, 0));
    QCOMPARE(z.values<Cx>()[1], Cx(-2, 0));
    const graph::Node from = make_node("Cast", {{"DstT", graph::TypeAttr{"DT_INT32"}}});
    QCOMPARE(ivals(run(from, {c64({2}, {{2.9f, 8}, {-1.5f, 1}})}).front()),
             (std::vector<std::int32_t>{2, -1}));
  }

  // Add, Sub and Mul take complex operands as TF.js's cpu backend does (a real one as (x, 0)),
  // ConcatV2 complex tensors with each other.
  void arithmetic_on_complex() {
    const HostTensor a = c64({2}, {{1, 2}, {-3, 0.5f}});
    const HostTensor b = c64({2}, {{0.5f, -1}, {2, 4}});
    auto cvals = [](const HostTensor& t) {
      return std::vector<Cx>(t.values<Cx>().begin(), t.values<Cx>().end());
    };
    QCOMPARE(cvals(run_ref("AddV2", {a, b}).front()), (std::vector<Cx>{{1.5f, 1}, {-1, 4.5f}}));
    QCOMPARE(cvals(run_ref("Sub", {a, b}).front()), (std::vector<Cx>{{0.5f, 3}, {-5, -3.5f}}));
    // (1 + 2i)(0.5 - i) = 2.5 + 0i; (-3 + 0.5i)(2 + 4i) = -8 - 11i.
    QCOMPARE(cvals(run_ref("Mul", {a, b}).front()), (std::vector<Cx>{{2.5f, 0}, {-8, -11}}));
    const HostTensor two = f32({}, {2});
    QCOMPARE(cvals(run_ref("Mul", {a, two}).front()), (std::vector<Cx>{{2, 4}, {-6, 1}}));
    QCOMPARE(run_ref("ConcatV2", {a, b, i32({}, {0})}).front().shape, (Shape{4}));
    try {
      run_ref("ConcatV2", {a, two, i32({}, {0})});
      QFAIL("ConcatV2 of complex64 and float32 ran");
    } catch (const ModelError& e) {
      QVERIFY2(QString(e.what()).contains("complex64"), e.what());
    }
  }

  // Shape-only and re-viewing ops take complex tensors; the others refuse them by name.
  void kernels_for_real_numbers_refuse_complex() {
    const HostTensor z = c64({2, 2}, some_values(4, 3));
    const HostTensor r = run_ref("Reshape", {z, i32({1}, {4})}).front();
    QCOMPARE(r.dtype, DType::Complex64);
    QCOMPARE(r.shape, (Shape{4}));
    QCOMPARE(ivals(run_ref("Shape", {z}).front()), (std::vector<std::int32_t>{2, 2}));
    for (const char* op : {"RealDiv", "Maximum", "Transpose", "Relu", "Sum"}) {
      try {
        run_ref(op, {z, z});
        QFAIL(qPrintable(QString(op) + " ran on complex64"));
      } catch (const ModelError& e) {
        const QString msg = e.what();
        QVERIFY2(msg.contains("test/" + QString(op)) && msg.contains("complex64") &&
                     msg.contains("input 0"),
                 qPrintable(msg));
      }
    }
    // A kernel called directly (not through the entry point) still refuses at its input().
    QVERIFY_THROWS_EXCEPTION(ModelError, run1("Abs", {z}));
  }
};

QTEST_GUILESS_MAIN(SpectralTest)
#include "spectral_test.moc"
