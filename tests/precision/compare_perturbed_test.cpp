// The backend comparison with one kernel deliberately wrong. The test hook is a Backend that
// wraps a real one (gl, xnnpack) and skews the outputs of one named node; the engine holds it
// under the wrapped backend's name. compare must name that node as the first divergent one and
// as wrong on its own inputs (isolated), and every node after it as merely inheriting the error.
// The cpu kernels' own hook (CpuBackend::override_kernel) perturbs the reference instead: then
// the node is named from the other side.
#include <QtTest>

#include "analysis/compare.h"
#include "backends/cpu/cpu_backend.h"
#include "backends/gl/gl_backend.h"
#include "backends/xnnpack/xnnpack_backend.h"
#include "graph/build.h"
#include "model/bundle.h"
#include "support/perturbed_backend.h"
#include "support/test_support.h"

using namespace tfjsi;

namespace {

using test::PerturbedBackend;

struct Corpus {
  graph::Graph graph;
  runtime::NamedTensors inputs;
};

// blazeface on the deterministic generator's values (one float input).
Corpus blazeface() {
  Corpus c;
  c.graph = graph::build_graph(model::load_bundle(test::corpus_model("blazeface")));
  for (const auto& e : c.graph.inputs) {
    Shape shape;
    for (auto d : e.shape.dims) shape.push_back(d < 0 ? 1 : d);
    HostTensor t = HostTensor::zeros(DType::Float32, shape);
    auto v = t.mutable_values<float>();
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = static_cast<float>(static_cast<std::uint32_t>(i * 2654435761u)) / 4294967296.f;
    c.inputs.emplace(e.name, std::move(t));
  }
  return c;
}

// A node halfway through the graph that `backend` runs itself.
std::string middle_node(const graph::Graph& g, runtime::Backend& backend, const char* op) {
  std::vector<std::string> candidates;
  for (const auto& n : g.nodes)
    if (n.op == op && backend.supports(n)) candidates.push_back(n.name);
  if (candidates.empty())
    throw std::runtime_error(std::string("no ") + op + " node for the backend");
  return candidates[candidates.size() / 2];
}

void expect_blamed(const analysis::CompareReport& r, const std::string& backend,
                   const std::string& target) {
  QVERIFY(r.first_divergent.has_value());
  QCOMPARE(*r.first_divergent, target);
  int isolated = 0, inherited = 0;
  for (const auto& n : r.nodes)
    for (const auto& res : n.results) {
      if (res.backend != backend || !res.divergent) continue;
      QVERIFY2(res.isolated.has_value() || !res.note.empty(), n.name.c_str());
      if (n.name == target) {
        QVERIFY2(res.isolated.value_or(false), n.name.c_str());
        ++isolated;
      } else if (res.isolated) {
        QVERIFY2(!*res.isolated, (n.name + " blamed as well").c_str());
        ++inherited;
      }
    }
  QCOMPARE(isolated, 1);
  QVERIFY(inherited > 0);  // the skew travels on to the outputs
}

}  // namespace

class ComparePerturbedTest : public QObject {
  Q_OBJECT
 private slots:
  void perturbed_backend_kernel_is_named_data() {
    QTest::addColumn<QString>("backend");
    QTest::newRow("gl") << "gl";
    QTest::newRow("xnnpack") << "xnnpack";
  }

  void perturbed_backend_kernel_is_named() {
    QFETCH(QString, backend);
    const Corpus c = blazeface();
    std::unique_ptr<runtime::Backend> inner =
        backend == "gl" ? gl::make_gl_backend() : xnnpack::make_xnnpack_backend();
    auto wrapped = std::make_unique<PerturbedBackend>(std::move(inner), "");
    PerturbedBackend* hook = wrapped.get();
    runtime::Engine engine;
    engine.add_backend(std::move(wrapped));
    QVERIFY2(hook->availability().available, hook->availability().reason.c_str());
    const std::string target = middle_node(c.graph, *hook, "_FusedConv2D");
    hook->target = target;
    analysis::CompareOptions opt;
    opt.backends = {"cpu", backend.toStdString()};
    const auto r = analysis::compare_backends(engine, c.graph, c.inputs, opt);
    QVERIFY(hook->hits >= 2);  // the graph run and the isolated re-run
    expect_blamed(r, backend.toStdString(), target);
  }

  void unperturbed_is_clean() {
    const Corpus c = blazeface();
    runtime::Engine engine;
    engine.add_backend(gl::make_gl_backend());
    analysis::CompareOptions opt;
    opt.backends = {"gl"};
    const auto r = analysis::compare_backends(engine, c.graph, c.inputs, opt);
    QVERIFY2(!r.first_divergent, r.first_divergent.value_or("").c_str());
  }

  void perturbed_reference_is_named() {
    // Skew cpu's MaxPool (a captureless lambda: kernels are plain function pointers): gl, right,
    // now differs from the reference first at a MaxPool node, and on that node's own inputs.
    const Corpus c = blazeface();
    runtime::Engine engine;
    engine.add_backend(gl::make_gl_backend());
    static_cast<cpu::CpuBackend&>(engine.reference_backend())
        .override_kernel("MaxPool", [](const cpu::KernelContext& ctx) {
          auto out = cpu::find_kernel("MaxPool")(ctx);
          for (float& v : out.at(0).mutable_values<float>()) v = v * 1.25f + 0.5f;
          return out;
        });
    analysis::CompareOptions opt;
    opt.backends = {"gl"};
    const auto r = analysis::compare_backends(engine, c.graph, c.inputs, opt);
    QVERIFY(r.first_divergent.has_value());
    const int i = c.graph.find(*r.first_divergent);
    QVERIFY(i >= 0);
    QCOMPARE(c.graph.nodes[i].op, std::string("MaxPool"));
    for (const auto& n : r.nodes)
      if (n.name == *r.first_divergent) {
        QCOMPARE(n.results.size(), std::size_t{1});
        QVERIFY(n.results[0].isolated.value_or(false));
      }
  }

  void perturbed_side_against_another_reference() {
    // The same skewed MaxPool, now on the side under test with gl as the reference (the app's
    // Compare panel picks any two sides): cpu is named from gl's side, at that MaxPool, wrong on
    // gl's inputs.
    const Corpus c = blazeface();
    runtime::Engine engine;
    engine.add_backend(gl::make_gl_backend());
    static_cast<cpu::CpuBackend&>(engine.reference_backend())
        .override_kernel("MaxPool", [](const cpu::KernelContext& ctx) {
          auto out = cpu::find_kernel("MaxPool")(ctx);
          for (float& v : out.at(0).mutable_values<float>()) v = v * 1.25f + 0.5f;
          return out;
        });
    analysis::CompareOptions opt;
    opt.backends = {"cpu", "gl"};  // the reference in the list is skipped
    opt.reference = "gl";
    const auto r = analysis::compare_backends(engine, c.graph, c.inputs, opt);
    QCOMPARE(r.reference, std::string("gl"));
    QCOMPARE(r.backends.size(), std::size_t{1});
    QCOMPARE(r.backends[0].name, std::string("cpu"));
    QVERIFY(r.first_divergent.has_value());
    const int i = c.graph.find(*r.first_divergent);
    QVERIFY(i >= 0);
    QCOMPARE(c.graph.nodes[i].op, std::string("MaxPool"));
    for (const auto& n : r.nodes)
      if (n.name == *r.first_divergent) {
        QCOMPARE(n.results.size(), std::size_t{1});
        QCOMPARE(n.results[0].backend, std::string("cpu"));
        QVERIFY(n.results[0].isolated.value_or(false));
      }
  }
};

QTEST_GUILESS_MAIN(ComparePerturbedTest)
#include "compare_perturbed_test.moc"
