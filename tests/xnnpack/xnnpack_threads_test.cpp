// When the xnnpack backend shares work with the thread pool (pool_choice.h): the choice for a
// given work and for recorded trial times, and on real runs with two threads: small partitions
// and nodes never wake the pool, middling ones are tried both ways in their first run only (and
// the losing runtime is gone after it), and the answers match cpu whichever side won.
#include <QtTest>

#include "backends/xnnpack/pool_choice.h"
#include "backends/xnnpack/worker_spin.h"
#include "graph/build.h"
#include "runtime/executor.h"
#include "runtime/graph_builder.h"
#include "support/test_support.h"
#include "xnnpack/xnnpack_test_util.h"

using namespace tfjsi;
using namespace tfjsi::test;
using xnnpack::PoolUse;

namespace {

graph::TensorRef weight(GraphBuilder& b, const std::string& name, HostTensor value) {
  auto r = b.add(name, "Const");
  b.g.nodes[r.node].value = std::move(value);
  return r;
}

// x [1, side, side, c] -> 3x3 SAME convolution to c channels (a partition of side*side*c*9*c
// multiply-adds) -> Tanh (no subgraph node: a cpu kernel outside partitions, side*side*c
// elements).
graph::Graph conv_then_tanh(std::int64_t side, std::int64_t c) {
  GraphBuilder b;
  auto x = b.placeholder("x", DType::Float32, {1, side, side, c});
  b.g.nodes[x.node].attrs["dtype"] = graph::TypeAttr{"DT_FLOAT"};
  b.g.nodes[x.node].attrs["shape"] = PartialShape::of({1, side, side, c});
  auto conv =
      b.add("conv", "Conv2D", {x, weight(b, "w", random_tensor({3, 3, c, c}, 1))},
            {{"strides", std::vector<std::int64_t>{1, 1, 1, 1}}, {"padding", std::string("SAME")}});
  auto tanh = b.add("tanh", "Tanh", {conv});
  b.output("y", tanh);
  graph::Graph g = b.take();
  graph::infer_shapes(g);
  return g;
}

struct Run {
  xnnpack::SubgraphStats partitions;
  xnnpack::XnnStats nodes;
  long parks = 0;  // the pool's workers sent to sleep
};

// Three runs on xnnpack with a pool of two threads, each checked against cpu.
Run three_runs(const graph::Graph& g, std::int64_t side, std::int64_t c) {
  runtime::Engine engine;
  engine.add_backend(xnnpack::make_xnnpack_backend());
  auto* xnn = dynamic_cast<xnnpack::XnnpackBackend*>(engine.find_backend("xnnpack"));
  engine.flags().set_value("threads", std::int64_t{2});
  runtime::Executor ex(engine, g);
  const runtime::NamedTensors in{{"x", random_tensor({1, side, side, c}, 7, -1.f, 1.f)}};
  engine.set_backend("cpu");
  const auto want = ex.run(in);
  engine.set_backend("xnnpack");
  for (int run = 0; run < 3; ++run) {
    const auto got = ex.run(in);
    expect_close(got.at(0), want.at(0), "run " + std::to_string(run));
  }
  return {xnn->runtimes().stats(), xnn->xnn_stats(), xnn->worker_spin().parks()};
}

}  // namespace

class XnnpackThreadsTest : public QObject {
  Q_OBJECT

 private slots:
  void choiceByWork() {
    // One thread: never the pool, whatever the work.
    QCOMPARE(xnnpack::pool_use(1e12, 1), PoolUse::CallingThread);
    // Two: little work stays on the calling thread (main tried the pool only from 2^21 on, and
    // alternated over 8 timed runs); more is tried.
    QCOMPARE(xnnpack::pool_use(0, 2), PoolUse::CallingThread);
    QCOMPARE(xnnpack::pool_use(xnnpack::kTrialWork - 1, 2), PoolUse::CallingThread);
    QCOMPARE(xnnpack::pool_use(xnnpack::kTrialWork, 2), PoolUse::Trial);
    QCOMPARE(xnnpack::pool_use(1e12, 4), PoolUse::Trial);
  }

  // Work the pool won goes back to the calling thread after two pooled runs in a row slower
  // than the calling thread was in the trial; one slow run alone does not.
  void guardGivesUpOnBusyCores() {
    xnnpack::PoolGuard g{2.0};
    QVERIFY(!g.give_up(1.2));
    QVERIFY(!g.give_up(2.5));
    QVERIFY(!g.give_up(1.1));
    QVERIFY(!g.give_up(3.0));
    QVERIFY(g.give_up(2.1));
  }

  void choiceByRecordedTrial() {
    using V = std::vector<double>;
    // Clearly faster on the pool, run after run.
    QVERIFY(xnnpack::trial_picks_pool(V{2.0, 2.1, 1.9}, V{1.2, 1.1, 1.3}));
    // Faster, but one stall (another process held the second core for a time slice): the pool
    // still wins (main's rule, every pair, kept gear's big partition 1.7x slower for good after
    // one such stall; PoolGuard gives back a pool that keeps stalling).
    QVERIFY(xnnpack::trial_picks_pool(V{2.0, 2.1, 1.9}, V{1.2, 1.1, 9.0}));
    QVERIFY(xnnpack::trial_picks_pool(V{2.0, 2.1}, V{1.2, 1.1}));  // decided after two pairs
    // Two stalls of three: the calling thread.
    QVERIFY(!xnnpack::trial_picks_pool(V{2.0, 2.1, 1.9}, V{1.2, 9.0, 9.0}));
    // Only 12% faster: under the margin.
    QVERIFY(!xnnpack::trial_picks_pool(V{2.0, 2.0, 2.0}, V{1.75, 1.76, 1.74}));
    // Slower on the pool.
    QVERIFY(!xnnpack::trial_picks_pool(V{1.0, 1.0, 1.0}, V{1.5, 1.4, 1.6}));
    QVERIFY(!xnnpack::trial_picks_pool(V{2.0, 2.1, 1.9}, V{1.2, 2.0, 2.0}));
    // No times, or unpaired ones: no pool.
    QVERIFY(!xnnpack::trial_picks_pool(V{}, V{}));
    QVERIFY(!xnnpack::trial_picks_pool(V{2.0, 2.0}, V{1.0}));
  }

  // A trial runs once untimed on each side (the calling thread first), then timed pairs, the
  // pool's run last in each, until the pool has won kTrialWins pairs or cannot any more. Times from
  // a clock each run moves on by its own cost.
  void trialOrderAndEarlyEnd() {
    int dummy = 0;
    auto* pool = reinterpret_cast<pthreadpool_t>(&dummy);  // never dispatched to here
    for (const bool pool_faster : {true, false}) {
      double clock = 0;
      std::vector<bool> order;
      const xnnpack::TrialResult won = xnnpack::run_pool_trial(
          pool,
          [&](pthreadpool_t p) {
            order.push_back(p != nullptr);
            clock += (p != nullptr) == pool_faster ? 1.0 : 2.0;
          },
          [&] { return clock; });
      QCOMPARE(won.pool, pool_faster);
      QCOMPARE(won.calling_ms, pool_faster ? 2.0 : 1.0);
      const std::size_t pairs =
          pool_faster ? xnnpack::kTrialWins : xnnpack::kTrialRuns - xnnpack::kTrialWins + 1;
      QCOMPARE(order.size(), 2 + 2 * pairs);
      for (std::size_t k = 0; k < order.size(); ++k) QCOMPARE(order[k], k % 2 == 1);
    }
  }

  // Workers spin between a run's pieces while the calling thread keeps its core all the run;
  // a run where it got less than kBusyShare of the wall time parks them after every piece for
  // kFirstBackoff runs, then spinning is tried again; each failed retry doubles the wait (up to
  // kMaxBackoff), and a good run halves it.
  void spinningGivesWayOnABusyMachine() {
    xnnpack::SpinPolicy p;
    QVERIFY(p.spinning());
    p.judge(0.97);
    QVERIFY(p.spinning());
    p.judge(0.5);  // the worker shared the calling thread's core
    QVERIFY(!p.spinning());
    for (int k = 0; k < xnnpack::kFirstBackoff; ++k) {
      QVERIFY(!p.spinning());
      p.judge(0.3);  // a parking run: not held against spinning
    }
    QVERIFY(p.spinning());
    p.judge(0.6);  // spinning tried again and still loses: twice as long
    QCOMPARE(p.runs_to_wait(), 2 * xnnpack::kFirstBackoff);
    for (int k = 0; k < 2 * xnnpack::kFirstBackoff; ++k) p.judge(1.0);
    QVERIFY(p.spinning());
    p.judge(0.95);  // a good run: the next wait is halved again
    p.judge(0.1);
    QCOMPARE(p.runs_to_wait(), 2 * xnnpack::kFirstBackoff);
    for (int k = 0; k < 100; ++k) p.judge(k % 2 ? 0.1 : 0.9);
    QVERIFY(p.runs_to_wait() <= xnnpack::kMaxBackoff);
  }

  // 8x8x4: a partition of 9216 multiply-adds and a Tanh of 256 elements. Neither is worth a
  // wake-up: no trial, no pooled runtime, no pooled node, in any run.
  void smallModelNeverWakesThePool() {
    const graph::Graph g = conv_then_tanh(8, 4);
    const Run r = three_runs(g, 8, 4);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(r.partitions.runs, std::int64_t{3});
    QCOMPARE(r.partitions.trials, std::int64_t{0});
    QCOMPARE(r.partitions.pooled, std::int64_t{0});
    QCOMPARE(r.partitions.single, std::int64_t{1});
    QCOMPARE(r.nodes.node_trials, std::int64_t{0});
    QCOMPARE(r.nodes.pooled_node_runs, std::int64_t{0});
    // The workers were never woken, so there is nothing to send to sleep (which would wake them).
    QCOMPARE(r.parks, 0L);
  }

  // 48x48x32: a partition of 21 M multiply-adds and a Tanh of 73728 elements, both middling:
  // each is tried once, in the first run, and decided for good; one runtime is kept.
  void middlingWorkIsTriedInTheFirstRunOnly() {
    const graph::Graph g = conv_then_tanh(48, 32);
    const Run r = three_runs(g, 48, 32);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(r.partitions.runs, std::int64_t{3});
    QCOMPARE(r.partitions.created, std::int64_t{1});
    QCOMPARE(r.partitions.trials, std::int64_t{1});
    QCOMPARE(r.partitions.pooled + r.partitions.single, std::int64_t{1});
    QCOMPARE(r.nodes.node_trials, std::int64_t{1});
    // The trials woke the workers, so the first run ends by sending them to sleep; later runs
    // too when they used the pool, once each, or after every pooled piece on a busy machine.
    QVERIFY(r.parks >= 1);
    QVERIFY(r.parks <= 2 + 2 * (r.nodes.pooled_node_runs + r.partitions.runs));
  }
};

QTEST_GUILESS_MAIN(XnnpackThreadsTest)
#include "xnnpack_threads_test.moc"
