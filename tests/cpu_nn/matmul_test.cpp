// MatMul, _FusedMatMul and BatchMatMulV2 against a triple loop, over every transpose combination
// and shapes that cross the GEMM's tile and block edges.
#include <QObject>
#include <QTest>
#include <algorithm>

#include "nn_test_util.h"

using namespace tfjsi;
using namespace tfjsi::test;

namespace {

// C = op(A) op(B) for one matrix; a is [M,K] (or [K,M] when ta), b is [K,N] (or [N,K] when tb).
std::vector<float> reference_matmul(const float* a, const float* b, std::int64_t m, std::int64_t k,
                                    std::int64_t n, bool ta, bool tb) {
  std::vector<float> c(std::size_t(m * n));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (std::int64_t p = 0; p < k; ++p)
        s += double(ta ? a[p * m + i] : a[i * k + p]) * (tb ? b[j * k + p] : b[p * n + j]);
      c[std::size_t(i * n + j)] = float(s);
    }
  return c;
}

graph::Node matmul_node(const std::string& op, bool ta, bool tb) {
  if (op == "BatchMatMulV2") return make_node(op, {{"adj_x", ta}, {"adj_y", tb}});
  return make_node(op, {{"transpose_a", ta}, {"transpose_b", tb}});
}

}  // namespace

class MatMulTest : public QObject {
  Q_OBJECT

 private slots:
  void hand_computed() {
    const HostTensor a = tensor({2, 2}, {1, 2, 3, 4}), b = tensor({2, 2}, {5, 6, 7, 8});
    EXPECT_CLOSE(run(matmul_node("MatMul", false, false), {a, b}), (Shape{2, 2}),
                 (std::vector<float>{19, 22, 43, 50}), 1e-6f, "plain");
    // A^T B = [[1,3],[2,4]] [[5,6],[7,8]]
    EXPECT_CLOSE(run(matmul_node("MatMul", true, false), {a, b}), (Shape{2, 2}),
                 (std::vector<float>{26, 30, 38, 44}), 1e-6f, "transpose_a");
  }

  void random_shapes_and_transposes() {
    struct Case {
      std::int64_t m, k, n;
    };
    const std::vector<Case> cases = {{1, 1, 1},     {3, 5, 7},      {17, 33, 9},    {6, 16, 16},
                                     {7, 17, 17},   {100, 300, 50}, {1, 1024, 200}, {200, 7, 1},
                                     {97, 257, 33}, {5, 0, 4}};
    std::uint32_t seed = 1;
    for (const Case& c : cases)
      for (bool ta : {false, true})
        for (bool tb : {false, true}) {
          const HostTensor a = random_tensor(ta ? Shape{c.k, c.m} : Shape{c.m, c.k}, seed++);
          const HostTensor b = random_tensor(tb ? Shape{c.n, c.k} : Shape{c.k, c.n}, seed++);
          const auto want = reference_matmul(a.values<float>().data(), b.values<float>().data(),
                                             c.m, c.k, c.n, ta, tb);
          const std::string label = "m" + std::to_string(c.m) + " k" + std::to_string(c.k) + " n" +
                                    std::to_string(c.n) + (ta ? " ta" : "") + (tb ? " tb" : "");
          for (bool threaded : {false, true})
            EXPECT_CLOSE(run(matmul_node("MatMul", ta, tb), {a, b}, threaded), (Shape{c.m, c.n}),
                         want, 1e-4f, label);
        }
  }

  void fused_matmul() {
    const std::int64_t m = 9, k = 21, n = 19;
    const HostTensor a = random_tensor({m, k}, 5), b = random_tensor({n, k}, 6);
    const HostTensor bias = random_tensor({n}, 7);
    const auto mm =
        reference_matmul(a.values<float>().data(), b.values<float>().data(), m, k, n, false, true);
    for (const std::string act : {"", "Relu", "LeakyRelu", "Relu6"}) {
      graph::Node node = matmul_node("_FusedMatMul", false, true);
      std::vector<std::string> ops = {"BiasAdd"};
      if (!act.empty()) ops.push_back(act);
      node.attrs["fused_ops"] = ops;
      node.attrs["num_args"] = std::int64_t{1};
      node.attrs["leakyrelu_alpha"] = 0.1f;
      std::vector<float> want(mm.size());
      for (std::size_t i = 0; i < mm.size(); ++i) {
        const float v = mm[i] + bias.values<float>()[i % std::size_t(n)];
        want[i] = act == "Relu"        ? std::max(v, 0.f)
                  : act == "LeakyRelu" ? (v < 0 ? 0.1f * v : v)
                  : act == "Relu6"     ? std::clamp(v, 0.f, 6.f)
                                       : v;
      }
      EXPECT_CLOSE(run(node, {a, b, bias}), (Shape{m, n}), want, 1e-4f, "fused " + act);
    }
  }

  void batch_matmul_broadcasting() {
    struct Case {
      Shape a, b;
      bool adj_x, adj_y;
      Shape out;
    };
    const std::vector<Case> cases = {
        {{2, 3, 4, 5}, {5, 6}, false, false, {2, 3, 4, 6}},
        {{1, 4, 5}, {3, 5, 2}, false, false, {3, 4, 2}},
        {{3, 5, 4}, {3, 2, 5}, true, true, {3, 4, 2}},
        {{2, 1, 3, 4}, {5, 4, 2}, false, false, {2, 5, 3, 2}},
        {{2, 1, 4, 3}, {1, 5, 2, 4}, true, true, {2, 5, 3, 2}},
        {{7, 2, 2}, {7, 2, 2}, false, true, {7, 2, 2}},
    };
    std::uint32_t seed = 50;
    for (const Case& c : cases) {
      const HostTensor a = random_tensor(c.a, seed++), b = random_tensor(c.b, seed++);
      const int ra = int(c.a.size()), r = int(c.out.size());
      const std::int64_t m = c.out[r - 2], n = c.out[r - 1];
      const std::int64_t k = c.adj_x ? c.a[ra - 2] : c.a[ra - 1];
      // Walk the output batch index and map it to each input by right-aligned broadcasting.
      std::vector<float> want;
      const std::int64_t batches = num_elements(std::span(c.out).first(r - 2));
      for (std::int64_t bi = 0; bi < batches; ++bi) {
        std::vector<std::int64_t> idx(r - 2);
        for (int d = r - 3, rest = int(bi); d >= 0; --d)
          idx[d] = rest % c.out[d], rest /= int(c.out[d]);
        auto flat = [&](const Shape& s) {
          std::int64_t f = 0;
          const int off = r - int(s.size());
          for (int d = 0; d < int(s.size()) - 2; ++d) f = f * s[d] + (s[d] == 1 ? 0 : idx[d + off]);
          return f;
        };
        const auto part = reference_matmul(a.values<float>().data() + flat(c.a) * m * k,
                                           b.values<float>().data() + flat(c.b) * k * n, m, k, n,
                                           c.adj_x, c.adj_y);
        want.insert(want.end(), part.begin(), part.end());
      }
      EXPECT_CLOSE(run(matmul_node("BatchMatMulV2", c.adj_x, c.adj_y), {a, b}), c.out, want, 1e-4f,
                   "batch " + shape_to_string(c.a) + " x " + shape_to_string(c.b));
    }
  }

  void int32_matmul() {
    const HostTensor a = int_tensor({2, 2}, {1, 2, 3, 4}), b = int_tensor({2, 2}, {5, 6, 7, 8});
    const HostTensor out = run(matmul_node("MatMul", false, false), {a, b});
    QCOMPARE(out.dtype, DType::Int32);
    QCOMPARE(out.shape, (Shape{2, 2}));
    const auto v = out.values<std::int32_t>();
    QCOMPARE(std::vector<std::int32_t>(v.begin(), v.end()),
             (std::vector<std::int32_t>{19, 22, 43, 50}));
    // Batched, with B transposed and broadcast: [[1,2],[3,4]] x [[5,7],[6,8]]^T per batch item.
    const HostTensor a3 = int_tensor({2, 2, 2}, {1, 2, 3, 4, 0, 1, 1, 0});
    const HostTensor bt = int_tensor({2, 2}, {5, 7, 6, 8});
    const HostTensor out3 = run(matmul_node("BatchMatMulV2", false, true), {a3, bt});
    const auto v3 = out3.values<std::int32_t>();
    QCOMPARE(std::vector<std::int32_t>(v3.begin(), v3.end()),
             (std::vector<std::int32_t>{19, 22, 43, 50, 7, 8, 5, 6}));
    EXPECT_MODEL_ERROR(run(matmul_node("MatMul", false, false), {a, random_tensor({2, 2}, 1)}),
                       "float32");
  }

  void bad_input_names_node() {
    EXPECT_MODEL_ERROR(run(matmul_node("MatMul", false, false),
                           {random_tensor({2, 3}, 1), random_tensor({4, 2}, 2)}),
                       "inner dimensions");
    EXPECT_MODEL_ERROR(
        run(matmul_node("MatMul", false, false), {random_tensor({3}, 1), random_tensor({3, 2}, 2)}),
        "test/MatMul");
    EXPECT_MODEL_ERROR(run(matmul_node("BatchMatMulV2", false, false),
                           {random_tensor({2, 2, 3}, 1), random_tensor({3, 3, 2}, 2)}),
                       "broadcast");
  }
};

QTEST_GUILESS_MAIN(MatMulTest)
#include "matmul_test.moc"
