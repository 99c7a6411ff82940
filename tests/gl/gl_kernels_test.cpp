// Every gl kernel against the cpu kernel (the ground truth) on many shapes, the odd ones included
// (C not a multiple of 4, stride 2 with SAME padding, batch > 1, broadcasting), in fp32 and fp16.
#include <QtTest>

#include <bit>
#include <set>

#include "gl/gl_test_util.h"

using namespace tfjsi;
using graph::Node;
using I64s = std::vector<std::int64_t>;

class GlKernelsTest : public QObject {
  Q_OBJECT
  test::GlFixture f;
  std::uint32_t seed_ = 1;

  HostTensor rnd(Shape s, float lo = -1.f, float hi = 1.f) {
    return test::random_tensor(std::move(s), seed_++, lo, hi);
  }

  // For its lifetime, `off` sends the kernels that read repacked weights (conv_direct,
  // depthwise_direct) down their other path (gemm_tiled, depthwise), as on a driver whose textures
  // cannot hold the packed copy.
  struct PackedWeights {
    gl::GlBackend& gl;
    PackedWeights(gl::GlBackend& g, bool off) : gl(g) { gl.test_hooks().no_packed_weights = off; }
    ~PackedWeights() { gl.test_hooks().no_packed_weights = false; }
  };
  static std::string path_name(bool off) { return off ? " [filter as given]" : " [packed filter]"; }
  // For its lifetime, small depthwise and convolution layers take the program given (their
  // window's, or the one small layers share) instead of the one the backend would choose.
  using Small = gl::GlTestHooks::SmallLayers;
  struct SmallLayers {
    gl::GlBackend& gl;
    SmallLayers(gl::GlBackend& g, Small s) : gl(g) { gl.test_hooks().small_layers = s; }
    ~SmallLayers() { gl.test_hooks().small_layers = Small::Choose; }
  };
  static std::string program_name(Small s) {
    return s == Small::Shared ? " [small layers' program]" : "";
  }

  // The ways a node runs on gl: fp32 and fp16 (gl.fp16_storage's default: emulated in RGBA32F on
  // llvmpipe) textures read as images, fp32 read through samplers (the path of kernels with more
  // inputs than the driver has image units) and fp16 in RGBA16F textures (gl.fp16_storage=native).
  // The last two only for the first node of each op and weight path: the load and store helpers
  // are the prelude's, the same for every kernel, and the whole suite four times over would take
  // minutes.
  struct Mode {
    bool fp16, samplers, native16 = false;
    std::string name() const {
      return native16   ? " [fp16, RGBA16F]"
             : fp16     ? " [fp16]"
             : samplers ? " [fp32, samplers]"
                        : " [fp32]";
    }
  };
  std::set<std::string> sampled_;
  std::vector<Mode> modes(const Node& node) {
    std::vector<Mode> m{{false, false}, {true, false}};
    const std::string key = node.op + (f.gl->test_hooks().no_packed_weights ? " unpacked" : "");
    if (sampled_.insert(key).second) {
      m.push_back({false, true});
      m.push_back({true, false, true});
    }
    return m;
  }
  void set_mode(const Mode& m) {
    f.set_fp16(m.fp16);
    f.gl->test_hooks().inputs_as_samplers = m.samplers;
    f.flags.set("gl.fp16_storage", m.native16 ? "native" : default_storage_);
  }
  std::string default_storage_;

  static bool broadcasts_to(const Shape& from, const Shape& to) {
    if (from.size() > to.size()) return false;
    for (std::size_t i = 0; i < from.size(); ++i) {
      const std::int64_t d = from[from.size() - 1 - i], t = to[to.size() - 1 - i];
      if (d != 1 && d != t) return false;
    }
    return true;
  }

  // Like check(), for every output of a node with several.
  void check_all(const Node& node, const std::vector<HostTensor>& inputs, const std::string& what) {
    QVERIFY2(f.gl->supports(node), (what + ": gl does not support the node").c_str());
    std::vector<HostTensor> want;
    try {
      want = test::run_cpu_all(node, inputs);
    } catch (const std::exception& e) {
      QFAIL((what + ": cpu threw: " + e.what()).c_str());
    }
    for (const Mode& m : modes(node)) {
      set_mode(m);
      std::vector<HostTensor> got;
      try {
        got = f.run_gl_all(node, inputs);
      } catch (const std::exception& e) {
        set_mode({false, false});
        QFAIL((what + m.name() + ": gl threw: " + e.what()).c_str());
      }
      set_mode({false, false});
      QCOMPARE(got.size(), want.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        test::expect_close(got[i], want[i], m.fp16,
                           what + " output " + std::to_string(i) + m.name());
        if (QTest::currentTestFailed()) return;
      }
    }
  }

  // Runs `node` on cpu and on gl in both precisions and compares.
  void check(const Node& node, const std::vector<HostTensor>& inputs, const std::string& what) {
    QVERIFY2(f.gl->supports(node), (what + ": gl does not support the node").c_str());
    HostTensor want;
    try {
      want = test::run_cpu(node, inputs);
    } catch (const std::exception& e) {
      QFAIL((what + ": cpu threw: " + e.what()).c_str());
    }
    for (const Mode& m : modes(node)) {
      set_mode(m);
      HostTensor got;
      try {
        got = f.run_gl(node, inputs);
      } catch (const std::exception& e) {
        set_mode({false, false});
        QFAIL((what + m.name() + ": gl threw: " + e.what()).c_str());
      }
      set_mode({false, false});
      test::expect_close(got, want, m.fp16, what + m.name());
      if (QTest::currentTestFailed()) return;
    }
  }

 private slots:
  void initTestCase() {
    const auto a = f.gl->availability();
    QVERIFY2(a.available, a.reason.c_str());
    default_storage_ = f.flags.get_string("gl.fp16_storage");
  }

  void unary() {
    const std::vector<Shape> shapes{{}, {5}, {3, 7}, {2, 5, 6, 3}, {1, 4, 4, 8}};
    for (const char* op :
         {"Relu", "Relu6", "Elu", "Sigmoid", "Tanh", "Exp", "Abs", "Neg", "Square", "LeakyRelu"})
      for (const Shape& s : shapes) {
        Node n = test::make_node(op);
        if (std::string(op) == "LeakyRelu") n.attrs["alpha"] = 0.15f;
        const float r = std::string(op) == "Exp" ? 3.f : 8.f;
        check(n, {rnd(s, -r, r)}, std::string(op) + " " + shape_to_string(s));
        if (QTest::currentTestFailed()) return;
      }
  }

  void binary_broadcasting() {
    const std::vector<std::pair<Shape, Shape>> pairs{
        {{2, 5, 6, 3}, {2, 5, 6, 3}},  // same shape
        {{2, 5, 6, 3}, {}},            // scalar
        {{2, 5, 6, 7}, {7}},           // channel
        {{1, 4, 5, 6}, {1, 1, 5, 6}},  // row
        {{3, 1, 5}, {1, 4, 1}},        // both sides broadcast
        {{4, 6}, {4, 1}},              // column: single channel splatted
        {{5}, {2, 3, 5}},              // lower rank first
        {{1}, {3, 3}}};
    for (const char* op : {"AddV2", "Add", "Sub", "Mul", "RealDiv", "Maximum", "Minimum",
                           "SquaredDifference", "Prelu"})
      for (const auto& [sa, sb] : pairs) {
        if (std::string(op) == "Prelu" && !broadcasts_to(sb, sa)) continue;  // alpha fits x
        Node n = test::make_node(op, 2);
        // Divisors away from 0 keep RealDiv well conditioned.
        HostTensor b = std::string(op) == "RealDiv" ? rnd(sb, 0.5f, 2.f) : rnd(sb);
        check(n, {rnd(sa), b},
              std::string(op) + " " + shape_to_string(sa) + " " + shape_to_string(sb));
        if (QTest::currentTestFailed()) return;
      }
  }

  void bias_add_and_add_n() {
    for (const Shape& s : std::vector<Shape>{{2, 5, 6, 7}, {3, 5}, {1, 3, 3, 8}}) {
      check(test::make_node("BiasAdd", 2), {rnd(s), rnd({s.back()})},
            "BiasAdd " + shape_to_string(s));
      if (QTest::currentTestFailed()) return;
      check(test::make_node("AddN", 3), {rnd(s), rnd(s), rnd(s)}, "AddN " + shape_to_string(s));
      if (QTest::currentTestFailed()) return;
    }
  }

  void conv2d() {
    struct Case {
      Shape x, f;
      std::int64_t stride;
      std::string pad;
      std::int64_t dilation = 1;
      I64s explicit_pads = {};
    };
    const std::vector<Case> cases{
        {{1, 7, 7, 3}, {3, 3, 3, 5}, 1, "SAME"},
        {{2, 9, 8, 5}, {3, 3, 5, 7}, 2, "SAME"},
        {{1, 8, 8, 4}, {1, 1, 4, 8}, 1, "VALID"},
        {{1, 10, 9, 7}, {5, 3, 7, 3}, 2, "VALID"},
        {{1, 9, 9, 3}, {3, 3, 3, 4}, 1, "SAME", 2},
        {{1, 6, 6, 3}, {3, 3, 3, 2}, 1, "EXPLICIT", 1, {0, 0, 1, 2, 2, 1, 0, 0}},
        {{3, 5, 5, 1}, {2, 2, 1, 6}, 2, "SAME"},
        // Slice blocks and pixel tiles share the grid's x: three blocks (the last half empty) of
        // 12 tiles in one group, batch 2; two blocks of 162 tiles over several groups.
        {{2, 6, 6, 6}, {1, 1, 6, 20}, 1, "SAME"},
        {{1, 9, 70, 5}, {3, 3, 5, 12}, 1, "SAME"}};
    const std::vector<std::vector<std::string>> fused{{},
                                                      {"BiasAdd"},
                                                      {"BiasAdd", "Relu"},
                                                      {"BiasAdd", "Relu6"},
                                                      {"BiasAdd", "LeakyRelu"},
                                                      {"BiasAdd", "Prelu"},
                                                      {"BiasAdd", "Elu"},
                                                      {"BiasAdd", "Sigmoid"}};
    for (const Small small : {Small::Specialised, Small::Shared})
      for (const bool off : {false, true})
        for (const Case& c : cases)
          for (const auto& ops : fused) {
            const PackedWeights packed(*f.gl, off);
            const SmallLayers layers(*f.gl, small);
            Node n = test::make_node(ops.empty() ? "Conv2D" : "_FusedConv2D", 2);
            n.attrs["strides"] = I64s{1, c.stride, c.stride, 1};
            n.attrs["dilations"] = I64s{1, c.dilation, c.dilation, 1};
            n.attrs["padding"] = c.pad;
            if (!c.explicit_pads.empty()) n.attrs["explicit_paddings"] = c.explicit_pads;
            std::vector<HostTensor> in{rnd(c.x), rnd(c.f)};
            if (!ops.empty()) {
              n.attrs["fused_ops"] = ops;
              n.attrs["leakyrelu_alpha"] = 0.3f;
              in.push_back(rnd({c.f[3]}));
              if (ops.size() > 1 && ops[1] == "Prelu") in.push_back(rnd({c.f[3]}));
              n.attrs["num_args"] = static_cast<std::int64_t>(in.size() - 2);
              for (std::size_t i = 2; i < in.size(); ++i)
                n.inputs.push_back({static_cast<int>(i), 0});
            }
            check(n, in,
                  n.op + " x" + shape_to_string(c.x) + " f" + shape_to_string(c.f) + " s" +
                      std::to_string(c.stride) + " " + c.pad +
                      (ops.size() > 1 ? " " + ops[1] : "") + path_name(off) + program_name(small));
            if (QTest::currentTestFailed()) return;
          }
  }

  // Conv1D runs as a Conv2D over its texture ([1, batch, width, in]), the batch as rows; both
  // weight paths, widths that leave partial tiles, batch above 1, dilation.
  void conv1d() {
    struct Case {
      Shape x, f;
      std::int64_t stride, dilation;
      std::string pad;
    };
    const std::vector<Case> cases{{{1, 9, 3}, {3, 3, 5}, 1, 1, "SAME"},
                                  {{3, 11, 5}, {4, 5, 6}, 2, 1, "SAME"},
                                  {{2, 13, 4}, {3, 4, 3}, 1, 2, "VALID"},
                                  {{4, 7, 1}, {2, 1, 9}, 2, 1, "VALID"}};
    for (const bool off : {false, true})
      for (const Case& c : cases) {
        const PackedWeights packed(*f.gl, off);
        Node n = test::make_node("Conv1D", 2);
        n.attrs["stride"] = c.stride;
        n.attrs["dilation"] = c.dilation;
        n.attrs["padding"] = c.pad;
        n.attrs["data_format"] = std::string("NWC");
        check(n, {rnd(c.x), rnd(c.f)},
              "Conv1D x" + shape_to_string(c.x) + " f" + shape_to_string(c.f) + " s" +
                  std::to_string(c.stride) + " d" + std::to_string(c.dilation) + " " + c.pad +
                  path_name(off));
        if (QTest::currentTestFailed()) return;
      }
  }

  void depthwise() {
    struct Case {
      Shape x, f;
      std::int64_t stride;
      std::string pad;
      std::int64_t dilation = 1;
    };
    // Widths that leave a partial tile of output pixels, a map wider than one work group, batch
    // above 1 with a multiplier of 1, channels that leave a partial slice.
    const std::vector<Case> cases{
        {{1, 7, 7, 5}, {3, 3, 5, 1}, 1, "SAME"},   {{2, 9, 8, 3}, {3, 3, 3, 2}, 2, "SAME"},
        {{1, 8, 8, 8}, {5, 5, 8, 1}, 2, "VALID"},  {{1, 9, 9, 6}, {3, 3, 6, 1}, 1, "SAME", 2},
        {{2, 10, 11, 9}, {3, 3, 9, 1}, 2, "SAME"}, {{1, 3, 301, 4}, {3, 3, 4, 1}, 1, "SAME"}};
    for (const Small small : {Small::Specialised, Small::Shared})
      for (const bool off : {false, true})
        for (const Case& c : cases)
          for (bool fused : {false, true}) {
            const PackedWeights packed(*f.gl, off);
            const SmallLayers layers(*f.gl, small);
            // DepthwiseConv2d is the converter's other name of DepthwiseConv2dNative.
            const char* plain = c.x[0] == 2 ? "DepthwiseConv2d" : "DepthwiseConv2dNative";
            Node n = test::make_node(fused ? "FusedDepthwiseConv2dNative" : plain, 2);
            n.attrs["strides"] = I64s{1, c.stride, c.stride, 1};
            n.attrs["dilations"] = I64s{1, c.dilation, c.dilation, 1};
            n.attrs["padding"] = c.pad;
            std::vector<HostTensor> in{rnd(c.x), rnd(c.f)};
            if (fused) {
              n.attrs["fused_ops"] = std::vector<std::string>{"BiasAdd", "Relu6"};
              n.attrs["num_args"] = std::int64_t{1};
              n.inputs.push_back({2, 0});
              in.push_back(rnd({c.f[2] * c.f[3]}, -2.f, 2.f));
            }
            check(n, in,
                  n.op + " x" + shape_to_string(c.x) + " f" + shape_to_string(c.f) +
                      path_name(off) + program_name(small));
            if (QTest::currentTestFailed()) return;
          }
  }

  // Small depthwise and convolution layers (a few hundred output texels) of different windows
  // share one program; one whose window already has a program of its own (made for a larger
  // layer) takes that one.
  // On a backend of its own, so that no other test's programs are there.
  void small_layers_share_a_program() {
    test::GlFixture fresh;
    // Runs a SAME convolution of `op` against cpu; the programs it added.
    auto new_programs = [&](const char* op, Shape x, Shape w, std::int64_t stride,
                            std::int64_t dilation) {
      Node n = test::make_node(op, 2);
      n.attrs["strides"] = I64s{1, stride, stride, 1};
      n.attrs["dilations"] = I64s{1, dilation, dilation, 1};
      n.attrs["padding"] = std::string("SAME");
      const std::vector<HostTensor> in{rnd(std::move(x)), rnd(std::move(w))};
      const std::size_t before = fresh.gl->programs() ? fresh.gl->programs()->size() : 0;
      test::expect_close(fresh.run_gl(n, in), test::run_cpu(n, in), false,
                         std::string(op) + " " + shape_to_string(in[1].shape));
      return fresh.gl->programs()->size() - before;
    };
    auto dw = [&](Shape x, Shape w, std::int64_t stride, std::int64_t dilation) {
      return new_programs("DepthwiseConv2dNative", std::move(x), std::move(w), stride, dilation);
    };
    auto conv = [&](Shape x, Shape w) {
      return new_programs("Conv2D", std::move(x), std::move(w), 1, 1);
    };
    // A large layer with a 5x5 window builds its own program (and packs its filter); a small one
    // with that window then takes it: nothing new.
    QVERIFY(dw({1, 24, 24, 12}, {5, 5, 12, 1}, 1, 1) >= 1);
    QCOMPARE(dw({1, 5, 5, 12}, {5, 5, 12, 1}, 1, 1), std::size_t{0});
    // Three other windows, small maps: the first builds the shared program, the others none.
    QCOMPARE(dw({1, 6, 6, 8}, {3, 3, 8, 1}, 1, 1), std::size_t{1});
    QCOMPARE(dw({1, 7, 5, 6}, {2, 4, 6, 2}, 2, 1), std::size_t{0});
    QCOMPARE(dw({1, 9, 9, 4}, {3, 3, 4, 1}, 1, 3), std::size_t{0});
    // Convolutions likewise: a 3x3 over a large map, then a small one (nothing new), then a small
    // 1x1 (the shared program) and a small 2x3 (nothing new).
    QCOMPARE(conv({1, 20, 20, 8}, {3, 3, 8, 8}), std::size_t{1});
    QCOMPARE(conv({1, 4, 4, 8}, {3, 3, 8, 8}), std::size_t{0});
    QCOMPARE(conv({1, 6, 5, 6}, {1, 1, 6, 9}), std::size_t{1});
    QCOMPARE(conv({1, 6, 5, 6}, {2, 3, 6, 5}), std::size_t{0});
  }

  // A filter that is already a texture (computed, or read as it is by another kernel) is
  // repacked on the GPU (pack_conv_weights.comp, pack_depthwise_weights.comp) instead of on the
  // host as a weight whose upload is still deferred.
  void filters_packed_on_the_gpu() {
    f.gl->test_hooks().eager_uploads = true;
    struct Eager {
      gl::GlBackend& gl;
      ~Eager() { gl.test_hooks().eager_uploads = false; }
    } eager{*f.gl};
    for (const auto& [x, w] : std::vector<std::pair<Shape, Shape>>{{{1, 7, 7, 3}, {3, 3, 3, 5}},
                                                                   {{2, 9, 8, 6}, {1, 1, 6, 9}}}) {
      Node n = test::make_node("Conv2D", 2);
      n.attrs["strides"] = I64s{1, 1, 1, 1};
      n.attrs["padding"] = std::string("SAME");
      check(n, {rnd(x), rnd(w)}, "Conv2D x" + shape_to_string(x) + " f" + shape_to_string(w));
      if (QTest::currentTestFailed()) return;
    }
    Node n = test::make_node("DepthwiseConv2dNative", 2);
    n.attrs["strides"] = I64s{1, 2, 2, 1};
    n.attrs["padding"] = std::string("SAME");
    check(n, {rnd({1, 9, 9, 6}), rnd({3, 3, 6, 1})}, "DepthwiseConv2dNative [1,9,9,6]");
  }

  // A weight read only repacked is packed on the host at the first run: one dispatch (the
  // convolution), no pack kernel, and the filter never gets a texture of its own.
  void first_run_packs_filters_on_the_host() {
    for (const char* op : {"Conv2D", "DepthwiseConv2dNative"}) {
      const bool dw = std::string(op) == "DepthwiseConv2dNative";
      Node n = test::make_node(op, 2);
      n.attrs["strides"] = I64s{1, 1, 1, 1};
      n.attrs["padding"] = std::string("SAME");
      const HostTensor x = rnd({1, 6, 6, 5}), w = rnd(dw ? Shape{3, 3, 5, 1} : Shape{3, 3, 5, 7});
      f.gl->reset_stats();
      const HostTensor got = f.run_gl(n, {x, w});
      QCOMPARE(f.gl->stats().dispatches, std::int64_t{1});
      QCOMPARE(f.gl->stats().uploads, std::int64_t{2});  // the input and the packed filter
      test::expect_close(got, test::run_cpu(n, {x, w}), false, op);
      if (QTest::currentTestFailed()) return;
    }
  }

  void conv2d_backprop_input() {
    struct Case {
      Shape x, f, dy;
      std::int64_t stride;
      std::string pad;
    };
    const std::vector<Case> cases{{{1, 8, 8, 3}, {3, 3, 3, 5}, {1, 4, 4, 5}, 2, "SAME"},
                                  {{2, 7, 7, 5}, {3, 3, 5, 4}, {2, 5, 5, 4}, 1, "VALID"},
                                  {{1, 9, 9, 2}, {4, 4, 2, 3}, {1, 5, 5, 3}, 2, "SAME"},
                                  {{1, 6, 5, 6}, {2, 2, 6, 7}, {1, 3, 3, 7}, 2, "SAME"},
                                  // A window wider than the stride, which does not divide it:
                                  // two taps of kh (and kw) for some outputs, one for others.
                                  {{1, 10, 11, 4}, {5, 5, 4, 3}, {1, 4, 4, 3}, 3, "SAME"}};
    for (const Case& c : cases) {
      Node n = test::make_node("Conv2DBackpropInput", 3);
      n.attrs["strides"] = I64s{1, c.stride, c.stride, 1};
      n.attrs["padding"] = c.pad;
      std::vector<std::int32_t> sizes(c.x.begin(), c.x.end());
      check(n, {test::int_tensor(sizes), rnd(c.f), rnd(c.dy)},
            "Conv2DBackpropInput x" + shape_to_string(c.x) + " f" + shape_to_string(c.f));
      if (QTest::currentTestFailed()) return;
    }
  }

  void matmul() {
    struct Case {
      std::int64_t m, k, n;
      bool ta, tb;
    };
    const std::vector<Case> cases{
        {5, 7, 9, false, false}, {5, 7, 9, true, false},    {5, 7, 9, false, true},
        {5, 7, 9, true, true},   {3, 130, 6, false, false}, {1, 64, 1001, false, false},
        {2, 3, 1, false, true},  {3, 130, 6, true, true},   {4, 97, 5, true, false}};
    for (const Case& c : cases)
      for (int fused = 0; fused < 3; ++fused) {
        Node n = test::make_node(fused ? "_FusedMatMul" : "MatMul", 2);
        n.attrs["transpose_a"] = c.ta;
        n.attrs["transpose_b"] = c.tb;
        std::vector<HostTensor> in{rnd(c.ta ? Shape{c.k, c.m} : Shape{c.m, c.k}),
                                   rnd(c.tb ? Shape{c.n, c.k} : Shape{c.k, c.n})};
        if (fused) {
          n.attrs["fused_ops"] = fused == 1 ? std::vector<std::string>{"BiasAdd", "Relu"}
                                            : std::vector<std::string>{"BiasAdd", "Prelu"};
          in.push_back(rnd({c.n}));
          if (fused == 2) in.push_back(rnd({c.n}));
          n.attrs["num_args"] = static_cast<std::int64_t>(in.size() - 2);
          for (std::size_t i = 2; i < in.size(); ++i) n.inputs.push_back({static_cast<int>(i), 0});
        }
        const std::string what = n.op + " " + std::to_string(c.m) + "x" + std::to_string(c.k) +
                                 "x" + std::to_string(c.n) + (c.ta ? " ta" : "") +
                                 (c.tb ? " tb" : "");
        check(n, in, what);
        if (QTest::currentTestFailed()) return;
        // A transposed operand takes matmul.comp, the others gemm_tiled.comp or gemv.comp: all
        // sum alike, so the same product stored the other way gives the same bits.
        if (!fused && (c.ta || c.tb)) {
          auto transposed = [](const HostTensor& t) {
            return test::run_cpu(test::make_node("Transpose", 2),
                                 {t, test::int_tensor(std::vector<std::int32_t>{1, 0}, {2})});
          };
          Node plain = n;
          plain.attrs["transpose_a"] = false;
          plain.attrs["transpose_b"] = false;
          const HostTensor got = f.run_gl(n, in),
                           want = f.run_gl(plain, {c.ta ? transposed(in[0]) : in[0],
                                                   c.tb ? transposed(in[1]) : in[1]});
          QCOMPARE(got.shape, want.shape);
          const auto g = got.values<float>(), w = want.values<float>();
          for (std::size_t i = 0; i < w.size(); ++i)
            QVERIFY2(std::bit_cast<std::uint32_t>(g[i]) == std::bit_cast<std::uint32_t>(w[i]),
                     (what + ": element " + std::to_string(i) + " " + std::to_string(g[i]) +
                      " vs untransposed " + std::to_string(w[i]))
                         .c_str());
        }
      }
  }

  void pooling() {
    struct Case {
      Shape x;
      std::int64_t k, s;
      std::string pad;
    };
    const std::vector<Case> cases{{{1, 7, 7, 5}, 3, 2, "SAME"},
                                  {{2, 8, 8, 3}, 2, 2, "VALID"},
                                  {{1, 9, 9, 6}, 3, 1, "SAME"},
                                  {{1, 5, 7, 9}, 3, 2, "VALID"}};
    for (const char* op : {"MaxPool", "AvgPool"})
      for (const Case& c : cases) {
        Node n = test::make_node(op);
        n.attrs["ksize"] = I64s{1, c.k, c.k, 1};
        n.attrs["strides"] = I64s{1, c.s, c.s, 1};
        n.attrs["padding"] = c.pad;
        check(n, {rnd(c.x)}, std::string(op) + " " + shape_to_string(c.x) + " " + c.pad);
        if (QTest::currentTestFailed()) return;
      }
  }

  void mean() {
    struct Case {
      Shape x;
      std::vector<std::int32_t> axes;
      bool keep;
    };
    const std::vector<Case> cases{{{2, 5, 6, 7}, {1, 2}, false}, {{2, 5, 6, 7}, {1, 2}, true},
                                  {{2, 5, 6, 7}, {3}, false},    {{3, 4, 5}, {-1}, true},
                                  {{2, 3, 4, 6}, {0, 3}, false}, {{6, 5}, {0}, false}};
    for (const Case& c : cases) {
      Node n = test::make_node("Mean", 2);
      n.attrs["keep_dims"] = c.keep;
      check(n, {rnd(c.x), test::int_tensor(c.axes, {static_cast<std::int64_t>(c.axes.size())})},
            "Mean " + shape_to_string(c.x) + (c.keep ? " keep" : ""));
      if (QTest::currentTestFailed()) return;
    }
  }

  void softmax() {
    for (const Shape& s : std::vector<Shape>{{3, 7}, {2, 4, 5}, {1, 1001}, {5}, {1, 3, 3, 4}}) {
      check(test::make_node("Softmax"), {rnd(s, -5.f, 5.f)}, "Softmax " + shape_to_string(s));
      if (QTest::currentTestFailed()) return;
    }
  }

  void resize_bilinear() {
    struct Case {
      Shape x;
      std::int32_t h, w;
      bool align, half;
    };
    const std::vector<Case> cases{{{1, 5, 6, 3}, 10, 12, false, false},
                                  {{1, 5, 6, 3}, 10, 12, true, false},
                                  {{1, 5, 6, 3}, 10, 12, false, true},
                                  {{2, 8, 8, 5}, 3, 5, false, true},
                                  {{1, 4, 4, 4}, 1, 7, true, false}};
    for (const Case& c : cases) {
      Node n = test::make_node("ResizeBilinear", 2);
      n.attrs["align_corners"] = c.align;
      n.attrs["half_pixel_centers"] = c.half;
      check(n, {rnd(c.x), test::int_tensor({c.h, c.w})},
            "ResizeBilinear " + shape_to_string(c.x) + " to " + std::to_string(c.h) + "x" +
                std::to_string(c.w) + (c.align ? " align" : "") + (c.half ? " half" : ""));
      if (QTest::currentTestFailed()) return;
    }
  }

  void depth_to_space() {
    for (const auto& [s, b] : std::vector<std::pair<Shape, std::int64_t>>{
             {{1, 3, 4, 8}, 2}, {{2, 2, 2, 18}, 3}, {{1, 2, 3, 4}, 2}}) {
      Node n = test::make_node("DepthToSpace");
      n.attrs["block_size"] = b;
      check(n, {rnd(s)}, "DepthToSpace " + shape_to_string(s));
      if (QTest::currentTestFailed()) return;
    }
  }

  void reshape() {
    const std::vector<std::pair<Shape, std::vector<std::int32_t>>> cases{{{2, 3, 5}, {5, 6}},
                                                                         {{1, 4, 4, 3}, {-1}},
                                                                         {{6, 7}, {2, 3, 7, 1}},
                                                                         {{1, 1, 1, 10}, {10}},
                                                                         {{3, 10}, {3, 2, -1}}};
    for (const auto& [s, to] : cases) {
      check(test::make_node("Reshape", 2),
            {rnd(s), test::int_tensor(to, {static_cast<std::int64_t>(to.size())})},
            "Reshape " + shape_to_string(s));
      if (QTest::currentTestFailed()) return;
    }
  }

  void reshape_shares_same_layout() {
    // [1,1,1,10] and [10] pad to the same NHWC: the output reuses the input's texture.
    HostTensor x = rnd({1, 1, 1, 10});
    std::vector<runtime::TensorView> views{
        {f.gl->upload(x), DType::Float32, x.shape},
        {f.gl->upload(test::int_tensor({10}, {1})), DType::Int32, {1}}};
    runtime::RunContext ctx{nullptr, f.flags};
    auto out = f.gl->run(test::make_node("Reshape", 2), views, ctx);
    QCOMPARE(out.at(0).data.get(), views[0].data.get());
    QCOMPARE(out.at(0).shape, Shape{10});
    // Unpacking a batch of one (movenet's input) is the same: no copy.
    Node u = test::make_node("Unpack");
    u.attrs["num"] = std::int64_t{1};
    HostTensor image = rnd({1, 6, 7, 3});
    std::vector<runtime::TensorView> one{{f.gl->upload(image), DType::Float32, image.shape}};
    auto unpacked = f.gl->run(u, one, ctx);
    QCOMPARE(unpacked.at(0).data.get(), one[0].data.get());
    QCOMPARE(unpacked.at(0).shape, (Shape{6, 7, 3}));
    check(u, {image}, "Unpack of one");
  }

  void concat() {
    const std::vector<std::pair<std::vector<Shape>, std::int32_t>> cases{
        {{{1, 4, 4, 3}, {1, 4, 4, 5}, {1, 4, 4, 2}}, 3},
        {{{2, 3, 5}, {2, 4, 5}}, 1},
        {{{3, 2}, {3, 7}}, -1},
        {{{1, 3}, {2, 3}, {4, 3}}, 0},
        {{{2, 2, 2, 4}, {2, 2, 2, 4}}, 3}};
    for (const auto& [shapes, axis] : cases) {
      Node n = test::make_node("ConcatV2", shapes.size() + 1);
      std::vector<HostTensor> in;
      for (const Shape& s : shapes) in.push_back(rnd(s));
      in.push_back(test::int_tensor({axis}));
      check(n, in,
            "ConcatV2 axis " + std::to_string(axis) + " first " + shape_to_string(shapes[0]));
      if (QTest::currentTestFailed()) return;
      // TF1's Concat: the same values with the axis first.
      in.insert(in.begin(), in.back());
      in.pop_back();
      check(test::make_node("Concat", shapes.size() + 1), in,
            "Concat axis " + std::to_string(axis) + " first " + shape_to_string(shapes[0]));
      if (QTest::currentTestFailed()) return;
    }
  }

  void pad() {
    const std::vector<std::pair<Shape, std::vector<std::int32_t>>> cases{
        {{1, 5, 5, 3}, {0, 0, 1, 2, 2, 1, 0, 0}},
        {{3, 5}, {1, 1, 0, 3}},
        {{2, 3, 3, 5}, {0, 0, 0, 0, 0, 0, 1, 2}}};
    for (const auto& [s, p] : cases)
      for (bool v2 : {false, true}) {
        Node n = test::make_node(v2 ? "PadV2" : "Pad", v2 ? 3 : 2);
        std::vector<HostTensor> in{rnd(s),
                                   test::int_tensor(p, {static_cast<std::int64_t>(s.size()), 2})};
        if (v2) {
          HostTensor v = HostTensor::zeros(DType::Float32, {});
          v.mutable_values<float>()[0] = 0.5f;
          in.push_back(v);
        }
        check(n, in, n.op + " " + shape_to_string(s));
        if (QTest::currentTestFailed()) return;
      }
  }

  void strided_slice() {
    struct Case {
      Shape x;
      std::vector<std::int32_t> b, e, s;
      std::int64_t begin_mask = 0, end_mask = 0, shrink = 0;
    };
    const std::vector<Case> cases{
        {{1, 8, 8, 6}, {0, 1, 0, 1}, {1, 7, 8, 5}, {1, 2, 1, 1}},
        {{4, 6}, {1, 0}, {2, 6}, {1, 1}, 0, 0, 1},
        {{5, 7}, {4, 0}, {0, 7}, {-1, 2}},
        {{2, 6, 5}, {0, 2, 0}, {0, -1, 3}, {1, 1, 1}, 1, 0, 0},
        {{3, 4, 5, 6}, {0, 0, 0, 2}, {0, 0, 0, 0}, {1, 1, 1, 1}, 7, 15, 8},
        {{10}, {-3}, {10}, {1}}};
    for (const Case& c : cases) {
      Node n = test::make_node("StridedSlice", 4);
      n.attrs["begin_mask"] = c.begin_mask;
      n.attrs["end_mask"] = c.end_mask;
      n.attrs["shrink_axis_mask"] = c.shrink;
      n.attrs["ellipsis_mask"] = std::int64_t{0};
      n.attrs["new_axis_mask"] = std::int64_t{0};
      const Shape k{static_cast<std::int64_t>(c.b.size())};
      check(
          n,
          {rnd(c.x), test::int_tensor(c.b, k), test::int_tensor(c.e, k), test::int_tensor(c.s, k)},
          "StridedSlice " + shape_to_string(c.x));
      if (QTest::currentTestFailed()) return;
    }
  }

  void more_unary() {
    struct Case {
      const char* op;
      float lo, hi;
    };
    for (const Case& c :
         {Case{"Rsqrt", 0.1f, 4.f}, Case{"Sqrt", 0.f, 9.f}, Case{"Reciprocal", 0.5f, 4.f},
          Case{"Floor", -5.f, 5.f}, Case{"Ceil", -5.f, 5.f}, Case{"Log", 0.01f, 10.f},
          Case{"Sin", -6.f, 6.f}, Case{"Cos", -6.f, 6.f}, Case{"Round", -5.f, 5.f},
          Case{"Softplus", -20.f, 20.f}, Case{"Sign", -2.f, 2.f}, Case{"Asinh", -10.f, 10.f},
          Case{"Acosh", 1.5f, 10.f}, Case{"Atanh", -0.9f, 0.9f}})
      for (const Shape& s : {Shape{7}, Shape{2, 5, 6, 3}}) {
        HostTensor x = rnd(s, c.lo, c.hi);
        // Steps (Floor, Round, ...) jump where fp16 storage moves an input across a step: feed
        // them values that half floats hold exactly and that sit between steps.
        if (std::string(c.op) == "Floor" || std::string(c.op) == "Ceil" ||
            std::string(c.op) == "Round" || std::string(c.op) == "Sign")
          for (float& v : x.mutable_values<float>()) v = std::floor(v * 4.f) / 4.f + 0.125f;
        check(test::make_node(c.op), {x}, std::string(c.op) + shape_to_string(s));
        if (QTest::currentTestFailed()) return;
      }
  }

  void reductions() {
    const std::vector<std::pair<Shape, std::vector<std::int32_t>>> cases{{{2, 5, 6, 7}, {3}},
                                                                         {{2, 5, 6, 7}, {1, 2}},
                                                                         {{3, 4, 5}, {0, 2}},
                                                                         {{6, 5}, {-1}},
                                                                         {{9}, {0}}};
    for (const char* op : {"Sum", "Max", "Min", "Prod"})
      for (const auto& [s, axes] : cases)
        for (bool keep : {false, true}) {
          Node n = test::make_node(op, 2);
          n.attrs["keep_dims"] = keep;
          // Prod of many values in [-1, 1) vanishes: keep its factors near 1.
          const bool prod = std::string(op) == "Prod";
          // fp16 truncates every factor toward zero: the product of many drifts by about 2^-10
          // per factor, past the tolerance; products of a few factors only.
          std::int64_t count = 1;
          for (auto a : axes) count *= s[static_cast<std::size_t>(a < 0 ? a + std::ssize(s) : a)];
          if (prod && count > 8) continue;
          check(n,
                {rnd(s, prod ? 0.8f : -1.f, prod ? 1.2f : 1.f),
                 test::int_tensor(axes, {static_cast<std::int64_t>(axes.size())})},
                std::string(op) + shape_to_string(s) + (keep ? " keep" : ""));
          if (QTest::currentTestFailed()) return;
        }
  }

  void batch_matmul_and_large_gemm() {
    struct Case {
      Shape a, b;
      bool ta = false, tb = false;
      const char* op = "BatchMatMulV2";
    };
    const std::vector<Case> cases{{{2, 5, 7}, {2, 7, 6}},
                                  {{3, 5, 7}, {7, 6}},
                                  {{2, 3, 4, 5}, {1, 3, 5, 6}},
                                  {{2, 1, 50}, {50, 9}},
                                  {{4, 1, 200}, {4, 200, 3}},
                                  {{2, 7, 5}, {2, 6, 7}, true, true},
                                  {{70, 45}, {45, 37}, false, false, "MatMul"},
                                  {{33, 130}, {130, 9}, false, false, "MatMul"}};
    for (const Case& c : cases) {
      Node n = test::make_node(c.op, 2);
      const bool batched = std::string(c.op) != "MatMul";
      n.attrs[batched ? "adj_x" : "transpose_a"] = c.ta;
      n.attrs[batched ? "adj_y" : "transpose_b"] = c.tb;
      check(n, {rnd(c.a), rnd(c.b)},
            std::string(c.op) + " " + shape_to_string(c.a) + " x " + shape_to_string(c.b));
      if (QTest::currentTestFailed()) return;
    }
  }

  void views_and_cast() {
    Node e = test::make_node("ExpandDims", 2);
    check(e, {rnd({3, 5}), test::int_tensor({1})}, "ExpandDims axis 1");
    check(e, {rnd({2, 3, 5}), test::int_tensor({-1})}, "ExpandDims axis -1");
    Node sq = test::make_node("Squeeze");
    sq.attrs["squeeze_dims"] = std::vector<std::int64_t>{2};
    check(sq, {rnd({2, 3, 1, 5})}, "Squeeze dim 2");
    check(test::make_node("Squeeze"), {rnd({1, 3, 1, 5})}, "Squeeze all");
    Node c = test::make_node("Cast");
    c.attrs.erase("T");
    c.attrs["SrcT"] = graph::TypeAttr{"DT_INT32"};
    c.attrs["DstT"] = graph::TypeAttr{"DT_FLOAT"};
    check(c, {test::int_tensor({3, -1, 7, 0, 5, 2}, {2, 3})}, "Cast int32");
    c.attrs["SrcT"] = graph::TypeAttr{"DT_FLOAT"};
    check(c, {rnd({2, 3, 5})}, "Cast float");
  }

  void moves() {
    for (const auto& [s, perm] : std::vector<std::pair<Shape, std::vector<std::int32_t>>>{
             {{3, 5}, {1, 0}}, {{2, 3, 5}, {2, 0, 1}}, {{2, 3, 4, 5}, {0, 3, 1, 2}}}) {
      check(test::make_node("Transpose", 2),
            {rnd(s), test::int_tensor(perm, {static_cast<std::int64_t>(perm.size())})},
            "Transpose " + shape_to_string(s));
      if (QTest::currentTestFailed()) return;
    }
    check(test::make_node("Slice", 3),
          {rnd({2, 6, 5, 7}), test::int_tensor({0, 1, 2, 3}, {4}),
           test::int_tensor({2, 4, -1, 3}, {4})},
          "Slice");
    check(test::make_node("Tile", 2), {rnd({2, 3, 5}), test::int_tensor({2, 1, 3}, {3})}, "Tile");
    Node p = test::make_node("Pack", 3);
    p.attrs["axis"] = std::int64_t{1};
    check(p, {rnd({4, 5}), rnd({4, 5}), rnd({4, 5})}, "Pack axis 1");
    Node u = test::make_node("Unpack");
    u.attrs["axis"] = std::int64_t{-1};
    u.attrs["num"] = std::int64_t{3};
    u.outputs.resize(3, u.outputs[0]);
    check_all(u, {rnd({2, 5, 3})}, "Unpack axis -1");
    Node sp = test::make_node("Split", 2);
    sp.attrs["num_split"] = std::int64_t{2};
    sp.outputs.resize(2, sp.outputs[0]);
    check_all(sp, {test::int_tensor({3}), rnd({1, 4, 4, 6})}, "Split channels");
    Node sv = test::make_node("SplitV", 3);
    sv.outputs.resize(3, sv.outputs[0]);
    check_all(sv, {rnd({3, 10}), test::int_tensor({2, -1, 5}, {3}), test::int_tensor({1})},
              "SplitV");
  }

  // A tensor whose N * C4 * H texel rows pass the maximum texture size is cut into panels
  // (gl_tensor.h); upload, kernels and readback all follow.
  void tall_tensors_use_panels() {
    const std::int64_t max = f.gl->context()->limits().max_texture_size;
    const std::int64_t n = max / (5 * 8) + 1;  // rows n * 5 * 8 > max
    const Shape s{n, 8, 3, 17};
    check(test::make_node("SquaredDifference", 2), {rnd(s), rnd({3, 17})},
          "SquaredDifference " + shape_to_string(s));
    check(test::make_node("Transpose", 2),
          {rnd({17, 8, 3, n}), test::int_tensor({3, 1, 2, 0}, {4})},
          "Transpose to " + shape_to_string(s));
  }

  // Nodes whose inputs the kernels cannot take stay on cpu, decided from static shapes.
  void supports_sees_input_shapes() {
    Node n = test::make_node("_FusedConv2D", 3);
    n.attrs["fused_ops"] = std::vector<std::string>{"BiasAdd", "Relu"};
    n.outputs[0].shape = PartialShape::of({1, 8, 8, 16});
    graph::TensorInfo x{DType::Float32, PartialShape::of({1, 8, 8, 3})};
    graph::TensorInfo w{DType::Float32, PartialShape::of({3, 3, 3, 16})};
    graph::TensorInfo bias{DType::Float32, PartialShape::of({16})};
    std::vector<const graph::TensorInfo*> in{&x, &w, &bias};
    QVERIFY(f.gl->supports_inputs(n, in));
    bias.shape = PartialShape::of({8, 16});  // not per channel
    QVERIFY(!f.gl->supports_inputs(n, in));
    bias.shape = PartialShape::unknown();
    QVERIFY(!f.gl->supports_inputs(n, in));
    bias.shape = PartialShape::of({16});
    x.shape = PartialShape::of({1, 1, 8, 8, 3});  // rank 5 cannot be a texture
    QVERIFY(!f.gl->supports_inputs(n, in));
  }
};

QTEST_GUILESS_MAIN(GlKernelsTest)
#include "gl_kernels_test.moc"
