// graph::sink_transposes: Transposes moved past elementwise ops, pads and concats cancel, and the
// moved graph computes exactly what the model's does (the cpu kernels run both); where nothing
// cancels the graph is left alone; a run with an observer of every node output runs the model's
// own graph; and on nanodet (an ONNX-converted NCHW model) the Transposes the runs execute fall
// from 83 to a handful with outputs bit-identical on cpu and xnnpack.
#include <QtTest/QtTest>

#include "../runtime/graph_builder.h"
#include "backends/cpu/cpu_backend.h"
#include "backends/xnnpack/xnnpack_backend.h"
#include "graph/build.h"
#include "graph/transpose_sinking.h"
#include "model/bundle.h"
#include "runtime/executor.h"
#include "support/kernel_inputs.h"
#include "support/test_support.h"

using namespace tfjsi;
using namespace tfjsi::test;

namespace {

using Attrs = std::map<std::string, graph::AttrValue, std::less<>>;

Attrs t_attr() {
  return {{"T", graph::TypeAttr{"DT_FLOAT"}}};
}

graph::TensorRef constant(GraphBuilder& b, const std::string& name, HostTensor v) {
  auto r = b.add(name, "Const");
  b.g.nodes[r.node].value = std::move(v);
  return r;
}

graph::TensorRef transpose(GraphBuilder& b, const std::string& name, graph::TensorRef x,
                           graph::TensorRef perm) {
  Attrs a = t_attr();
  a["Tperm"] = graph::TypeAttr{"DT_INT32"};
  return b.add(name, "Transpose", {x, perm}, a);
}

// What an NCHW model converted to TF looks like around its NHWC convolutions: the input goes to
// NCHW, then an activation, a pad with a value, a per-channel scale, an add of two transposed
// branches, a concat on the channel axis and a clip; each result goes back to NHWC.
graph::Graph nchw_blocks() {
  GraphBuilder b;
  auto x = b.placeholder("x", DType::Float32, {1, 4, 5, 3});
  b.g.nodes[x.node].attrs["shape"] = PartialShape::of({1, 4, 5, 3});
  b.g.nodes[x.node].attrs["dtype"] = graph::TypeAttr{"DT_FLOAT"};
  auto to_nchw = constant(b, "to_nchw", ints({4}, {0, 3, 1, 2}));
  auto to_nhwc = constant(b, "to_nhwc", ints({4}, {0, 2, 3, 1}));
  auto t1 = transpose(b, "t1", x, to_nchw);
  auto act = b.add("act", "LeakyRelu", {t1}, {{"T", graph::TypeAttr{"DT_FLOAT"}}, {"alpha", 0.1f}});
  auto pads = constant(b, "pads", ints({4, 2}, {0, 0, 0, 0, 1, 2, 2, 0}));
  auto padded = b.add("padded", "PadV2", {act, pads, b.scalar_const("pad_value", 0.5f)}, t_attr());
  auto scale = constant(b, "scale", floats({1, 3, 1, 1}, {2.f, -1.f, 0.25f}));
  auto scaled = b.add("scaled", "Mul", {padded, scale}, t_attr());
  auto bias = constant(b, "bias", floats({3, 1, 1}, {0.5f, 1.5f, -2.f}));
  auto biased = b.add("biased", "AddV2", {scaled, bias}, t_attr());
  auto back1 = transpose(b, "back1", biased, to_nhwc);  // [1,7,7,3]
  b.output("first", back1);

  // Two branches from the input, each transposed on its own, added, concatenated on C, clipped.
  auto t2 = transpose(b, "t2", x, to_nchw);
  auto t3 = transpose(b, "t3", x, to_nchw);
  auto sig = b.add("sig", "Sigmoid", {t3}, t_attr());
  auto sum = b.add("sum", "AddV2", {t2, sig}, t_attr());
  auto cat = b.add("cat", "ConcatV2", {sum, t2, b.int_const("axis", 1)},
                   {{"T", graph::TypeAttr{"DT_FLOAT"}}, {"N", std::int64_t{2}}});
  auto clip = b.add("clip", "ClipByValue",
                    {cat, b.scalar_const("lo", -0.5f), b.scalar_const("hi", 0.75f)}, t_attr());
  auto back2 = transpose(b, "back2", clip, to_nhwc);  // [1,4,5,6]
  b.output("second", back2);
  // A value inside the NCHW stretch asked for by name must come out in NCHW.
  b.output("inside", cat);
  graph::Graph g = b.take();
  graph::sort_topologically(g);
  graph::infer_shapes(g);
  return g;
}

int count_needed(const runtime::Plan& plan, const std::string& op) {
  int n = 0;
  for (int i : plan.order) n += plan.graph->nodes[i].op == op;
  return n;
}

// Asks for every node output, as compare and the fp16 check do.
struct EveryOutput : runtime::Observer {};

}  // namespace

class TransposeSinkingTest : public QObject {
  Q_OBJECT

 private slots:
  void cancelsAcrossElementwisePadAndConcat() {
    const graph::Graph g = nchw_blocks();
    graph::SinkReport report;
    const auto sunk = graph::sink_transposes(g, &report);
    QVERIFY(sunk);
    QCOMPARE(report.transposes_before, 5);
    // What is left: the Transpose making "inside" (asked for in NCHW) and nothing else.
    QCOMPARE(report.transposes_after, 1);
    QVERIFY(report.elements_after < report.elements_before);
    // Every node keeps its name; the ops that moved run as "<name>/sunk".
    for (const auto& n : g.nodes) QVERIFY2(sunk->find(n.name) >= 0, n.name.c_str());
    for (const char* moved : {"act", "padded", "scaled", "biased", "sig", "sum", "cat", "clip"})
      QVERIFY2(sunk->find(std::string(moved) + "/sunk") >= 0, moved);

    // Both forms through the cpu kernels: the same bits.
    runtime::Engine engine;
    runtime::Executor ex(engine, g);
    const runtime::NamedTensors in{{"x", random_tensor({1, 4, 5, 3}, 7, -3.f, 3.f)}};
    engine.flags().set("sink_transposes", "false");
    const auto want = ex.run(in);
    QVERIFY(ex.plan().graph == &g);
    engine.flags().set("sink_transposes", "true");
    const auto got = ex.run(in);
    QVERIFY(ex.plan().graph != &g);
    QCOMPARE(count_needed(ex.plan(), "Transpose"), 1);
    QCOMPARE(got.size(), want.size());
    for (std::size_t k = 0; k < want.size(); ++k) {
      QCOMPARE(got[k].shape, want[k].shape);
      const auto a = want[k].values<float>(), b = got[k].values<float>();
      QVERIFY(std::equal(a.begin(), a.end(), b.begin()));
    }
    QCOMPARE(want[0].shape, (Shape{1, 7, 7, 3}));
    QCOMPARE(want[2].shape, (Shape{1, 6, 4, 5}));

    // compare and the fp16 check read every node's output as the model has it.
    EveryOutput every;
    engine.add_observer(&every);
    QVERIFY(ex.plan().graph == &g);
    engine.remove_observer(&every);
  }

  void leavesAloneWhatCannotCancel() {
    // x -> Transpose -> Relu -> Reshape: moving it past the Relu runs as many elements.
    GraphBuilder b;
    auto x = b.placeholder("x", DType::Float32, {1, 4, 5, 3});
    b.g.nodes[x.node].attrs["shape"] = PartialShape::of({1, 4, 5, 3});
    auto t = transpose(b, "t", x, constant(b, "perm", ints({4}, {0, 3, 1, 2})));
    auto r = b.add("r", "Relu", {t}, t_attr());
    auto flat = b.add("flat", "Reshape", {r, constant(b, "to", ints({2}, {1, 60}))}, t_attr());
    // An Add whose other operand is neither transposed alike nor a constant stays as it is.
    auto y = b.placeholder("y", DType::Float32, {1, 3, 4, 5});
    b.g.nodes[y.node].attrs["shape"] = PartialShape::of({1, 3, 4, 5});
    auto sum = b.add("sum", "AddV2", {t, y}, t_attr());
    b.output("flat", flat);
    b.output("sum", sum);
    graph::Graph g = b.take();
    graph::infer_shapes(g);
    graph::SinkReport report;
    QVERIFY(!graph::sink_transposes(g, &report));
    QCOMPARE(report.transposes_before, 1);
    QVERIFY(report.transposes_after >= 1);
  }

  // nanodet: Pad -> Transpose -> Conv2D -> Add -> Transpose -> LeakyRelu -> Pad -> ... 83 times.
  void nanodet() {
    const graph::Graph g = graph::build_graph(model::load_bundle(corpus_model("nanodet")));
    graph::SinkReport report;
    const auto sunk = graph::sink_transposes(g, &report);
    QVERIFY(sunk);
    QCOMPARE(report.transposes_before, 83);
    QVERIFY2(report.transposes_after <= 12, std::to_string(report.transposes_after).c_str());

    runtime::Engine engine;
    engine.add_backend(xnnpack::make_xnnpack_backend());
    runtime::Executor ex(engine, g);
    runtime::NamedTensors in;
    for (const auto& e : g.inputs)
      in.emplace(e.name,
                 random_tensor(Shape(e.shape.dims.begin(), e.shape.dims.end()), 3, 0.f, 1.f));
    for (const char* backend : {"cpu", "xnnpack"}) {
      engine.set_backend(backend);
      engine.flags().set("sink_transposes", "false");
      const auto want = ex.run(in);
      engine.flags().set("sink_transposes", "true");
      const auto got = ex.run(in);
      QCOMPARE(count_needed(ex.plan(), "Transpose"), report.transposes_after);
      QCOMPARE(got.size(), want.size());
      for (std::size_t k = 0; k < want.size(); ++k) {
        const auto a = want[k].values<float>(), b = got[k].values<float>();
        QVERIFY2(std::equal(a.begin(), a.end(), b.begin()), backend);
      }
    }
  }
};

QTEST_APPLESS_MAIN(TransposeSinkingTest)
#include "transpose_sinking_test.moc"
