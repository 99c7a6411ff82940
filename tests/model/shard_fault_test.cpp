// A weight shard that changes on disk after the model was loaded (issue #8, fault injection).
// Shards used to be memory-mapped, and a float32 weight borrowed the mapping: truncating the file
// while the model was open made the next read of that weight raise SIGBUS. Shards are now read
// into memory at load (engine/model/shard_file.h), so truncating or rewriting the file afterwards
// changes nothing: the runs below must give exactly the outputs of an untouched copy, on every
// backend that reads weights at a different time (cpu borrows them, xnnpack packs them on its
// first run). A shard that is already short when the model is loaded is refused, naming it.
#include <QtTest>

#include <cstring>
#include <fstream>

#include "backends/all_backends.h"
#include "core/error.h"
#include "graph/build.h"
#include "io/deterministic_input.h"
#include "model/bundle.h"
#include "runtime/executor.h"
#include "support/test_support.h"

using namespace tfjsi;
namespace fs = std::filesystem;

namespace {

// blazeface: all float32 weights in one shard, every one of them borrowed from it.
constexpr const char* kModel = "blazeface";

runtime::NamedTensors inputs_for(const graph::Graph& graph) {
  runtime::NamedTensors inputs;
  for (const auto& e : graph.inputs)
    inputs[e.name] =
        io::deterministic_tensor(e.dtype.value_or(DType::Float32), io::default_shape(e.shape));
  return inputs;
}

std::vector<HostTensor> run_once(const model::Bundle& bundle, const std::string& backend) {
  const graph::Graph graph = graph::build_graph(bundle);
  runtime::Engine engine;
  backends::add_all_backends(engine);
  engine.set_backend(backend);
  runtime::Executor executor(engine, graph);
  return executor.run(inputs_for(graph));
}

void expect_same(const std::vector<HostTensor>& got, const std::vector<HostTensor>& want) {
  QCOMPARE(got.size(), want.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    QCOMPARE(got[k].shape, want[k].shape);
    QCOMPARE(got[k].byte_size(), want[k].byte_size());
    QVERIFY2(std::memcmp(got[k].buffer->data(), want[k].buffer->data(), got[k].byte_size()) == 0,
             qPrintable(QString("output %1 differs").arg(k)));
  }
}

// A private copy of the model's files, so that the corpus is never touched.
struct ModelCopy {
  test::TempDir dir;
  fs::path json, bin;
  ModelCopy() {
    json = dir.path / (std::string(kModel) + ".json");
    bin = dir.path / (std::string(kModel) + ".bin");
    fs::copy_file(test::corpus_model(kModel), json);
    fs::copy_file(test::corpus_dir() / (std::string(kModel) + ".bin"), bin);
  }
};

// Overwrites the file's bytes in place (same inode, same size), as an editor or a sync tool might.
void scribble(const fs::path& file) {
  const auto size = fs::file_size(file);
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  const std::string junk(static_cast<std::size_t>(size), '\x7f');
  f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
  QVERIFY(f.good());
}

}  // namespace

class ShardFaultTest : public QObject {
  Q_OBJECT

  std::map<std::string, std::vector<HostTensor>> expected_;

 private slots:
  void initTestCase() {
    for (const char* b : {"cpu", "xnnpack"})
      expected_[b] = run_once(model::load_bundle(test::corpus_model(kModel)), b);
  }

  // The shard shrinks to nothing (and to half) between loading and running.
  void truncatedAfterLoadRunsUnchanged() {
    for (const std::uint64_t keep : {std::uint64_t{0}, std::uint64_t{1000}}) {
      for (const char* b : {"cpu", "xnnpack"}) {
        ModelCopy copy;
        const model::Bundle bundle = model::load_bundle(copy.json);
        // Borrowed weights are what used to fault: make sure the model still has some.
        bool borrowed = false;
        for (const auto& w : bundle.weights) borrowed |= w.value.buffer && !w.value.buffer->owned();
        QVERIFY(borrowed);
        fs::resize_file(copy.bin, keep);
        expect_same(run_once(bundle, b), expected_[b]);
      }
    }
  }

  // The engine is made and a first run done before the file shrinks; later runs still agree,
  // and so do runs after the backend switches (weights move to it only then).
  void truncatedBetweenRuns() {
    ModelCopy copy;
    const model::Bundle bundle = model::load_bundle(copy.json);
    const graph::Graph graph = graph::build_graph(bundle);
    runtime::Engine engine;
    backends::add_all_backends(engine);
    engine.set_backend("cpu");
    runtime::Executor executor(engine, graph);
    const auto inputs = inputs_for(graph);
    expect_same(executor.run(inputs), expected_["cpu"]);
    fs::resize_file(copy.bin, 0);
    expect_same(executor.run(inputs), expected_["cpu"]);
    engine.set_backend("xnnpack");
    expect_same(executor.run(inputs), expected_["xnnpack"]);
  }

  // Rewritten in place after loading: the loaded weights are a snapshot, the run does not change.
  void rewrittenAfterLoadRunsUnchanged() {
    ModelCopy copy;
    const model::Bundle bundle = model::load_bundle(copy.json);
    scribble(copy.bin);
    expect_same(run_once(bundle, "cpu"), expected_["cpu"]);
  }

  // The file removed after loading: same.
  void removedAfterLoadRunsUnchanged() {
    ModelCopy copy;
    const model::Bundle bundle = model::load_bundle(copy.json);
    fs::remove(copy.bin);
    expect_same(run_once(bundle, "cpu"), expected_["cpu"]);
  }

  // Already short at load: refused with a message that names the shard and what it lacks.
  void truncatedBeforeLoadNamesTheShard() {
    ModelCopy copy;
    fs::resize_file(copy.bin, fs::file_size(copy.bin) / 2);
    try {
      model::load_bundle(copy.json);
      QFAIL("a half shard loaded");
    } catch (const ModelError& e) {
      const QString msg = e.what();
      qInfo("%s", e.what());
      QVERIFY2(msg.contains("'blazeface.bin' is too short"), e.what());
      QVERIFY2(msg.contains("weight '"), e.what());
    }
  }
};

QTEST_GUILESS_MAIN(ShardFaultTest)
#include "shard_fault_test.moc"
