// Compiling ahead (#19) on a real model (corpus blazeface, wholly on gl) with empty caches: the
// backend reports "compiling N of M" with the total M known (never 0) and reached (N == M == the
// run's new programs) before the first result, by default and with worker threads building the
// programs (flag gl.compile_threads, llvmpipe), and the outputs equal those of the same model run
// with compile-ahead off. A Cancel thrown from a progress report
// stops the run as a cancellation (no cpu fallback, no warning), and the next run gives the same
// outputs (weights repacked by kept dispatches are not lost). Builds for a later run (the other
// precision's kernels) run on a worker of the lowest priority, builds for this run on the others.
#include <sys/resource.h>
#include <QtTest>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>

#include "backends/all_backends.h"
#include "backends/gl/gl_backend.h"
#include "backends/gl/program_warmer.h"
#include "core/error.h"
#include "graph/build.h"
#include "io/deterministic_input.h"
#include "model/bundle.h"
#include "runtime/executor.h"
#include "support/test_support.h"

using namespace tfjsi;

namespace {

struct Report {
  std::string stage;
  std::int64_t done = 0, total = 0;
};

class Recorder final : public runtime::Observer {
 public:
  std::vector<Report> reports;
  bool cancel = false;  // throw Cancelled at the first report
  bool needs_every_output() const override { return false; }
  void on_progress(std::string_view stage, std::int64_t done, std::int64_t total) override {
    reports.push_back({std::string(stage), done, total});
    if (cancel) throw Cancelled();
  }
};

struct Engine {
  runtime::Engine engine;
  gl::GlBackend* gl = nullptr;
  std::vector<std::string> log;
  Engine(const std::filesystem::path& cache_dir, bool ahead, std::int64_t threads = 0) {
    backends::add_all_backends(engine);
    gl = dynamic_cast<gl::GlBackend*>(engine.find_backend("gl"));
    if (!gl || !gl->availability().available) throw std::runtime_error("gl is not available");
    gl->set_program_cache_dir(cache_dir);
    engine.set_backend("gl");
    engine.flags().set_value("gl.compile_ahead", ahead);
    engine.flags().set_value("gl.compile_threads", threads);
    engine.set_log_sink([this](std::string_view line) { log.emplace_back(line); });
  }
};

bool same(const std::vector<HostTensor>& a, const std::vector<HostTensor>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto x = a[i].values<float>(), y = b[i].values<float>();
    if (a[i].shape != b[i].shape || !std::equal(x.begin(), x.end(), y.begin(), y.end()))
      return false;
  }
  return true;
}

}  // namespace

class GlCompileAheadTest : public QObject {
  Q_OBJECT
  test::TempDir mesa_cache_;
  model::Bundle bundle_;
  graph::Graph graph_;
  runtime::NamedTensors inputs_;

 private slots:
  void initTestCase() {
    // Mesa reads it when the first context starts: every program is then built in this process.
    ::setenv("MESA_SHADER_CACHE_DIR", mesa_cache_.path.c_str(), 1);
    bundle_ = model::load_bundle(test::corpus_model("blazeface"));
    graph_ = graph::build_graph(bundle_);
    for (const auto& e : graph_.inputs)
      inputs_[e.name] =
          io::deterministic_tensor(e.dtype.value_or(DType::Float32), io::default_shape(e.shape));
  }

  void totalIsKnownAndReachedBeforeTheFirstResult_data() {
    QTest::addColumn<int>("threads");
    QTest::newRow("on the engine's thread") << 0;
    QTest::newRow("two workers") << 2;
  }

  void totalIsKnownAndReachedBeforeTheFirstResult() {
    QFETCH(int, threads);
    test::TempDir programs, programs_off;
    Engine e(programs.path, true, threads);
    const auto& lim = e.gl->context()->limits();
    const bool workers = lim.variant_per_pow2_sides && lim.num_binary_formats > 0;
    if (threads > 0 && !workers) QSKIP("workers build ahead on llvmpipe with its shader cache");
    runtime::Executor ex(e.engine, graph_);
    QVERIFY2(ex.plan().fallbacks.empty(), "blazeface should run wholly on gl");
    Recorder rec;
    e.engine.add_observer(&rec);
    e.gl->reset_stats();
    const auto ahead = ex.run(inputs_);
    e.engine.remove_observer(&rec);
    const gl::GlStats s = e.gl->stats();
    QVERIFY(s.new_kernels > 5);
    if (threads > 0)
      QVERIFY2(s.built_ahead > 0, "no program was built on a worker");
    else
      QCOMPARE(s.built_ahead, std::int64_t{0});
    QVERIFY(!rec.reports.empty());
    std::int64_t last_done = 0, last_total = 0;
    for (const Report& r : rec.reports) {
      QCOMPARE(r.stage, std::string("compiling"));
      QVERIFY2(r.total > 0, "a report without the total");
      QVERIFY(r.done <= r.total);
      QVERIFY(r.total >= last_total);
      QVERIFY(r.done >= last_done);
      last_done = r.done, last_total = r.total;
    }
    // Without workers the first program is built only after every one was met: the total does
    // not grow after (workers may finish one while the run still meets others).
    if (threads == 0)
      for (const Report& r : rec.reports)
        if (r.done > 0) QCOMPARE(r.total, s.new_kernels);
    QCOMPARE(rec.reports.back().total, s.new_kernels);
    QCOMPARE(rec.reports.back().done, s.new_kernels);
    // Every new program (none on disk yet) is on the list of builds once, with what it is, the
    // node that first needed it and a time; on a worker exactly when built ahead.
    QCOMPARE(static_cast<std::int64_t>(s.builds.size()), s.new_kernels);
    std::set<std::string> kernels;
    std::int64_t on_workers = 0;
    for (const runtime::KernelBuild& b : s.builds) {
      QVERIFY2(b.kernel.ends_with(".comp"), b.kernel.c_str());
      QVERIFY2(b.ms > 0, b.kernel.c_str());
      QVERIFY2(!b.node.empty() && !b.op.empty(), b.kernel.c_str());
      kernels.insert(b.kernel);
      on_workers += b.ahead ? 1 : 0;
    }
    QCOMPARE(on_workers, s.built_ahead);
    // blazeface: its convolutions (the 1x1 ones with and without a residual add, the 5x5 stem)
    // and depthwise layers, with their windows in the variant.
    QVERIFY(kernels.count("conv_direct.comp") && kernels.count("depthwise_direct.comp"));
    QVERIFY(std::any_of(s.builds.begin(), s.builds.end(), [](const runtime::KernelBuild& b) {
      return b.kernel == "conv_direct.comp" && b.variant.find("KH=5 KW=5") != std::string::npos;
    }));
    e.gl->reset_stats();
    ex.run(inputs_);
    QVERIFY2(e.gl->stats().builds.empty(), "a second run built a program");

    // The same model with compile-ahead off, in an engine of its own: the same outputs, bit for
    // bit (the same programs run in the same order).
    Engine off(programs_off.path, false);
    runtime::Executor ex_off(off.engine, graph_);
    off.gl->reset_stats();
    const auto plain = ex_off.run(inputs_);
    QCOMPARE(off.gl->stats().built_ahead, std::int64_t{0});
    QVERIFY2(same(ahead, plain), "outputs differ with compile-ahead on and off");
  }

  void laterBuildsRunAtTheLowestPriority() {
#ifndef __linux__
    QSKIP("nice values per thread are Linux's");
#else
    std::string reason;
    auto ctx = gl::GlContext::create(reason);
    QVERIFY2(ctx, reason.c_str());
    const int base = getpriority(PRIO_PROCESS, 0);
    gl::ProgramWarmer w(*ctx, 1);
    QCOMPARE(w.workers(), 1);
    gl::WarmJob later;
    later.for_later = true;
    // A later build queued first must not hold back this run's, which goes to the other worker.
    auto b = w.submit(later), a = w.submit(gl::WarmJob{});
    QVERIFY(w.wait_for(*a, 30000) && w.wait_for(*b, 30000));
    QCOMPARE(a->nice, base);
    QCOMPARE(b->nice, 19);
    // Taken back while queued, from either queue.
    w.cancel_all();
#endif
  }

  void cancelFromAProgressReportIsACancellation() {
    test::TempDir programs;
    Engine e(programs.path, true);
    // Programs not in memory: the run builds them (their code may be in Mesa's cache by now).
    runtime::Executor ex(e.engine, graph_);
    Recorder rec;
    rec.cancel = true;
    e.engine.add_observer(&rec);
    bool cancelled = false;
    try {
      ex.run(inputs_);
    } catch (const Cancelled&) {
      cancelled = true;
    }
    e.engine.remove_observer(&rec);
    QVERIFY2(cancelled, "the run did not stop with the cancellation");
    for (const auto& line : e.log)
      QVERIFY2(line.find("failed on backend") == std::string::npos, line.c_str());

    Engine ref(programs.path, false);
    runtime::Executor ex_ref(ref.engine, graph_);
    const auto want = ex_ref.run(inputs_);
    const auto again = ex.run(inputs_);
    QVERIFY2(same(again, want), "the run after a cancelled one gives other outputs");
    QVERIFY(e.log.empty());
  }
};

QTEST_GUILESS_MAIN(GlCompileAheadTest)
#include "gl_compile_ahead_test.moc"
