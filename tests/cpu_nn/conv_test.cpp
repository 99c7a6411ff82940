// Conv2D, _FusedConv2D, DepthwiseConv2dNative, FusedDepthwiseConv2dNative and
// Conv2DBackpropInput against direct loops written from the TF definitions.
#include <QObject>
#include <QTest>
#include <algorithm>
#include <cmath>

#include "nn_test_util.h"

using namespace tfjsi;
using namespace tfjsi::test;

namespace {

// Output size and leading pads, from TF's definition of the padding modes.
struct Geometry {
  std::int64_t out_h, out_w, top, left;
};

Geometry geometry(const std::string& padding, std::int64_t in_h, std::int64_t in_w, std::int64_t kh,
                  std::int64_t kw, std::int64_t sh, std::int64_t sw, std::int64_t dh,
                  std::int64_t dw, const Ints& explicit_pads) {
  const std::int64_t ekh = kh + (kh - 1) * (dh - 1), ekw = kw + (kw - 1) * (dw - 1);
  Geometry g{};
  if (padding == "SAME") {
    g.out_h = (in_h + sh - 1) / sh;
    g.out_w = (in_w + sw - 1) / sw;
    g.top = std::max<std::int64_t>(0, (g.out_h - 1) * sh + ekh - in_h) / 2;
    g.left = std::max<std::int64_t>(0, (g.out_w - 1) * sw + ekw - in_w) / 2;
  } else if (padding == "VALID") {
    g.out_h = in_h >= ekh ? (in_h - ekh) / sh + 1 : 0;
    g.out_w = in_w >= ekw ? (in_w - ekw) / sw + 1 : 0;
  } else {
    g.top = explicit_pads[2];
    g.left = explicit_pads[4];
    g.out_h = (in_h + explicit_pads[2] + explicit_pads[3] - ekh) / sh + 1;
    g.out_w = (in_w + explicit_pads[4] + explicit_pads[5] - ekw) / sw + 1;
  }
  return g;
}

struct ConvCase {
  std::int64_t n, h, w, c, kh, kw, co;  // co: output channels (conv) or multiplier (depthwise)
  std::int64_t sh, sw, dh, dw;
  std::string padding;
  Ints explicit_pads;
};

std::string describe(const ConvCase& k) {
  return "x[" + std::to_string(k.n) + "," + std::to_string(k.h) + "," + std::to_string(k.w) + "," +
         std::to_string(k.c) + "] k" + std::to_string(k.kh) + "x" + std::to_string(k.kw) + " co" +
         std::to_string(k.co) + " s" + std::to_string(k.sh) + "," + std::to_string(k.sw) + " d" +
         std::to_string(k.dh) + "," + std::to_string(k.dw) + " " + k.padding;
}

graph::Node conv_node(const std::string& op, const ConvCase& k) {
  graph::Node node = make_node(op, {{"strides", Ints{1, k.sh, k.sw, 1}},
                                    {"dilations", Ints{1, k.dh, k.dw, 1}},
                                    {"padding", k.padding},
                                    {"data_format", std::string("NHWC")}});
  if (k.padding == "EXPLICIT") node.attrs["explicit_paddings"] = k.explicit_pads;
  return node;
}

// out[n, oy, ox, co] = sum_{ky, kx, ci} x[n, oy*s - pad + ky*d, ox*s - pad + kx*d, ci] f[ky, kx,
// ci, co]
std::vector<float> reference_conv(const ConvCase& k, const HostTensor& x, const HostTensor& f,
                                  Shape& shape) {
  const Geometry g =
      geometry(k.padding, k.h, k.w, k.kh, k.kw, k.sh, k.sw, k.dh, k.dw, k.explicit_pads);
  shape = {k.n, g.out_h, g.out_w, k.co};
  std::vector<float> out;
  auto xv = x.values<float>();
  auto fv = f.values<float>();
  for (std::int64_t n = 0; n < k.n; ++n)
    for (std::int64_t oy = 0; oy < g.out_h; ++oy)
      for (std::int64_t ox = 0; ox < g.out_w; ++ox)
        for (std::int64_t co = 0; co < k.co; ++co) {
          double sum = 0;
          for (std::int64_t ky = 0; ky < k.kh; ++ky)
            for (std::int64_t kx = 0; kx < k.kw; ++kx) {
              const std::int64_t iy = oy * k.sh - g.top + ky * k.dh;
              const std::int64_t ix = ox * k.sw - g.left + kx * k.dw;
              if (iy < 0 || iy >= k.h || ix < 0 || ix >= k.w) continue;
              for (std::int64_t ci = 0; ci < k.c; ++ci)
                sum += double(xv[((n * k.h + iy) * k.w + ix) * k.c + ci]) *
                       fv[((ky * k.kw + kx) * k.c + ci) * k.co + co];
            }
          out.push_back(float(sum));
        }
  return out;
}

// out[n, oy, ox, c*M + q] = sum_{ky, kx} x[n, iy, ix, c] f[ky, kx, c, q]
std::vector<float> reference_depthwise(const ConvCase& k, const HostTensor& x, const HostTensor& f,
                                       Shape& shape) {
  const Geometry g =
      geometry(k.padding, k.h, k.w, k.kh, k.kw, k.sh, k.sw, k.dh, k.dw, k.explicit_pads);
  const std::int64_t m = k.co;
  shape = {k.n, g.out_h, g.out_w, k.c * m};
  std::vector<float> out;
  auto xv = x.values<float>();
  auto fv = f.values<float>();
  for (std::int64_t n = 0; n < k.n; ++n)
    for (std::int64_t oy = 0; oy < g.out_h; ++oy)
      for (std::int64_t ox = 0; ox < g.out_w; ++ox)
        for (std::int64_t c = 0; c < k.c; ++c)
          for (std::int64_t q = 0; q < m; ++q) {
            double sum = 0;
            for (std::int64_t ky = 0; ky < k.kh; ++ky)
              for (std::int64_t kx = 0; kx < k.kw; ++kx) {
                const std::int64_t iy = oy * k.sh - g.top + ky * k.dh;
                const std::int64_t ix = ox * k.sw - g.left + kx * k.dw;
                if (iy < 0 || iy >= k.h || ix < 0 || ix >= k.w) continue;
                sum += double(xv[((n * k.h + iy) * k.w + ix) * k.c + c]) *
                       fv[((ky * k.kw + kx) * k.c + c) * m + q];
              }
            out.push_back(float(sum));
          }
  return out;
}

const std::vector<ConvCase>& conv_cases() {
  static const std::vector<ConvCase> cases = {
      {1, 5, 5, 3, 3, 3, 4, 1, 1, 1, 1, "SAME", {}},
      {1, 8, 8, 5, 3, 3, 7, 2, 2, 1, 1, "SAME", {}},  // stride 2: pad 0 before, 1 after
      {2, 8, 6, 5, 3, 3, 6, 2, 2, 1, 1, "SAME", {}},  // batch 2
      {1, 9, 9, 4, 3, 3, 5, 1, 1, 2, 2, "SAME", {}},  // dilation 2
      {1, 10, 8, 3, 3, 3, 8, 1, 1, 2, 1, "VALID", {}},
      {1, 6, 6, 3, 5, 5, 9, 1, 1, 1, 1, "SAME", {}},  // 5x5
      {1, 7, 9, 6, 5, 5, 4, 2, 2, 1, 1, "VALID", {}},
      {2, 4, 4, 17, 1, 1, 33, 1, 1, 1, 1, "VALID", {}},  // 1x1: the GEMM reads x directly
      {1, 9, 9, 8, 1, 1, 16, 2, 2, 1, 1, "SAME", {}},    // 1x1 stride 2
      {1, 6, 7, 3, 3, 3, 5, 1, 2, 1, 1, "EXPLICIT", {0, 0, 1, 2, 0, 3, 0, 0}},
      {1, 12, 12, 32, 3, 3, 300, 1, 1, 1, 1, "SAME", {}},  // K = 288: two K blocks; N = 300
      {1, 11, 13, 64, 3, 3, 20, 1, 1, 1, 1, "SAME", {}},   // K = 576: three K blocks
      {1, 30, 30, 3, 3, 3, 16, 2, 2, 1, 1, "SAME", {}},    // first layer: C = 3, many M tiles
      {1, 3, 3, 2, 5, 5, 3, 1, 1, 1, 1, "SAME", {}},       // window larger than the input
      {3, 5, 4, 2, 2, 3, 3, 3, 2, 1, 1, "SAME", {}},
      {1, 2, 2, 1, 3, 3, 1, 1, 1, 1, 1, "VALID", {}},  // empty output
  };
  return cases;
}

const std::vector<ConvCase>& depthwise_cases() {
  static const std::vector<ConvCase> cases = {
      {1, 6, 6, 1, 3, 3, 1, 1, 1, 1, 1, "SAME", {}},
      {1, 7, 7, 3, 3, 3, 1, 1, 1, 1, 1, "SAME", {}},
      {1, 8, 8, 8, 3, 3, 1, 2, 2, 1, 1, "SAME", {}},   // asymmetric pad
      {2, 9, 7, 13, 3, 3, 1, 2, 2, 1, 1, "SAME", {}},  // C = 13: vector part and tail
      {1, 10, 10, 32, 5, 5, 1, 1, 1, 1, 1, "SAME", {}},
      {1, 11, 11, 12, 3, 3, 1, 1, 1, 2, 2, "SAME", {}},  // dilation 2
      {1, 8, 9, 5, 3, 3, 2, 1, 1, 1, 1, "VALID", {}},    // channel multiplier 2
      {1, 6, 6, 4, 3, 3, 3, 2, 2, 1, 1, "SAME", {}},     // multiplier 3, stride 2
      {1, 6, 7, 9, 3, 3, 1, 1, 2, 1, 1, "EXPLICIT", {0, 0, 2, 1, 1, 0, 0, 0}},
      {1, 3, 3, 17, 5, 5, 1, 1, 1, 1, 1, "SAME", {}},
  };
  return cases;
}

}  // namespace

class ConvTest : public QObject {
  Q_OBJECT

 private slots:
  void conv2d_hand_computed() {
    const HostTensor x = tensor({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    const HostTensor f = tensor({2, 2, 1, 1}, {1, 1, 1, 1});
    ConvCase k{1, 3, 3, 1, 2, 2, 1, 1, 1, 1, 1, "VALID", {}};
    EXPECT_CLOSE(run(conv_node("Conv2D", k), {x, f}), (Shape{1, 2, 2, 1}),
                 (std::vector<float>{12, 16, 24, 28}), 1e-6f, "VALID");
    // SAME with a 2x2 window pads one row and column after, none before.
    k.padding = "SAME";
    EXPECT_CLOSE(run(conv_node("Conv2D", k), {x, f}), (Shape{1, 3, 3, 1}),
                 (std::vector<float>{12, 16, 9, 24, 28, 15, 15, 17, 9}), 1e-6f, "SAME");
  }

  void conv2d_random() {
    std::uint32_t seed = 1;
    for (const ConvCase& k : conv_cases()) {
      const HostTensor x = random_tensor({k.n, k.h, k.w, k.c}, seed++);
      const HostTensor f = random_tensor({k.kh, k.kw, k.c, k.co}, seed++);
      Shape shape;
      const std::vector<float> want = reference_conv(k, x, f, shape);
      for (bool threaded : {false, true})
        EXPECT_CLOSE(run(conv_node("Conv2D", k), {x, f}, threaded), shape, want, 1e-4f,
                     describe(k) + (threaded ? " threaded" : " inline"));
    }
  }

  void fused_conv2d_activations() {
    const ConvCase k{2, 7, 6, 5, 3, 3, 11, 2, 2, 1, 1, "SAME", {}};
    const HostTensor x = random_tensor({k.n, k.h, k.w, k.c}, 11);
    const HostTensor f = random_tensor({k.kh, k.kw, k.c, k.co}, 12);
    const HostTensor bias = random_tensor({k.co}, 13);
    const HostTensor alpha = random_tensor({k.co}, 14, 0.f, 0.5f);
    Shape shape;
    const std::vector<float> conv = reference_conv(k, x, f, shape);
    struct Act {
      std::string name;
      float (*fn)(float, float);
    };
    const std::vector<Act> acts = {
        {"", [](float v, float) { return v; }},
        {"Relu", [](float v, float) { return std::max(v, 0.f); }},
        {"Relu6", [](float v, float) { return std::min(std::max(v, 0.f), 6.f); }},
        {"Elu", [](float v, float) { return v > 0 ? v : std::expm1(v); }},
        {"LeakyRelu", [](float v, float) { return v > 0 ? v : 0.3f * v; }},
        {"Prelu", [](float v, float a) { return v > 0 ? v : a * v; }},
        {"Sigmoid", [](float v, float) { return 1.f / (1.f + std::exp(-v)); }},
    };
    for (const Act& act : acts) {
      graph::Node node = conv_node("_FusedConv2D", k);
      std::vector<std::string> ops = {"BiasAdd"};
      if (!act.name.empty()) ops.push_back(act.name);
      node.attrs["fused_ops"] = ops;
      node.attrs["leakyrelu_alpha"] = 0.3f;
      std::vector<HostTensor> inputs = {x, f, bias};
      if (act.name == "Prelu") inputs.push_back(alpha);
      node.attrs["num_args"] = std::int64_t(inputs.size() - 2);
      std::vector<float> want(conv.size());
      for (std::size_t i = 0; i < conv.size(); ++i) {
        const std::size_t c = i % std::size_t(k.co);
        want[i] = act.fn(conv[i] + bias.values<float>()[c], alpha.values<float>()[c]);
      }
      EXPECT_CLOSE(run(node, inputs), shape, want, 1e-4f, "BiasAdd+" + act.name);
    }
  }

  void fused_conv2d_hand_computed() {
    // A 1x1 convolution with weight 1, bias 0.5, then Relu6.
    graph::Node node =
        make_node("_FusedConv2D", {{"strides", Ints{1, 1, 1, 1}},
                                   {"padding", std::string("VALID")},
                                   {"fused_ops", std::vector<std::string>{"BiasAdd", "Relu6"}},
                                   {"num_args", std::int64_t{1}}});
    const HostTensor out = run(
        node, {tensor({1, 1, 3, 1}, {-1, 3, 10}), tensor({1, 1, 1, 1}, {1}), tensor({1}, {0.5f})});
    EXPECT_CLOSE(out, (Shape{1, 1, 3, 1}), (std::vector<float>{0, 3.5f, 6}), 1e-6f, "relu6");
  }

  void fused_conv2d_broadcast_prelu() {
    // Prelu alpha of shape [out_h, out_w, C] is not per channel: applied after the convolution.
    const ConvCase k{1, 4, 4, 3, 3, 3, 5, 1, 1, 1, 1, "SAME", {}};
    const HostTensor x = random_tensor({1, 4, 4, 3}, 21), f = random_tensor({3, 3, 3, 5}, 22);
    const HostTensor bias = random_tensor({1, 1, 1, 5}, 23);
    const HostTensor alpha = random_tensor({4, 4, 5}, 24, 0.f, 1.f);
    Shape shape;
    std::vector<float> want = reference_conv(k, x, f, shape);
    for (std::size_t i = 0; i < want.size(); ++i) {
      const float v = want[i] + bias.values<float>()[i % 5];
      want[i] = v > 0 ? v : alpha.values<float>()[i] * v;
    }
    graph::Node node = conv_node("_FusedConv2D", k);
    node.attrs["fused_ops"] = std::vector<std::string>{"BiasAdd", "Prelu"};
    node.attrs["num_args"] = std::int64_t{2};
    EXPECT_CLOSE(run(node, {x, f, bias, alpha}), shape, want, 1e-4f, "broadcast prelu");
  }

  void depthwise_random() {
    std::uint32_t seed = 100;
    for (const ConvCase& k : depthwise_cases()) {
      const HostTensor x = random_tensor({k.n, k.h, k.w, k.c}, seed++);
      const HostTensor f = random_tensor({k.kh, k.kw, k.c, k.co}, seed++);
      Shape shape;
      const std::vector<float> want = reference_depthwise(k, x, f, shape);
      for (bool threaded : {false, true})
        EXPECT_CLOSE(run(conv_node("DepthwiseConv2dNative", k), {x, f}, threaded), shape, want,
                     1e-4f, "depthwise " + describe(k));
    }
  }

  void depthwise_hand_computed() {
    // Two channels, 3x3 all-ones filter on channel 0 and all-twos on channel 1, VALID: each output
    // is the sum of the 3x3 window times the channel's weight.
    std::vector<float> xs;
    for (int i = 0; i < 9; ++i) xs.insert(xs.end(), {float(i + 1), 1.f});
    std::vector<float> fs;
    for (int i = 0; i < 9; ++i) fs.insert(fs.end(), {1.f, 2.f});
    const ConvCase k{1, 3, 3, 2, 3, 3, 1, 1, 1, 1, 1, "VALID", {}};
    EXPECT_CLOSE(run(conv_node("DepthwiseConv2dNative", k),
                     {tensor({1, 3, 3, 2}, xs), tensor({3, 3, 2, 1}, fs)}),
                 (Shape{1, 1, 1, 2}), (std::vector<float>{45, 18}), 1e-6f, "depthwise");
  }

  void fused_depthwise() {
    for (const std::string act : {"Relu6", "Relu", "", "Prelu"}) {
      const ConvCase k{1, 9, 9, 19, 3, 3, 1, 2, 2, 1, 1, "SAME", {}};
      const HostTensor x = random_tensor({1, 9, 9, 19}, 31, -3.f, 3.f),
                       f = random_tensor({3, 3, 19, 1}, 32);
      const HostTensor bias = random_tensor({19}, 33), alpha = random_tensor({19}, 34, 0.f, 1.f);
      Shape shape;
      std::vector<float> want = reference_depthwise(k, x, f, shape);
      for (std::size_t i = 0; i < want.size(); ++i) {
        const float v = want[i] + bias.values<float>()[i % 19];
        want[i] = act == "Relu6"   ? std::min(std::max(v, 0.f), 6.f)
                  : act == "Relu"  ? std::max(v, 0.f)
                  : act == "Prelu" ? (v > 0 ? v : alpha.values<float>()[i % 19] * v)
                                   : v;
      }
      graph::Node node = conv_node("FusedDepthwiseConv2dNative", k);
      std::vector<std::string> ops = {"BiasAdd"};
      if (!act.empty()) ops.push_back(act);
      node.attrs["fused_ops"] = ops;
      std::vector<HostTensor> inputs = {x, f, bias};
      if (act == "Prelu") inputs.push_back(alpha);
      node.attrs["num_args"] = std::int64_t(inputs.size() - 2);
      EXPECT_CLOSE(run(node, inputs), shape, want, 1e-4f, "fused depthwise " + act);
    }
  }

  void conv2d_backprop_input() {
    struct Case {
      Ints in_sizes;  // N, H, W, Cin
      std::int64_t kh, kw, cout, s;
      std::string padding;
      Ints explicit_pads;
    };
    const std::vector<Case> cases = {
        {{1, 8, 8, 3}, 3, 3, 5, 2, "SAME", {}},
        {{1, 8, 8, 16}, 4, 4, 8, 2, "SAME", {}},  // the usual 2x upsampling
        {{2, 9, 7, 4}, 3, 3, 6, 2, "VALID", {}},
        {{1, 5, 5, 7}, 3, 3, 9, 1, "SAME", {}},
        {{1, 7, 6, 2}, 3, 2, 3, 2, "EXPLICIT", {0, 0, 1, 1, 0, 1, 0, 0}},
        {{1, 4, 4, 13}, 2, 2, 17, 2, "VALID", {}},
    };
    std::uint32_t seed = 200;
    for (const Case& c : cases) {
      const std::int64_t N = c.in_sizes[0], H = c.in_sizes[1], W = c.in_sizes[2],
                         CI = c.in_sizes[3];
      const Geometry g = geometry(c.padding, H, W, c.kh, c.kw, c.s, c.s, 1, 1, c.explicit_pads);
      const HostTensor dy = random_tensor({N, g.out_h, g.out_w, c.cout}, seed++);
      const HostTensor f = random_tensor({c.kh, c.kw, CI, c.cout}, seed++);
      // Scatter every out_backprop value back through the filter taps that produced it.
      std::vector<double> dx(std::size_t(N * H * W * CI), 0.0);
      auto dyv = dy.values<float>();
      auto fv = f.values<float>();
      for (std::int64_t n = 0; n < N; ++n)
        for (std::int64_t oy = 0; oy < g.out_h; ++oy)
          for (std::int64_t ox = 0; ox < g.out_w; ++ox)
            for (std::int64_t ky = 0; ky < c.kh; ++ky)
              for (std::int64_t kx = 0; kx < c.kw; ++kx) {
                const std::int64_t iy = oy * c.s - g.top + ky, ix = ox * c.s - g.left + kx;
                if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                for (std::int64_t ci = 0; ci < CI; ++ci)
                  for (std::int64_t co = 0; co < c.cout; ++co)
                    dx[std::size_t(((n * H + iy) * W + ix) * CI + ci)] +=
                        double(
                            dyv[std::size_t(((n * g.out_h + oy) * g.out_w + ox) * c.cout + co)]) *
                        fv[std::size_t(((ky * c.kw + kx) * CI + ci) * c.cout + co)];
              }
      graph::Node node = make_node("Conv2DBackpropInput",
                                   {{"strides", Ints{1, c.s, c.s, 1}}, {"padding", c.padding}});
      if (c.padding == "EXPLICIT") node.attrs["explicit_paddings"] = c.explicit_pads;
      std::vector<std::int32_t> sizes(c.in_sizes.begin(), c.in_sizes.end());
      const std::vector<float> want(dx.begin(), dx.end());
      for (bool threaded : {false, true})
        EXPECT_CLOSE(run(node, {int_tensor({4}, sizes), f, dy}, threaded), (Shape(c.in_sizes)),
                     want, 1e-4f,
                     "backprop input " + shape_to_string(c.in_sizes) + " " + c.padding);
    }
  }

  void conv_transpose_hand_computed() {
    // A single input pixel spread by a 2x2 filter with stride 2: the filter itself.
    graph::Node node = make_node(
        "Conv2DBackpropInput", {{"strides", Ints{1, 2, 2, 1}}, {"padding", std::string("VALID")}});
    const HostTensor out =
        run(node, {int_tensor({4}, {1, 2, 2, 1}), tensor({2, 2, 1, 1}, {1, 2, 3, 4}),
                   tensor({1, 1, 1, 1}, {10})});
    EXPECT_CLOSE(out, (Shape{1, 2, 2, 1}), (std::vector<float>{10, 20, 30, 40}), 1e-6f,
                 "transpose");
  }

  void bad_input_names_node() {
    const HostTensor x = random_tensor({1, 4, 4, 3}, 1), f = random_tensor({3, 3, 3, 2}, 2);
    ConvCase k{1, 4, 4, 3, 3, 3, 2, 1, 1, 1, 1, "SAME", {}};
    // Conv2D takes NCHW (ops.conformance's Conv2D.nchw); TF.js's fused conv2d does not.
    graph::Node nchw = conv_node("_FusedConv2D", k);
    nchw.attrs["data_format"] = std::string("NCHW");
    nchw.attrs["fused_ops"] = std::vector<std::string>{"BiasAdd"};
    nchw.attrs["num_args"] = std::int64_t{1};
    EXPECT_MODEL_ERROR(run(nchw, {x, f, random_tensor({2}, 4)}), "test/_FusedConv2D");
    EXPECT_MODEL_ERROR(run(nchw, {x, f, random_tensor({2}, 4)}), "NCHW");
    EXPECT_MODEL_ERROR(run(conv_node("Conv2D", k), {x, random_tensor({3, 3, 4, 2}, 3)}),
                       "input channels");
    EXPECT_MODEL_ERROR(run(conv_node("Conv2D", k), {random_tensor({4, 4, 3}, 1), f}), "rank 4");
    graph::Node bad_pad = conv_node("Conv2D", k);
    bad_pad.attrs["padding"] = std::string("FULL");
    EXPECT_MODEL_ERROR(run(bad_pad, {x, f}), "padding");
    graph::Node bad_explicit = conv_node("Conv2D", k);
    bad_explicit.attrs["padding"] = std::string("EXPLICIT");
    EXPECT_MODEL_ERROR(run(bad_explicit, {x, f}), "explicit_paddings");
    graph::Node fused = conv_node("_FusedConv2D", k);
    fused.attrs["fused_ops"] = std::vector<std::string>{"BiasAdd", "Prelu"};
    fused.attrs["num_args"] = std::int64_t{1};
    EXPECT_MODEL_ERROR(run(fused, {x, f, random_tensor({2}, 4)}), "extra inputs");
    fused.attrs["fused_ops"] = std::vector<std::string>{"FusedBatchNorm"};
    EXPECT_MODEL_ERROR(run(fused, {x, f, random_tensor({2}, 4)}), "FusedBatchNorm");
    fused.attrs["fused_ops"] = std::vector<std::string>{"BiasAdd"};
    EXPECT_MODEL_ERROR(run(fused, {x, f, random_tensor({3}, 4)}), "bias");
    graph::Node zero_stride = conv_node("Conv2D", k);
    zero_stride.attrs["strides"] = Ints{1, 0, 1, 1};
    EXPECT_MODEL_ERROR(run(zero_stride, {x, f}), "strides");
    graph::Node backprop = make_node(
        "Conv2DBackpropInput", {{"strides", Ints{1, 2, 2, 1}}, {"padding", std::string("SAME")}});
    EXPECT_MODEL_ERROR(
        run(backprop, {int_tensor({4}, {1, 8, 8, 3}), f, random_tensor({1, 3, 3, 2}, 5)}),
        "out_backprop");
  }
};

QTEST_GUILESS_MAIN(ConvTest)
#include "conv_test.moc"
