// Bundles written by `tfjsi quantize` in real TF.js 4.22 (issue #23). For a corpus graph model and
// a reference layers model, each dtype: TF.js loads the bundle and runs it on the golden inputs;
// our cpu outputs on the same bundle match TF.js's within DESIGN.md's tolerance; TF.js's own drift
// (quantized against its float outputs, the golden ones) is the drift `quantize` and
// `quantize --advise` reported, within 10% or 1e-5; uint8 shards are at most 0.3x the float32 ones.
#include <QProcess>
#include <QtTest>
#include <cmath>
#include <fstream>

#include "io/npy.h"
#include "quantize_cli.h"
#include "support/test_support.h"

using nlohmann::json;
namespace fs = std::filesystem;
using tfjsi::test::q;
using tfjsi::test::tfjsi_ok;

namespace {

json read_json(const fs::path& p) {
  std::ifstream in(p);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  return json::parse(in);
}

struct Outputs {
  std::vector<tfjsi::HostTensor> tensors;
};
Outputs read_outputs(const fs::path& dir, const json& list) {
  Outputs o;
  for (const auto& e : list)
    o.tensors.push_back(tfjsi::io::read_npy(dir / e["file"].get<std::string>()));
  return o;
}

// max over float outputs of max|test - ref| / max(1, max|ref|); `worst` names the output.
double drift(const Outputs& ref, const Outputs& test) {
  if (ref.tensors.size() != test.tensors.size()) throw std::runtime_error("output counts differ");
  double d = 0;
  for (std::size_t k = 0; k < ref.tensors.size(); ++k) {
    const auto& a = ref.tensors[k];
    const auto& b = test.tensors[k];
    if (a.shape != b.shape || a.dtype != b.dtype)
      throw std::runtime_error("output " + std::to_string(k) + ": shape or dtype differs");
    if (a.dtype != tfjsi::DType::Float32) continue;
    const auto x = a.values<float>(), y = b.values<float>();
    double err = 0, mag = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (!std::isfinite(x[i]) || !std::isfinite(y[i])) return INFINITY;
      mag = std::max(mag, std::abs(double(x[i])));
      err = std::max(err, std::abs(double(x[i]) - double(y[i])));
    }
    d = std::max(d, err / std::max(1.0, mag));
  }
  return d;
}

// tests/cli/tfjs_run_bundle.mjs with tests/reference's TF.js.
void run_tfjs(const fs::path& model_json, const std::string& kind, const fs::path& out,
              const QStringList& feeds) {
  const fs::path pkg = tfjsi::test::source_dir() / "tests" / "reference";
  if (!fs::exists(pkg / "node_modules" / "@tensorflow" / "tfjs"))
    throw std::runtime_error(
        pkg.string() + "/node_modules has no @tensorflow/tfjs: run tests/reference/make-data.sh");
  QProcess p;
  p.start("node",
          QStringList{q(tfjsi::test::source_dir() / "tests" / "cli" / "tfjs_run_bundle.mjs"),
                      q(pkg), q(model_json), QString::fromStdString(kind), q(out)}
              << feeds);
  if (!p.waitForStarted()) throw std::runtime_error("cannot start node");
  if (!p.waitForFinished(600000)) {
    p.kill();
    p.waitForFinished();
    throw std::runtime_error("TF.js did not finish in 10 minutes");
  }
  if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
    throw std::runtime_error("TF.js failed on " + model_json.string() + ": " +
                             p.readAllStandardError().toStdString());
}

}  // namespace

class QuantizeTfjsTest : public QObject {
  Q_OBJECT

 private slots:
  void tfjsRunsWhatWeWrite_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("dtype");
    for (const char* m : {"emotion", "seq_cnn"})
      for (const char* d : {"uint8", "uint16", "float16"})
        QTest::newRow((std::string(m) + " " + d).c_str()) << m << d;
  }
  void tfjsRunsWhatWeWrite() {
    QFETCH(QString, model);
    QFETCH(QString, dtype);
    const fs::path ref = tfjsi::test::reference_dir();
    const fs::path gdir = ref / "golden" / model.toStdString();
    const json golden = read_json(gdir / "golden.json");
    fs::path src = golden["model"].get<std::string>();
    if (src.is_relative()) src = ref / src;
    const std::string kind = golden["kind"];

    // Our feeds (by name, as `tfjsi run` takes them) and TF.js's (by signature key).
    QStringList ours, theirs;
    for (const auto& in : golden["inputs"]) {
      const std::string file = (gdir / in["file"].get<std::string>()).string();
      const std::string name =
          in.contains("key") ? in["key"].get<std::string>() : in["name"].get<std::string>();
      ours << "--input" << QString::fromStdString(name + "=" + file);
      theirs << QString::fromStdString(name + "=" + file);
    }

    tfjsi::test::TempDir tmp;
    const fs::path bundle = tmp.path / "bundle";
    const json report =
        tfjsi_ok(QStringList{"quantize", q(src), "--dtype", dtype, "--out", q(bundle), "--json"}
                 << ours)
            .json();
    run_tfjs(bundle / "model.json", kind, tmp.path / "tfjs", theirs);
    tfjsi_ok(QStringList{"run", q(bundle), "--backend", "cpu", "--out", q(tmp.path / "ours")}
             << ours);

    const Outputs tfjs_q =
        read_outputs(tmp.path / "tfjs", read_json(tmp.path / "tfjs" / "outputs.json"));
    const Outputs ours_q =
        read_outputs(tmp.path / "ours", read_json(tmp.path / "ours" / "outputs.json"));
    const Outputs tfjs_float = read_outputs(gdir, golden["outputs"]);

    // 1. The same quantized bundle computes the same in TF.js and here.
    const double ours_vs_tfjs = drift(tfjs_q, ours_q);
    QVERIFY2(ours_vs_tfjs <= 1e-3,
             qPrintable(QString("ours against TF.js on the %1 bundle: %2 > 1e-3")
                            .arg(dtype)
                            .arg(ours_vs_tfjs)));

    // 2. TF.js's drift from its float outputs is what quantize reported.
    const double tfjs_drift = drift(tfjs_float, tfjs_q);
    const double reported = report["drift"].get<double>();
    QVERIFY2(
        std::abs(tfjs_drift - reported) <= std::max(0.1 * reported, 1e-5),
        qPrintable(
            QString("%1: TF.js drift %2, reported %3").arg(dtype).arg(tfjs_drift).arg(reported)));
    // ... and what --advise reported for this dtype with no weight kept float32.
    const json advice =
        tfjsi_ok(QStringList{"quantize", q(src), "--advise", "--json"} << ours).json();
    double advised = -1;
    for (const auto& o : advice["options"])
      if (o["dtype"] == dtype.toStdString() && o["kept_groups"].empty()) advised = o["drift"];
    QVERIFY2(
        std::abs(tfjs_drift - advised) <= std::max(0.1 * advised, 1e-5),
        qPrintable(
            QString("%1: TF.js drift %2, advised %3").arg(dtype).arg(tfjs_drift).arg(advised)));
    qInfo("%s %s: drift reported %g, in TF.js %g; ours vs TF.js %g; %zu of %zu float32 bytes",
          qPrintable(model), qPrintable(dtype), reported, tfjs_drift, ours_vs_tfjs,
          report["bytes"].get<std::size_t>(), report["float_bytes"].get<std::size_t>());

    // 3. uint8 shrinks the download to at most 0.3x.
    if (dtype == "uint8")
      QVERIFY(report["bytes"].get<double>() <= 0.3 * report["float_bytes"].get<double>());
  }
};

QTEST_GUILESS_MAIN(QuantizeTfjsTest)
#include "quantize_tfjs_test.moc"
