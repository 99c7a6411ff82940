// The Engine: tensor handles, reference counting, scopes, memory(), flags, backend selection and
// the lazy copy of data to a second backend.
#include <QtTest>

#include <cmath>
#include <fstream>
#include <string>

#include "backends/cpu/cpu_backend.h"
#include "core/error.h"
#include "runtime/engine.h"
#include "runtime/executor.h"
#include "runtime/fake_backend.h"
#include "runtime/graph_builder.h"

using namespace tfjsi;
using namespace tfjsi::runtime;

using tfjsi::test::FakeBackend;
using tfjsi::test::GraphBuilder;

namespace {

const BackendMemoryUse& use_of(const MemoryInfo& m, std::string_view backend) {
  for (const auto& b : m.backends)
    if (b.backend == backend) return b;
  throw std::logic_error("no backend " + std::string(backend));
}

// Read system calls this process has made (syscr of /proc/self/io), -1 where the kernel does not
// count them.
long long read_syscalls() {
  std::ifstream io("/proc/self/io");
  std::string key;
  long long value = 0;
  while (io >> key >> value)
    if (key == "syscr:") return value;
  return -1;
}

}  // namespace

class EngineTest : public QObject {
  Q_OBJECT

 private slots:
  void handles_and_dispose() {
    Engine e;
    const auto start = e.memory();
    QCOMPARE(start.total.num_tensors, std::size_t{0});
    Tensor a = e.make_tensor(test::floats({2, 3}, {1, 2, 3, 4, 5, 6}));
    QCOMPARE(a.shape(), (Shape{2, 3}));
    QCOMPARE(a.dtype(), DType::Float32);
    auto m = e.memory();
    QCOMPARE(m.total.num_tensors, std::size_t{1});
    QCOMPARE(m.total.num_data_buffers, std::size_t{1});
    QCOMPARE(m.total.num_bytes, std::size_t{24});
    QCOMPARE(use_of(m, "cpu").use.num_bytes, std::size_t{24});

    // A clone is a second tensor on the same data: one more handle, no more bytes.
    Tensor b = e.clone(a);
    m = e.memory();
    QCOMPARE(m.total.num_tensors, std::size_t{2});
    QCOMPARE(m.total.num_data_buffers, std::size_t{1});
    QCOMPARE(m.total.num_bytes, std::size_t{24});
    a.dispose();
    QVERIFY(!a.alive());
    QVERIFY(b.alive());
    QCOMPARE(test::float_values(b.read()), (std::vector<float>{1, 2, 3, 4, 5, 6}));
    QCOMPARE(e.memory().total.num_bytes, std::size_t{24});
    b.dispose();
    b.dispose();  // idempotent
    m = e.memory();
    QCOMPARE(m.total.num_tensors, std::size_t{0});
    QCOMPARE(m.total.num_data_buffers, std::size_t{0});
    QCOMPARE(m.total.num_bytes, std::size_t{0});
    QVERIFY_THROWS_EXCEPTION(std::logic_error, (void)b.shape());
  }

  void scopes_free_all_but_returned() {
    Engine e;
    Tensor kept_outside;
    std::size_t inside = 0;
    Tensor result = e.tidy([&] {
      Tensor x = e.make_tensor(test::floats({4}, {1, 2, 3, 4}));
      Tensor y = e.clone(x);
      kept_outside = e.make_tensor(test::floats({1}, {9}));
      e.keep(kept_outside);
      Tensor inner = e.tidy([&] {
        Tensor t = e.make_tensor(test::floats({2}, {5, 6}));
        (void)e.make_tensor(test::floats({2}, {7, 8}));
        return t;
      });
      inside = e.memory().total.num_tensors;
      (void)inner;
      return y;
    });
    QCOMPARE(inside, std::size_t{4});  // x, y, kept, inner
    QVERIFY(result.alive());
    QVERIFY(kept_outside.alive());
    const auto m = e.memory();
    QCOMPARE(m.total.num_tensors, std::size_t{2});
    QCOMPARE(m.total.num_bytes, std::size_t{16 + 4});
    QCOMPARE(test::float_values(result.read()), (std::vector<float>{1, 2, 3, 4}));

    // A scope left by an exception frees what it made too.
    const std::size_t before = e.memory().total.num_tensors;
    try {
      e.tidy([&] {
        (void)e.make_tensor(test::floats({1}, {1}));
        throw std::runtime_error("boom");
      });
    } catch (const std::runtime_error&) {
    }
    QCOMPARE(e.memory().total.num_tensors, before);
  }

  void live_tensors_name_their_creator() {
    Engine e;
    Tensor t = e.make_tensor(test::floats({1}, {1}), "my_node");
    const auto live = e.live_tensors();
    QCOMPARE(live.size(), std::size_t{1});
    QCOMPARE(live[0].creator, std::string("my_node"));
    QCOMPARE(live[0].backends, (std::vector<std::string>{"cpu"}));
    t.dispose();
    QVERIFY(e.live_tensors().empty());
  }

  void flags_list_set_and_reject() {
    Engine e;
    auto fake = std::make_unique<FakeBackend>("fake", 150, true);
    e.add_backend(std::move(fake));
    QVERIFY(!e.flags().get_bool("prod"));
    QVERIFY(!e.flags().get_bool("debug"));
    e.flags().set("prod", "true");
    QVERIFY(e.flags().get_bool("prod"));
    e.flags().set("fake.level", "7");
    QCOMPARE(e.flags().get_int("fake.level"), std::int64_t{7});
    bool listed = false;
    for (const auto& f : e.flags().list())
      if (f.name == "fake.detected")
        listed = f.read_only && flag_value_to_string(f.value) == "true";
    QVERIFY(listed);
    QVERIFY_THROWS_EXCEPTION(UsageError, e.flags().set("fake.detected", "false"));
    QVERIFY_THROWS_EXCEPTION(UsageError, e.flags().set("no.such.flag", "1"));
    QVERIFY_THROWS_EXCEPTION(UsageError, e.flags().set("fake.level", "many"));
    QVERIFY_THROWS_EXCEPTION(UsageError, e.flags().set("debug", "maybe"));

    e.set_threads(2);
    QCOMPARE(e.threads(), std::size_t{2});
    QVERIFY(e.pool() != nullptr);
    QCOMPARE(pthreadpool_get_threads_count(e.pool()), std::size_t{2});
  }

  // The default threads (flag 0: one per core) cost nothing per node: the executor asks for the
  // pool at every node, and the core count came from the system each time (an open, read and
  // close of /sys/devices/system/cpu/online), which made small models 3-4x slower on two
  // threads than on one.
  void default_threads_read_nothing_per_node() {
    if (read_syscalls() < 0) QSKIP("this kernel does not count read system calls (/proc/self/io)");
    GraphBuilder b;
    auto x = b.placeholder("x", DType::Float32, {4});
    for (int i = 0; i < 64; ++i) x = b.add("double" + std::to_string(i), "T_Double", {x});
    b.output("y", x);
    const graph::Graph g = b.take();
    Engine e;
    test::add_test_kernels(e);
    QCOMPARE(e.flags().get_int("threads"), std::int64_t{0});
    Executor ex(e, g);
    const NamedTensors in{{"x", test::floats({4}, {1, 2, 3, 4})}};
    (void)ex.run(in);  // the first run makes the pool
    // What reading the counter itself costs, then ten runs of 64 nodes.
    const long long t0 = read_syscalls();
    const long long idle = read_syscalls() - t0;
    const long long t1 = read_syscalls();
    for (int run = 0; run < 10; ++run) {
      const auto outs = ex.run(in);
      QCOMPARE(test::float_values(outs.at(0))[0], std::ldexp(1.f, 64));
    }
    QCOMPARE(read_syscalls() - t1, idle);
  }

  void backend_selection() {
    Engine e;
    QCOMPARE(e.backend().name(), std::string_view("cpu"));
    e.add_backend(std::make_unique<FakeBackend>("down", 300, false));
    e.add_backend(std::make_unique<FakeBackend>("up", 200, true));
    e.set_backend("auto");
    QCOMPARE(e.backend().name(), std::string_view("up"));  // "down" outranks it but cannot run
    const auto list = e.backends();
    QCOMPARE(list.front().name, std::string("down"));
    QVERIFY(!list.front().availability.available);
    QCOMPARE(list.front().availability.reason, std::string("no device in the test"));
    try {
      e.set_backend("down");
      QFAIL("an unavailable backend was accepted");
    } catch (const BackendUnavailable& ex) {
      QVERIFY(std::string(ex.what()).find("no device in the test") != std::string::npos);
    }
    QVERIFY_THROWS_EXCEPTION(UsageError, e.set_backend("tpu"));
    e.set_backend("cpu");
    QCOMPARE(e.backend().name(), std::string_view("cpu"));
  }

  void lazy_copy_to_another_backend_is_counted_once() {
    Engine e;
    auto owned = std::make_unique<FakeBackend>("fake", 150, true);
    FakeBackend& fake = *owned;
    e.add_backend(std::move(owned));
    Tensor t = e.make_tensor(test::floats({3}, {1, 2, 3}));
    QCOMPARE(fake.uploads, 0);
    (void)e.view_on(t, fake);
    (void)e.view_on(t, fake);
    QCOMPARE(fake.uploads, 1);
    const auto m = e.memory();
    QCOMPARE(m.total.num_tensors, std::size_t{1});
    QCOMPARE(m.total.num_data_buffers, std::size_t{1});
    QCOMPARE(m.total.num_bytes, std::size_t{24});  // both copies
    QCOMPARE(use_of(m, "cpu").use.num_bytes, std::size_t{12});
    QCOMPARE(use_of(m, "fake").use.num_bytes, std::size_t{12});
    QCOMPARE(use_of(m, "fake").use.num_tensors, std::size_t{1});
    t.dispose();
    QCOMPARE(e.memory().total.num_bytes, std::size_t{0});
    QCOMPARE(use_of(e.memory(), "fake").use.num_data_buffers, std::size_t{0});
  }
};

QTEST_APPLESS_MAIN(EngineTest)
#include "engine_test.moc"
