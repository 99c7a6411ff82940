// The cpu kernels' parallel loops (work_pool) and the kernels that skip the zero fill of their
// output: every index runs exactly once whatever the thread count, nested and concurrent loops
// work, and kernels writing into uninitialized memory still set every element.
#include <QObject>
#include <QTest>
#include <atomic>
#include <cmath>
#include <limits>
#include <thread>

#include "backends/cpu/parallel.h"
#include "backends/cpu/work_pool.h"
#include "core/buffer.h"
#include "nn_test_util.h"

using namespace tfjsi;
using namespace tfjsi::test;

namespace {

// How many times run_parallel visited each index of [0, n).
std::vector<int> visits(std::size_t helpers, std::size_t n) {
  std::vector<std::atomic<int>> seen(n);
  cpu::run_parallel(helpers, n, &seen, [](void* ctx, std::size_t b, std::size_t e) {
    auto& s = *static_cast<std::vector<std::atomic<int>>*>(ctx);
    for (std::size_t i = b; i < e; ++i) s[i].fetch_add(1);
  });
  std::vector<int> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = seen[i].load();
  return out;
}

// Leaves NaN-filled blocks of the sizes a kernel is about to allocate in the heap's free lists,
// so that uninitialized outputs most likely start as NaN rather than as fresh zero pages.
void poison_heap(std::size_t bytes) {
  std::vector<std::shared_ptr<Buffer>> blocks;
  for (int i = 0; i < 4; ++i) {
    auto b = Buffer::allocate_uninitialized(bytes);
    auto* f = reinterpret_cast<float*>(b->mutable_data());
    std::fill_n(f, bytes / sizeof(float), std::numeric_limits<float>::quiet_NaN());
    blocks.push_back(std::move(b));
  }
}

struct Case {
  const char* what;
  graph::Node node;
  std::vector<HostTensor> inputs;
};

HostTensor i32(Shape shape, std::vector<std::int32_t> v) {
  return int_tensor(std::move(shape), v);
}

}  // namespace

class ParallelTest : public QObject {
  Q_OBJECT

 private slots:
  void every_index_once() {
    for (std::size_t helpers : {0u, 1u, 2u, 5u})
      for (std::size_t n : {0u, 1u, 2u, 3u, 17u, 1000u, 100003u}) {
        const auto v = visits(helpers, n);
        for (std::size_t i = 0; i < n; ++i)
          QVERIFY2(v[i] == 1, qPrintable(QString("helpers %1, n %2: index %3 ran %4 times")
                                             .arg(helpers)
                                             .arg(n)
                                             .arg(i)
                                             .arg(v[i])));
      }
  }

  void many_loops_in_a_row() {
    // Back-to-back loops of a run: helpers must never mix one loop's items into the next.
    std::vector<std::int64_t> sums(500);
    for (std::size_t l = 0; l < sums.size(); ++l) {
      std::atomic<std::int64_t> sum{0};
      const std::size_t n = 1 + l % 37;
      cpu::parallel_for(test_pool(), n, [&](std::size_t i) { sum.fetch_add(std::int64_t(i) + 1); });
      QCOMPARE(sum.load(), std::int64_t(n * (n + 1) / 2));
    }
  }

  void nested_loops_run_inline() {
    std::vector<std::atomic<int>> seen(64 * 32);
    cpu::parallel_for(test_pool(), 64, [&](std::size_t i) {
      cpu::parallel_for(test_pool(), 32, [&](std::size_t j) { seen[i * 32 + j].fetch_add(1); });
    });
    for (auto& s : seen) QCOMPARE(s.load(), 1);
  }

  void concurrent_callers() {
    // Two engines driven from two threads share the helpers; the second caller runs inline.
    auto job = [](std::vector<int>& out) {
      for (int r = 0; r < 200; ++r) {
        std::vector<std::atomic<int>> seen(257);
        cpu::parallel_for(test_pool(), seen.size(), [&](std::size_t i) { seen[i].fetch_add(1); });
        for (auto& s : seen) out.push_back(s.load());
      }
    };
    std::vector<int> a, b;
    std::thread t(job, std::ref(a));
    job(b);
    t.join();
    for (int v : a) QCOMPARE(v, 1);
    for (int v : b) QCOMPARE(v, 1);
  }

  void parallel_for_2d_covers_the_grid() {
    std::vector<std::atomic<int>> seen(7 * 13);
    cpu::parallel_for_2d(test_pool(), 7, 13,
                         [&](std::size_t i, std::size_t j) { seen[i * 13 + j].fetch_add(1); });
    for (auto& s : seen) QCOMPARE(s.load(), 1);
    cpu::parallel_for_2d(test_pool(), 5, 0, [&](std::size_t, std::size_t) { QFAIL("empty grid"); });
  }

  void uninitialized_outputs_are_fully_written() {
    const HostTensor x = random_tensor({2, 9, 11, 5}, 7);
    const auto conv = [](const char* op, const char* padding, std::int64_t s) {
      return make_node(op, {{"strides", Ints{1, s, s, 1}},
                            {"padding", std::string(padding)},
                            {"dilations", Ints{1, 1, 1, 1}},
                            {"data_format", std::string("NHWC")}});
    };
    const auto pool = [](const char* op, const char* padding) {
      return make_node(op, {{"ksize", Ints{1, 3, 2, 1}},
                            {"strides", Ints{1, 2, 2, 1}},
                            {"padding", std::string(padding)},
                            {"data_format", std::string("NHWC")}});
    };
    std::vector<Case> cases;
    cases.push_back(
        {"conv same s2", conv("Conv2D", "SAME", 2), {x, random_tensor({3, 3, 5, 6}, 8)}});
    cases.push_back({"conv 1x1", conv("Conv2D", "VALID", 1), {x, random_tensor({1, 1, 5, 19}, 9)}});
    cases.push_back({"depthwise",
                     conv("DepthwiseConv2dNative", "SAME", 1),
                     {x, random_tensor({3, 3, 5, 1}, 10)}});
    cases.push_back({"depthwise x2",
                     conv("DepthwiseConv2dNative", "VALID", 2),
                     {x, random_tensor({2, 2, 5, 2}, 11)}});
    cases.push_back({"max pool", pool("MaxPool", "SAME"), {x}});
    cases.push_back({"avg pool", pool("AvgPool", "VALID"), {x}});
    cases.push_back({"resize bilinear", make_node("ResizeBilinear"), {x, i32({2}, {17, 5})}});
    cases.push_back({"resize nearest", make_node("ResizeNearestNeighbor"), {x, i32({2}, {4, 23})}});
    cases.push_back({"softmax", make_node("Softmax"), {x}});
    cases.push_back({"relu", make_node("Relu"), {x}});
    cases.push_back({"elu", make_node("Elu"), {x}});
    cases.push_back({"add broadcast", make_node("AddV2"), {x, random_tensor({1, 11, 1}, 12)}});
    cases.push_back({"neg", make_node("Neg"), {x}});
    cases.push_back(
        {"clip", make_node("ClipByValue"), {x, tensor({}, {-0.5f}), tensor({}, {0.25f})}});
    cases.push_back(
        {"concat", make_node("ConcatV2"), {x, random_tensor({2, 9, 11, 3}, 13), i32({}, {3})}});
    cases.push_back({"transpose", make_node("Transpose"), {x, i32({4}, {0, 3, 1, 2})}});
    cases.push_back(
        {"slice", make_node("Slice"), {x, i32({4}, {0, 1, 2, 1}), i32({4}, {-1, 7, 8, 3})}});
    for (const Case& c : cases)
      for (bool threaded : {false, true}) {
        const HostTensor shape_probe = run(c.node, c.inputs, false);
        poison_heap(shape_probe.byte_size());
        const HostTensor out = run(c.node, c.inputs, threaded);
        QCOMPARE(out.shape, shape_probe.shape);
        const auto got = out.values<float>(), want = shape_probe.values<float>();
        for (std::size_t i = 0; i < got.size(); ++i) {
          QVERIFY2(std::isfinite(got[i]), qPrintable(QString("%1 (%2): element %3 not written")
                                                         .arg(c.what)
                                                         .arg(threaded ? "threaded" : "inline")
                                                         .arg(i)));
          QVERIFY2(got[i] == want[i],
                   qPrintable(QString("%1: threaded and inline differ at %2").arg(c.what).arg(i)));
        }
      }
  }
};

QTEST_GUILESS_MAIN(ParallelTest)
#include "parallel_test.moc"
