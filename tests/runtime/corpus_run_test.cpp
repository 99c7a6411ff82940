// A real corpus model end to end on cpu: load, build, run with the deterministic inputs of
// DESIGN.md (with the oracle's input overrides), twice. Checks the outputs against the model's
// declared endpoints, that the two runs agree bit for bit, that a run leaves memory as it found it
// (only the weights stay), and that intermediates were freed along the way (peak live bytes well
// under the bytes all kernels made). Run once per model: the model's name is the first argument.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "graph/build.h"
#include "io/deterministic_input.h"
#include "model/bundle.h"
#include "runtime/executor.h"
#include "runtime/profiler.h"
#include "support/test_support.h"

using namespace tfjsi;
using namespace tfjsi::runtime;

namespace {
std::string g_model;
}

class CorpusRunTest : public QObject {
  Q_OBJECT

 private slots:
  void runs_end_to_end() {
    QVERIFY2(!g_model.empty(), "usage: runtime_corpus_run MODEL");
    // A failure to load or run is this test's finding: report it rather than abort.
    try {
      check();
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }

 private:
  void check() {
    const model::Bundle bundle = model::load_bundle(test::corpus_model(g_model));
    const graph::Graph graph = graph::build_graph(bundle);
    Engine engine;
    engine.set_backend("cpu");
    Executor executor(engine, graph);
    const MemoryInfo loaded = engine.memory();
    std::size_t consts = 0;
    for (const auto& n : graph.nodes) consts += n.op == "Const";
    // The runs' form of the graph (graph::sink_transposes) shares those and adds its own: the
    // moved pads' paddings, concats' axes, composed perms.
    for (const auto& n : executor.plan().graph->nodes)
      consts += n.op == "Const" && graph.find(n.name) < 0;
    QCOMPARE(loaded.total.num_tensors, consts);  // weights are wrapped once, at construction

    // The generated inputs, except where tests/reference/input-overrides.json (shared with the
    // TF.js oracle) gives a shape or a constant the generator cannot make meaningful.
    nlohmann::json overrides;
    {
      std::ifstream f(test::source_dir() / "tests/reference/input-overrides.json");
      QVERIFY2(f, "tests/reference/input-overrides.json is missing");
      overrides = nlohmann::json::parse(f).value(g_model, nlohmann::json::object());
    }
    NamedTensors inputs;
    for (const auto& in : graph.inputs) {
      const DType dtype = in.dtype.value_or(DType::Float32);
      // Keyed like the oracle does: by the Placeholder's name, else by the signature key.
      const std::string& node = graph.nodes[in.ref.node].name;
      const nlohmann::json o = overrides.contains(node)
                                   ? overrides[node]
                                   : overrides.value(in.name, nlohmann::json::object());
      const Shape shape =
          o.contains("shape") ? o["shape"].get<Shape>() : io::default_shape(in.shape);
      HostTensor t = io::deterministic_tensor(dtype, shape);
      if (o.contains("value")) {
        const double v = o["value"].get<double>();
        for (std::int64_t i = 0; i < t.num_elements(); ++i) {
          if (dtype == DType::Float32) t.mutable_values<float>()[i] = static_cast<float>(v);
          if (dtype == DType::Int32)
            t.mutable_values<std::int32_t>()[i] = static_cast<std::int32_t>(v);
        }
      }
      inputs[in.name] = std::move(t);
    }
    Profiler profiler(engine);
    engine.add_observer(&profiler);
    const std::vector<HostTensor> first = executor.run(inputs);
    engine.remove_observer(&profiler);

    QCOMPARE(first.size(), graph.outputs.size());
    for (std::size_t k = 0; k < first.size(); ++k) {
      const graph::Endpoint& ep = graph.outputs[k];
      const QString what =
          QString::fromStdString("output '" + ep.name + "' " + shape_to_string(first[k].shape) +
                                 " vs " + ep.shape.to_string());
      if (ep.dtype) QVERIFY2(*ep.dtype == first[k].dtype, qPrintable(what));
      if (ep.shape.rank_known) {
        QVERIFY2(ep.shape.dims.size() == first[k].shape.size(), qPrintable(what));
        for (std::size_t d = 0; d < first[k].shape.size(); ++d)
          QVERIFY2(ep.shape.dims[d] < 0 || ep.shape.dims[d] == first[k].shape[d], qPrintable(what));
      }
    }

    const MemoryInfo after = engine.memory();
    QCOMPARE(after.total.num_tensors, loaded.total.num_tensors);
    QCOMPARE(after.total.num_data_buffers, loaded.total.num_data_buffers);
    QCOMPARE(after.total.num_bytes, loaded.total.num_bytes);

    // Freed as it goes: a model keeps only a fraction of what its kernels make alive at once.
    const std::size_t made = profiler.total_bytes_made();
    const std::size_t peak = profiler.peak_bytes() - profiler.start_bytes();
    QVERIFY(made > 0);
    if (profiler.kernels().size() > 20)
      QVERIFY2(peak < made, qPrintable(QString("peak %1 of %2 bytes made").arg(peak).arg(made)));

    const std::vector<HostTensor> second = executor.run(inputs);
    QCOMPARE(second.size(), first.size());
    for (std::size_t k = 0; k < first.size(); ++k) {
      QCOMPARE(second[k].shape, first[k].shape);
      QCOMPARE(second[k].dtype, first[k].dtype);
      QVERIFY2(
          std::memcmp(second[k].buffer->data(), first[k].buffer->data(), first[k].byte_size()) == 0,
          qPrintable(QString::fromStdString("output " + graph.outputs[k].name +
                                            " differs between two runs")));
    }
    QCOMPARE(engine.memory().total.num_bytes, loaded.total.num_bytes);
  }
};

int main(int argc, char** argv) {
  if (argc > 1 && argv[1][0] != '-') {
    g_model = argv[1];
    for (int i = 1; i + 1 < argc; ++i) argv[i] = argv[i + 1];
    --argc;
  }
  CorpusRunTest t;
  return QTest::qExec(&t, argc, argv);
}
#include "corpus_run_test.moc"
