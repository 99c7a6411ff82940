// Element-wise activations, BiasAdd, Prelu, Softmax, LogSoftmax, FusedBatchNorm and LRN against
// their TF formulas.
#include <QObject>
#include <QTest>
#include <cmath>
#include <functional>
#include <limits>

#include "nn_test_util.h"

using namespace tfjsi;
using namespace tfjsi::test;

namespace {

// Values across the ranges where the formulas switch branches, plus random ones.
HostTensor sample_input() {
  std::vector<float> v = {-100.f, -20.f, -17.f, -5.f, -1.f, -0.5f, -1e-3f, 0.f,  1e-3f,
                          0.5f,   1.f,   5.f,   6.f,  7.f,  15.f,  17.f,   20.f, 100.f};
  const HostTensor r = random_tensor({3, 37}, 9, -8.f, 8.f);
  for (float x : r.values<float>()) v.push_back(x);
  return tensor({std::int64_t(v.size())}, v);
}

}  // namespace

class ActivationTest : public QObject {
  Q_OBJECT

 private slots:
  void unary_formulas() {
    const double selu_scale = 1.0507009873554804934193349852946;
    const double selu_alpha = 1.6732632423543772848170429916717;
    const std::vector<std::pair<std::string, std::function<double(double)>>> cases = {
        {"Relu", [](double x) { return x > 0 ? x : 0; }},
        {"Relu6", [](double x) { return std::min(std::max(x, 0.0), 6.0); }},
        {"Elu", [](double x) { return x > 0 ? x : std::exp(x) - 1; }},
        {"Selu",
         [&](double x) {
           return x > 0 ? selu_scale * x : selu_scale * selu_alpha * (std::exp(x) - 1);
         }},
        {"Sigmoid", [](double x) { return 1 / (1 + std::exp(-x)); }},
        {"Tanh", [](double x) { return std::tanh(x); }},
        {"Softplus", [](double x) { return std::log1p(std::exp(x)); }},
        {"Softsign", [](double x) { return x / (1 + std::fabs(x)); }},
    };
    const HostTensor x = sample_input();
    for (const auto& [op, f] : cases) {
      std::vector<float> want;
      for (float v : x.values<float>()) want.push_back(float(f(v)));
      EXPECT_CLOSE(run(make_node(op), {x}), x.shape, want, 2e-6f, op);
    }
    EXPECT_CLOSE(run(make_node("Relu"), {tensor({4}, {-2, -0.f, 0.5f, 3})}), (Shape{4}),
                 (std::vector<float>{0, 0, 0.5f, 3}), 0.f, "relu hand");
  }

  void nan_passes_through() {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (const char* op : {"Relu", "Relu6", "Sigmoid", "Tanh", "Elu"}) {
      const HostTensor out = run(make_node(op), {tensor({1}, {nan})});
      QVERIFY2(std::isnan(out.values<float>()[0]), op);
    }
  }

  void leaky_relu_and_prelu() {
    const HostTensor x = random_tensor({2, 3, 4, 5}, 3);
    std::vector<float> want;
    for (float v : x.values<float>()) want.push_back(v < 0 ? 0.25f * v : v);
    EXPECT_CLOSE(run(make_node("LeakyRelu", {{"alpha", 0.25f}}), {x}), x.shape, want, 0.f, "leaky");
    // Default alpha 0.2.
    std::vector<float> want_default;
    for (float v : x.values<float>()) want_default.push_back(v < 0 ? 0.2f * v : v);
    EXPECT_CLOSE(run(make_node("LeakyRelu"), {x}), x.shape, want_default, 1e-7f, "leaky default");

    for (const Shape& alpha_shape :
         {Shape{5}, Shape{1, 1, 5}, Shape{4, 5}, Shape{1}, Shape{4, 1}}) {
      const HostTensor alpha = random_tensor(alpha_shape, 4, 0.f, 1.f);
      std::vector<float> w;
      for (std::int64_t i = 0; i < x.num_elements(); ++i) {
        const std::int64_t c = i % 5, h = (i / 5) % 4;
        std::int64_t ai = 0;
        if (alpha_shape == Shape{5} || alpha_shape == Shape{1, 1, 5}) ai = c;
        if (alpha_shape == Shape{4, 5}) ai = h * 5 + c;
        if (alpha_shape == Shape{4, 1}) ai = h;
        const float v = x.values<float>()[std::size_t(i)];
        w.push_back(v < 0 ? alpha.values<float>()[std::size_t(ai)] * v : v);
      }
      EXPECT_CLOSE(run(make_node("Prelu"), {x, alpha}), x.shape, w, 0.f,
                   "prelu " + shape_to_string(alpha_shape));
    }
    EXPECT_MODEL_ERROR(run(make_node("Prelu"), {x, random_tensor({3}, 1)}), "does not broadcast");
  }

  void bias_add() {
    EXPECT_CLOSE(
        run(make_node("BiasAdd"), {tensor({2, 3}, {1, 2, 3, 4, 5, 6}), tensor({3}, {10, 20, 30})}),
        (Shape{2, 3}), (std::vector<float>{11, 22, 33, 14, 25, 36}), 0.f, "bias add");
    EXPECT_MODEL_ERROR(run(make_node("BiasAdd"), {random_tensor({2, 3}, 1), random_tensor({2}, 1)}),
                       "bias");
    EXPECT_MODEL_ERROR(run(make_node("BiasAdd", {{"data_format", std::string("NCHW")}}),
                           {random_tensor({1, 3, 2, 2}, 1), random_tensor({3}, 1)}),
                       "NCHW");
  }

  void softmax() {
    EXPECT_CLOSE(run(make_node("Softmax"), {tensor({1, 3}, {1, 2, 3})}), (Shape{1, 3}),
                 (std::vector<float>{0.09003057f, 0.24472847f, 0.66524096f}), 1e-6f, "softmax");
    EXPECT_CLOSE(run(make_node("LogSoftmax"), {tensor({3}, {1, 2, 3})}), (Shape{3}),
                 (std::vector<float>{-2.40760596f, -1.40760596f, -0.40760596f}), 1e-6f,
                 "log softmax");
    // Large logits must not overflow.
    EXPECT_CLOSE(run(make_node("Softmax"), {tensor({2}, {1000, 1000})}), (Shape{2}),
                 (std::vector<float>{0.5f, 0.5f}), 1e-6f, "stable");
    const HostTensor x = random_tensor({4, 7, 33}, 5, -10.f, 10.f);
    std::vector<float> want, want_log;
    for (std::int64_t r = 0; r < 28; ++r) {
      double sum = 0;
      for (std::int64_t i = 0; i < 33; ++i)
        sum += std::exp(double(x.values<float>()[std::size_t(r * 33 + i)]));
      for (std::int64_t i = 0; i < 33; ++i) {
        const double v = x.values<float>()[std::size_t(r * 33 + i)];
        want.push_back(float(std::exp(v) / sum));
        want_log.push_back(float(v - std::log(sum)));
      }
    }
    EXPECT_CLOSE(run(make_node("Softmax"), {x}), x.shape, want, 1e-5f, "softmax random");
    EXPECT_CLOSE(run(make_node("LogSoftmax"), {x}), x.shape, want_log, 1e-5f, "log softmax random");
  }

  void fused_batch_norm() {
    // y = (x - mean) / sqrt(var + eps) * scale + offset, per channel.
    const HostTensor x = tensor({1, 1, 2, 2}, {1, 2, 3, 4});
    const auto outs = run_all(
        make_node("FusedBatchNormV3", {{"epsilon", 0.f}}),
        {x, tensor({2}, {2, 1}), tensor({2}, {0, 10}), tensor({2}, {1, 2}), tensor({2}, {4, 1})});
    QCOMPARE(outs.size(), std::size_t{6});
    EXPECT_CLOSE(outs[0], (Shape{1, 1, 2, 2}), (std::vector<float>{0, 10, 2, 12}), 1e-6f,
                 "batch norm");
    const HostTensor xr = random_tensor({2, 3, 4, 6}, 7);
    const HostTensor scale = random_tensor({6}, 8), offset = random_tensor({6}, 9);
    const HostTensor mean = random_tensor({6}, 10), var = random_tensor({6}, 11, 0.1f, 2.f);
    std::vector<float> want;
    for (std::int64_t i = 0; i < xr.num_elements(); ++i) {
      const std::size_t c = std::size_t(i % 6);
      want.push_back(float((xr.values<float>()[std::size_t(i)] - mean.values<float>()[c]) /
                               std::sqrt(double(var.values<float>()[c]) + 1e-3) *
                               scale.values<float>()[c] +
                           offset.values<float>()[c]));
    }
    EXPECT_CLOSE(
        run(make_node("FusedBatchNorm", {{"epsilon", 1e-3f}}), {xr, scale, offset, mean, var}),
        xr.shape, want, 1e-5f, "batch norm random");
  }

  void lrn() {
    const HostTensor x = random_tensor({1, 2, 3, 11}, 12);
    const std::int64_t r = 2;
    const float bias = 1.5f, alpha = 0.3f, beta = 0.75f;
    std::vector<float> want;
    for (std::int64_t i = 0; i < x.num_elements(); ++i) {
      const std::int64_t c = i % 11, base = i - c;
      double sum = 0;
      for (std::int64_t j = std::max<std::int64_t>(0, c - r);
           j <= std::min<std::int64_t>(10, c + r); ++j)
        sum += double(x.values<float>()[std::size_t(base + j)]) *
               x.values<float>()[std::size_t(base + j)];
      want.push_back(float(x.values<float>()[std::size_t(i)] / std::pow(bias + alpha * sum, beta)));
    }
    EXPECT_CLOSE(
        run(make_node("LRN",
                      {{"depth_radius", r}, {"bias", bias}, {"alpha", alpha}, {"beta", beta}}),
            {x}),
        x.shape, want, 1e-5f, "lrn");
  }

  // Issue #25 item 10: a depth_radius past the limit is named as too large, not as negative.
  void lrn_radius_messages_say_what_is_wrong() {
    const HostTensor x = random_tensor({1, 1, 1, 3}, 1);
    EXPECT_MODEL_ERROR(run(make_node("LRN", {{"depth_radius", std::int64_t{2147483647}}}), {x}),
                       "too large");
    EXPECT_MODEL_ERROR(run(make_node("LRN", {{"depth_radius", std::int64_t{-1}}}), {x}),
                       "must be >= 0");
  }

  void wrong_dtype_names_node() {
    EXPECT_MODEL_ERROR(run(make_node("Sigmoid"), {int_tensor({2}, {1, 2})}), "test/Sigmoid");
    EXPECT_MODEL_ERROR(run(make_node("Relu"), {}), "inputs");
  }
};

QTEST_GUILESS_MAIN(ActivationTest)
#include "activation_test.moc"
