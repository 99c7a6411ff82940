// Partitions as XNNPACK subgraph runtimes: a small graph through two partitions against the cpu
// kernels (and against the operator path, flag xnnpack.subgraph=false), the runtime made once
// and reused; and which nodes of a real model end up inside runtimes.
#include <QtTest>
#include <set>

#include "graph/build.h"
#include "model/bundle.h"
#include "runtime/executor.h"
#include "runtime/graph_builder.h"
#include "runtime/profiler.h"
#include "support/test_support.h"
#include "xnnpack/xnnpack_test_util.h"

using namespace tfjsi;
using namespace tfjsi::test;

namespace {

using Attrs = std::map<std::string, graph::AttrValue, std::less<>>;

graph::TensorRef weight(GraphBuilder& b, const std::string& name, HostTensor value) {
  auto r = b.add(name, "Const");
  b.g.nodes[r.node].value = std::move(value);
  return r;
}

struct Fixture {
  runtime::Engine engine;
  xnnpack::XnnpackBackend* xnn = nullptr;
  Fixture() {
    engine.add_backend(xnnpack::make_xnnpack_backend());
    xnn = dynamic_cast<xnnpack::XnnpackBackend*>(engine.find_backend("xnnpack"));
  }
};

// The nodes of a real model whose op and shapes a subgraph does not take, by this rule written
// out independently of the partitioner: ops with no subgraph node in this XNNPACK, depthwise
// convolutions with one filter per channel (the backend's own kernel), and int/bool work.
bool stays_outside(const graph::Graph& g, const graph::Node& n) {
  static const std::set<std::string> taken = {
      "Add",     "AddV2",  "AvgPool", "BiasAdd",        "Conv2D",  "DepthwiseConv2dNative",
      "MaxPool", "Mul",    "Relu",    "Relu6",          "Sigmoid", "FusedDepthwiseConv2dNative",
      "Sub",     "Pad",    "Mean",    "ResizeBilinear", "MatMul",  "_FusedConv2D",
      "Reshape", "Maximum"};
  if (!taken.count(n.op)) return true;
  if (n.op.find("Depthwise") != std::string::npos) {
    const graph::Node& f = g.nodes[n.inputs.at(1).node];
    return !f.value || f.value->shape.at(3) == 1;
  }
  return !n.outputs.at(0).dtype || *n.outputs[0].dtype != DType::Float32 ||
         !n.outputs[0].shape.fully_known();
}

}  // namespace

class XnnpackSubgraphTest : public QObject {
  Q_OBJECT

 private slots:
  // conv (bias, Relu6) -> add a weight -> depthwise x2 -> max pool | Tanh (no subgraph node:
  // cpu kernel) | reshape -> matmul + bias -> sigmoid: two partitions around the Tanh.
  void smallGraphThroughPartitions() {
    Fixture f;
    QVERIFY2(f.xnn->availability().available, f.xnn->availability().reason.c_str());
    GraphBuilder b;
    auto x = b.placeholder("x", DType::Float32, {1, 12, 12, 5});
    b.g.nodes[x.node].attrs["dtype"] = graph::TypeAttr{"DT_FLOAT"};
    b.g.nodes[x.node].attrs["shape"] = PartialShape::of({1, 12, 12, 5});
    const auto same = std::string("SAME");
    auto conv = b.add("conv", "_FusedConv2D",
                      {x, weight(b, "w", random_tensor({3, 3, 5, 8}, 1)),
                       weight(b, "bias", random_tensor({8}, 2))},
                      {{"strides", std::vector<std::int64_t>{1, 2, 2, 1}},
                       {"padding", same},
                       {"fused_ops", std::vector<std::string>{"BiasAdd", "Relu6"}},
                       {"num_args", std::int64_t{1}}});
    auto add = b.add("add", "AddV2", {conv, weight(b, "shift", random_tensor({8}, 3))});
    auto dw = b.add("dw", "DepthwiseConv2dNative",
                    {add, weight(b, "dw_w", random_tensor({3, 3, 8, 2}, 4))},
                    {{"strides", std::vector<std::int64_t>{1, 1, 1, 1}}, {"padding", same}});
    auto pool = b.add("pool", "MaxPool", {dw},
                      {{"ksize", std::vector<std::int64_t>{1, 2, 2, 1}},
                       {"strides", std::vector<std::int64_t>{1, 2, 2, 1}},
                       {"padding", std::string("VALID")}});
    auto tanh = b.add("tanh", "Tanh", {pool});
    auto shape = weight(b, "shape", int_tensor({1, 3 * 3 * 16}));
    auto flat = b.add("flat", "Reshape", {tanh, shape});
    auto mm = b.add("mm", "_FusedMatMul",
                    {flat, weight(b, "mm_w", random_tensor({144, 10}, 5)),
                     weight(b, "mm_b", random_tensor({10}, 6))},
                    {{"fused_ops", std::vector<std::string>{"BiasAdd"}},
                     {"num_args", std::int64_t{1}},
                     {"transpose_a", false},
                     {"transpose_b", false}});
    auto y = b.add("y", "Sigmoid", {mm});
    b.output("y", y);
    b.output("pool", pool);  // a value read inside its partition and requested too
    graph::Graph g = b.take();
    graph::infer_shapes(g);

    runtime::Executor ex(f.engine, g);
    const runtime::NamedTensors in{{"x", random_tensor({1, 12, 12, 5}, 7, -2.f, 2.f)}};
    f.engine.set_backend("cpu");
    const auto want = ex.run(in);
    f.engine.set_backend("xnnpack");
    const runtime::Plan& plan = ex.plan();
    QCOMPARE(plan.partitions.size(), std::size_t{2});
    const std::vector<int> first{conv.node, add.node, dw.node, pool.node};
    const std::vector<int> second{flat.node, mm.node, y.node};
    QCOMPARE(plan.partitions[0].nodes, first);
    QCOMPARE(plan.partitions[1].nodes, second);
    QCOMPARE(plan.nodes[tanh.node].partition, -1);

    for (int run = 0; run < 2; ++run) {
      const auto got = ex.run(in);
      QCOMPARE(got.size(), want.size());
      for (std::size_t k = 0; k < got.size(); ++k)
        expect_close(got[k], want[k],
                     "output " + std::to_string(k) + " run " + std::to_string(run));
      if (QTest::currentTestFailed()) return;
    }
    for (int n : {conv.node, add.node, dw.node, pool.node, flat.node, mm.node, y.node})
      QCOMPARE(f.xnn->last_path(g.nodes[n]), xnnpack::Path::Subgraph);
    QCOMPARE(f.xnn->last_path(g.nodes[tanh.node]), xnnpack::Path::CpuKernel);
    // Made once, reused by the second run.
    QCOMPARE(f.xnn->runtimes().stats().created, std::int64_t{2});
    QCOMPARE(f.xnn->runtimes().stats().runs, std::int64_t{4});

    // Observers hear every node: the first of a partition with its time, the rest inside it.
    runtime::Profiler profiler(f.engine);
    f.engine.add_observer(&profiler);
    ex.run(in);
    f.engine.remove_observer(&profiler);
    int fused = 0;
    for (const auto& k : profiler.kernels()) {
      if (k.node == "add" || k.node == "dw" || k.node == "pool") {
        QCOMPARE(k.backend, std::string("fused"));
        QCOMPARE(k.fused_into, std::string("conv"));
        ++fused;
      }
      if (k.node == "conv") QCOMPARE(k.backend, std::string("xnnpack"));
    }
    QCOMPARE(fused, 3);

    // The operator path, for comparison: same answers, nothing through a runtime.
    f.engine.flags().set_value("xnnpack.subgraph", false);
    const auto op_path = ex.run(in);
    for (std::size_t k = 0; k < op_path.size(); ++k)
      expect_close(op_path[k], want[k], "operator path output " + std::to_string(k));
    QCOMPARE(f.xnn->last_path(g.nodes[conv.node]), xnnpack::Path::Xnnpack);
    QCOMPARE(f.xnn->runtimes().stats().runs, std::int64_t{6});  // as before the flag went off
    QCOMPARE(f.xnn->runtimes().stats().declined, std::int64_t{2});  // each partition, once
  }

  // selfie: which nodes run inside runtimes, against the rule above, and the model's outputs on
  // xnnpack (through runtimes) against cpu.
  void partitionsOfARealModel() {
    Fixture f;
    const model::Bundle bundle = model::load_bundle(corpus_model("selfie"));
    const graph::Graph g = graph::build_graph(bundle);
    runtime::Executor ex(f.engine, g);
    f.engine.set_backend("xnnpack");
    const runtime::Plan& plan = ex.plan();
    int inside = 0, outside = 0;
    for (int i : plan.order) {
      const auto& pn = plan.nodes[i];
      if (pn.executor_op || pn.fallback) continue;
      const bool in = pn.partition >= 0;
      QVERIFY2(in != stays_outside(g, g.nodes[i]),
               (g.nodes[i].name + " (" + g.nodes[i].op + ") is " + (in ? "inside" : "outside") +
                " a partition")
                   .c_str());
      ++(in ? inside : outside);
    }
    QVERIFY(inside > 150);  // of selfie's 224 kernels: all but depthwise, AddN, the deconvolution
    QVERIFY(outside > 0);
    // A partition ends only where a node outside it stands.
    for (const auto& p : plan.partitions) {
      auto pos = [&](int n) { return std::find(plan.order.begin(), plan.order.end(), n); };
      for (auto it = pos(p.nodes.front()); it != pos(p.nodes.back()); ++it)
        QVERIFY(plan.nodes[*it].partition == plan.nodes[p.nodes.front()].partition ||
                g.nodes[*it].op == "Const");
      auto after = pos(p.nodes.back()) + 1;
      while (after != plan.order.end() && g.nodes[*after].op == "Const") ++after;
      if (after != plan.order.end())
        QVERIFY(plan.nodes[*after].partition != plan.nodes[p.nodes.front()].partition);
    }

    runtime::NamedTensors in;
    for (const auto& e : g.inputs) {
      Shape s(e.shape.dims.begin(), e.shape.dims.end());
      in.emplace(e.name, random_tensor(s, 21, 0.f, 1.f));
    }
    f.engine.set_backend("cpu");
    const auto want = ex.run(in);
    f.engine.set_backend("xnnpack");
    const auto got = ex.run(in);
    QCOMPARE(f.xnn->runtimes().stats().created, static_cast<std::int64_t>(plan.partitions.size()));
    QCOMPARE(f.xnn->runtimes().stats().refused, std::int64_t{0});
    // DESIGN.md's tolerance for a whole model: 1e-3 of the output's magnitude (at least 1).
    QCOMPARE(got.size(), want.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      QCOMPARE(got[k].shape, want[k].shape);
      const auto a = got[k].values<float>(), c = want[k].values<float>();
      double scale = 1, err = 0;
      for (std::size_t i = 0; i < c.size(); ++i) {
        scale = std::max(scale, static_cast<double>(std::fabs(c[i])));
        err = std::max(err, static_cast<double>(std::fabs(a[i] - c[i])));
      }
      QVERIFY2(err <= 1e-3 * scale, ("selfie output error " + std::to_string(err)).c_str());
    }
  }
};

QTEST_GUILESS_MAIN(XnnpackSubgraphTest)
#include "xnnpack_subgraph_test.moc"
