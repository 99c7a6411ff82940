// Runtime faults of issue #8, each forced here and each ending in a message, never a crash:
//  - NaN in a weight with flag `prod` off: the executor refuses the model when its weights become
//    resident, naming the Const node (the weight) and the element; with `prod` on it runs, and the
//    NaN reaches the outputs as it would in TF.js. `tfjsi run` exits 1 with the same message.
//  - cancel in the middle of a run: the engine-level hook is an observer that throws from
//    before_kernel (what the GUI's Cancel uses). Cancelled at the first node, half way and at the
//    last node, on every backend, and inside handtrack's TF1 loops: the exception reaches the
//    caller, every tensor the run made is gone, and the next run gives the uncancelled outputs.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <fstream>

#include "backends/all_backends.h"
#include "core/error.h"
#include "graph/build.h"
#include "io/deterministic_input.h"
#include "model/bundle.h"
#include "runtime/executor.h"
#include "runtime/observer.h"
#include "support/test_support.h"

using namespace tfjsi;
namespace fs = std::filesystem;

namespace {

runtime::NamedTensors inputs_for(const graph::Graph& graph) {
  runtime::NamedTensors inputs;
  for (const auto& e : graph.inputs)
    inputs[e.name] =
        io::deterministic_tensor(e.dtype.value_or(DType::Float32), io::default_shape(e.shape));
  return inputs;
}

bool same(const std::vector<HostTensor>& a, const std::vector<HostTensor>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (a[k].shape != b[k].shape || a[k].byte_size() != b[k].byte_size() ||
        (a[k].byte_size() &&
         std::memcmp(a[k].buffer->data(), b[k].buffer->data(), a[k].byte_size()) != 0))
      return false;
  return true;
}

// Counts kernels; throws the engine's Cancelled (what the GUI's Cancel throws) before kernel number
// `at` (1-based) when `at` > 0.
class CancelAt final : public runtime::Observer {
 public:
  int at = 0;
  int seen = 0;
  void run_started() override { seen = 0; }
  void before_kernel(const runtime::KernelEvent&) override {
    if (++seen == at) throw Cancelled();
  }
};

// A copy of blazeface whose first float32 weight holds NaN at element 3.
struct NanModel {
  test::TempDir dir;
  fs::path json;
  std::string weight;
  NanModel() {
    json = dir.path / "blazeface.json";
    fs::copy_file(test::corpus_model("blazeface"), json);
    fs::copy_file(test::corpus_dir() / "blazeface.bin", dir.path / "blazeface.bin");
    const auto j = nlohmann::json::parse(std::ifstream(json));
    const auto& w0 = j["weightsManifest"][0]["weights"][0];
    if (w0["dtype"] != "float32" || w0.contains("quantization"))
      throw std::runtime_error("blazeface's first weight is not plain float32");
    weight = w0["name"];
    const float nan = std::nanf("");
    std::fstream f(dir.path / "blazeface.bin", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(3 * sizeof(float));
    f.write(reinterpret_cast<const char*>(&nan), sizeof nan);
    if (!f.good()) throw std::runtime_error("cannot write the NaN");
  }
};

}  // namespace

class FaultTest : public QObject {
  Q_OBJECT

 private slots:
  void nanWeightIsRefusedByName() {
    NanModel m;
    const model::Bundle bundle = model::load_bundle(m.json);
    const graph::Graph graph = graph::build_graph(bundle);
    runtime::Engine engine;
    backends::add_all_backends(engine);
    engine.set_backend("cpu");
    try {
      runtime::Executor executor(engine, graph);
      QFAIL("a model with a NaN weight was accepted with prod off");
    } catch (const ModelError& e) {
      qInfo("%s", e.what());
      const QString msg = e.what();
      QVERIFY2(msg.contains(QString::fromStdString("node '" + m.weight + "' (Const)")), e.what());
      QVERIFY2(msg.contains("NaN (element 3 of"), e.what());
    }
    QCOMPARE(engine.memory().total.num_tensors, std::size_t(0));  // nothing left behind

    // prod on: it runs, and the NaN shows in the outputs (the weight feeds the first conv).
    engine.flags().set_value("prod", true);
    runtime::Executor executor(engine, graph);
    const auto out = executor.run(inputs_for(graph));
    bool any_nan = false;
    for (const auto& t : out)
      if (t.dtype == DType::Float32)
        for (float v : t.values<float>()) any_nan |= std::isnan(v);
    QVERIFY(any_nan);
  }

  void nanWeightFromTheCommandLine() {
    NanModel m;
    const auto r =
        test::run_tfjsi({"run", QString::fromStdString(m.json.string()), "--backend", "cpu"});
    QVERIFY(!r.crashed);
    QCOMPARE(r.exit_code, 1);
    qInfo("tfjsi run: %s", r.err.trimmed().constData());
    QVERIFY2(r.err.contains(("node '" + m.weight + "' (Const): weight holds NaN").c_str()),
             r.err.constData());
    const auto ok = test::run_tfjsi({"run", QString::fromStdString(m.json.string()), "--backend",
                                     "cpu", "--flag", "prod=true"});
    QVERIFY(!ok.crashed);
    QCOMPARE(ok.exit_code, 0);
  }

  void cancelMidRun_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("backend");
    for (const char* m : {"blazeface", "handtrack"})
      for (const char* b : {"cpu", "xnnpack", "gl"})
        QTest::newRow(qPrintable(QString("%1 %2").arg(m, b))) << m << b;
  }

  void cancelMidRun() {
    QFETCH(QString, model);
    QFETCH(QString, backend);
    const model::Bundle bundle = model::load_bundle(test::corpus_model(model.toStdString()));
    const graph::Graph graph = graph::build_graph(bundle);
    runtime::Engine engine;
    backends::add_all_backends(engine);
    engine.set_backend(backend.toStdString());  // throws, failing the test, if gl cannot start
    CancelAt cancel;
    engine.add_observer(&cancel);
    runtime::Executor executor(engine, graph);
    const auto inputs = inputs_for(graph);
    const auto reference = executor.run(inputs);
    const int kernels = cancel.seen;
    QVERIFY(kernels > 10);
    const auto settled = engine.memory().total;
    const auto live = engine.live_tensors().size();
    for (const int at : {1, kernels / 2, kernels - 1, kernels}) {
      cancel.at = at;
      try {
        executor.run(inputs);
        QFAIL(qPrintable(QString("no cancel at kernel %1 of %2").arg(at).arg(kernels)));
      } catch (const Cancelled&) {
      }
      const auto after = engine.memory().total;
      QVERIFY2(after.num_tensors == settled.num_tensors && after.num_bytes == settled.num_bytes &&
                   engine.live_tensors().size() == live,
               qPrintable(QString("cancel at kernel %1 of %2 left %3 tensors, %4 bytes (settled: "
                                  "%5, %6)")
                              .arg(at)
                              .arg(kernels)
                              .arg(after.num_tensors)
                              .arg(after.num_bytes)
                              .arg(settled.num_tensors)
                              .arg(settled.num_bytes)));
      cancel.at = 0;
      QVERIFY2(same(executor.run(inputs), reference),
               qPrintable(QString("outputs changed after a cancel at kernel %1").arg(at)));
    }
    engine.remove_observer(&cancel);
  }
};

QTEST_GUILESS_MAIN(FaultTest)
#include "fault_test.moc"
