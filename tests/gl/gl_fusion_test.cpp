// Fusion on gl (Backend::fuse, PlanNode::fused): a node whose only reader gl can take in runs as
// one kernel with it, and the reader forwards. Activations go into a binary op or a fused
// convolution; a bias add of a Const vector goes into Conv2D, DepthwiseConv2dNative or MatMul,
// which become their fused forms, and the activation after it follows. Checked on a hand-built
// graph against cpu: which chains the plan fuses (not a producer with two readers, not Prelu, not
// an add of a tensor or of a Const that is not a vector, the bias first or second), that outputs
// stay cpu's, that fused nodes run no kernel of their own, that an observer reading every node's
// output or the `fuse` flag turns it off (the producer's own output is then unactivated), and that
// a fused kernel that fails on gl runs on cpu with what it took in. The add of a residual
// connection (a tensor of the output's shape made before the convolution) goes into a fused
// convolution with its bias; not one made after it, not a broadcast, not in fp16 following webgl
// (where only a Relu or Relu6 is taken in, the same halves as TF.js stores).
// So do the four nodes of a hard swish after one, unless one of them is read elsewhere, and an
// add after the activation (added after it), a bias add into Conv2DBackpropInput, and such an add
// into a binary op (before or after its activation).
#include <QtTest>

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>

#include "backends/all_backends.h"
#include "backends/gl/gl_backend.h"
#include "backends/gl/gl_op.h"
#include "gl/gl_test_util.h"
#include "graph/build.h"
#include "ops/attr.h"
#include "ops/fusion.h"
#include "runtime/executor.h"
#include "runtime/graph_builder.h"
#include "support/kernel_inputs.h"

using namespace tfjsi;
using namespace tfjsi::runtime;

namespace {

// Records the backend that ran each node; reads every output only when told to.
class Watch final : public Observer {
 public:
  explicit Watch(bool values) : values_(values) {}
  bool needs_every_output() const override { return values_; }
  void after_kernel(KernelEvent& e) override {
    ran_on[e.node.name] = std::string(e.backend);
    if (e.fused_into) fused_into[e.node.name] = e.fused_into->name;
    if (values_ && !e.outputs.empty() && e.outputs[0].alive())
      outputs[e.node.name] = e.engine.read(e.outputs[0]);
  }
  std::map<std::string, std::string> ran_on, fused_into;
  std::map<std::string, HostTensor> outputs;

 private:
  bool values_;
};

// x -> AddV2(x, b) -> Relu6          fused (binary op)
// x -> Sub(x, b) -> LeakyRelu(0.3)   fused, the slope carried over
// x -> Mul(x, x) -> Relu, and Mul is also an output: not fused (two readers)
// x -> Maximum(x, b) -> Prelu(alpha): fused, the alpha (a Const) read as a third input
// x, filter, b -> _FusedConv2D [BiasAdd] -> Sigmoid: fused into fused_ops
// x -> Conv2D -> AddV2(., cb) -> Relu6: one _FusedConv2D [BiasAdd, Relu6]
// x -> DepthwiseConv2dNative -> AddV2(db, .) -> Relu: the bias first, one fused depthwise
// m -> MatMul -> BiasAdd(., mb): one _FusedMatMul [BiasAdd]
// x -> Conv2D -> AddV2(., b) -> Prelu(alpha): one _FusedConv2D [BiasAdd, Prelu]
// x -> Conv2D -> AddV2(., x), and -> Conv2D -> AddV2(., a [1,5,7,6] Const): not fused
// x -> Sub(x, b) -> Prelu(x): not fused (the alpha is not a Const)
// x -> _FusedConv2D [BiasAdd] -> AddV2(x, .) -> Relu: one kernel adding x (a residual
//   connection, ops::kFusedAddend) before the Relu
// s3 = Sub(x, b); x -> Conv2D -> AddV2(., b) -> AddV2(., s3) -> Prelu(alpha): one kernel; the
//   alpha is input 3, the addend s3 input 4
// x -> _FusedConv2D [BiasAdd] -> AddV2(., late), `late` made after the convolution: not fused
//   into the convolution (late's kernel takes it in instead)
// x -> _FusedConv2D [BiasAdd] -> AddV2(., row [1,1,7,6] Const), a broadcast: not fused
// x -> FusedDepthwiseConv2dNative [BiasAdd] -> AddV2(., x), and m -> _FusedMatMul [BiasAdd] ->
//   AddV2(., m5): the addend in the depthwise and matrix-vector kernels
// x -> _FusedConv2D [BiasAdd] = hx; Mul(hx, s), AddV2(3, hx) -> Relu6, Mul(relu6, mul): a hard
//   swish (s the float16 rounding of 1/6 a quantized model holds), one kernel
// the same after gx, its Relu6 also an output: not fused (its AddV2 takes the Relu6 in)
// x -> _FusedConv2D [BiasAdd] -> Relu -> AddV2(., x): one kernel adding x after the Relu
// x -> Conv2DBackpropInput -> AddV2(., tb) and -> AddV2(scalar, .): the bias in its kernel
// Mul(x, b) -> AddV2(s3, .), and AddV2(x, b) -> Relu -> AddV2(., s3): a binary op's kernel adds s3,
//   before and after its activation (so does `late`'s, c7_res adding c7)
graph::Graph make_graph() {
  test::GraphBuilder g;
  const auto x = g.placeholder("x", DType::Float32, {1, 5, 7, 6});
  const auto b = g.vector_const("b", {0.5f, -1.f, 2.f, -3.f, 0.25f, 1.f});
  const auto alpha = g.vector_const("alpha", {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f});
  auto filter = g.add("filter", "Const");
  g.g.nodes[filter.node].value = test::random_tensor({3, 3, 6, 5}, 11, -1.f, 1.f);
  const auto cb = g.vector_const("cb", {0.1f, -0.2f, 0.3f, -0.4f, 0.5f});
  const auto add = g.add("add", "AddV2", {x, b});
  g.output("relu6", g.add("relu6", "Relu6", {add}));
  const auto sub = g.add("sub", "Sub", {x, b});
  g.output("leaky", g.add("leaky", "LeakyRelu", {sub}, {{"alpha", 0.3f}}));
  const auto mul = g.add("mul", "Mul", {x, x});
  g.output("relu", g.add("relu", "Relu", {mul}));
  g.output("mul", mul);
  const auto max = g.add("max", "Maximum", {x, b});
  g.output("prelu", g.add("prelu", "Prelu", {max, alpha}));
  const auto conv = g.add("conv", "_FusedConv2D", {x, filter, cb},
                          {{"strides", std::vector<std::int64_t>{1, 1, 1, 1}},
                           {"padding", std::string("SAME")},
                           {"fused_ops", std::vector<std::string>{"BiasAdd"}},
                           {"num_args", std::int64_t{1}}});
  g.output("sigmoid", g.add("sigmoid", "Sigmoid", {conv}));

  const std::map<std::string, graph::AttrValue, std::less<>> same{
      {"strides", std::vector<std::int64_t>{1, 1, 1, 1}}, {"padding", std::string("SAME")}};
  auto weights = [&](const char* name, Shape shape, std::uint32_t seed) {
    auto w = g.add(name, "Const");
    g.g.nodes[w.node].value = test::random_tensor(std::move(shape), seed, -1.f, 1.f);
    return w;
  };
  const auto c2 = g.add("c2", "Conv2D", {x, filter}, same);
  const auto c2_add = g.add("c2_add", "AddV2", {c2, cb});
  g.output("c2_relu6", g.add("c2_relu6", "Relu6", {c2_add}));
  const auto dw = g.add("dw", "DepthwiseConv2dNative", {x, weights("dwf", {3, 3, 6, 1}, 12)}, same);
  const auto dw_add = g.add("dw_add", "AddV2", {b, dw});
  g.output("dw_relu", g.add("dw_relu", "Relu", {dw_add}));
  const auto m = g.placeholder("m", DType::Float32, {3, 6});
  const auto mm = g.add("mm", "MatMul", {m, weights("mw", {6, 5}, 13)},
                        {{"transpose_a", false}, {"transpose_b", false}});
  g.output("mm_bias", g.add("mm_bias", "BiasAdd", {mm, cb}));
  const auto f6 = weights("f6", {1, 1, 6, 6}, 14);
  const auto c3 = g.add("c3", "Conv2D", {x, f6}, same);
  g.output("c3_add_x", g.add("c3_add_x", "AddV2", {c3, x}));
  const auto c5 = g.add("c5", "Conv2D", {x, f6}, same);
  const auto c5_add = g.add("c5_add", "AddV2", {c5, b});
  g.output("c5_prelu", g.add("c5_prelu", "Prelu", {c5_add, alpha}));
  const auto sub2 = g.add("sub2", "Sub", {x, b});
  g.output("sub2_prelu", g.add("sub2_prelu", "Prelu", {sub2, x}));
  const auto c4 = g.add("c4", "Conv2D", {x, f6}, same);
  g.output("c4_add_big", g.add("c4_add_big", "AddV2", {c4, weights("big", {1, 5, 7, 6}, 15)}));
  const std::map<std::string, graph::AttrValue, std::less<>> biased{
      {"strides", std::vector<std::int64_t>{1, 1, 1, 1}},
      {"padding", std::string("SAME")},
      {"fused_ops", std::vector<std::string>{"BiasAdd"}},
      {"num_args", std::int64_t{1}}};
  const auto res = g.add("res", "_FusedConv2D", {x, f6, b}, biased);
  const auto res_add = g.add("res_add", "AddV2", {x, res});
  g.output("res_relu", g.add("res_relu", "Relu", {res_add}));
  const auto s3 = g.add("s3", "Sub", {x, b});
  const auto c6 = g.add("c6", "Conv2D", {x, f6}, same);
  const auto c6_bias = g.add("c6_bias", "AddV2", {c6, b});
  const auto c6_res = g.add("c6_res", "AddV2", {c6_bias, s3});
  g.output("c6_prelu", g.add("c6_prelu", "Prelu", {c6_res, alpha}));
  const auto c7 = g.add("c7", "_FusedConv2D", {x, f6, b}, biased);
  const auto late = g.add("late", "Sub", {x, b});
  g.output("c7_res", g.add("c7_res", "AddV2", {c7, late}));
  const auto c8 = g.add("c8", "_FusedConv2D", {x, f6, b}, biased);
  g.output("c8_row", g.add("c8_row", "AddV2", {c8, weights("row", {1, 1, 7, 6}, 16)}));
  const auto dwr =
      g.add("dwr", "FusedDepthwiseConv2dNative", {x, weights("dwrf", {3, 3, 6, 1}, 17), b}, biased);
  g.output("dwr_add", g.add("dwr_add", "AddV2", {dwr, x}));
  const auto m5 = g.placeholder("m5", DType::Float32, {3, 5});
  const auto mmr = g.add("mmr", "_FusedMatMul", {m, weights("mrw", {6, 5}, 18), cb},
                         {{"transpose_a", false},
                          {"transpose_b", false},
                          {"fused_ops", std::vector<std::string>{"BiasAdd"}},
                          {"num_args", std::int64_t{1}}});
  g.output("mmr_add", g.add("mmr_add", "AddV2", {mmr, m5}));
  const auto scale = g.scalar_const("scale", 0.166625977f);
  const auto shift = g.scalar_const("shift", 3.f);
  const auto hx = g.add("hx", "_FusedConv2D", {x, f6, b}, biased);
  const auto hmul = g.add("hmul", "Mul", {hx, scale});
  const auto hadd = g.add("hadd", "AddV2", {shift, hx});
  const auto hr = g.add("hr", "Relu6", {hadd});
  g.output("hout", g.add("hout", "Mul", {hr, hmul}));
  const auto gx = g.add("gx", "_FusedConv2D", {x, f6, b}, biased);
  const auto gmul = g.add("gmul", "Mul", {gx, scale});
  const auto gr = g.add("gr", "Relu6", {g.add("gadd", "AddV2", {gx, shift})});
  g.output("gout", g.add("gout", "Mul", {gmul, gr}));
  g.output("gr", gr);
  const auto ar = g.add("ar", "_FusedConv2D", {x, f6, b}, biased);
  const auto ar_relu = g.add("ar_relu", "Relu", {ar});
  g.output("ar_add", g.add("ar_add", "AddV2", {ar_relu, x}));
  auto sizes = g.add("sizes", "Const");
  g.g.nodes[sizes.node].value = HostTensor::zeros(DType::Int32, {4});
  {
    const std::int32_t dims[] = {1, 10, 14, 4};
    std::copy(std::begin(dims), std::end(dims),
              g.g.nodes[sizes.node].value->mutable_values<std::int32_t>().begin());
  }
  const std::map<std::string, graph::AttrValue, std::less<>> stride2{
      {"strides", std::vector<std::int64_t>{1, 2, 2, 1}}, {"padding", std::string("SAME")}};
  const auto tf = weights("tf", {2, 2, 4, 6}, 19);
  const auto up = g.add("up", "Conv2DBackpropInput", {sizes, tf, x}, stride2);
  g.output("up_bias",
           g.add("up_bias", "AddV2", {up, g.vector_const("tb", {0.5f, -1.f, 2.f, 3.f})}));
  const auto up1 = g.add("up1", "Conv2DBackpropInput", {sizes, tf, x}, stride2);
  g.output("up1_bias", g.add("up1_bias", "AddV2", {g.scalar_const("tb1", -0.75f), up1}));
  const auto sem = g.add("sem", "Mul", {x, b});
  g.output("sem_add", g.add("sem_add", "AddV2", {s3, sem}));
  const auto sea = g.add("sea", "AddV2", {x, b});
  g.output("sea_add", g.add("sea_add", "AddV2", {g.add("sea_relu", "Relu", {sea}), s3}));
  graph::Graph graph = g.take();
  // Float ops, as the converter writes them; the inputs' shapes, as a model's signature gives
  // them (an addend is taken in only where shape inference knows it is of the output's shape).
  for (auto& n : graph.nodes)
    if (n.op != "Placeholder" && n.op != "Const") n.attrs["T"] = graph::TypeAttr{"DT_FLOAT"};
  for (const auto& in : graph.inputs) {
    graph.nodes[in.ref.node].attrs["shape"] = in.shape;
    graph.nodes[in.ref.node].attrs["dtype"] = graph::TypeAttr{"DT_FLOAT"};
  }
  graph::infer_shapes(graph);
  return graph;
}

}  // namespace

using test::GlEngine;

class GlFusionTest : public QObject {
  Q_OBJECT
  graph::Graph graph_ = make_graph();
  NamedTensors inputs_{{"x", test::random_tensor({1, 5, 7, 6}, 5, -8.f, 8.f)},
                       {"m", test::random_tensor({3, 6}, 6, -4.f, 4.f)},
                       {"m5", test::random_tensor({3, 5}, 7, -4.f, 4.f)}};
  std::vector<HostTensor> want_;

  // Runs the graph on gl with `watch` attached.
  std::vector<HostTensor> run_watched(GlEngine& e, Watch& watch) {
    Executor ex(e.engine, graph_);
    e.engine.add_observer(&watch);
    struct Detach {
      Engine& engine;
      Watch& watch;
      ~Detach() { engine.remove_observer(&watch); }
    } detach{e.engine, watch};
    return ex.run(inputs_);
  }

  // Every output of a fused run against the same outputs of an unfused one: bit for bit, or as
  // values (-0 and 0 equal, NaN equal to NaN).
  enum class Zeros { BySign, Equal };
  void expect_as_unfused(const std::vector<HostTensor>& got, const std::vector<HostTensor>& want,
                         Zeros zeros) {
    QCOMPARE(got.size(), want.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      const std::string& name = graph_.outputs[k].name;
      const auto g = got[k].values<float>(), w = want[k].values<float>();
      QCOMPARE(g.size(), w.size());
      for (std::size_t i = 0; i < w.size(); ++i) {
        const bool same =
            zeros == Zeros::BySign
                ? std::bit_cast<std::uint32_t>(g[i]) == std::bit_cast<std::uint32_t>(w[i])
                : g[i] == w[i] || (std::isnan(g[i]) && std::isnan(w[i]));
        QVERIFY2(same, (name + "[" + std::to_string(i) + "]: " + std::to_string(g[i]) + " fused, " +
                        std::to_string(w[i]) + " not")
                           .c_str());
      }
    }
  }

  void expect_cpu_outputs(const std::vector<HostTensor>& got, const std::string& what) {
    QCOMPARE(got.size(), want_.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      const auto g = got[k].values<float>(), w = want_[k].values<float>();
      QCOMPARE(g.size(), w.size());
      double err = 0;
      for (std::size_t i = 0; i < w.size(); ++i)
        err = std::max(err, std::fabs(static_cast<double>(g[i]) - w[i]));
      // DESIGN.md's fp32 tolerance; these small kernels round like cpu.
      QVERIFY2(err <= 1e-3 * 8, (what + ": output " + graph_.outputs[k].name + " is " +
                                 std::to_string(err) + " from cpu")
                                    .c_str());
    }
  }

 private slots:
  void initTestCase() {
    GlEngine e;
    QVERIFY2(e.gl->availability().available, e.gl->availability().reason.c_str());
    Executor ex(e.engine, graph_);
    e.engine.set_backend("cpu");
    want_ = ex.run(inputs_);
    QCOMPARE(want_.size(), std::size_t{27});
  }

  void plan_fuses_what_it_can() {
    GlEngine e;
    Executor ex(e.engine, graph_);
    const Plan& p = ex.plan();
    QCOMPARE(p.fusions, 31);
    auto node = [&](const char* name) -> const PlanNode& {
      for (std::size_t i = 0; i < graph_.nodes.size(); ++i)
        if (graph_.nodes[i].name == name) return p.nodes[i];
      throw std::runtime_error(std::string("no node ") + name);
    };
    QVERIFY(node("add").fused && node("relu6").fused_into >= 0);
    QVERIFY(node("sub").fused && node("leaky").fused_into >= 0);
    QCOMPARE(ops::attr<float>(*node("sub").fused, kFusedActivationAlpha, 0.f), 0.3f);
    QVERIFY(!node("mul").fused && node("relu").fused_into < 0);
    auto fused_ops = [&](const char* name) {
      return ops::attr<ops::Strings>(*node(name).fused, "fused_ops");
    };
    // Prelu: its alpha, a Const, becomes the fused node's last input.
    QVERIFY(node("max").fused && node("prelu").fused_into >= 0);
    QCOMPARE(node("max").fused->inputs.size(), std::size_t{3});
    QCOMPARE(fused_ops("c5"), (std::vector<std::string>{"BiasAdd", "Prelu"}));
    QCOMPARE(node("c5").fused->inputs.size(), std::size_t{4});
    QVERIFY(!node("sub2").fused && node("sub2_prelu").fused_into < 0);
    QCOMPARE(fused_ops("conv"), (std::vector<std::string>{"BiasAdd", "Sigmoid"}));
    // Bias adds: the convolution or product becomes its fused form reading the Const.
    QCOMPARE(node("c2").fused->op, std::string("_FusedConv2D"));
    QCOMPARE(fused_ops("c2"), (std::vector<std::string>{"BiasAdd", "Relu6"}));
    QCOMPARE(node("c2_add").fused_through, 0);
    QVERIFY(node("c2_relu6").fused_into == node("c2_add").fused_into);
    QCOMPARE(node("dw").fused->op, std::string("FusedDepthwiseConv2dNative"));
    QCOMPARE(fused_ops("dw"), (std::vector<std::string>{"BiasAdd", "Relu"}));
    QCOMPARE(node("dw_add").fused_through, 1);
    QCOMPARE(graph_.nodes[node("dw").fused->inputs.back().node].name, std::string("b"));
    QCOMPARE(node("mm").fused->op, std::string("_FusedMatMul"));
    QVERIFY(node("mm_bias").fused_into >= 0);
    for (const char* n : {"c3", "c4"}) QVERIFY(!node(n).fused);
    for (const char* n : {"c3_add_x", "c4_add_big"}) QVERIFY(node(n).fused_into < 0);
    // Residual connections: the addend is the fused node's last input, after Prelu's alpha.
    auto input_name = [&](const char* name, std::size_t k) {
      return graph_.nodes[node(name).fused->inputs.at(k).node].name;
    };
    auto has_addend = [&](const char* name) {
      return node(name).fused && ops::attr<bool>(*node(name).fused, ops::kFusedAddend, false);
    };
    QVERIFY(has_addend("res"));
    QCOMPARE(fused_ops("res"), (std::vector<std::string>{"BiasAdd", "Relu"}));
    QCOMPARE(node("res").fused->inputs.size(), std::size_t{4});
    QCOMPARE(input_name("res", 3), std::string("x"));
    QCOMPARE(node("res_add").fused_through, 1);
    QVERIFY(node("res_relu").fused_into == node("res_add").fused_into);
    QVERIFY(has_addend("c6"));
    QCOMPARE(fused_ops("c6"), (std::vector<std::string>{"BiasAdd", "Prelu"}));
    QCOMPARE(input_name("c6", 3), std::string("alpha"));
    QCOMPARE(input_name("c6", 4), std::string("s3"));
    QCOMPARE(ops::attr<std::int64_t>(*node("c6").fused, "num_args"), std::int64_t{3});
    QVERIFY(has_addend("dwr") && has_addend("mmr"));
    // The hard swish: its four nodes forward the kernel's value; its Consts become attributes.
    QCOMPARE(ops::attr<float>(*node("hx").fused, ops::kFusedHardSwishScale), 0.166625977f);
    QCOMPARE(ops::attr<float>(*node("hx").fused, ops::kFusedHardSwishShift), 3.f);
    QCOMPARE(node("hx").fused->inputs.size(), std::size_t{3});
    for (const char* n : {"hmul", "hadd", "hr", "hout"})
      QVERIFY(node(n).fused_into == node("hadd").fused_into && node(n).fused_into >= 0);
    QCOMPARE(node("hadd").fused_through, 1);
    QCOMPARE(node("hout").fused_through, 1);
    QVERIFY(!node("gx").fused);
    // An add after the activation: the addend after it.
    QVERIFY(has_addend("ar"));
    QVERIFY(ops::attr<bool>(*node("ar").fused, ops::kFusedAddendAfterActivation, false));
    QCOMPARE(fused_ops("ar"), (std::vector<std::string>{"BiasAdd", "Relu"}));
    QVERIFY(!ops::attr<bool>(*node("res").fused, ops::kFusedAddendAfterActivation, false));
    // Conv2DBackpropInput keeps its op and reads the bias as its last input.
    for (const char* n : {"up", "up1"}) {
      QCOMPARE(node(n).fused->op, std::string("Conv2DBackpropInput"));
      QVERIFY(ops::attr<bool>(*node(n).fused, kFusedBias, false));
      QCOMPARE(node(n).fused->inputs.size(), std::size_t{4});
    }
    for (const char* n : {"c7", "c8"}) QVERIFY(!node(n).fused);
    QVERIFY(node("c8_row").fused_into < 0);
    // Binary ops: the addend is their last input (c7_res adds c7 inside late's kernel).
    for (const char* n : {"sem", "sea", "late"}) QVERIFY(has_addend(n));
    QCOMPARE(input_name("sem", 2), std::string("s3"));
    QCOMPARE(input_name("late", 2), std::string("c7"));
    QCOMPARE(node("c7_res").fused_through, 1);
    QVERIFY(!ops::attr<bool>(*node("sem").fused, ops::kFusedAddendAfterActivation, false));
    QVERIFY(ops::attr<bool>(*node("sea").fused, ops::kFusedAddendAfterActivation, false));
    QCOMPARE(ops::attr<std::string>(*node("sea").fused, kFusedActivation), std::string("Relu"));
    // cpu offers nothing: its plan fuses no pair.
    e.engine.set_backend("cpu");
    QCOMPARE(ex.plan().fusions, 0);
    // fp16 that follows TF.js webgl stores what TF.js stores: no addend is taken in. (Rounding
    // the kernel's value and the sum inside it, as TF.js stores them, was exact, but llvmpipe
    // runs code under a uniform branch whether it is taken or not: fp32, whose program it is too,
    // ran 25% slower on blazeface.)
    e.engine.set_backend("gl");
    e.engine.set_precision(Precision::Fp16);
    const Plan& half = ex.plan();
    for (const auto& pn : half.nodes)
      QVERIFY(!pn.fused || (!ops::attr<bool>(*pn.fused, ops::kFusedAddend, false) &&
                            !pn.fused->attr(ops::kFusedHardSwishScale)));
  }

  void fused_run_matches_cpu() {
    GlEngine e;
    Watch watch(false);
    const auto got = run_watched(e, watch);
    expect_cpu_outputs(got, "fused");
    for (const char* k :
         {"relu6",   "leaky",   "sigmoid",  "prelu",   "c2_add",   "c2_relu6", "dw_add", "dw_relu",
          "mm_bias", "c5_add",  "c5_prelu", "res_add", "res_relu", "c6_bias",  "c6_res", "c6_prelu",
          "dwr_add", "mmr_add", "hmul",     "hadd",    "hr",       "hout",     "gr",     "ar_relu",
          "ar_add",  "up_bias", "up1_bias", "sem_add", "sea_relu", "sea_add",  "c7_res"})
      QVERIFY2(watch.ran_on[k] == "fused",
               (std::string(k) + " ran on '" + watch.ran_on[k] + "'").c_str());
    // Observers learn whose kernel computed a fused node.
    QCOMPARE(watch.fused_into["c2_relu6"], "c2");
    QCOMPARE(watch.fused_into["dw_add"], "dw");
    QVERIFY(!watch.fused_into.count("c2"));
    for (const char* k :
         {"add",  "sub",      "conv", "mul",        "relu",   "max",  "c2",         "dw",  "mm",
          "c3",   "c3_add_x", "c4",   "c4_add_big", "c5",     "sub2", "sub2_prelu", "res", "s3",
          "c6",   "c7",       "late", "c8",         "c8_row", "dwr",  "mmr",        "hx",  "gx",
          "gmul", "gadd",     "gout", "ar",         "up",     "up1",  "sem",        "sea"})
      QVERIFY2(watch.ran_on[k] == "gl",
               (std::string(k) + " ran on '" + watch.ran_on[k] + "'").c_str());
  }

  // A fused kernel takes the nodes' float steps in their order: every output is bit for bit what
  // gl computes with fusion off (the same kernels, each node's value stored in fp32 between them).
  // Against gl itself, not cpu: cpu's sums round by its compiler's contraction rules (clang's
  // builds fuse multiply-adds that GCC's do not), gl's by the driver's.
  void fused_steps_round_as_the_nodes() {
    std::vector<HostTensor> unfused;
    {
      GlEngine e;
      e.engine.flags().set("fuse", "false");
      Watch watch(false);
      unfused = run_watched(e, watch);
      QCOMPARE(watch.ran_on["hout"], "gl");
    }
    GlEngine e;
    Watch watch(false);
    const auto got = run_watched(e, watch);
    for (const char* k :
         {"hout", "res_relu", "ar_add", "sem_add", "sea_add", "up_bias", "c6_prelu"})
      QCOMPARE(watch.ran_on[k], "fused");
    expect_as_unfused(got, unfused, Zeros::BySign);
  }

  // fp16 following TF.js webgl stores every output TF.js stores, with one exception: a Relu or
  // Relu6 goes into the kernel before it, because a clip at 0 or 6 commutes with the rounding to
  // half (TF.js rounds the sum, then clips; the fused kernel clips, then its output is rounded).
  // Every output is the value of the unfused fp16 run (a zero's sign aside: TF.js's relu keeps
  // -0); the activations that do not commute (leaky, sigmoid, Prelu) still run on their own.
  void fp16_webgl_takes_in_only_clips() {
    auto run = [&](bool fuse, Watch& watch) {
      GlEngine e;
      e.engine.flags().set("fuse", fuse ? "true" : "false");
      e.engine.set_precision(Precision::Fp16);
      return run_watched(e, watch);
    };
    Watch plain(false), fused(false);
    const auto want = run(false, plain);
    const auto got = run(true, fused);
    for (const char* k : {"relu6", "c2_relu6", "dw_relu", "res_relu", "sea_relu"})
      QVERIFY2(fused.ran_on[k] == "fused",
               (std::string(k) + " ran on '" + fused.ran_on[k] + "'").c_str());
    QCOMPARE(fused.fused_into["relu6"], "add");
    QCOMPARE(fused.fused_into["c2_relu6"], "c2_add");  // the bias is stored first, as TF.js does
    for (const char* k : {"leaky", "sigmoid", "prelu", "c2_add", "dw_add", "res_add", "sea_add"})
      QVERIFY2(fused.ran_on[k] == "gl",
               (std::string(k) + " ran on '" + fused.ran_on[k] + "'").c_str());
    expect_as_unfused(got, want, Zeros::Equal);
  }

  // Where fp16 following webgl runs apart what fp32 fuses into a convolution or product (an
  // activation, and a bias add before it that TF.js stores too), the producer runs as fp32's
  // program with the bias and activation off, and the sigmoid's own kernel was built during the
  // fp32 run: a switch fp32 -> fp16 builds no kernel. Outputs are those of the unfused fp16 run.
  // Each graph also has an add of its input to itself, so that fp32 builds the binary kernel the
  // apart bias adds and a hard swish's steps run as (a real model's other elementwise nodes do).

  void fp16_apart_chain_builds_nothing_data() {
    QTest::addColumn<int>("which");
    QTest::newRow("fused conv, sigmoid") << 0;
    QTest::newRow("conv, bias add, hard swish") << 1;
    QTest::newRow("matmul, bias add, sigmoid") << 2;
    QTest::newRow("transposed conv, bias add") << 3;
    QTest::newRow("conv, bias add, prelu") << 4;
    QTest::newRow("conv, bias add, prelu of one alpha") << 5;
  }

  void fp16_apart_chain_builds_nothing() {
    QFETCH(int, which);
    using Attrs = std::map<std::string, graph::AttrValue, std::less<>>;
    const Attrs conv_attrs{{"strides", std::vector<std::int64_t>{1, 1, 1, 1}},
                           {"padding", std::string("SAME")},
                           {"T", graph::TypeAttr{"DT_FLOAT"}}};
    auto filter = [](test::GraphBuilder& g, std::vector<std::int64_t> shape) {
      auto f = g.add("filter", "Const");
      g.g.nodes[f.node].value = test::random_tensor(std::move(shape), 21, -1.f, 1.f);
      return f;
    };
    auto int_vector = [](test::GraphBuilder& g, std::string name, std::vector<std::int32_t> v) {
      auto t = g.add(std::move(name), "Const");
      const auto n = static_cast<std::int64_t>(v.size());
      g.g.nodes[t.node].value = test::ints({n}, std::move(v));
      return t;
    };
    struct ApartCase {
      const char* name;
      // Builds the chain after `x` (with `g`), returns the producer's node.
      std::function<int(test::GraphBuilder& g, graph::TensorRef x)> chain;
      gl::Activation program;      // the activation of the producer's fp32 program
      std::int64_t built_in_fp16;  // kernels fp16 builds without workers (with them: 0)
      int fp16_fusions;            // what fp16 still fuses (a clip into the add before it)
    };
    const std::vector<float> cb{0.1f, -0.2f, 0.3f, -0.4f, 0.5f};
    // No other node of these graphs is a binary kernel at fp32: the one fp16 runs apart (a bias
    // add, a Prelu, a hard swish's steps) is built ahead after fp32's run, or not at all.
    auto conv_prelu = [&](bool one_alpha) {
      return [&, one_alpha](test::GraphBuilder& g, graph::TensorRef x) {
        const auto conv = g.add("conv", "Conv2D", {x, filter(g, {3, 3, 6, 5})}, conv_attrs);
        const auto biased = g.add("bias", "BiasAdd", {conv, g.vector_const("cb", cb)});
        const auto alpha = one_alpha ? g.scalar_const("alpha", 0.25f)
                                     : g.vector_const("alpha", {0.1f, 0.2f, 0.3f, 0.4f, 0.5f});
        g.output("out", g.add("prelu", "Prelu", {biased, alpha}));
        return conv.node;
      };
    };
    const ApartCase cases[] = {
        {"fused conv, sigmoid",
         [&](test::GraphBuilder& g, graph::TensorRef x) {
           Attrs a = conv_attrs;
           a["fused_ops"] = std::vector<std::string>{"BiasAdd"};
           a["num_args"] = std::int64_t{1};
           const auto conv = g.add("conv", "_FusedConv2D",
                                   {x, filter(g, {3, 3, 6, 5}), g.vector_const("cb", cb)}, a);
           g.output("out", g.add("sig", "Sigmoid", {conv}, {{"T", graph::TypeAttr{"DT_FLOAT"}}}));
           return conv.node;
         },
         gl::Activation::Sigmoid, 1, 0},
        {"conv, bias add, hard swish",
         [&](test::GraphBuilder& g, graph::TensorRef x) {
           const auto conv = g.add("conv", "Conv2D", {x, filter(g, {3, 3, 6, 5})}, conv_attrs);
           const auto biased = g.add("bias", "AddV2", {conv, g.vector_const("cb", cb)});
           const auto mul = g.add("hmul", "Mul", {biased, g.scalar_const("s", 1.f / 6)});
           const auto add = g.add("hadd", "AddV2", {biased, g.scalar_const("t", 3.f)});
           const auto relu6 = g.add("hr", "Relu6", {add});
           g.output("out", g.add("hout", "Mul", {mul, relu6}));
           return conv.node;
         },
         gl::Activation::HardSwish, 1, 1},
        {"matmul, bias add, sigmoid",
         [&](test::GraphBuilder& g, graph::TensorRef x) {
           const auto flat = g.add("flat", "Reshape", {x, int_vector(g, "fs", {5, 42})});
           const auto mm = g.add("mm", "MatMul", {flat, filter(g, {42, 5})});
           const auto biased = g.add("bias", "BiasAdd", {mm, g.vector_const("cb", cb)});
           g.output("out", g.add("sig", "Sigmoid", {biased}));
           return mm.node;
         },
         gl::Activation::Sigmoid, 2, 0},
        {"transposed conv, bias add",
         [&](test::GraphBuilder& g, graph::TensorRef x) {
           Attrs a = conv_attrs;
           a["strides"] = std::vector<std::int64_t>{1, 2, 2, 1};
           const auto up =
               g.add("up", "Conv2DBackpropInput",
                     {int_vector(g, "sizes", {1, 10, 14, 5}), filter(g, {3, 3, 5, 6}), x}, a);
           g.output("out", g.add("bias", "AddV2", {up, g.vector_const("cb", cb)}));
           return up.node;
         },
         gl::Activation::None, 1, 0},
        {"conv, bias add, prelu", conv_prelu(false), gl::Activation::Prelu, 1, 0},
        {"conv, bias add, prelu of one alpha", conv_prelu(true), gl::Activation::Prelu, 1, 0},
    };
    const ApartCase& c = cases[which];
    test::GraphBuilder g;
    const auto x = g.placeholder("x", DType::Float32, {1, 5, 7, 6});
    const int producer = c.chain(g, x);
    graph::Graph graph = g.take();
    for (const auto& i : graph.inputs) {
      graph.nodes[i.ref.node].attrs["shape"] = i.shape;
      graph.nodes[i.ref.node].attrs["dtype"] = graph::TypeAttr{"DT_FLOAT"};
    }
    graph::infer_shapes(graph);
    const NamedTensors in{{"x", test::random_tensor({1, 5, 7, 6}, 22, -3.f, 3.f)}};

    auto run16 = [&](bool fuse) {
      GlEngine e;
      e.engine.flags().set("fuse", fuse ? "true" : "false");
      Executor ex(e.engine, graph);
      e.engine.set_precision(Precision::Fp16);
      return ex.run(in);
    };
    const auto unfused = run16(false);

    GlEngine e;
    Executor ex(e.engine, graph);
    ex.run(in);
    QVERIFY(ex.plan().nodes[static_cast<std::size_t>(producer)].fused);  // fp32 took the chain in
    // Workers build ahead on llvmpipe with its shader cache (gl_dispatch.cpp's warmer()).
    const auto& lim = e.gl->context()->limits();
    const bool workers = lim.variant_per_pow2_sides && lim.num_binary_formats > 0;
    QCOMPARE(e.gl->stats().prebuilt > 0, workers);
    // They are built after the run, as the GUI and tfjsi bench wait for before the next one: a
    // run that needs one still being built builds it too (it counts as that run's).
    e.gl->settle();
    e.gl->reset_stats();
    e.engine.set_precision(Precision::Fp16);
    const auto got = ex.run(in);
    const Plan& plan = ex.plan();
    QCOMPARE(plan.fusions, c.fp16_fusions);
    const PlanNode& pn = plan.nodes[static_cast<std::size_t>(producer)];
    if (c.program == gl::Activation::None) {
      QVERIFY(!pn.fused);
    } else {
      QVERIFY(pn.fused);
      QCOMPARE(ops::attr<std::int64_t>(*pn.fused, gl::kProgramActivation, -1),
               static_cast<std::int64_t>(c.program));
    }
    // Without workers (a driver that builds at link) nothing is built ahead: the kernels fp16
    // runs apart are its new programs then. llvmpipe has them (CI).
    QCOMPARE(e.gl->stats().new_kernels, workers ? std::int64_t{0} : c.built_in_fp16);
    QCOMPARE(got.size(), unfused.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      const auto gv = got[k].values<float>(), wv = unfused[k].values<float>();
      QCOMPARE(gv.size(), wv.size());
      for (std::size_t i = 0; i < wv.size(); ++i)
        QVERIFY2(std::bit_cast<std::uint32_t>(gv[i]) == std::bit_cast<std::uint32_t>(wv[i]),
                 (std::string(c.name) + ": output " + std::to_string(k) + "[" + std::to_string(i) +
                  "]: " + std::to_string(gv[i]) + ", unfused " + std::to_string(wv[i]))
                     .c_str());
    }
  }

  // A kernel built ahead for fp16 that the fp32 run then needs itself (the bias add fp16 runs
  // apart is binary.comp, as the Add after it is) is the run's program: built with the run's
  // others, not handed to the workers again for later.
  void prebuild_the_run_needs_is_the_runs() {
    test::GraphBuilder g;
    const auto x = g.placeholder("x", DType::Float32, {3, 6});
    auto w = g.add("w", "Const");
    g.g.nodes[w.node].value = test::random_tensor({6, 5}, 31, -1.f, 1.f);
    const auto mm = g.add("mm", "MatMul", {x, w});
    const auto biased =
        g.add("bias", "BiasAdd", {mm, g.vector_const("b", {0.1f, -0.2f, 0.3f, -0.4f, 0.5f})});
    const auto sig = g.add("sig", "Sigmoid", {biased});
    g.output("out", g.add("twice", "AddV2", {sig, sig}));
    graph::Graph graph = g.take();
    for (const auto& i : graph.inputs) {
      graph.nodes[i.ref.node].attrs["shape"] = i.shape;
      graph.nodes[i.ref.node].attrs["dtype"] = graph::TypeAttr{"DT_FLOAT"};
    }
    graph::infer_shapes(graph);
    GlEngine e;
    const auto& lim = e.gl->context()->limits();
    if (!lim.variant_per_pow2_sides || lim.num_binary_formats <= 0)
      QSKIP("workers build ahead on llvmpipe with its shader cache");
    Executor ex(e.engine, graph);
    e.gl->reset_stats();
    ex.run({{"x", test::random_tensor({3, 6}, 32, -2.f, 2.f)}});
    QVERIFY(ex.plan().nodes[static_cast<std::size_t>(mm.node)].fused);
    const auto st = e.gl->stats();
    // The sigmoid's kernel alone is for later; the product's and the add's were the run's
    // (whether a worker or this thread built each depends on the machine's load).
    QCOMPARE(st.prebuilt, std::int64_t{1});
  }

  void observer_of_values_turns_it_off() {
    GlEngine e;
    Watch watch(true);
    const auto got = run_watched(e, watch);
    expect_cpu_outputs(got, "observed");
    QCOMPARE(watch.ran_on["relu6"], "gl");
    // AddV2's own output, before the Relu6: values below 0 and above 6 are there.
    const auto add = watch.outputs.at("add").values<float>();
    QVERIFY(*std::min_element(add.begin(), add.end()) < 0.f);
    QVERIFY(*std::max_element(add.begin(), add.end()) > 6.f);
  }

  void flag_turns_it_off() {
    GlEngine e;
    e.engine.flags().set("fuse", "false");
    Watch watch(false);
    const auto got = run_watched(e, watch);
    expect_cpu_outputs(got, "fuse=false");
    for (const char* k :
         {"relu6", "leaky", "sigmoid", "prelu", "c2_add", "dw_add", "mm_bias", "c5_prelu"})
      QCOMPARE(watch.ran_on[k], "gl");
  }

  void failing_fused_kernel_runs_on_cpu_data() {
    QTest::addColumn<QString>("producer");
    QTest::addColumn<QString>("taken_in");
    QTest::newRow("activation") << "add"
                                << "relu6";
    QTest::newRow("bias and activation") << "c2"
                                         << "c2_relu6";
    QTest::newRow("prelu") << "max"
                           << "prelu";
    QTest::newRow("bias first") << "dw"
                                << "dw_add";
    QTest::newRow("addend") << "res"
                            << "res_relu";
    QTest::newRow("prelu and addend") << "c6"
                                      << "c6_prelu";
    QTest::newRow("hard swish") << "hx"
                                << "hout";
    QTest::newRow("addend after the activation") << "ar"
                                                 << "ar_add";
    QTest::newRow("bias of a transposed convolution") << "up"
                                                      << "up_bias";
    QTest::newRow("scalar bias of a transposed convolution") << "up1"
                                                             << "up1_bias";
    QTest::newRow("binary op and addend") << "sem"
                                          << "sem_add";
    QTest::newRow("binary op, activation and addend") << "sea"
                                                      << "sea_add";
  }
  void failing_fused_kernel_runs_on_cpu() {
    QFETCH(QString, producer);
    QFETCH(QString, taken_in);
    const std::string name = producer.toStdString();
    GlEngine e;
    e.gl->test_hooks().fault = gl::GlFault::Compile;
    e.gl->test_hooks().fault_node = name;
    Watch watch(false);
    const auto got = run_watched(e, watch);
    e.gl->test_hooks().fault = gl::GlFault::None;
    expect_cpu_outputs(got, "fault at " + name);
    QCOMPARE(watch.ran_on[name], "cpu");
    QCOMPARE(watch.ran_on[taken_in.toStdString()], "fused");
    bool warned = false;
    for (const auto& l : e.log)
      warned = warned || (l.find("'" + name + "'") != std::string::npos &&
                          l.find("runs on cpu") != std::string::npos);
    QVERIFY2(warned, "no warning names the node that fell back");
  }
};

QTEST_GUILESS_MAIN(GlFusionTest)
#include "gl_fusion_test.moc"
