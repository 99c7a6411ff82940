// DepthToSpace, SpaceToDepth, SpaceToBatchND and BatchToSpaceND: the examples from TF's op
// documentation, references written from the definitions, and round trips.
#include <QObject>
#include <QTest>

#include "nn_test_util.h"

using namespace tfjsi;
using namespace tfjsi::test;

namespace {

std::vector<float> iota(std::int64_t n, float from = 1) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = from++;
  return v;
}

graph::Node block_node(const std::string& op, std::int64_t bs) {
  return make_node(op, {{"block_size", bs}, {"data_format", std::string("NHWC")}});
}

}  // namespace

class LayoutTest : public QObject {
  Q_OBJECT

 private slots:
  void depth_to_space_documented() {
    EXPECT_CLOSE(run(block_node("DepthToSpace", 2), {tensor({1, 1, 1, 4}, {1, 2, 3, 4})}),
                 (Shape{1, 2, 2, 1}), (std::vector<float>{1, 2, 3, 4}), 0.f, "1x1x4");
    EXPECT_CLOSE(
        run(block_node("DepthToSpace", 2), {tensor({1, 2, 2, 4}, iota(16))}), (Shape{1, 4, 4, 1}),
        (std::vector<float>{1, 2, 5, 6, 3, 4, 7, 8, 9, 10, 13, 14, 11, 12, 15, 16}), 0.f, "2x2x4");
    EXPECT_CLOSE(
        run(block_node("SpaceToDepth", 2),
            {tensor({1, 4, 4, 1}, {1, 2, 5, 6, 3, 4, 7, 8, 9, 10, 13, 14, 11, 12, 15, 16})}),
        (Shape{1, 2, 2, 4}), iota(16), 0.f, "space to depth");
  }

  void depth_to_space_random() {
    for (auto [n, h, w, c, bs] : std::vector<std::array<std::int64_t, 5>>{
             {1, 3, 5, 12, 2}, {2, 2, 3, 27, 3}, {1, 4, 4, 8, 2}, {1, 1, 7, 4, 2}}) {
      const HostTensor x = random_tensor({n, h, w, c}, std::uint32_t(c + h));
      const std::int64_t oc = c / (bs * bs);
      std::vector<float> want;
      for (std::int64_t b = 0; b < n; ++b)
        for (std::int64_t y = 0; y < h * bs; ++y)
          for (std::int64_t xx = 0; xx < w * bs; ++xx)
            for (std::int64_t k = 0; k < oc; ++k)
              want.push_back(x.values<float>()[std::size_t(((b * h + y / bs) * w + xx / bs) * c +
                                                           ((y % bs) * bs + xx % bs) * oc + k)]);
      const HostTensor d2s = run(block_node("DepthToSpace", bs), {x});
      EXPECT_CLOSE(d2s, (Shape{n, h * bs, w * bs, oc}), want, 0.f, "depth to space");
      EXPECT_CLOSE(run(block_node("SpaceToDepth", bs), {d2s}), x.shape, values_of(x), 0.f,
                   "round trip");
    }
  }

  void space_to_batch_documented() {
    // TF's example: [1, 4, 4, 1] with block [2, 2] and no padding.
    const HostTensor x = tensor({1, 4, 4, 1}, iota(16));
    const HostTensor out = run(make_node("SpaceToBatchND"),
                               {x, int_tensor({2}, {2, 2}), int_tensor({2, 2}, {0, 0, 0, 0})});
    EXPECT_CLOSE(out, (Shape{4, 2, 2, 1}),
                 (std::vector<float>{1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16}), 0.f,
                 "s2b");
    // TF's example with padding: [2, 2, 4, 1], block [2, 2], paddings [[0, 0], [2, 0]].
    const HostTensor x2 = tensor({2, 2, 4, 1}, iota(16));
    const HostTensor out2 = run(make_node("SpaceToBatchND"),
                                {x2, int_tensor({2}, {2, 2}), int_tensor({2, 2}, {0, 0, 2, 0})});
    EXPECT_CLOSE(out2, (Shape{8, 1, 3, 1}),
                 (std::vector<float>{0, 1, 3, 0, 9,  11, 0, 2, 4, 0, 10, 12,
                                     0, 5, 7, 0, 13, 15, 0, 6, 8, 0, 14, 16}),
                 0.f, "s2b padded");
    EXPECT_CLOSE(run(make_node("BatchToSpaceND"),
                     {out2, int_tensor({2}, {2, 2}), int_tensor({2, 2}, {0, 0, 2, 0})}),
                 x2.shape, values_of(x2), 0.f, "b2s crops");
  }

  void space_to_batch_random() {
    struct Case {
      Shape shape;
      std::vector<std::int32_t> block, pads;
    };
    const std::vector<Case> cases = {
        {{1, 5, 7, 3}, {2, 2}, {1, 0, 0, 1}},    {{2, 6, 6, 5}, {3, 2}, {0, 0, 1, 1}},
        {{1, 4, 9, 2}, {2, 3}, {2, 2, 0, 0}},    {{3, 5, 2}, {3}, {1, 0}},  // one block dim, rank 3
        {{1, 4, 4, 2, 3}, {2, 2}, {0, 0, 2, 2}},  // trailing dims move together
    };
    std::uint32_t seed = 1;
    for (const Case& c : cases) {
      const HostTensor x = random_tensor(c.shape, seed++);
      const std::size_t m = c.block.size();
      // Reference: pad, then out[(offset) * B + b, y..., rest] = padded[b, y*block + offset, rest].
      Shape padded = c.shape, out_shape = c.shape;
      std::int64_t prod = 1;
      for (std::size_t d = 0; d < m; ++d) {
        padded[d + 1] += c.pads[2 * d] + c.pads[2 * d + 1];
        out_shape[d + 1] = padded[d + 1] / c.block[d];
        prod *= c.block[d];
      }
      out_shape[0] *= prod;
      std::int64_t inner = 1;
      for (std::size_t d = m + 1; d < c.shape.size(); ++d) inner *= c.shape[d];
      std::vector<float> want;
      const std::int64_t rows = num_elements(out_shape) / inner;
      for (std::int64_t r = 0; r < rows; ++r) {
        // Unflatten r over out_shape[0..m].
        std::vector<std::int64_t> idx(m + 1);
        for (std::int64_t d = std::int64_t(m), rest = r; d >= 0; --d)
          idx[d] = rest % out_shape[d], rest /= out_shape[d];
        const std::int64_t b = idx[0] % c.shape[0];
        std::int64_t offset = idx[0] / c.shape[0], src = b;
        bool pad = false;
        std::vector<std::int64_t> off(m);
        for (std::int64_t d = std::int64_t(m) - 1; d >= 0; --d)
          off[d] = offset % c.block[d], offset /= c.block[d];
        for (std::size_t d = 0; d < m; ++d) {
          const std::int64_t p = idx[d + 1] * c.block[d] + off[d] - c.pads[2 * d];
          pad = pad || p < 0 || p >= c.shape[d + 1];
          src = src * c.shape[d + 1] + p;
        }
        for (std::int64_t i = 0; i < inner; ++i)
          want.push_back(pad ? 0.f : x.values<float>()[std::size_t(src * inner + i)]);
      }
      const HostTensor block = int_tensor({std::int64_t(m)}, c.block);
      const HostTensor pads = int_tensor({std::int64_t(m), 2}, c.pads);
      const HostTensor s2b = run(make_node("SpaceToBatchND"), {x, block, pads});
      EXPECT_CLOSE(s2b, out_shape, want, 0.f, "s2b " + shape_to_string(c.shape));
      EXPECT_CLOSE(run(make_node("BatchToSpaceND"), {s2b, block, pads}), c.shape, values_of(x), 0.f,
                   "b2s round trip " + shape_to_string(c.shape));
    }
  }

  void bad_input_names_node() {
    EXPECT_MODEL_ERROR(run(block_node("DepthToSpace", 2), {random_tensor({1, 2, 2, 6}, 1)}),
                       "divisible");
    EXPECT_MODEL_ERROR(run(block_node("SpaceToDepth", 2), {random_tensor({1, 3, 2, 6}, 1)}),
                       "divisible");
    EXPECT_MODEL_ERROR(run(block_node("DepthToSpace", 1), {random_tensor({1, 2, 2, 4}, 1)}),
                       "block_size");
    EXPECT_MODEL_ERROR(
        run(make_node("SpaceToBatchND"), {random_tensor({1, 5, 4, 1}, 1), int_tensor({2}, {2, 2}),
                                          int_tensor({2, 2}, {0, 0, 0, 0})}),
        "test/SpaceToBatchND");
    EXPECT_MODEL_ERROR(
        run(make_node("BatchToSpaceND"), {random_tensor({3, 2, 2, 1}, 1), int_tensor({2}, {2, 2}),
                                          int_tensor({2, 2}, {0, 0, 0, 0})}),
        "divisible");
    EXPECT_MODEL_ERROR(
        run(make_node("BatchToSpaceND"), {random_tensor({4, 2, 2, 1}, 1), int_tensor({2}, {2, 2}),
                                          int_tensor({2, 2}, {0, 5, 0, 0})}),
        "crops");
  }
};

QTEST_GUILESS_MAIN(LayoutTest)
#include "layout_test.moc"
