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

// A model input as the converter writes one: dtype and shape attributes beside the signature.
graph::TensorRef model_input(GraphBuilder& b, const std::string& name, DType dtype,
                             const char* tf_type, std::vector<std::int64_t> shape) {
  auto r = b.placeholder(name, dtype, shape);
  b.g.nodes[r.node].attrs["dtype"] = graph::TypeAttr{tf_type};
  b.g.nodes[r.node].attrs["shape"] = PartialShape::of(std::move(shape));
  return r;
}

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
    auto x = model_input(b, "x", DType::Float32, "DT_FLOAT", {1, 12, 12, 5});
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
    QCOMPARE(f.xnn->runtimes().stats().runs, std::int64_t{6});      // as before the flag went off
    QCOMPARE(f.xnn->runtimes().stats().declined, std::int64_t{2});  // each partition, once
  }

  // A model with TF1 control flow (handtrack: a while loop before its backbone, NMS after):
  // nodes that run once in the root context still make partitions; the loop's body and what a
  // cond's Switch may leave dead run node by node. Results against cpu for both branches.
  void partitionsBesideTf1ControlFlow() {
    Fixture f;
    QVERIFY2(f.xnn->availability().available, f.xnn->availability().reason.c_str());
    GraphBuilder b;
    auto x = model_input(b, "x", DType::Float32, "DT_FLOAT", {1, 8, 8, 3});
    auto p = model_input(b, "p", DType::Bool, "DT_BOOL", {});
    const graph::AttrValue T = graph::TypeAttr{"DT_FLOAT"};
    auto conv = b.add("conv", "_FusedConv2D",
                      {x, weight(b, "w", random_tensor({3, 3, 3, 4}, 11)),
                       weight(b, "bias", random_tensor({4}, 12))},
                      {{"strides", std::vector<std::int64_t>{1, 1, 1, 1}},
                       {"padding", std::string("SAME")},
                       {"fused_ops", std::vector<std::string>{"BiasAdd", "Relu"}},
                       {"num_args", std::int64_t{1}}});
    auto add =
        b.add("add", "AddV2", {conv, weight(b, "shift", random_tensor({4}, 13))}, {{"T", T}});
    // k = 0; while k < 3: k += 1 (a float, read by the straight part after the loop).
    const graph::AttrValue F = std::string("count");
    auto enter = [&](std::string name, graph::TensorRef in, bool constant) {
      return b.add(std::move(name), "Enter", {in}, {{"frame_name", F}, {"is_constant", constant}});
    };
    auto ek = enter("enter_k", b.scalar_const("k0", 0.f), false);
    auto elim = enter("enter_limit", b.scalar_const("limit", 3.f), true);
    auto eone = enter("enter_one", b.scalar_const("one", 1.f), true);
    auto mk = b.add("merge_k", "Merge", {ek, ek});
    auto less = b.add("less", "Less", {mk, elim}, {{"T", T}});
    auto cond = b.add("cond", "LoopCond", {less});
    auto sk = b.add("switch_k", "Switch", {mk, cond});
    auto body = b.add("body_k", "Identity", {out(sk, 1)});
    auto step = b.add("step_k", "AddV2", {body, eone}, {{"T", T}});
    b.set_input(mk, 1, b.add("next_k", "NextIteration", {step}));
    auto k = b.add("exit_k", "Exit", {out(sk, 0)});
    auto scaled = b.add("scaled", "Mul", {add, k}, {{"T", T}});
    // A cond on p: what comes after its Merge may be dead when a branch is.
    auto sw = b.add("switch_p", "Switch", {scaled, p});
    auto no = b.add("else", "Sigmoid", {out(sw, 0)}, {{"T", T}});
    auto yes = b.add("then", "Relu", {out(sw, 1)}, {{"T", T}});
    auto merged = b.add("merge_p", "Merge", {no, yes});
    auto after =
        b.add("after", "AddV2", {merged, weight(b, "shift2", random_tensor({4}, 14))}, {{"T", T}});
    b.output("y", after);
    b.output("scaled", scaled);
    graph::Graph g = b.take();
    graph::infer_shapes(g);

    runtime::Executor ex(f.engine, g);
    f.engine.set_backend("xnnpack");
    const runtime::Plan& plan = ex.plan();
    QVERIFY(plan.dynamic);
    QVERIFY(plan.nodes[conv.node].partition >= 0);
    QCOMPARE(plan.nodes[add.node].partition, plan.nodes[conv.node].partition);
    QVERIFY(plan.nodes[scaled.node].partition >= 0);
    for (const auto& part : plan.partitions)
      for (int n : part.nodes) QVERIFY2(plan.nodes[n].straight, g.nodes[n].name.c_str());
    for (auto r : {body, step, yes, no, after}) {
      QVERIFY2(!plan.nodes[r.node].straight, g.nodes[r.node].name.c_str());
      QCOMPARE(plan.nodes[r.node].partition, -1);
    }

    for (bool branch : {true, false}) {
      HostTensor pred = HostTensor::zeros(DType::Bool, {});
      pred.mutable_values<std::uint8_t>()[0] = branch ? 1 : 0;
      const runtime::NamedTensors in{{"x", random_tensor({1, 8, 8, 3}, 15, -2.f, 2.f)},
                                     {"p", pred}};
      f.engine.set_backend("cpu");
      const auto want = ex.run(in);
      f.engine.set_backend("xnnpack");
      for (int run = 0; run < 2; ++run) {
        const auto got = ex.run(in);
        QCOMPARE(got.size(), want.size());
        for (std::size_t o = 0; o < got.size(); ++o)
          expect_close(got[o], want[o],
                       "output " + std::to_string(o) + (branch ? " then" : " else") + " run " +
                           std::to_string(run));
        if (QTest::currentTestFailed()) return;
      }
      QCOMPARE(f.xnn->last_path(g.nodes[conv.node]), xnnpack::Path::Subgraph);
      QCOMPARE(f.xnn->last_path(g.nodes[scaled.node]), xnnpack::Path::Subgraph);
    }
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
