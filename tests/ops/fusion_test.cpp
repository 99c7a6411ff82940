// ops/fusion.h: a fused node's epilogue as TF.js's converter reads it (fused_ops is
// [extra op, activation] matched without case, num_args counts the inputs after the first two,
// BiasAdd needs one, BiasAdd + Prelu two, FusedBatchNorm is refused) and the fusion rules that
// make _FusedConv2D / FusedDepthwiseConv2dNative / _FusedMatMul from two nodes.
#include <QObject>
#include <QTest>
#include <cstdint>
#include <string>
#include <vector>

#include "expect_error.h"
#include "graph/ir.h"
#include "ops/fusion.h"

using namespace tfjsi;

namespace {

graph::Node fused_node(std::vector<std::string> fused_ops, std::int64_t inputs) {
  graph::Node n;
  n.name = "net/conv";
  n.op = "_FusedConv2D";
  n.attrs["fused_ops"] = std::move(fused_ops);
  for (std::int64_t i = 0; i < inputs; ++i) n.inputs.push_back({static_cast<int>(i), 0});
  return n;
}

}  // namespace

class OpsFusionTest : public QObject {
  Q_OBJECT

 private slots:
  void activationsByNameWithoutCase() {
    QVERIFY(ops::fused_activation("") == ops::Activation::None);
    QVERIFY(ops::fused_activation("Relu") == ops::Activation::Relu);
    QVERIFY(ops::fused_activation("relu6") == ops::Activation::Relu6);
    QVERIFY(ops::fused_activation("Elu") == ops::Activation::Elu);
    QVERIFY(ops::fused_activation("LeakyRelu") == ops::Activation::LeakyRelu);
    QVERIFY(ops::fused_activation("PRELU") == ops::Activation::Prelu);
    QVERIFY(ops::fused_activation("Sigmoid") == ops::Activation::Sigmoid);
    // TF.js's fused kernels apply no tanh.
    QVERIFY(!ops::fused_activation("Tanh"));
  }

  void readsTheEpilogue() {
    const ops::FusedEpilogue none = ops::fused_epilogue(fused_node({}, 2), 2);
    QVERIFY(!none.bias);
    QCOMPARE(none.extra_inputs(), std::size_t{0});

    const ops::FusedEpilogue bias = ops::fused_epilogue(fused_node({"BiasAdd"}, 3), 3);
    QVERIFY(bias.bias);
    QVERIFY(bias.activation == ops::Activation::None);

    graph::Node leaky = fused_node({"biasadd", "leakyrelu"}, 3);
    leaky.attrs["leakyrelu_alpha"] = 0.3f;
    const ops::FusedEpilogue l = ops::fused_epilogue(leaky, 3);
    QVERIFY(l.activation == ops::Activation::LeakyRelu);
    QCOMPARE(l.leaky_alpha, 0.3f);

    graph::Node prelu = fused_node({"BiasAdd", "Prelu"}, 4);
    prelu.attrs["num_args"] = std::int64_t{2};
    const ops::FusedEpilogue p = ops::fused_epilogue(prelu, 4);
    QVERIFY(p.prelu());
    QCOMPARE(p.extra_inputs(), std::size_t{2});
  }

  void refusesWhatTfjsRefuses() {
    expect_error([] { ops::fused_epilogue(fused_node({"FusedBatchNorm"}, 3), 3); },
                 {"net/conv", "FusedBatchNorm"});
    expect_error([] { ops::fused_epilogue(fused_node({"Mul"}, 3), 3); }, {"'Mul'", "BiasAdd"});
    expect_error(
        [] {
          ops::fused_epilogue(fused_node({"BiasAdd", "Tanh"}, 3), 3);
        },
        {"activation 'Tanh'"});
    // Prelu without its alpha input.
    expect_error(
        [] {
          ops::fused_epilogue(fused_node({"BiasAdd", "Prelu"}, 3), 3);
        },
        {"needs 2 extra inputs, got 1"});
    graph::Node wrong = fused_node({"BiasAdd"}, 3);
    wrong.attrs["num_args"] = std::int64_t{2};
    expect_error([&] { ops::fused_epilogue(wrong, 3); }, {"num_args is 2", "3 inputs"});
    expect_error([] { ops::fused_epilogue(fused_node({}, 3), 3); }, {"fused_ops is empty"});
    // The checking reader says no instead.
    QVERIFY(!ops::try_fused_epilogue(wrong, 3));
    graph::Node list_of_ints = fused_node({}, 2);
    list_of_ints.attrs["fused_ops"] = std::vector<std::int64_t>{1};
    QVERIFY(!ops::try_fused_epilogue(list_of_ints, 2));
  }

  void fusesBiasThenActivation() {
    graph::Node conv;
    conv.name = "c";
    conv.op = "DepthwiseConv2dNative";
    conv.inputs = {{0, 0}, {1, 0}};
    const auto with_bias = ops::fuse_bias(conv, {2, 0});
    QVERIFY(with_bias);
    QCOMPARE(with_bias->op, std::string("FusedDepthwiseConv2dNative"));
    QCOMPARE(with_bias->inputs.size(), std::size_t{3});
    const ops::FusedEpilogue e1 = ops::fused_epilogue(*with_bias, 3);
    QVERIFY(e1.bias && e1.activation == ops::Activation::None);

    graph::Node prelu;
    prelu.op = "Prelu";
    prelu.inputs = {{3, 0}, {4, 0}};
    const auto with_act = ops::fuse_activation(*with_bias, prelu);
    QVERIFY(with_act);
    QCOMPARE(with_act->inputs.size(), std::size_t{4});
    QCOMPARE(with_act->inputs[3].node, 4);
    const ops::FusedEpilogue e2 = ops::fused_epilogue(*with_act, 4);
    QVERIFY(e2.prelu());

    graph::Node leaky;
    leaky.op = "LeakyRelu";
    leaky.attrs["alpha"] = 0.1f;
    leaky.inputs = {{3, 0}};
    const auto l = ops::fuse_activation(*with_bias, leaky);
    QVERIFY(l);
    QCOMPARE(ops::fused_epilogue(*l, 3).leaky_alpha, 0.1f);

    // Not twice, not without a bias, not for an op without a fused form.
    QVERIFY(!ops::fuse_activation(*l, leaky));
    QVERIFY(!ops::fuse_activation(conv, leaky));
    graph::Node add;
    add.op = "AddV2";
    QVERIFY(!ops::fuse_bias(add, {2, 0}));
    graph::Node tanh;
    tanh.op = "Tanh";
    tanh.inputs = {{3, 0}};
    QVERIFY(!ops::fuse_activation(*with_bias, tanh));
  }
};

QTEST_GUILESS_MAIN(OpsFusionTest)
#include "fusion_test.moc"
