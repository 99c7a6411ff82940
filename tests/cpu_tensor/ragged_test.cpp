// cpu ragged kernels and BitwiseAnd where the op conformance suite cannot hold them to TF.js's
// results: the expectations and messages of TF.js's own op tests (tfjs-core 4.22's
// dist/ops/ragged_*_test.js, themselves ports of TF's kernel tests), and the places where we
// follow TF rather than TF.js's cpu port (tests/ops/README.md): a default_value of more than one
// element pads with that row (TF.js pads with zeros), an inner dim `shape` leaves at -1 comes from
// the values, a scalar -1 `shape` means any shape, and BitwiseAnd broadcasts.
#include <QtTest>

#include "tensor_test_util.h"

using namespace tfjsi;
using namespace tfjsi::test::tensor;

namespace {

using Attrs = std::map<std::string, graph::AttrValue, std::less<>>;

HostTensor to_dense(HostTensor shape, HostTensor values, HostTensor dflt,
                    std::vector<HostTensor> partitions, std::vector<std::string> types) {
  std::vector<HostTensor> in = {std::move(shape), std::move(values), std::move(dflt)};
  for (auto& p : partitions) in.push_back(std::move(p));
  auto out = run(make_node("RaggedTensorToTensor", {{"row_partition_types", types}}), in);
  return out.at(0);
}

}  // namespace

class RaggedTest : public QObject {
  Q_OBJECT

 private slots:
  // TF.js's 'RaggedTensorToTensorContractExpandedDense': value rows of two, rows cut at 3 and
  // columns padded to 5.
  void toTensorContractExpandedDense() {
    const HostTensor out =
        to_dense(i32({3}, {3, 5, 2}),
                 f32({9, 2}, {.1f, 1.1f, .2f, 1.2f, .3f, 1.3f, .4f, 1.4f, .5f, 1.5f, .6f, 1.6f, .7f,
                              1.7f, .8f, 1.8f, .9f, 1.9f}),
                 scalar_f(1.5f), {scalar_i(4), i32({9}, {0, 0, 0, 2, 2, 2, 2, 3, 3})},
                 {"FIRST_DIM_SIZE", "VALUE_ROWIDS"});
    QCOMPARE(out.shape, (Shape{3, 5, 2}));
    const std::vector<float> want = {.1f,  1.1f, .2f,  1.2f, .3f,  1.3f, 1.5f, 1.5f, 1.5f, 1.5f,
                                     1.5f, 1.5f, 1.5f, 1.5f, 1.5f, 1.5f, 1.5f, 1.5f, 1.5f, 1.5f,
                                     .4f,  1.4f, .5f,  1.5f, .6f,  1.6f, .7f,  1.7f, 1.5f, 1.5f};
    QCOMPARE(fvals(out), want);
  }

  // TF.js's 'RaggedTensorToTensor4DParams': three VALUE_ROWIDS levels under FIRST_DIM_SIZE 5,
  // cut to 4 rows.
  void toTensor4DParams() {
    const HostTensor out =
        to_dense(i32({4}, {4, 2, 3, 2}), i32({8}, {1, 2, 3, 4, 5, 6, 7, 8}), scalar_i(15),
                 {scalar_i(5), i32({3}, {0, 1, 1}), i32({4}, {1, 1, 1, 2}),
                  i32({8}, {0, 0, 1, 1, 2, 2, 3, 3})},
                 {"FIRST_DIM_SIZE", "VALUE_ROWIDS", "VALUE_ROWIDS", "VALUE_ROWIDS"});
    QCOMPARE(out.shape, (Shape{4, 2, 3, 2}));
    std::vector<std::int32_t> want(48, 15);
    for (int k = 0; k < 8; ++k) want[12 + k] = k + 1;
    QCOMPARE(ivals(out), want);
  }

  // TF: default_value broadcasts to a value row ([[1,2],[3,4]], [[5,6]] padded with [9,8]); an
  // inner dim given as -1 is the values'; a scalar -1 shape is the natural shape.
  void toTensorFollowsTf() {
    const auto values = [] { return f32({3, 2}, {1, 2, 3, 4, 5, 6}); };
    const auto splits = [] { return std::vector<HostTensor>{i32({3}, {0, 2, 3})}; };
    const std::vector<float> want = {1, 2, 3, 4, 5, 6, 9, 8};
    for (HostTensor shape : {i32({3}, {-1, -1, 2}), i32({3}, {-1, -1, -1}), scalar_i(-1)}) {
      const HostTensor out = to_dense(shape, values(), f32({2}, {9, 8}), splits(), {"ROW_SPLITS"});
      QCOMPARE(out.shape, (Shape{2, 2, 2}));
      QCOMPARE(fvals(out), want);
    }
  }

  void toTensorErrors() {
    QVERIFY(error_of([] {
              to_dense(i32({2}, {-1, -1}), f32({3}, {1, 2, 3}), scalar_f(0), {i32({3}, {0, 2, 1})},
                       {"ROW_SPLITS"});
            }).find("row splits must be sorted") != std::string::npos);
    QVERIFY(error_of([] {
              to_dense(i32({2}, {-1, -1}), f32({3}, {1, 2, 3}), scalar_f(0), {i32({3}, {0, 1, 3})},
                       {"ROW_LENGTHS"});
            }).find("'ROW_LENGTHS' is not supported") != std::string::npos);
    // TF.js's 'shape wrong dimensions'.
    QVERIFY(error_of([] {
              to_dense(i32({3}, {10, 7, 10}), f32({3}, {1, 2, 3}), scalar_f(0),
                       {i32({3}, {0, 2, 3})}, {"ROW_SPLITS"});
            }).find("rt input.rank = 2, but shape.rank = 3") != std::string::npos);
  }

  // TF.js's 'RaggedGather2DIndices'.
  void gather2DIndices() {
    const auto out =
        run(make_node("RaggedGather", {{"OUTPUT_RAGGED_RANK", std::int64_t{2}}}),
            {i32({5}, {0, 3, 3, 7, 9}), f32({9}, {.1f, .2f, .3f, .4f, .5f, .6f, .7f, .8f, .9f}),
             i32({2, 2}, {2, 1, 0, 3})});
    QCOMPARE(out.size(), std::size_t{3});
    QCOMPARE(ivals(out[0]), (std::vector<std::int32_t>{0, 2, 4}));
    QCOMPARE(ivals(out[1]), (std::vector<std::int32_t>{0, 4, 4, 7, 9}));
    QCOMPARE(fvals(out[2]), (std::vector<float>{.4f, .5f, .6f, .7f, .1f, .2f, .3f, .8f, .9f}));
  }

  // TF.js's 'RaggedGatherScalarIndices': no splits out, one row's values.
  void gatherScalarIndex() {
    const auto out = run(make_node("RaggedGather"),
                         {i32({5}, {0, 3, 3, 7, 9}),
                          f32({9}, {.1f, .2f, .3f, .4f, .5f, .6f, .7f, .8f, .9f}), scalar_i(2)});
    QCOMPARE(out.size(), std::size_t{1});
    QCOMPARE(fvals(out[0]), (std::vector<float>{.4f, .5f, .6f, .7f}));
  }

  // TF.js's messages for bad indices and splits.
  void gatherErrors() {
    const auto gather = [](HostTensor splits, HostTensor values, HostTensor indices) {
      return error_of([&] { run(make_node("RaggedGather"), {splits, values, indices}); });
    };
    const auto gather2 = [](HostTensor outer, HostTensor inner, HostTensor values,
                            HostTensor indices) {
      return error_of([&] { run(make_node("RaggedGather"), {outer, inner, values, indices}); });
    };
    const auto nine = [] { return f32({9}, {.1f, .2f, .3f, .4f, .5f, .6f, .7f, .8f, .9f}); };
    QVERIFY(gather(i32({5}, {0, 3, 3, 7, 9}), nine(), i32({2}, {2, 10}))
                .find("indices[1] = 10 is not in [0, 4)") != std::string::npos);
    QVERIFY(gather(i32({5}, {0, 3, 5, 2, 9}), nine(), i32({2}, {0, 2}))
                .find("Ragged splits must be sorted in ascending order") != std::string::npos);
    QVERIFY(gather(i32({5}, {0, 20, 40, 80, 100}), nine(), i32({2}, {0, 2}))
                .find("Ragged splits must not point past values") != std::string::npos);
    // Outer splits pointing one past the inner splits' rows (TF.js reads past their end).
    QVERIFY(gather2(i32({2}, {0, 4}), i32({4}, {0, 1, 2, 3}), nine(), scalar_i(0))
                .find("Ragged splits must not point past values") != std::string::npos);
    QVERIFY(
        gather(i32({1}, {0}), scalar_f(.1f), i32({0}, {})).find("params.rank must be nonzero") !=
        std::string::npos);
  }

  // TF.js's 'BroadcastLimitsAndDeltas' and its messages.
  void range() {
    const auto out = run(make_node("RaggedRange"), {scalar_i(0), i32({3}, {3, 0, 2}), scalar_i(1)});
    QCOMPARE(ivals(out[0]), (std::vector<std::int32_t>{0, 3, 3, 5}));
    QCOMPARE(ivals(out[1]), (std::vector<std::int32_t>{0, 1, 2, 0, 1}));
    QVERIFY(error_of([] {
              run(make_node("RaggedRange"), {scalar_i(0), scalar_i(5), scalar_i(0)});
            }).find("Requires delta != 0") != std::string::npos);
    QVERIFY(error_of([] {
              run(make_node("RaggedRange"), {i32({2}, {0, 1}), i32({3}, {2, 3, 4}), scalar_i(1)});
            }).find("starts, limits, and deltas must have the same shape") != std::string::npos);
  }

  // TF broadcasts BitwiseAnd's operands (TF.js's op wants one shape); int32 only.
  void bitwiseAndBroadcasts() {
    const HostTensor out = run1("BitwiseAnd", {i32({2, 2}, {12, -1, 7, 255}), i32({2}, {10, 6})});
    QCOMPARE(ivals(out), (std::vector<std::int32_t>{8, 6, 2, 6}));
    QVERIFY(error_of([] {
              run1("BitwiseAnd", {f32({1}, {1}), f32({1}, {1})});
            }).find("only int32") != std::string::npos);
  }
};

QTEST_GUILESS_MAIN(RaggedTest)
#include "ragged_test.moc"
