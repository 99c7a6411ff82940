// cpu string and sparse kernels against the expectations of TF.js's own op tests
// (tfjs-core/dist/ops/string/*_test.js, sparse/*_test.js): StringToHashBucketFast and its
// Fingerprint64, StringSplit, StringNGrams, StaticRegexReplace, SparseFillEmptyRows,
// SparseReshape and SparseSegmentSum/Mean.
#include <QtTest>

#include "backends/cpu/fingerprint64.h"
#include "tensor_test_util.h"

using namespace tfjsi;
using namespace tfjsi::test::tensor;

namespace {

HostTensor str(Shape shape, std::vector<std::string> v) {
  HostTensor t = HostTensor::zeros(DType::String, std::move(shape));
  *t.strings = std::move(v);
  return t;
}
HostTensor strs(std::vector<std::string> v) {
  const auto n = static_cast<std::int64_t>(v.size());
  return str({n}, std::move(v));
}

std::vector<std::string> svals(const HostTensor& t) {
  return *t.strings;
}

using Attrs = std::map<std::string, graph::AttrValue, std::less<>>;

std::vector<HostTensor> ngrams(std::vector<std::string> data, std::vector<std::int32_t> splits,
                               std::vector<std::int64_t> widths, std::string left,
                               std::string right, std::int64_t pad, bool preserve) {
  const auto n = static_cast<std::int64_t>(splits.size());
  return run(make_node("StringNGrams", {{"separator", std::string("|")},
                                        {"ngram_widths", widths},
                                        {"left_pad", left},
                                        {"right_pad", right},
                                        {"pad_width", pad},
                                        {"preserve_short_sequences", preserve}}),
             {strs(std::move(data)), i32({n}, std::move(splits))});
}

}  // namespace

class TextSparseTest : public QObject {
  Q_OBJECT

 private slots:
  void fingerprint64MatchesTfjs() {
    // The values tfjs-core's string_to_hash_bucket_fast_test.js writes down.
    QCOMPARE(cpu::fingerprint64("a"), 12917804110809363939ULL);
    QCOMPARE(cpu::fingerprint64("b"), 11795596070477164822ULL);
    QCOMPARE(cpu::fingerprint64("c"), 11430444447143000872ULL);
    QCOMPARE(cpu::fingerprint64("d"), 4470636696479570465ULL);
  }

  void hashBuckets() {
    auto out = run1("StringToHashBucketFast", {str({2, 2, 1}, {"a", "b", "c", "d"})},
                    {{"num_buckets", std::int64_t{10}}});
    QCOMPARE(out.dtype, DType::Int32);
    EXPECT_SHAPE(out, 2, 2, 1);
    EXPECT_INTS(out, 9, 2, 2, 5);
    EXPECT_INTS(
        run1("StringToHashBucketFast", {strs({"a", "b", "c"})}, {{"num_buckets", std::int64_t{1}}}),
        0, 0, 0);
    EXPECT_MODEL_ERROR(
        run1("StringToHashBucketFast", {strs({"a"})}, {{"num_buckets", std::int64_t{0}}}));
  }

  void split() {
    auto out =
        run(make_node("StringSplit"), {strs({"pigs on the wing", "animals"}), str({}, {" "})});
    QCOMPARE(out.size(), std::size_t{3});
    EXPECT_SHAPE(out[0], 5, 2);
    EXPECT_INTS(out[0], 0, 0, 0, 1, 0, 2, 0, 3, 1, 0);
    QCOMPARE(svals(out[1]), (std::vector<std::string>{"pigs", "on", "the", "wing", "animals"}));
    EXPECT_INTS(out[2], 2, 4);
    // Empty delimiter: one token per byte.
    out = run(make_node("StringSplit"), {strs({"hello", "hi"}), str({}, {""})});
    QCOMPARE(svals(out[1]), (std::vector<std::string>{"h", "e", "l", "l", "o", "h", "i"}));
    EXPECT_INTS(out[2], 2, 5);
    // Every byte of the delimiter splits; empty tokens kept when skip_empty is false.
    out = run(make_node("StringSplit", {{"skip_empty", false}}),
              {strs({"#a", "b#", "#c#"}), str({}, {"#"})});
    QCOMPARE(svals(out[1]), (std::vector<std::string>{"", "a", "b", "", "", "c", ""}));
    EXPECT_INTS(out[2], 3, 3);
    out = run(make_node("StringSplit"),
              {strs({"hello.cruel,world", "hello cruel world"}), str({}, {".,"})});
    QCOMPARE(svals(out[1]),
             (std::vector<std::string>{"hello", "cruel", "world", "hello cruel world"}));
    EXPECT_MODEL_ERROR(run(make_node("StringSplit"), {str({1, 1}, {"a"}), str({}, {" "})}));
  }

  // TF.js's tests with pads "LP" and "RP"; a model's pads arrive lowercased, as TF.js's converter
  // lowercases string attributes.
  void ngramsPaddedAndShort() {
    auto out = ngrams({"a", "b", "c", "d", "e", "f"}, {0, 4, 6}, {3}, "LP", "RP", -1, false);
    QCOMPARE(svals(out[0]),
             (std::vector<std::string>{"lp|lp|a", "lp|a|b", "a|b|c", "b|c|d", "c|d|rp", "d|rp|rp",
                                       "lp|lp|e", "lp|e|f", "e|f|rp", "f|rp|rp"}));
    EXPECT_INTS(out[1], 0, 6, 10);
    out = ngrams({"a", "b", "c", "d", "e", "f"}, {0, 4, 6}, {4, 3}, "", "", 0, true);
    QCOMPARE(svals(out[0]), (std::vector<std::string>{"a|b|c|d", "a|b|c", "b|c|d", "e|f"}));
    EXPECT_INTS(out[1], 0, 3, 4);
    out = ngrams({"a"}, {0, 0, 1}, {3}, "L", "R", -1, false);
    QCOMPARE(svals(out[0]),
             (std::vector<std::string>{"l|l|r", "l|r|r", "l|l|a", "l|a|r", "a|r|r"}));
    EXPECT_INTS(out[1], 0, 2, 5);
    out = ngrams({"a", "b", "c", "d", "e", "f"}, {0, 1, 4, 6}, {5}, "LP", "RP", 1, false);
    QCOMPARE(svals(out[0]), (std::vector<std::string>{"lp|b|c|d|rp"}));
    EXPECT_INTS(out[1], 0, 0, 1, 1);
    EXPECT_MODEL_ERROR(ngrams({"a"}, {1, 1, 1}, {3}, "", "", 0, false));
    EXPECT_MODEL_ERROR(ngrams({"a"}, {0, 1, 0}, {3}, "", "", 0, false));
  }

  void regexReplace() {
    Attrs first{{"pattern", std::string("test")},
                {"rewrite", std::string("result")},
                {"replace_global", false}};
    QCOMPARE(svals(run1("StaticRegexReplace", {strs({"this", "is", "a", "test test"})}, first)),
             (std::vector<std::string>{"this", "is", "a", "result test"}));
    Attrs spaces{
        {"pattern", std::string(" +")}, {"rewrite", std::string(" ")}, {"replace_global", true}};
    QCOMPARE(svals(run1("StaticRegexReplace", {strs({"This     will  have normal    whitespace"})},
                        spaces)),
             (std::vector<std::string>{"This will have normal whitespace"}));
    Attrs bad{{"pattern", std::string("(")}, {"rewrite", std::string("")}};
    EXPECT_MODEL_ERROR(run1("StaticRegexReplace", {strs({"x"})}, bad));
  }

  void fillEmptyRows() {
    auto out = run(make_node("SparseFillEmptyRows"),
                   {i32({6, 2}, {0, 0, 1, 0, 1, 3, 1, 4, 3, 2, 3, 3}),
                    f32({6}, {0, 10, 13, 14, 32, 33}), i32({2}, {5, 6}), scalar_f(-1)});
    QCOMPARE(out.size(), std::size_t{4});
    EXPECT_SHAPE(out[0], 8, 2);
    EXPECT_INTS(out[0], 0, 0, 1, 0, 1, 3, 1, 4, 2, 0, 3, 2, 3, 3, 4, 0);
    EXPECT_FLOATS(out[1], 0, 10, 13, 14, -1, 32, 33, -1);
    EXPECT_BOOLS(out[2], 0, 0, 1, 0, 1);
    EXPECT_INTS(out[3], 0, 1, 2, 3, 5, 6);
  }

  void reshape() {
    auto out = run(make_node("SparseReshape"),
                   {i32({7, 3}, {0, 0, 1, 0, 1, 0, 0, 1, 2, 1, 0, 3, 1, 1, 1, 1, 1, 3, 1, 2, 2}),
                    i32({3}, {2, 3, 4}), i32({2}, {2, -1})});
    EXPECT_INTS(out[1], 2, 12);
    EXPECT_SHAPE(out[0], 7, 2);
    // Row-major offsets 1, 4, 6, 15, 17, 19, 22 in [2, 12].
    EXPECT_INTS(out[0], 0, 1, 0, 4, 0, 6, 1, 3, 1, 5, 1, 7, 1, 10);
    EXPECT_MODEL_ERROR(run(make_node("SparseReshape"),
                           {i32({1, 2}, {0, 0}), i32({2}, {2, 3}), i32({2}, {-1, -1})}));
    EXPECT_MODEL_ERROR(run(make_node("SparseReshape"),
                           {i32({1, 2}, {0, 0}), i32({2}, {2, 3}), i32({2}, {4, -1})}));
  }

  void segmentSumAndMean() {
    // tfjs-core sparse_segment_sum_test / mean_test: data [[1,2,3,4],[-1,-2,-3,-4],[5,6,7,8]].
    const HostTensor data = f32({3, 4}, {1, 2, 3, 4, -1, -2, -3, -4, 5, 6, 7, 8});
    EXPECT_FLOATS(run1("SparseSegmentSum", {data, i32({2}, {0, 1}), i32({2}, {0, 0})}), 0, 0, 0, 0);
    EXPECT_FLOATS(run1("SparseSegmentSum", {data, i32({2}, {0, 1}), i32({2}, {0, 1})}), 1, 2, 3, 4,
                  -1, -2, -3, -4);
    EXPECT_FLOATS(run1("SparseSegmentMean", {data, i32({3}, {0, 1, 2}), i32({3}, {0, 0, 2})}), 0, 0,
                  0, 0, 0, 0, 0, 0, 5, 6, 7, 8);
    const HostTensor ints = i32({3, 2}, {1, 2, 4, -7, 7, 0});
    EXPECT_INTS(run1("SparseSegmentMean", {ints, i32({2}, {0, 1}), i32({2}, {0, 0})}), 2, -2);
    EXPECT_MODEL_ERROR(run1("SparseSegmentSum", {data, i32({2}, {0, 1}), i32({2}, {1, 0})}));
    EXPECT_MODEL_ERROR(run1("SparseSegmentSum", {data, i32({1}, {3}), i32({1}, {0})}));
  }
};

QTEST_APPLESS_MAIN(TextSparseTest)
#include "text_sparse_test.moc"
