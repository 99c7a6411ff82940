// Bad input to `tfjsi run`, as a user meets it: a wrong shape or dtype, an input the model does not
// have, a partial feed, unreadable .npy files, NaN with `prod` off. Each must end with exit code 1
// and a message naming the input or the file, never a crash; the good cases around them must pass,
// so that a test of the refusals cannot pass by refusing everything.
#include <QtTest>
#include <cmath>
#include <fstream>

#include "core/host_tensor.h"
#include "io/npy.h"
#include "support/test_support.h"

namespace fs = std::filesystem;
using tfjsi::DType;
using tfjsi::HostTensor;

namespace {

// x, y (Placeholder float32 [1,4]) -> z = x + y. No weights.
constexpr const char* kTwoInputModel = R"({
  "format": "graph-model",
  "modelTopology": {
    "node": [
      {"name": "x", "op": "Placeholder",
       "attr": {"dtype": {"type": "DT_FLOAT"},
                "shape": {"shape": {"dim": [{"size": "1"}, {"size": "4"}]}}}},
      {"name": "y", "op": "Placeholder",
       "attr": {"dtype": {"type": "DT_FLOAT"},
                "shape": {"shape": {"dim": [{"size": "1"}, {"size": "4"}]}}}},
      {"name": "z", "op": "AddV2", "input": ["x", "y"], "attr": {"T": {"type": "DT_FLOAT"}}}
    ],
    "versions": {"producer": 1}
  },
  "weightsManifest": []
})";

HostTensor float_tensor(tfjsi::Shape shape, float fill) {
  HostTensor t = HostTensor::zeros(DType::Float32, std::move(shape));
  for (float& v : t.mutable_values<float>()) v = fill;
  return t;
}

}  // namespace

class RunInputTest : public QObject {
  Q_OBJECT

  tfjsi::test::TempDir tmp_;
  QString sample_;  // resources/sample: one input conv1_input float32 [?,28,28,1]
  QString two_inputs_;

  QString npy(const std::string& name, const HostTensor& t) {
    const fs::path p = tmp_.path / name;
    tfjsi::io::write_npy(p, t);
    return QString::fromStdString(p.string());
  }
  QString raw(const std::string& name, const std::string& bytes) {
    const fs::path p = tmp_.path / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return QString::fromStdString(p.string());
  }

  // Exit code 1, no crash, and stderr names each of `culprits`.
  void expect_refused(const QStringList& args, const QStringList& culprits) {
    const auto r = tfjsi::test::run_tfjsi(args, 60000);
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(!r.crashed, qPrintable("crashed: " + err));
    QVERIFY2(r.exit_code == 1, qPrintable(QString("exit %1: %2").arg(r.exit_code).arg(err)));
    for (const auto& c : culprits)
      QVERIFY2(err.contains(c), qPrintable("'" + c + "' not named in: " + err));
  }

 private slots:
  void initTestCase() {
    sample_ = QString::fromStdString((tfjsi::test::source_dir() / "resources" / "sample").string());
    fs::create_directories(tmp_.path / "two");
    std::ofstream(tmp_.path / "two" / "model.json") << kTwoInputModel;
    two_inputs_ = QString::fromStdString((tmp_.path / "two").string());
  }

  void aGoodInputRuns() {
    const auto r =
        tfjsi::test::run_tfjsi({"run", sample_, "--backend", "cpu", "--input",
                                npy("ok.npy", float_tensor({1, 28, 28, 1}, 0.5f)), "--json"});
    QVERIFY2(r.exit_code == 0, r.err.constData());
    const auto j = r.json();
    QCOMPARE(j["inputs"][0]["source"].get<std::string>(), std::string("file"));
  }

  void wrongShape() {
    expect_refused({"run", sample_, "--backend", "cpu", "--input",
                    npy("shape.npy", float_tensor({1, 3, 3}, 0.f))},
                   {"conv1_input", "[1,3,3]", "28"});
  }

  void wrongDtype() {
    expect_refused({"run", sample_, "--backend", "cpu", "--input",
                    npy("dtype.npy", HostTensor::zeros(DType::Int32, {1, 28, 28, 1}))},
                   {"conv1_input", "int32", "float32"});
  }

  void inputTheModelDoesNotHave() {
    expect_refused({"run", sample_, "--backend", "cpu", "--input",
                    "nosuch=" + npy("named.npy", float_tensor({1, 28, 28, 1}, 0.f))},
                   {"nosuch", "conv1_input"});
  }

  void partialFeedNamesTheMissingInput() {
    const QString x = npy("x.npy", float_tensor({1, 4}, 1.f));
    expect_refused({"run", two_inputs_, "--backend", "cpu", "--input", "x=" + x}, {"'y'"});
    // With both given, or neither (the generator), it runs.
    const QString y = npy("y.npy", float_tensor({1, 4}, 2.f));
    const auto both = tfjsi::test::run_tfjsi({"run", two_inputs_, "--backend", "cpu", "--input",
                                              "x=" + x, "--input", "y=" + y, "--json"});
    QVERIFY2(both.exit_code == 0, both.err.constData());
    QCOMPARE(both.json()["outputs"][0]["max"].get<double>(), 3.0);
    QCOMPARE(tfjsi::test::run_tfjsi({"run", two_inputs_, "--backend", "cpu"}).exit_code, 0);
  }

  void unreadableNpyFiles() {
    expect_refused({"run", sample_, "--input", raw("garbage.npy", "not a numpy file")},
                   {"garbage.npy"});
    expect_refused(
        {"run", sample_, "--input", QString::fromStdString((tmp_.path / "absent.npy").string())},
        {"absent.npy"});
    // A valid header over too little data.
    const HostTensor whole = float_tensor({1, 28, 28, 1}, 0.f);
    const QString full = npy("full.npy", whole);
    std::string bytes;
    {
      std::ifstream in(full.toStdString(), std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    expect_refused(
        {"run", sample_, "--input", raw("short.npy", bytes.substr(0, bytes.size() - 100))},
        {"short.npy"});
    expect_refused({"run", sample_, "--input", raw("header.npy", bytes.substr(0, 20))},
                   {"header.npy"});
  }

  void nanInputIsRefusedUnlessProd() {
    HostTensor t = float_tensor({1, 28, 28, 1}, 0.f);
    t.mutable_values<float>()[5] = std::nanf("");
    const QString file = npy("nan.npy", t);
    expect_refused({"run", sample_, "--backend", "cpu", "--input", file}, {"conv1_input", "NaN"});
    // prod skips the scan (as TF.js does): the run goes through.
    const auto r = tfjsi::test::run_tfjsi(
        {"run", sample_, "--backend", "cpu", "--input", file, "--flag", "prod=true"});
    QVERIFY2(r.exit_code == 0, r.err.constData());
  }
};

QTEST_GUILESS_MAIN(RunInputTest)
#include "run_input_test.moc"
