// The buffer pool: freed storage is reused by size, zero-filled when asked, dropped when a round
// did not need it, safe when buffers outlive the pool's owner; and on a real model, runs after the
// first take all their intermediates from the pool.
#include <QtTest>
#include <cstring>
#include <thread>

#include "core/buffer.h"
#include "core/buffer_pool.h"
#include "core/host_tensor.h"
#include "graph/build.h"
#include "io/deterministic_input.h"
#include "model/bundle.h"
#include "runtime/executor.h"
#include "support/test_support.h"

using namespace tfjsi;

class BufferPoolTest : public QObject {
  Q_OBJECT

 private slots:
  void outsideAScopeBuffersComeFromTheHeap() {
    auto pool = std::make_shared<BufferPool>();
    { auto b = Buffer::allocate(100); }
    QCOMPARE(pool->cached_bytes(), std::size_t{0});
    QCOMPARE(pool->heap_allocations(), std::size_t{0});
  }

  void freedStorageIsReusedAndZeroedAgain() {
    auto pool = std::make_shared<BufferPool>();
    BufferPool::Scope scope(*pool);
    const std::byte* first = nullptr;
    {
      auto b = Buffer::allocate_uninitialized(1000);
      first = b->data();
      std::memset(b->mutable_data(), 0xAB, 1000);
    }
    QCOMPARE(pool->cached_bytes(), 1000 + Buffer::kSlack);
    auto again = Buffer::allocate(1000);
    QCOMPARE(again->data(), first);
    QCOMPARE(pool->heap_allocations(), std::size_t{1});
    QCOMPARE(pool->cached_bytes(), std::size_t{0});
    for (std::size_t i = 0; i < 1000 + Buffer::kSlack; ++i)
      QVERIFY2(again->data()[i] == std::byte{0}, "recycled storage not zero-filled");
    // Another size is a different bucket.
    auto other = Buffer::allocate(999);
    QVERIFY(other->data() != first);
    QCOMPARE(pool->heap_allocations(), std::size_t{2});
  }

  void theSlackOfUninitializedStorageIsZeroedWhenRecycled() {
    auto pool = std::make_shared<BufferPool>();
    BufferPool::Scope scope(*pool);
    {
      auto b = Buffer::allocate_uninitialized(128);
      // Scribble over the slack too, as a kernel with a bug might.
      std::memset(const_cast<std::byte*>(b->data()), 0xFF, 128 + Buffer::kSlack);
    }
    auto b = Buffer::allocate_uninitialized(128);
    for (std::size_t i = 128; i < 128 + Buffer::kSlack; ++i) QCOMPARE(b->data()[i], std::byte{0});
  }

  void aRoundFreesSizesItDidNotUse() {
    auto pool = std::make_shared<BufferPool>();
    BufferPool::Scope scope(*pool);
    { auto a = Buffer::allocate(64), b = Buffer::allocate(4096); }
    pool->end_round();  // both sizes were used in this round: kept
    QCOMPARE(pool->cached_bytes(), 64 + 4096 + 2 * Buffer::kSlack);
    { auto a = Buffer::allocate(64); }
    pool->end_round();  // 4096 was not asked for: freed
    QCOMPARE(pool->cached_bytes(), 64 + Buffer::kSlack);
    pool->trim();
    QCOMPARE(pool->cached_bytes(), std::size_t{0});
  }

  void scopesNest() {
    auto outer = std::make_shared<BufferPool>(), inner = std::make_shared<BufferPool>();
    BufferPool::Scope a(*outer);
    {
      BufferPool::Scope b(*inner);
      QCOMPARE(BufferPool::current(), inner.get());
    }
    QCOMPARE(BufferPool::current(), outer.get());
  }

  void buffersMayOutliveThePoolsOwner() {
    std::shared_ptr<Buffer> survivor;
    {
      auto pool = std::make_shared<BufferPool>();
      BufferPool::Scope scope(*pool);
      survivor = Buffer::allocate(256);
    }
    // The pool lives on through the buffer; dropping the buffer frees both (ASan checks this).
    QVERIFY(survivor->data() != nullptr);
    survivor.reset();
  }

  void buffersComeBackFromAnotherThread() {
    auto pool = std::make_shared<BufferPool>();
    std::shared_ptr<Buffer> b;
    {
      BufferPool::Scope scope(*pool);
      b = Buffer::allocate(512);
    }
    std::thread([&] { b.reset(); }).join();
    QCOMPARE(pool->cached_bytes(), 512 + Buffer::kSlack);
  }

  // A corpus model on cpu: the first runs fill the pool, later runs allocate nothing from the heap
  // and leave the same bytes cached; the outputs do not change.
  void warmRunsTakeEverythingFromThePool() {
    const model::Bundle bundle = model::load_bundle(test::corpus_model("blazeface"));
    const graph::Graph graph = graph::build_graph(bundle);
    runtime::Engine engine;
    engine.set_backend("cpu");
    runtime::Executor executor(engine, graph);
    runtime::NamedTensors inputs;
    for (const auto& e : graph.inputs)
      inputs[e.name] =
          io::deterministic_tensor(e.dtype.value_or(DType::Float32), io::default_shape(e.shape));
    const auto first = executor.run(inputs);
    // `first` keeps its outputs' storage, so the second run allocates those sizes once more.
    executor.run(inputs);
    const std::size_t after_first = engine.buffer_pool().heap_allocations();
    QVERIFY(after_first > 10);
    const std::size_t cached = engine.memory().cached_bytes;
    QVERIFY(cached > 0);
    for (int i = 0; i < 5; ++i) {
      const auto out = executor.run(inputs);
      QCOMPARE(out.size(), first.size());
      for (std::size_t k = 0; k < out.size(); ++k)
        QVERIFY(std::memcmp(out[k].buffer->data(), first[k].buffer->data(), first[k].byte_size()) ==
                0);
    }
    QCOMPARE(engine.buffer_pool().heap_allocations(), after_first);
    QCOMPARE(engine.memory().cached_bytes, cached);
  }
};

QTEST_GUILESS_MAIN(BufferPoolTest)
#include "buffer_pool_test.moc"
