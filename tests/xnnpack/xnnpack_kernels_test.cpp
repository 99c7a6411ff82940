// Every op the xnnpack backend runs through an XNNPACK operator, against the cpu kernel with the
// same inputs, on many shapes including the odd ones (channels not a multiple of 4, stride 2 with
// SAME's asymmetric padding, dilation, batch > 1, broadcasting). Each case also checks that the
// node really ran through XNNPACK, not through the cpu kernel fallback.
#include <QtTest>

#include "core/error.h"
#include "xnnpack/xnnpack_test_util.h"

using namespace tfjsi;
using namespace tfjsi::test;
using graph::Node;

namespace {

std::vector<std::int64_t> hw4(std::int64_t h, std::int64_t w) {
  return {1, h, w, 1};
}

// Runs `node` on xnnpack and cpu; fails unless it went through XNNPACK and matches.
void check_native(XnnFixture& f, const Node& node, const std::vector<HostTensor>& inputs,
                  const std::string& what) {
  HostTensor got;
  try {
    got = f.run(node, inputs);
  } catch (const std::exception& e) {
    QFAIL((what + ": xnnpack threw: " + e.what()).c_str());
  }
  QVERIFY2(f.xnn->last_path(node) == xnnpack::Path::Xnnpack,
           (what + ": ran as " + std::string(to_string(f.xnn->last_path(node))) +
            ", not through XNNPACK")
               .c_str());
  QVERIFY2(f.xnn->native(node), (what + ": native() says no").c_str());
  expect_close(got, run_cpu(node, inputs), what);
}

#define CHECK_NATIVE(f, node, inputs, what) \
  do {                                      \
    check_native(f, node, inputs, what);    \
    if (QTest::currentTestFailed()) return; \
  } while (false)

Node conv_node(const std::string& op, std::int64_t stride, std::int64_t dil, const std::string& pad,
               std::size_t inputs = 2) {
  Node n = make_node(op, inputs);
  n.attrs["strides"] = hw4(stride, stride);
  n.attrs["dilations"] = hw4(dil, dil);
  n.attrs["padding"] = pad;
  n.attrs["data_format"] = std::string("NHWC");
  return n;
}

struct ConvCase {
  std::int64_t n, h, w, c, kh, kw, co, stride, dil;
  const char* pad;
};

const ConvCase kConvCases[] = {
    {1, 8, 8, 3, 3, 3, 8, 1, 1, "SAME"},     {1, 9, 7, 5, 3, 3, 6, 2, 1, "SAME"},
    {2, 10, 10, 4, 3, 3, 7, 2, 1, "SAME"},   {1, 11, 13, 7, 5, 5, 5, 2, 1, "SAME"},
    {1, 12, 12, 6, 3, 3, 4, 1, 2, "SAME"},   {1, 12, 11, 3, 3, 3, 9, 1, 2, "VALID"},
    {2, 9, 9, 5, 1, 1, 11, 1, 1, "VALID"},   {1, 8, 8, 16, 1, 1, 24, 2, 1, "SAME"},
    {1, 7, 7, 3, 2, 2, 5, 2, 1, "VALID"},    {3, 6, 5, 2, 3, 2, 3, 1, 1, "SAME"},
    {1, 16, 16, 32, 3, 3, 33, 2, 1, "SAME"},
};

}  // namespace

class XnnpackKernelsTest : public QObject {
  Q_OBJECT

  XnnFixture f;

 private slots:
  void initTestCase() {
    QVERIFY2(f.xnn->availability().available, f.xnn->availability().reason.c_str());
  }

  void conv2d() {
    std::uint32_t seed = 1;
    for (const ConvCase& k : kConvCases) {
      Node n = conv_node("Conv2D", k.stride, k.dil, k.pad);
      const std::string what = "Conv2D " + shape_to_string(Shape{k.n, k.h, k.w, k.c}) + " k" +
                               std::to_string(k.kh) + "x" + std::to_string(k.kw) + " s" +
                               std::to_string(k.stride) + " d" + std::to_string(k.dil) + " " +
                               k.pad;
      CHECK_NATIVE(f, n,
                   (std::vector{random_tensor({k.n, k.h, k.w, k.c}, seed++),
                                random_tensor({k.kh, k.kw, k.c, k.co}, seed++)}),
                   what);
    }
  }

  void conv2dExplicitPadding() {
    Node n = conv_node("Conv2D", 2, 1, "EXPLICIT");
    n.attrs["explicit_paddings"] = std::vector<std::int64_t>{0, 0, 1, 2, 0, 1, 0, 0};
    CHECK_NATIVE(f, n,
                 (std::vector{random_tensor({1, 9, 8, 5}, 3), random_tensor({3, 3, 5, 4}, 4)}),
                 "Conv2D EXPLICIT");
  }

  // Conv1D through XNNPACK's convolution over [batch, 1, width, in].
  void conv1d() {
    struct Case {
      std::int64_t n, w, c, k, co, stride, dil;
      const char* pad;
    };
    const Case cases[] = {{1, 9, 3, 3, 5, 1, 1, "SAME"},
                          {3, 11, 5, 4, 6, 2, 1, "SAME"},
                          {2, 13, 4, 3, 3, 1, 2, "VALID"},
                          {4, 7, 1, 2, 9, 2, 1, "VALID"}};
    std::uint32_t seed = 50;
    for (const Case& k : cases) {
      Node n = make_node("Conv1D", 2);
      n.attrs["stride"] = k.stride;
      n.attrs["dilation"] = k.dil;
      n.attrs["padding"] = std::string(k.pad);
      n.attrs["data_format"] = std::string("NWC");
      CHECK_NATIVE(f, n,
                   (std::vector{random_tensor({k.n, k.w, k.c}, seed++),
                                random_tensor({k.k, k.c, k.co}, seed++)}),
                   "Conv1D " + shape_to_string(Shape{k.n, k.w, k.c}) + " k" + std::to_string(k.k) +
                       " s" + std::to_string(k.stride) + " d" + std::to_string(k.dil) + " " +
                       k.pad);
    }
  }

  void fusedConv2d() {
    const std::vector<std::vector<std::string>> fused = {
        {"BiasAdd"},        {"BiasAdd", "Relu"},    {"BiasAdd", "Relu6"}, {"BiasAdd", "LeakyRelu"},
        {"BiasAdd", "Elu"}, {"BiasAdd", "Sigmoid"}, {"BiasAdd", "Prelu"}};
    std::uint32_t seed = 100;
    for (const auto& ops : fused) {
      const bool prelu = ops.size() > 1 && ops[1] == "Prelu";
      for (const ConvCase& k : {kConvCases[1], kConvCases[2]}) {
        Node n = conv_node("_FusedConv2D", k.stride, k.dil, k.pad, prelu ? 4 : 3);
        n.attrs["fused_ops"] = ops;
        n.attrs["num_args"] = std::int64_t{prelu ? 2 : 1};
        n.attrs["leakyrelu_alpha"] = 0.3f;
        std::vector inputs{random_tensor({k.n, k.h, k.w, k.c}, seed++),
                           random_tensor({k.kh, k.kw, k.c, k.co}, seed++),
                           random_tensor({k.co}, seed++)};
        if (prelu) inputs.push_back(random_tensor({k.co}, seed++, 0.f, 0.5f));
        CHECK_NATIVE(f, n, inputs, "_FusedConv2D " + ops.back());
      }
    }
  }

  void depthwise() {
    struct Case {
      std::int64_t n, h, w, c, k, m, stride, dil;
      const char* pad;
    };
    const Case cases[] = {{1, 8, 8, 3, 3, 1, 1, 1, "SAME"},
                          {2, 9, 7, 5, 3, 1, 2, 1, "SAME"},
                          {1, 10, 10, 4, 3, 2, 1, 1, "SAME"},
                          {1, 11, 11, 7, 5, 1, 2, 1, "SAME"},
                          {1, 12, 12, 6, 3, 1, 1, 2, "SAME"},
                          {1, 9, 9, 3, 3, 3, 1, 1, "VALID"},
                          {1, 16, 16, 32, 3, 1, 2, 1, "SAME"},
                          // Channel counts around the 8- and 16-lane blocks of the backend's own
                          // depthwise kernel, whose whole-window columns take another path.
                          {1, 12, 13, 24, 5, 1, 1, 1, "SAME"},
                          {2, 11, 9, 20, 3, 1, 2, 1, "SAME"},
                          {1, 10, 10, 8, 3, 1, 1, 1, "VALID"},
                          {1, 9, 12, 12, 5, 1, 2, 1, "SAME"},
                          {1, 14, 14, 17, 3, 1, 1, 2, "SAME"},
                          {1, 8, 9, 48, 5, 1, 1, 1, "VALID"}};
    std::uint32_t seed = 200;
    for (const Case& k : cases) {
      // DepthwiseConv2d is the converter's other name of DepthwiseConv2dNative.
      Node n =
          conv_node(k.n == 2 ? "DepthwiseConv2d" : "DepthwiseConv2dNative", k.stride, k.dil, k.pad);
      CHECK_NATIVE(f, n,
                   (std::vector{random_tensor({k.n, k.h, k.w, k.c}, seed++),
                                random_tensor({k.k, k.k, k.c, k.m}, seed++)}),
                   "Depthwise c" + std::to_string(k.c) + " m" + std::to_string(k.m) + " s" +
                       std::to_string(k.stride) + " d" + std::to_string(k.dil) + " " + k.pad);
      Node fused = conv_node("FusedDepthwiseConv2dNative", k.stride, k.dil, k.pad, 3);
      fused.attrs["fused_ops"] = std::vector<std::string>{"BiasAdd", "Relu6"};
      fused.attrs["num_args"] = std::int64_t{1};
      CHECK_NATIVE(f, fused,
                   (std::vector{random_tensor({k.n, k.h, k.w, k.c}, seed++),
                                random_tensor({k.k, k.k, k.c, k.m}, seed++, -3.f, 3.f),
                                random_tensor({k.c * k.m}, seed++)}),
                   "FusedDepthwise c" + std::to_string(k.c));
    }
  }

  void conv2dBackpropInput() {
    struct Case {
      std::int64_t n, out_h, out_w, out_c, k, in_c, stride;
      const char* pad;
    };
    // Output sizes both even and odd: the odd ones need XNNPACK's adjustment.
    const Case cases[] = {{1, 8, 8, 3, 3, 4, 2, "SAME"},    {1, 9, 7, 5, 3, 6, 2, "SAME"},
                          {2, 8, 8, 4, 4, 3, 2, "SAME"},    {1, 9, 9, 3, 3, 5, 2, "VALID"},
                          {1, 10, 10, 7, 2, 2, 2, "VALID"}, {1, 6, 6, 5, 3, 3, 1, "SAME"},
                          {1, 12, 12, 2, 3, 8, 3, "SAME"}};
    std::uint32_t seed = 300;
    for (const Case& k : cases) {
      Node n = conv_node("Conv2DBackpropInput", k.stride, 1, k.pad, 3);
      const bool same = std::string(k.pad) == "SAME";
      const std::int64_t in_h =
          same ? (k.out_h + k.stride - 1) / k.stride : (k.out_h - k.k) / k.stride + 1;
      const std::int64_t in_w =
          same ? (k.out_w + k.stride - 1) / k.stride : (k.out_w - k.k) / k.stride + 1;
      CHECK_NATIVE(
          f, n,
          (std::vector{
              int_tensor({static_cast<std::int32_t>(k.n), static_cast<std::int32_t>(k.out_h),
                          static_cast<std::int32_t>(k.out_w), static_cast<std::int32_t>(k.out_c)}),
              random_tensor({k.k, k.k, k.out_c, k.in_c}, seed++),
              random_tensor({k.n, in_h, in_w, k.in_c}, seed++)}),
          "Conv2DBackpropInput out " + shape_to_string(Shape{k.n, k.out_h, k.out_w, k.out_c}) +
              " s" + std::to_string(k.stride) + " " + k.pad);
    }
  }

  void matmul() {
    std::uint32_t seed = 400;
    struct Case {
      Shape a, b;
      bool tb;
    };
    const Case cases[] = {{{5, 7}, {7, 3}, false},
                          {{1, 64}, {64, 10}, false},
                          {{6, 9}, {5, 9}, true},
                          {{3, 1}, {1, 4}, false},
                          {{33, 17}, {17, 31}, false}};
    for (const Case& k : cases) {
      Node n = make_node("MatMul", 2);
      n.attrs["transpose_a"] = false;
      n.attrs["transpose_b"] = k.tb;
      CHECK_NATIVE(f, n, (std::vector{random_tensor(k.a, seed++), random_tensor(k.b, seed++)}),
                   "MatMul " + shape_to_string(k.a) + " x " + shape_to_string(k.b));
    }
    const Case batch[] = {
        {{2, 3, 5, 7}, {7, 4}, false}, {{2, 5, 7}, {1, 7, 4}, false}, {{4, 6}, {1, 1, 3, 6}, true}};
    for (const Case& k : batch) {
      Node n = make_node("BatchMatMulV2", 2);
      n.attrs["adj_x"] = false;
      n.attrs["adj_y"] = k.tb;
      CHECK_NATIVE(f, n, (std::vector{random_tensor(k.a, seed++), random_tensor(k.b, seed++)}),
                   "BatchMatMulV2 " + shape_to_string(k.a) + " x " + shape_to_string(k.b));
    }
    for (const char* act : {"Relu", "Relu6", "Sigmoid", "LeakyRelu"}) {
      Node n = make_node("_FusedMatMul", 3);
      n.attrs["transpose_a"] = false;
      n.attrs["transpose_b"] = false;
      n.attrs["fused_ops"] = std::vector<std::string>{"BiasAdd", act};
      n.attrs["num_args"] = std::int64_t{1};
      CHECK_NATIVE(f, n,
                   (std::vector{random_tensor({4, 13}, seed++), random_tensor({13, 9}, seed++),
                                random_tensor({9}, seed++)}),
                   std::string("_FusedMatMul ") + act);
    }
  }

  void pooling() {
    struct Case {
      Shape x;
      std::int64_t k, stride;
      const char* pad;
    };
    const Case cases[] = {{{1, 9, 9, 5}, 3, 2, "SAME"},  {{2, 8, 8, 3}, 2, 2, "VALID"},
                          {{1, 10, 7, 6}, 3, 1, "SAME"}, {{1, 11, 11, 4}, 3, 2, "VALID"},
                          {{1, 8, 8, 7}, 2, 2, "SAME"},  {{1, 13, 12, 17}, 5, 3, "SAME"}};
    std::uint32_t seed = 500;
    for (const char* op : {"MaxPool", "AvgPool"}) {
      for (const Case& k : cases) {
        Node n = make_node(op);
        n.attrs["ksize"] = hw4(k.k, k.k);
        n.attrs["strides"] = hw4(k.stride, k.stride);
        n.attrs["padding"] = std::string(k.pad);
        CHECK_NATIVE(f, n, std::vector{random_tensor(k.x, seed++)},
                     std::string(op) + " " + shape_to_string(k.x) + " k" + std::to_string(k.k) +
                         " s" + std::to_string(k.stride) + " " + k.pad);
      }
    }
  }

  void meanOverHw() {
    std::uint32_t seed = 600;
    for (bool keep : {true, false}) {
      for (const Shape& s : {Shape{1, 7, 7, 5}, Shape{2, 4, 6, 32}, Shape{1, 1, 1, 3}}) {
        Node n = make_node("Mean", 2);
        n.attrs["keep_dims"] = keep;
        CHECK_NATIVE(f, n, (std::vector{random_tensor(s, seed++), int_tensor({1, 2})}),
                     "Mean " + shape_to_string(s));
        CHECK_NATIVE(f, n, (std::vector{random_tensor(s, seed++), int_tensor({-2, -3})}),
                     "Mean negative axes " + shape_to_string(s));
      }
    }
  }

  void resizeBilinear() {
    std::uint32_t seed = 700;
    struct Mode {
      bool align, half;
    };
    for (Mode m : {Mode{false, false}, Mode{true, false}, Mode{false, true}}) {
      for (auto [in, size] :
           std::vector<std::pair<Shape, std::vector<std::int32_t>>>{{{1, 5, 7, 3}, {10, 14}},
                                                                    {{2, 8, 8, 5}, {5, 3}},
                                                                    {{1, 4, 4, 6}, {9, 11}},
                                                                    {{1, 3, 5, 2}, {1, 1}}}) {
        Node n = make_node("ResizeBilinear", 2);
        n.attrs["align_corners"] = m.align;
        n.attrs["half_pixel_centers"] = m.half;
        CHECK_NATIVE(f, n, (std::vector{random_tensor(in, seed++), int_tensor(size)}),
                     "ResizeBilinear " + shape_to_string(in) + " -> " + std::to_string(size[0]) +
                         "x" + std::to_string(size[1]) + (m.align ? " align_corners" : "") +
                         (m.half ? " half_pixel" : ""));
      }
    }
  }

  void depthToSpace() {
    std::uint32_t seed = 800;
    for (auto [s, b] : std::vector<std::pair<Shape, std::int64_t>>{
             {{1, 3, 4, 12}, 2}, {{2, 2, 2, 8}, 2}, {{1, 2, 3, 27}, 3}}) {
      Node n = make_node("DepthToSpace");
      n.attrs["block_size"] = b;
      CHECK_NATIVE(f, n, std::vector{random_tensor(s, seed++)},
                   "DepthToSpace " + shape_to_string(s));
    }
  }

  void pad() {
    Node n = make_node("Pad", 2);
    CHECK_NATIVE(f, n,
                 (std::vector{random_tensor({1, 5, 6, 3}, 900),
                              int_tensor({0, 0, 1, 2, 2, 1, 0, 1}, {4, 2})}),
                 "Pad");
    Node v2 = make_node("PadV2", 3);
    HostTensor value = random_tensor({}, 901);
    CHECK_NATIVE(
        f, v2,
        (std::vector{random_tensor({2, 3, 7}, 902), int_tensor({1, 0, 0, 3, 2, 2}, {3, 2}), value}),
        "PadV2");
  }

  void binary() {
    const std::vector<std::pair<Shape, Shape>> shapes = {{{2, 3, 4, 5}, {2, 3, 4, 5}},
                                                         {{2, 3, 4, 5}, {5}},
                                                         {{2, 1, 4, 1}, {1, 3, 1, 5}},
                                                         {{7}, {}},
                                                         {{}, {3, 3}},
                                                         {{1, 6, 6, 7}, {1, 1, 1, 7}},
                                                         {{3, 1, 5}, {4, 1}},
                                                         {{2, 2, 1, 2, 3}, {2, 1, 3}}};
    std::uint32_t seed = 1000;
    for (const char* op :
         {"Add", "AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "SquaredDifference"}) {
      for (const auto& [a, b] : shapes) {
        Node n = make_node(op, 2);
        const bool div = std::string(op) == "RealDiv";
        CHECK_NATIVE(
            f, n,
            (std::vector{random_tensor(a, seed++),
                         div ? random_tensor(b, seed++, 0.5f, 2.f) : random_tensor(b, seed++)}),
            std::string(op) + " " + shape_to_string(a) + " " + shape_to_string(b));
      }
    }
  }

  void unary() {
    std::uint32_t seed = 1100;
    for (const char* op : {"Relu", "Relu6", "Elu", "LeakyRelu", "Sigmoid", "Abs", "Neg", "Square",
                           "Sqrt", "Floor", "Ceil"}) {
      for (const Shape& s : {Shape{1, 5, 5, 3}, Shape{17}, Shape{}, Shape{2, 3, 1001}}) {
        Node n = make_node(op);
        if (std::string(op) == "LeakyRelu") n.attrs["alpha"] = 0.15f;
        const bool sqrt = std::string(op) == "Sqrt";
        CHECK_NATIVE(f, n,
                     std::vector{sqrt ? random_tensor(s, seed++, 0.f, 10.f)
                                      : random_tensor(s, seed++, -8.f, 8.f)},
                     std::string(op) + " " + shape_to_string(s));
      }
    }
  }

  void prelu() {
    Node n = make_node("Prelu", 2);
    CHECK_NATIVE(f, n,
                 (std::vector{random_tensor({2, 4, 4, 5}, 1200), random_tensor({5}, 1201, 0, 1)}),
                 "Prelu [5]");
    CHECK_NATIVE(
        f, n,
        (std::vector{random_tensor({1, 3, 3, 7}, 1202), random_tensor({1, 1, 7}, 1203, 0, 1)}),
        "Prelu [1,1,7]");
  }

  void softmax() {
    std::uint32_t seed = 1300;
    for (const Shape& s : {Shape{1, 7}, Shape{4, 1000}, Shape{2, 3, 5}, Shape{3}}) {
      Node n = make_node("Softmax");
      CHECK_NATIVE(f, n, std::vector{random_tensor(s, seed++, -5.f, 5.f)},
                   "Softmax " + shape_to_string(s));
    }
  }

  // Reshape, Squeeze and ExpandDims share the input's buffer.
  void viewsShareTheBuffer() {
    HostTensor x = random_tensor({2, 1, 6}, 1400);
    Node r = make_node("Reshape", 2);
    HostTensor out = f.run(r, {x, int_tensor({3, -1})});
    QCOMPARE(out.shape, (Shape{3, 4}));
    QVERIFY(out.buffer == x.buffer);
    QCOMPARE(f.xnn->last_path(r), xnnpack::Path::View);
    Node s = make_node("Squeeze");
    s.attrs["squeeze_dims"] = std::vector<std::int64_t>{1};
    out = f.run(s, {x});
    QCOMPARE(out.shape, (Shape{2, 6}));
    QVERIFY(out.buffer == x.buffer);
    QCOMPARE(f.xnn->last_path(s), xnnpack::Path::View);
  }

  // What XNNPACK lacks (or int32 data) runs through the cpu kernel on the same buffers.
  void cpuKernelPath() {
    Node add = make_node("Add", 2);
    add.attrs["T"] = graph::TypeAttr{"DT_INT32"};
    add.outputs[0].dtype = DType::Int32;
    QVERIFY(f.xnn->supports(add));
    QVERIFY(!f.xnn->native(add));
    const std::vector ins{int_tensor({1, 2, 3}), int_tensor({10})};
    expect_close(f.run(add, ins), run_cpu(add, ins), "int32 Add");
    QCOMPARE(f.xnn->last_path(add), xnnpack::Path::CpuKernel);

    Node tanh = make_node("Tanh");
    QVERIFY(f.xnn->supports(tanh));
    QVERIFY(!f.xnn->native(tanh));
    const std::vector x{random_tensor({3, 5}, 1500)};
    expect_close(f.run(tanh, x), run_cpu(tanh, x), "Tanh");
    QCOMPARE(f.xnn->last_path(tanh), xnnpack::Path::CpuKernel);

    // MatMul with transpose_a is not fully connected.
    Node mm = make_node("MatMul", 2);
    mm.attrs["transpose_a"] = true;
    QVERIFY(!f.xnn->native(mm));
    const std::vector ab{random_tensor({4, 3}, 1501), random_tensor({4, 5}, 1502)};
    expect_close(f.run(mm, ab), run_cpu(mm, ab), "MatMul transpose_a");
    QCOMPARE(f.xnn->last_path(mm), xnnpack::Path::CpuKernel);
  }

  // XNNPACK has no asinh: the node runs on the cpu reference kernel (backends/cpu/reference.h)
  // over the same buffers. asinh(x) = ln(x + sqrt(x^2 + 1)), as TF.js's Math.asinh.
  void asinhThroughTheReferenceKernel() {
    Node n = make_node("Asinh");
    QVERIFY(f.xnn->supports(n));
    QVERIFY(!f.xnn->native(n));
    HostTensor x = HostTensor::zeros(DType::Float32, {4});
    const float in[] = {-2.f, 0.f, 0.5f, 10.f};
    std::copy(std::begin(in), std::end(in), x.mutable_values<float>().begin());
    const HostTensor out = f.run(n, {x});
    const float want[] = {-1.4436355f, 0.f, 0.4812118f, 2.9982230f};
    for (std::size_t i = 0; i < 4; ++i) QVERIFY(std::abs(out.values<float>()[i] - want[i]) < 1e-6f);
    QCOMPARE(f.xnn->last_path(n), xnnpack::Path::CpuKernel);
  }

  // Bad input gets the cpu kernel's error, which names the node.
  void badInputNamesTheNode() {
    Node n = conv_node("Conv2D", 1, 1, "SAME");
    n.name = "my_conv";
    try {
      f.run(n, {random_tensor({1, 4, 4, 3}, 1), random_tensor({3, 3, 5, 2}, 2)});
      QFAIL("a filter for 5 channels on a 3-channel input was accepted");
    } catch (const ModelError& e) {
      QVERIFY2(std::string(e.what()).find("my_conv") != std::string::npos, e.what());
    }
  }

  // A weight straight from a memory-mapped shard (borrowed storage) is copied once to get
  // XNNPACK's slack when an operator reads it as an activation.
  void borrowedInputIsPadded() {
    HostTensor owned = random_tensor({1, 3, 3, 4}, 1600);
    auto borrowed = Buffer::borrow(owned.buffer, owned.buffer->data(), owned.buffer->size());
    HostTensor b = HostTensor::wrap(DType::Float32, {4},
                                    Buffer::borrow(owned.buffer, owned.buffer->data(), 16));
    HostTensor a = HostTensor::wrap(DType::Float32, owned.shape, borrowed);
    Node n = make_node("Add", 2);
    const auto before = f.xnn->xnn_stats().pads;
    CHECK_NATIVE(f, n, (std::vector{a, b}), "Add over borrowed buffers");
    QCOMPARE(f.xnn->xnn_stats().pads, before + 2);
  }
};

QTEST_GUILESS_MAIN(XnnpackKernelsTest)
#include "xnnpack_kernels_test.moc"
