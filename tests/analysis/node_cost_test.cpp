// FLOPs and bytes per node (analysis/node_cost.h) on the reference Keras models, against counts
// made by hand from the layer definitions in tests/reference/make-layers.mjs. The batch dim is
// unknown in both models and counted as 1, as `tfjsi run` feeds it.
#include <QtTest>

#include "analysis/node_cost.h"
#include "backends/all_backends.h"
#include "graph/build.h"
#include "io/deterministic_input.h"
#include "model/bundle.h"
#include "runtime/engine.h"
#include "runtime/executor.h"
#include "support/test_support.h"

using namespace tfjsi;

namespace {

graph::Graph load(const char* name) {
  return graph::build_graph(
      model::load_bundle(test::reference_dir() / "layers" / name / "model.json"));
}

// The cost of the only node of `group` running `op`.
analysis::NodeCost cost_of(const graph::Graph& g, const analysis::GraphCost& c,
                           const std::string& group, const std::string& op) {
  const analysis::NodeCost* found = nullptr;
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].op == op && g.nodes[i].name.rfind(group, 0) == 0) {
      if (found) throw std::runtime_error("two " + op + " nodes in " + group);
      found = &c.nodes[i];
    }
  if (!found) throw std::runtime_error("no " + op + " node in " + group);
  return *found;
}

}  // namespace

class NodeCostTest : public QObject {
  Q_OBJECT
 private slots:
  void seqCnnByHand() {
    const graph::Graph g = load("seq_cnn");
    const analysis::GraphCost c = analysis::graph_cost(g);
    QCOMPARE(c.unknown, 0);
    QCOMPARE(c.assumed_inputs.size(), std::size_t{1});
    QCOMPARE(c.assumed_inputs[0].second, (Shape{1, 17, 19, 3}));
    // conv1: 3x3 filters over 3 channels, SAME on 17x19 -> 17x19x5; 2 FLOPs a multiply-add.
    QCOMPARE(cost_of(g, c, "conv1/", "Conv2D").flops, std::int64_t{2 * 17 * 19 * 5 * 3 * 3 * 3});
    // Its bytes: the 17x19x3 input and the 3x3x3x5 filter read, 17x19x5 written, float32.
    QCOMPARE(cost_of(g, c, "conv1/", "Conv2D").bytes_read,
             std::int64_t{4 * (17 * 19 * 3 + 3 * 3 * 3 * 5)});
    QCOMPARE(cost_of(g, c, "conv1/", "Conv2D").bytes_written, std::int64_t{4 * 17 * 19 * 5});
    // pool1: 2x2, stride 2, VALID: 17x19x5 -> 8x9x5, four values per output.
    QCOMPARE(cost_of(g, c, "pool1", "MaxPool").flops, std::int64_t{8 * 9 * 5 * 4});
    // conv2: 3x2 filters over 5 channels, stride 2, SAME on 8x9 -> 4x5x7.
    QCOMPARE(cost_of(g, c, "conv2/", "Conv2D").flops, std::int64_t{2 * 4 * 5 * 7 * 3 * 2 * 5});
    // pool2: 3x3 average, stride 1, SAME: 4x5x7 out, nine values each (padding not discounted).
    QCOMPARE(cost_of(g, c, "pool2", "AvgPool").flops, std::int64_t{4 * 5 * 7 * 9});
    // pool3: 2x3 max, strides 1x2, SAME: 4x5x7 -> 4x3x7.
    QCOMPARE(cost_of(g, c, "pool3", "MaxPool").flops, std::int64_t{4 * 3 * 7 * 6});
    // fc1: the 4*3*7 = 84 flattened values times 84x10; fc2: 10x6.
    QCOMPARE(cost_of(g, c, "fc1/", "MatMul").flops, std::int64_t{2 * 84 * 10});
    QCOMPARE(cost_of(g, c, "fc2/", "MatMul").flops, std::int64_t{2 * 10 * 6});
  }

  void funcDepthwiseByHand() {
    const graph::Graph g = load("func_depthwise");
    const analysis::GraphCost c = analysis::graph_cost(g);
    QCOMPARE(c.unknown, 0);
    // dw1: 3x3, multiplier 2, stride 2, SAME on 20x20x6 -> 10x10x12: nine products per output.
    QCOMPARE(cost_of(g, c, "dw1/", "DepthwiseConv2dNative").flops,
             std::int64_t{2 * 10 * 10 * 12 * 3 * 3});
    // sep1's pointwise step: 1x1 over 12 channels to 9, on 10x10.
    QCOMPARE(cost_of(g, c, "sep1/", "Conv2D").flops, std::int64_t{2 * 10 * 10 * 9 * 12});
    // out: the 6 pooled channels times 6x3.
    QCOMPARE(cost_of(g, c, "out/", "MatMul").flops, std::int64_t{2 * 6 * 3});
  }

  // The count over a real run (the shapes the nodes had) equals the count from inferred shapes.
  void runCountEqualsStaticCount() {
    for (const char* name : {"seq_cnn", "func_depthwise"}) {
      const graph::Graph g = load(name);
      runtime::Engine engine;
      runtime::NamedTensors inputs;
      for (const auto& e : g.inputs)
        inputs[e.name] = io::deterministic_tensor(DType::Float32, io::default_shape(e.shape));
      analysis::CostCounter counter;
      engine.add_observer(&counter);
      runtime::Executor(engine, g).run(inputs);
      engine.remove_observer(&counter);
      QCOMPARE(counter.flops(), analysis::graph_cost(g).flops);
    }
  }

  // On xnnpack, whose subgraph partitions keep the values inside them (no tensors for the
  // counter to look at): the same count, from the shapes the partition ran with.
  void xnnpackPartitionsAreCounted() {
    for (const char* name : {"seq_cnn", "func_depthwise"}) {
      const graph::Graph g = load(name);
      runtime::Engine engine;
      backends::add_all_backends(engine);
      if (!engine.find_backend("xnnpack") ||
          !engine.find_backend("xnnpack")->availability().available)
        QSKIP("xnnpack is not available here");
      engine.set_backend("xnnpack");
      runtime::NamedTensors inputs;
      for (const auto& e : g.inputs)
        inputs[e.name] = io::deterministic_tensor(DType::Float32, io::default_shape(e.shape));
      runtime::Executor ex(engine, g);
      analysis::CostCounter counter;
      engine.add_observer(&counter);
      ex.run(inputs);
      engine.remove_observer(&counter);
      QVERIFY2(!ex.plan().partitions.empty(), name);  // what this test is about
      QCOMPARE(counter.flops(), analysis::graph_cost(g).flops);
    }
  }

  // bench --profile puts the same count beside each op's time: seq_cnn's two Conv2D and two
  // MatMul nodes by hand, and the ops together make the run's total.
  void benchProfileCountsPerOp() {
    const auto r = test::run_tfjsi(
        {"bench", QString::fromStdString((test::reference_dir() / "layers" / "seq_cnn").string()),
         "--backend", "cpu", "--runs", "1", "--warmup", "0", "--profile", "--json"},
        300000);
    QVERIFY2(!r.crashed && r.exit_code == 0, r.err.constData());
    const nlohmann::json j = r.json();
    std::map<std::string, std::int64_t> flops;
    std::int64_t sum = 0;
    for (const auto& o : j["profile"]["ops"]) {
      QVERIFY2(o.contains("flops") && o.contains("bytes") && o.contains("gflops_per_s"),
               o.dump().c_str());
      flops[o["op"]] = o["flops"];
      sum += o["flops"].get<std::int64_t>();
    }
    QCOMPARE(flops["Conv2D"],
             std::int64_t{2 * 17 * 19 * 5 * 3 * 3 * 3 + 2 * 4 * 5 * 7 * 3 * 2 * 5});
    QCOMPARE(flops["MatMul"], std::int64_t{2 * 84 * 10 + 2 * 10 * 6});
    QCOMPARE(sum, j["flops"].get<std::int64_t>());
  }
};

QTEST_GUILESS_MAIN(NodeCostTest)
#include "node_cost_test.moc"
