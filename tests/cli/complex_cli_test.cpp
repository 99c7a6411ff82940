// complex64 end to end through tfjsi (issue #26): a complex model input read from numpy's '<c8',
// an FFT whose complex output is written back as '<c8' and compared with the DFT's definition,
// shapes and dtypes in `tfjsi info`, xnnpack and gl running the complex nodes on cpu with the
// reason in the plan, and a kernel for real numbers refusing a complex input by name.
#include <QtTest>
#include <complex>
#include <fstream>
#include <numbers>

#include "core/host_tensor.h"
#include "io/npy.h"
#include "support/test_support.h"

namespace fs = std::filesystem;
using tfjsi::DType;
using tfjsi::HostTensor;
using Cx = std::complex<float>;

namespace {

// x (complex64 [2, 4]) -> FFT -> y (Identity, complex) and m = ComplexAbs(FFT) (float32).
constexpr const char* kFftModel = R"({
  "format": "graph-model",
  "modelTopology": {
    "node": [
      {"name": "x", "op": "Placeholder",
       "attr": {"dtype": {"type": "DT_COMPLEX64"},
                "shape": {"shape": {"dim": [{"size": "2"}, {"size": "4"}]}}}},
      {"name": "f", "op": "FFT", "input": ["x"], "attr": {"Tcomplex": {"type": "DT_COMPLEX64"}}},
      {"name": "y", "op": "Identity", "input": ["f"], "attr": {"T": {"type": "DT_COMPLEX64"}}},
      {"name": "m", "op": "ComplexAbs", "input": ["f"],
       "attr": {"T": {"type": "DT_COMPLEX64"}, "Tout": {"type": "DT_FLOAT"}}}
    ],
    "versions": {"producer": 1}
  },
  "weightsManifest": []
})";

// x (complex64 [3]) -> Maximum(x, x): TF.js's cpu backend refuses complex64 there, and so do we.
constexpr const char* kMaxModel = R"({
  "format": "graph-model",
  "modelTopology": {
    "node": [
      {"name": "x", "op": "Placeholder",
       "attr": {"dtype": {"type": "DT_COMPLEX64"}, "shape": {"shape": {"dim": [{"size": "3"}]}}}},
      {"name": "larger", "op": "Maximum", "input": ["x", "x"], "attr": {"T": {"type": "DT_COMPLEX64"}}}
    ],
    "versions": {"producer": 1}
  },
  "weightsManifest": []
})";

std::vector<Cx> input_values() {
  return {{1, 0}, {2, -1}, {0, 0.5f}, {-3, 2}, {0.25f, 1}, {4, 4}, {-1, -1}, {0, 3}};
}

// The DFT of each row of 4 by its definition.
std::vector<std::complex<double>> expected_fft() {
  const auto x = input_values();
  std::vector<std::complex<double>> y;
  for (int r = 0; r < 2; ++r)
    for (int j = 0; j < 4; ++j) {
      std::complex<double> s = 0;
      for (int k = 0; k < 4; ++k)
        s += std::complex<double>(x[r * 4 + k]) *
             std::polar(1.0, -std::numbers::pi * (j * k % 4) / 2);
      y.push_back(s);
    }
  return y;
}

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

class ComplexCliTest : public QObject {
  Q_OBJECT

  tfjsi::test::TempDir tmp_;
  QString fft_, max_, input_;

  QString model(const std::string& dir, const char* json) {
    fs::create_directories(tmp_.path / dir);
    std::ofstream(tmp_.path / dir / "model.json") << json;
    return QString::fromStdString((tmp_.path / dir).string());
  }

 private slots:
  void initTestCase() {
    fft_ = model("fft", kFftModel);
    max_ = model("max", kMaxModel);
    HostTensor x = HostTensor::zeros(DType::Complex64, {2, 4});
    const auto v = input_values();
    std::copy(v.begin(), v.end(), x.mutable_values<Cx>().begin());
    const fs::path p = tmp_.path / "x.npy";
    tfjsi::io::write_npy(p, x);
    input_ = QString::fromStdString(p.string());
  }

  void npyHoldsNumpysComplex64() {
    const std::string bytes = file_bytes(input_.toStdString());
    QVERIFY2(bytes.find("'descr': '<c8'") != std::string::npos, bytes.substr(0, 80).c_str());
    QCOMPARE(bytes.size() % 64, std::size_t(0));  // 64-byte header + 8 elements of 8 bytes
  }

  void infoShowsComplexShapes() {
    const auto r = tfjsi::test::run_tfjsi({"info", fft_, "--json"});
    QVERIFY2(r.exit_code == 0, r.err.constData());
    const auto j = r.json();
    QCOMPARE(j["inputs"][0]["dtype"].get<std::string>(), std::string("complex64"));
    for (const auto& o : j["outputs"]) {
      const std::string name = o["name"].get<std::string>();
      QCOMPARE(o["shape"], nlohmann::json::array({2, 4}));
      QCOMPARE(o["dtype"].get<std::string>(), std::string(name == "y" ? "complex64" : "float32"));
    }
  }

  void runWritesComplexOutputs() {
    for (const char* backend : {"cpu", "xnnpack", "gl"}) {
      const fs::path out = tmp_.path / (std::string("out_") + backend);
      const auto r =
          tfjsi::test::run_tfjsi({"run", fft_, "--backend", backend, "--input", "x=" + input_,
                                  "--out", QString::fromStdString(out.string()), "--json"});
      if (r.exit_code == 3) continue;  // backend not available here
      QVERIFY2(r.exit_code == 0, r.err.constData());
      const auto j = r.json();
      if (std::string(backend) != "cpu") {
        // The FFT and ComplexAbs nodes read complex64: cpu runs them, and the plan says why.
        int complex_fallbacks = 0;
        for (const auto& f : j["placement"]["fallbacks"])
          complex_fallbacks +=
              f["message"].get<std::string>().find("complex64") != std::string::npos;
        QVERIFY2(complex_fallbacks == 2, j["placement"].dump().c_str());
      }
      const auto listed = nlohmann::json::parse(file_bytes(out / "outputs.json"));
      std::map<std::string, nlohmann::json> by_name;
      for (const auto& o : listed) by_name[o["name"].get<std::string>()] = o;
      QCOMPARE(by_name["y"]["dtype"].get<std::string>(), std::string("complex64"));
      const HostTensor y = tfjsi::io::read_npy(out / by_name["y"]["file"].get<std::string>());
      const HostTensor m = tfjsi::io::read_npy(out / by_name["m"]["file"].get<std::string>());
      QCOMPARE(y.dtype, DType::Complex64);
      QCOMPARE(m.dtype, DType::Float32);
      const auto want = expected_fft();
      for (std::size_t i = 0; i < want.size(); ++i) {
        QVERIFY(std::abs(std::complex<double>(y.values<Cx>()[i]) - want[i]) < 1e-5);
        QVERIFY(std::abs(m.values<float>()[i] - std::abs(want[i])) < 1e-5);
      }
      QVERIFY(file_bytes(out / by_name["y"]["file"].get<std::string>()).find("'<c8'") !=
              std::string::npos);
    }
  }

  void realOnlyKernelRefusesComplex() {
    const auto r = tfjsi::test::run_tfjsi({"run", max_, "--backend", "cpu"});
    QVERIFY2(!r.crashed, r.err.constData());
    QCOMPARE(r.exit_code, 1);
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.contains("'larger'") && err.contains("Maximum") && err.contains("complex64"),
             qPrintable(err));
  }
};

QTEST_GUILESS_MAIN(ComplexCliTest)
#include "complex_cli_test.moc"
