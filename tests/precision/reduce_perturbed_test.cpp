// tfjsi reduce's diverge condition against a backend with one kernel wrong on purpose (the hook
// of compare_perturbed_test): blazeface on gl with one _FusedConv2D halfway through skewed. The
// reduction must keep exactly that node as the one that diverges, cut nearly everything else, and
// the bundle it writes, read back from disk, must still diverge there.
#include <QtTest>

#include "analysis/reduce.h"
#include "backends/gl/gl_backend.h"
#include "backends/xnnpack/xnnpack_backend.h"
#include "graph/build.h"
#include "io/deterministic_input.h"
#include "io/npy.h"
#include "model/bundle.h"
#include "support/perturbed_backend.h"
#include "support/test_support.h"

using namespace tfjsi;

namespace {

// The deterministic inputs of DESIGN.md (float32), as tfjsi feeds a model given none.
runtime::NamedTensors generated_inputs(const graph::Graph& g) {
  runtime::NamedTensors in;
  for (const auto& e : g.inputs)
    in.emplace(e.name, io::deterministic_tensor(DType::Float32, io::default_shape(e.shape)));
  return in;
}

}  // namespace

class ReducePerturbedTest : public QObject {
  Q_OBJECT
 private slots:
  void keepsThePerturbedNode_data() {
    QTest::addColumn<QString>("backend");
    QTest::newRow("gl") << "gl";
    QTest::newRow("xnnpack") << "xnnpack";
  }
  void keepsThePerturbedNode() {
    QFETCH(QString, backend);
    const model::Bundle bundle = model::load_bundle(test::corpus_model("blazeface"));
    const graph::Graph graph = graph::build_graph(bundle);
    const runtime::NamedTensors inputs = generated_inputs(graph);

    std::unique_ptr<runtime::Backend> inner =
        backend == "gl" ? gl::make_gl_backend() : xnnpack::make_xnnpack_backend();
    auto wrapped = std::make_unique<test::PerturbedBackend>(std::move(inner), "");
    test::PerturbedBackend* hook = wrapped.get();
    runtime::Engine engine;
    engine.add_backend(std::move(wrapped));
    QVERIFY2(hook->availability().available, hook->availability().reason.c_str());
    std::vector<std::string> convs;
    for (const auto& n : graph.nodes)
      if (n.op == "_FusedConv2D" && hook->supports(n)) convs.push_back(n.name);
    QVERIFY(!convs.empty());
    hook->target = convs[convs.size() / 2];

    analysis::ReduceOptions opt;
    opt.condition = analysis::parse_condition("diverge:cpu," + backend.toStdString());
    int steps = 0;
    opt.on_step = [&](const analysis::ReduceStep&) { ++steps; };
    const auto r = analysis::reduce_model(engine, bundle, graph, inputs, opt);
    QVERIFY(r.has_value());
    QCOMPARE(r->whole.node, hook->target);
    QCOMPARE(r->reduced.node, hook->target);
    QCOMPARE(r->steps, steps);
    // The conv, its filter and bias, and its input: nothing else is needed to show it.
    QVERIFY2(r->subgraph.nodes <= 5, std::to_string(r->subgraph.nodes).c_str());
    qInfo("blazeface on perturbed %s: %d -> %d nodes in %d steps", qPrintable(backend),
          r->nodes_before, r->subgraph.nodes, r->steps);

    test::TempDir tmp;
    analysis::write_reduction(*r, bundle, graph, tmp.path);
    const model::Bundle back = model::load_bundle(tmp.path);
    const graph::Graph g = graph::build_graph(back);
    runtime::NamedTensors feeds;
    for (std::size_t k = 0; k < r->subgraph.inputs.size(); ++k)
      feeds.emplace(r->subgraph.inputs[k].name,
                    io::read_npy(tmp.path / ("input_" + std::to_string(k) + ".npy")));
    const auto again = analysis::check_at(engine, g, feeds, opt.condition, hook->target);
    QVERIFY(again.has_value());
    QVERIFY(again->mismatch.normalized() > opt.condition.tolerance);

    // Without the skew the same bundle agrees with cpu.
    hook->target = "none";
    QVERIFY(!analysis::check_at(engine, g, feeds, opt.condition, r->reduced.node).has_value());
  }
};

QTEST_GUILESS_MAIN(ReducePerturbedTest)
#include "reduce_perturbed_test.moc"
