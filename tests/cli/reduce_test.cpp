// tfjsi reduce (issue #23), as a user runs it, on real models: for each condition a model where
// it holds is cut down, the reduced bundle is small, tfjsi still finds the condition at the same
// node when it runs the bundle as written, and real TF.js 4.22 (tests/reference's node_modules)
// loads it with tf.loadGraphModel and runs its repro.js, which shows the condition where TF.js
// can (fp16 overflow, NaN/inf and the failing run on its cpu backend).
#include <QProcess>
#include <QProcessEnvironment>
#include <QtTest>
#include <fstream>

#include "io/npy.h"
#include "quantize_cli.h"
#include "support/test_support.h"

using nlohmann::json;
namespace fs = std::filesystem;
using tfjsi::test::q;
using tfjsi::test::run_tfjsi;

namespace {

json read_json(const fs::path& p) {
  std::ifstream in(p);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  return json::parse(in);
}

tfjsi::test::ProcessResult tfjsi_ok(const QStringList& args) {
  return tfjsi::test::tfjsi_ok(args, 900000);
}

// `tfjsi reduce MODEL --until CONDITION --out OUT --json EXTRA...`; checks what --json and the
// folder hold.
json reduce(const fs::path& model, const QString& until, const fs::path& out,
            const QStringList& extra = {}) {
  const auto r = tfjsi_ok(
      QStringList{"reduce", q(model), "--until", until, "--out", q(out), "--json"} << extra);
  const json j = r.json();
  for (const char* key : {"condition", "nodes_before", "nodes_after", "culprit", "out", "steps"})
    if (!j.contains(key)) throw std::runtime_error(std::string("reduce --json has no ") + key);
  for (const char* f : {"model.json", "inputs.json", "repro.js"})
    if (!fs::exists(out / f)) throw std::runtime_error(std::string("reduce wrote no ") + f);
  // A line per step on stderr, saying how many nodes are left.
  if (!r.err.contains("reduce: step 1 (outputs):") || !r.err.contains("nodes left"))
    throw std::runtime_error("no step lines on stderr: " + r.err.toStdString());
  const json model_json = read_json(out / "model.json");
  if (model_json.value("format", "") != "graph-model")
    throw std::runtime_error("the reduced bundle is not a graph model");
  qInfo("%s: %d -> %d nodes, %d steps, %.2f s, culprit %s", until.toUtf8().constData(),
        j["nodes_before"].get<int>(), j["nodes_after"].get<int>(), j["steps"].get<int>(),
        j["seconds"].get<double>(), j["culprit"].get<std::string>().c_str());
  return j;
}

// --input NAME=FILE for every input the reduced bundle takes.
QStringList feeds(const fs::path& out) {
  QStringList f;
  for (const auto& in : read_json(out / "inputs.json"))
    f << "--input"
      << QString::fromStdString(in["name"].get<std::string>() + "=" +
                                (out / in["file"].get<std::string>()).string());
  return f;
}

// The node check-fp16 (emulated, no fixing runs) names as the first to overflow fp16 in `model`
// fed `extra`; throws when it names none.
std::string first_overflow(const fs::path& model, const QStringList& extra = {}) {
  const json j =
      tfjsi_ok(QStringList{"check-fp16", q(model), "--no-gl", "--max-fix-runs", "0", "--json"}
               << extra)
          .json();
  if (!j["first_overflow"].is_string())
    throw std::runtime_error("check-fp16 names no overflow in " + model.string());
  return j["first_overflow"];
}

struct Node {
  int code = -1;
  QString out, err;
};

// node OUT/repro.js, with tests/reference's @tensorflow/tfjs 4.22.
Node repro(const fs::path& out) {
  const fs::path modules = tfjsi::test::source_dir() / "tests" / "reference" / "node_modules";
  if (!fs::exists(modules / "@tensorflow" / "tfjs"))
    throw std::runtime_error(modules.string() +
                             " has no @tensorflow/tfjs: run tests/reference/make-data.sh");
  QProcess p;
  auto env = QProcessEnvironment::systemEnvironment();
  env.insert("NODE_PATH", q(modules));
  p.setProcessEnvironment(env);
  p.start("node", QStringList{q(out / "repro.js")});
  if (!p.waitForStarted()) throw std::runtime_error("cannot start node");
  if (!p.waitForFinished(600000)) {
    p.kill();
    p.waitForFinished();
    throw std::runtime_error("repro.js did not finish in 10 minutes");
  }
  Node n;
  n.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  n.out = QString::fromUtf8(p.readAllStandardOutput());
  n.err = QString::fromUtf8(p.readAllStandardError());
  qInfo("repro.js (exit %d):\n%s%s", n.code, qPrintable(n.out), qPrintable(n.err));
  return n;
}

void expect_reproduced(const Node& n, const std::string& culprit) {
  QVERIFY2(n.code == 0, qPrintable(n.out + n.err));
  QVERIFY2(n.out.contains("REPRODUCED") && !n.out.contains("NOT REPRODUCED"), qPrintable(n.out));
  QVERIFY2(n.out.contains(QString::fromStdString("node '" + culprit + "'")), qPrintable(n.out));
}

fs::path layers_model(const char* name) {
  return tfjsi::test::reference_dir() / "layers" / name;
}

void write_filled(const fs::path& file, tfjsi::Shape shape, float value) {
  auto t = tfjsi::HostTensor::zeros(tfjsi::DType::Float32, std::move(shape));
  for (float& v : t.mutable_values<float>()) v = value;
  tfjsi::io::write_npy(file, t);
}

}  // namespace

class ReduceTest : public QObject {
  Q_OBJECT

 private slots:
  // The case: blazepose-detector overflows half floats; the reduced bundle holds at most
  // 5% of its nodes and overflows at the node check-fp16 names on the whole model, in tfjsi and
  // in TF.js.
  void fp16OverflowBlazeposeDetector() {
    const fs::path model = tfjsi::test::corpus_model("blazepose-detector");
    const std::string first = first_overflow(model);
    tfjsi::test::TempDir tmp;
    const json r = reduce(model, "fp16-overflow", tmp.path);
    QCOMPARE(r["culprit"].get<std::string>(), first);
    QCOMPARE(r["condition"].get<std::string>(), std::string("fp16-overflow"));
    QVERIFY2(r["nodes_after"].get<double>() <= 0.05 * r["nodes_before"].get<double>(),
             r.dump().c_str());
    QCOMPARE(first_overflow(tmp.path, feeds(tmp.path)), first);
    expect_reproduced(repro(tmp.path), first);
  }

  // A Keras layers model (made by tfjs-layers) reduces to a graph model that TF.js loads with
  // loadGraphModel: the lowered nodes are written as GraphDef JSON.
  void fp16OverflowLayersModel() {
    const fs::path model = layers_model("fp16_overflow");
    const std::string first = first_overflow(model);
    tfjsi::test::TempDir tmp;
    const json r = reduce(model, "fp16-overflow", tmp.path);
    QCOMPARE(r["culprit"].get<std::string>(), first);
    QVERIFY2(r["nodes_after"].get<int>() < r["nodes_before"].get<int>(), r.dump().c_str());
    QCOMPARE(first_overflow(tmp.path, feeds(tmp.path)), first);
    expect_reproduced(repro(tmp.path), first);
  }

  // mobilefacenet fed 1e18 everywhere: its L2 normalization squares values past float32's range
  // (inf), and rsqrt turns that into zeros, so the outputs look finite. The reduced bundle still
  // makes inf at that node, here and in TF.js's cpu backend.
  void nonfiniteInsideMobilefacenet() {
    tfjsi::test::TempDir tmp;
    const fs::path input = tmp.path / "big.npy";
    write_filled(input, {1, 112, 112, 3}, 1e18f);
    const fs::path model = tfjsi::test::corpus_model("mobilefacenet");
    const fs::path out = tmp.path / "reduced";
    const json r = reduce(model, "nonfinite", out, {"--backend", "cpu", "--input", q(input)});
    const std::string culprit = r["culprit"];
    QVERIFY2(r["nodes_after"].get<int>() <= 10, r.dump().c_str());
    const json run =
        tfjsi_ok(QStringList{"run", q(out), "--backend", "cpu", "--json"} << feeds(out)).json();
    std::int64_t bad = 0;
    for (const auto& o : run["outputs"])
      bad += o["nan"].get<std::int64_t>() + o["inf"].get<std::int64_t>();
    QVERIFY2(bad > 0, run.dump().c_str());
    expect_reproduced(repro(out), culprit);
  }

  // blazeface with one node's op renamed to one no backend has (a custom op, as exported models
  // carry): the run fails there; the reduced bundle fails at that node in tfjsi and in TF.js.
  void errorAtAnUnknownOp() {
    tfjsi::test::TempDir tmp;
    const fs::path src = tfjsi::test::corpus_model("blazeface");
    json m = read_json(src);
    auto& nodes = m["modelTopology"]["node"];
    std::vector<std::size_t> relus;
    for (std::size_t i = 0; i < nodes.size(); ++i)
      if (nodes[i]["op"] == "Relu") relus.push_back(i);
    QVERIFY(relus.size() > 4);
    const std::size_t target = relus[relus.size() / 2];
    nodes[target]["op"] = "CustomRelu";
    const std::string culprit = nodes[target]["name"];
    const fs::path model = tmp.path / "model.json";
    std::ofstream(model) << m.dump();
    for (const auto& g : m["weightsManifest"])
      for (const auto& p : g["paths"])
        fs::copy_file(src.parent_path() / p.get<std::string>(), tmp.path / p.get<std::string>());

    const fs::path out = tmp.path / "reduced";
    const json r = reduce(model, "error", out, {"--backend", "cpu"});
    QCOMPARE(r["culprit"].get<std::string>(), culprit);
    QVERIFY2(r["nodes_after"].get<int>() <= 5, r.dump().c_str());
    const auto again = run_tfjsi(QStringList{"run", q(out), "--backend", "cpu"} << feeds(out));
    QVERIFY(!again.crashed);
    QCOMPARE(again.exit_code, 1);
    QVERIFY2(again.err.contains("CustomRelu") && again.err.contains(culprit.c_str()),
             again.err.constData());
    const Node n = repro(out);
    expect_reproduced(n, culprit);
    QVERIFY2(n.out.contains("CustomRelu"), qPrintable(n.out));  // TF.js: op not supported
  }

  // gl at fp16 against cpu on the fp16 overflow model, with a tolerance above half's rounding:
  // the first node past it is the one whose values overflow to inf on gl. The reduced bundle
  // keeps it, tfjsi compare names it again, and TF.js loads it and shows the recorded mismatch.
  void divergeGlFp16() {
    tfjsi::test::TempDir tmp;
    const json r = reduce(layers_model("fp16_overflow"), "diverge:cpu,gl", tmp.path,
                          {"--precision", "fp16", "--tolerance", "0.01"});
    const std::string culprit = r["culprit"];
    QCOMPARE(culprit, std::string("boost/Conv2D"));  // check-fp16's first overflow
    QVERIFY2(r["nodes_after"].get<int>() < r["nodes_before"].get<int>(), r.dump().c_str());
    const json again = tfjsi_ok(QStringList{"compare", q(tmp.path), "--backends", "gl",
                                            "--precision", "fp16", "--tolerance", "0.01", "--json"}
                                << feeds(tmp.path))
                           .json();
    QCOMPARE(again["first_divergent"].get<std::string>(), culprit);
    const Node n = repro(tmp.path);
    expect_reproduced(n, culprit);
  }

  // Exit 1, and nothing to reduce, when the whole model never shows the condition.
  void exitOneWhenItNeverHolds_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("until");
    QTest::newRow("fp16_safe fp16-overflow") << "fp16_safe"
                                             << "fp16-overflow";
    QTest::newRow("fp16_safe nonfinite") << "fp16_safe"
                                         << "nonfinite";
    QTest::newRow("fp16_safe error") << "fp16_safe"
                                     << "error";
    QTest::newRow("fp16_safe diverge:cpu,xnnpack") << "fp16_safe"
                                                   << "diverge:cpu,xnnpack";
  }
  void exitOneWhenItNeverHolds() {
    QFETCH(QString, model);
    QFETCH(QString, until);
    tfjsi::test::TempDir tmp;
    const auto r = run_tfjsi({"reduce", q(layers_model(model.toUtf8().constData())), "--until",
                              until, "--out", q(tmp.path / "out")},
                             600000);
    QVERIFY(!r.crashed);
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.err.contains("never holds"), r.err.constData());
    QVERIFY(!fs::exists(tmp.path / "out" / "model.json"));
  }

  void usageErrors() {
    tfjsi::test::TempDir tmp;
    const QString model = q(layers_model("fp16_safe"));
    for (const QStringList& args :
         {QStringList{"reduce", model, "--out", q(tmp.path / "a")},
          QStringList{"reduce", model, "--until", "overflow", "--out", q(tmp.path / "a")},
          QStringList{"reduce", model, "--until", "diverge:cpu", "--out", q(tmp.path / "a")},
          QStringList{"reduce", model, "--until", "error"},
          QStringList{"reduce", model, "--until", "fp16-overflow", "--backend", "gl", "--out",
                      q(tmp.path / "a")},
          QStringList{"reduce", model, "--until", "error", "--tolerance", "0.1", "--out",
                      q(tmp.path / "a")}}) {
      const auto r = run_tfjsi(args);
      QVERIFY(!r.crashed);
      QVERIFY2(r.exit_code == 2, qPrintable(args.join(' ') + ": " + r.err));
    }
  }
};

QTEST_GUILESS_MAIN(ReduceTest)
#include "reduce_test.moc"
