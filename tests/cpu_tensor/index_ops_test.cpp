// cpu kernels of issue #26's scatter, search, set and counting ops and Einsum, on values worked out
// by hand from TF.js's definitions (its scatterImpl, searchSortedImpl, uniqueImpl, setdiff1dAsync,
// bincountImpl), Einsum against a plain sum over every label assignment; and the errors, which
// name the node (and Einsum's equation) where TF.js refuses the input. The conformance suite
// (tests/ops) checks the same ops against real TF.js's outputs.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "tensor_test_util.h"

using namespace tfjsi;
using namespace tfjsi::test::tensor;

namespace {

HostTensor strs(std::vector<std::string> v) {
  HostTensor t = HostTensor::zeros(DType::String, {static_cast<std::int64_t>(v.size())});
  *t.strings = std::move(v);
  return t;
}

graph::Node einsum_node(const std::string& equation) {
  return make_node("Einsum", {{"equation", equation}});
}

// Einsum by definition: every assignment of the labels, the product of the operands' elements,
// summed into the output element the output labels pick.
std::vector<float> naive_einsum(const std::string& equation, const std::vector<HostTensor>& ops) {
  const auto arrow = equation.find("->");
  const std::string out = equation.substr(arrow + 2);
  std::vector<std::string> terms;
  for (std::size_t s = 0;;) {
    const auto c = equation.find(',', s);
    terms.push_back(equation.substr(s, std::min(c, arrow) - s));
    if (c == std::string::npos || c > arrow) break;
    s = c + 1;
  }
  std::map<char, std::int64_t> size;
  for (std::size_t i = 0; i < terms.size(); ++i)
    for (std::size_t j = 0; j < terms[i].size(); ++j) size[terms[i][j]] = ops[i].shape[j];
  std::vector<char> labels;
  for (const auto& [c, n] : size) labels.push_back(c);
  std::int64_t out_n = 1;
  for (char c : out) out_n *= size[c];
  std::vector<double> acc(static_cast<std::size_t>(out_n), 0.0);
  std::map<char, std::int64_t> at;
  for (char c : labels) at[c] = 0;
  const auto flat = [&](const std::string& t, const Shape& shape) {
    std::int64_t f = 0;
    for (std::size_t j = 0; j < t.size(); ++j) f = f * shape[j] + at[t[j]];
    return f;
  };
  for (;;) {
    double p = 1;
    for (std::size_t i = 0; i < ops.size(); ++i)
      p *= ops[i].values<float>()[static_cast<std::size_t>(flat(terms[i], ops[i].shape))];
    Shape out_shape;
    for (char c : out) out_shape.push_back(size[c]);
    acc[static_cast<std::size_t>(flat(out, out_shape))] += p;
    std::size_t d = 0;
    for (; d < labels.size(); ++d) {
      if (++at[labels[d]] < size[labels[d]]) break;
      at[labels[d]] = 0;
    }
    if (d == labels.size()) break;
  }
  return {acc.begin(), acc.end()};
}

}  // namespace

class IndexOpsTest : public QObject {
  Q_OBJECT

 private slots:
  void scatterNdSumsDuplicates() {
    // Rows 0, 2, 0 of a [4, 2] zero tensor: row 0 gets 1+5, 2+6.
    auto out = run1("ScatterNd",
                    {i32({3, 1}, {0, 2, 0}), f32({3, 2}, {1, 2, 3, 4, 5, 6}), i32({2}, {4, 2})});
    EXPECT_SHAPE(out, 4, 2);
    EXPECT_FLOATS(out, 6, 8, 0, 0, 3, 4, 0, 0);
    // Elements of an int32 [2, 2]: (1, 1) twice.
    auto ints = run1("ScatterNd",
                     {i32({3, 2}, {1, 1, 0, 1, 1, 1}), i32({3}, {5, 7, -2}), i32({2}, {2, 2})});
    EXPECT_INTS(ints, 0, 7, 0, 3);
    // Row 4 of 4 rows, and updates that do not fit the indices.
    EXPECT_MODEL_ERROR(
        run1("ScatterNd", {i32({1, 1}, {4}), f32({1, 2}, {1, 2}), i32({2}, {4, 2})}));
    EXPECT_MODEL_ERROR(
        run1("ScatterNd", {i32({2, 1}, {0, 1}), f32({1, 2}, {1, 2}), i32({2}, {4, 2})}));
  }

  void tensorScatterUpdateLaterWins() {
    auto out = run1("TensorScatterUpdate", {f32({3, 2}, {1, 1, 2, 2, 3, 3}), i32({2, 1}, {1, 1}),
                                            f32({2, 2}, {7, 7, 9, 9})});
    EXPECT_FLOATS(out, 1, 1, 9, 9, 3, 3);
    EXPECT_MODEL_ERROR(run1("TensorScatterUpdate", {f32({3, 2}, {1, 1, 2, 2, 3, 3}),
                                                    i32({1, 1}, {0}), i32({1, 2}, {7, 7})}));
  }

  void lowerAndUpperBound() {
    auto sorted = f32({2, 4}, {1, 3, 3, 5, -1, 0, 0, 0});
    auto values = f32({2, 3}, {0, 3, 6, 0, -2, 1});
    EXPECT_INTS(run1("LowerBound", {sorted, values}), 0, 1, 4, 1, 0, 4);
    EXPECT_INTS(run1("UpperBound", {sorted, values}), 0, 3, 4, 4, 0, 4);
    // A vector is one row: [1, n], as TF.js gives it.
    auto vec = run1("LowerBound", {i32({3}, {2, 4, 6}), i32({2}, {5, 6})});
    EXPECT_SHAPE(vec, 1, 2);
    EXPECT_INTS(vec, 2, 2);
    EXPECT_MODEL_ERROR(run1("LowerBound", {sorted, f32({3, 1}, {0, 0, 0})}));
  }

  void uniqueKeepsFirstAppearance() {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    auto out = run(make_node("Unique"), {f32({7}, {3, 1, 3, nan, -0.0f, 0, nan})});
    QCOMPARE(out.size(), std::size_t{2});
    EXPECT_FLOATS(out[0], 3, 1, nan, 0);
    EXPECT_INTS(out[1], 0, 1, 0, 2, 3, 3, 2);
    // Columns of [[1, 2, 1], [4, 0, 4]]: (1, 4), (2, 0), (1, 4).
    auto cols = run(make_node("UniqueV2"), {i32({2, 3}, {1, 2, 1, 4, 0, 4}), i32({1}, {-1})});
    EXPECT_SHAPE(cols[0], 2, 2);
    EXPECT_INTS(cols[0], 1, 2, 4, 0);
    EXPECT_INTS(cols[1], 0, 1, 0);
    auto words = run(make_node("Unique"), {strs({"b", "a", "b", ""})});
    QCOMPARE(*words[0].strings, (std::vector<std::string>{"b", "a", ""}));
    EXPECT_INTS(words[1], 0, 1, 0, 2);
    auto empty = run(make_node("Unique"), {f32({0}, {})});
    EXPECT_SHAPE(empty[0], 0);
    EXPECT_SHAPE(empty[1], 0);
    EXPECT_MODEL_ERROR(run(make_node("Unique"), {scalar_f(1)}));
  }

  void listDiff() {
    auto out = run(make_node("ListDiff"), {i32({6}, {1, 2, 3, 4, 5, 6}), i32({3}, {1, 3, 5})});
    EXPECT_INTS(out[0], 2, 4, 6);
    EXPECT_INTS(out[1], 1, 3, 5);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    auto f = run(make_node("ListDiff"), {f32({4}, {nan, -0.0f, 2, 1}), f32({2}, {0, nan})});
    EXPECT_FLOATS(f[0], 2, 1);
    EXPECT_INTS(f[1], 2, 3);
    EXPECT_MODEL_ERROR(run(make_node("ListDiff"), {i32({2}, {1, 2}), f32({1}, {1})}));
  }

  void bincounts() {
    auto none = f32({0}, {});
    EXPECT_FLOATS(run1("Bincount", {i32({6}, {1, 1, 3, 7, 0, 1}), scalar_i(4), none}), 1, 3, 0, 1);
    EXPECT_FLOATS(run1("Bincount", {i32({3}, {2, 2, 0}), scalar_i(3), f32({3}, {0.5f, 2, 4})}), 4,
                  0, 2.5f);
    auto rows = run1("DenseBincount", {i32({2, 3}, {1, 1, 2, 0, 0, 0}), scalar_i(3), none},
                     {{"binary_output", true}});
    EXPECT_SHAPE(rows, 2, 3);
    EXPECT_FLOATS(rows, 0, 1, 1, 1, 0, 0);
    // TF.js counts a vector even with binary_output.
    EXPECT_FLOATS(
        run1("DenseBincount", {i32({3}, {1, 1, 2}), scalar_i(3), none}, {{"binary_output", true}}),
        0, 2, 1);
    EXPECT_MODEL_ERROR(run1("Bincount", {i32({2}, {1, -1}), scalar_i(3), none}));
    EXPECT_MODEL_ERROR(run1("Bincount", {i32({2}, {1, 0}), scalar_i(3), f32({3}, {1, 1, 1})}));
  }

  void einsumIsTheSumOverEveryLabel() {
    struct Case {
      const char* equation;
      std::vector<Shape> shapes;
    };
    const Case cases[] = {
        {"ij,jk->ik", {{3, 4}, {4, 5}}},
        {"bij,bjk->bik", {{2, 3, 4}, {2, 4, 5}}},
        {"bhqd,bhkd->bhqk", {{2, 2, 3, 4}, {2, 2, 5, 4}}},
        {"ij,jk->ki", {{3, 4}, {4, 5}}},
        {"i,j->ij", {{3}, {4}}},
        {"ij->", {{3, 4}}},
        {"ij->ji", {{3, 4}}},
        {"abc,cd->da", {{2, 3, 4}, {4, 5}}},  // b summed on one side, c contracted
        {"ij,k->ij", {{2, 3}, {4}}},          // TF.js 4.22 gets this one wrong (a [1,1])
        {"ij,jk->i", {{3, 4}, {4, 5}}},
        {" ij , jk -> ik ", {{2, 3}, {3, 2}}},
    };
    for (const Case& c : cases) {
      std::vector<HostTensor> in;
      for (std::size_t i = 0; i < c.shapes.size(); ++i)
        in.push_back(iota_f(c.shapes[i], 0.25f * static_cast<float>(i + 1), -1.5f));
      std::string eq = c.equation;
      eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
      const auto out = run(einsum_node(c.equation), in);
      const std::vector<float> want = naive_einsum(eq, in);
      QCOMPARE(out.size(), std::size_t{1});
      QVERIFY2(fvals(out[0]).size() == want.size(), c.equation);
      for (std::size_t i = 0; i < want.size(); ++i)
        QVERIFY2(std::abs(fvals(out[0])[i] - want[i]) <= 1e-4f * std::max(1.0f, std::abs(want[i])),
                 qPrintable(QString("%1: element %2: %3, want %4")
                                .arg(c.equation)
                                .arg(i)
                                .arg(fvals(out[0])[i])
                                .arg(want[i])));
    }
    // int32 products wrap like Int32Array.
    EXPECT_INTS(run(einsum_node("ij,jk->ik"), {i32({1, 2}, {2, -3}), i32({2, 1}, {4, 5})})[0], -7);
  }

  void einsumRefusesWhatTfjsRefuses() {
    const auto x = iota_f({2, 2});
    const std::pair<const char*, std::vector<HostTensor>> refused[] = {
        {"ij,jk,kl->il", {x, x, x}},  // more than two operands
        {"ij", {x}},                  // no arrow
        {"ij->i->j", {x}},
        {"...ij->ij", {x}},                  // ellipsis
        {"ii->i", {x}},                      // a label twice in one operand
        {"ij->k", {x}},                      // an output label no operand has
        {"ij,jk->ik", {x}},                  // one tensor for two terms
        {"ij,jk->ik", {x, iota_f({3, 2})}},  // j is 2 and 3
        {"ijk->i", {x}},                     // rank 2 for three labels
    };
    for (const auto& r : refused) {
      const char* equation = r.first;  // not a structured binding: clang 14 cannot capture one
      const std::string e = error_of([&] { run(einsum_node(equation), r.second); });
      QVERIFY2(e.find("test/Einsum") != std::string::npos, equation);
      QVERIFY2(e.find(equation) != std::string::npos, qPrintable(QString::fromStdString(e)));
    }
  }
};

QTEST_GUILESS_MAIN(IndexOpsTest)
#include "index_ops_test.moc"
