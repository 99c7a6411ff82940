// The gl program cache from the command line: `tfjsi bench --backend gl --json` reports
// compile_ms, upload_ms and cache_hit; a second process with the same model loads every program
// from disk; the disk entries are keyed by the model (a changed weight file misses), which shows
// the CLI hands the model to the gl backend. `--profile` adds the GL timer-query totals.
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "support/test_support.h"

using namespace tfjsi;
namespace fs = std::filesystem;

class GlCliTest : public QObject {
  Q_OBJECT

  // One bench run of `model` on gl with the user's cache folder in `cache`.
  nlohmann::json bench(const fs::path& model, const QStringList& extra = {}) {
    QStringList args{"bench",     QString::fromStdString(model.string()),
                     "--backend", "gl",
                     "--runs",    "1",
                     "--warmup",  "0",
                     "--json"};
    args += extra;
    const test::ProcessResult r = test::run_tfjsi(args, 300000);
    if (r.crashed || r.exit_code != 0)
      throw std::runtime_error("tfjsi bench failed: " + r.err.toStdString());
    return r.json();
  }

 private slots:
  // bench's FLOP count (a run of its own after the measured ones) lets gl fuse as the runs did:
  // it leaves on disk the programs `tfjsi run` leaves, none more (it once ran every node as its
  // own kernel, building blazeface's unfused Relu).
  void bench_builds_only_what_a_run_builds() {
    try {
      const fs::path model = test::corpus_model("blazeface");
      auto programs_after = [&](const QStringList& args) {
        test::TempDir cache;
        qputenv("XDG_CACHE_HOME", QByteArray::fromStdString(cache.path.string()));
        const test::ProcessResult r = test::run_tfjsi(args, 300000);
        if (r.crashed || r.exit_code != 0)
          throw std::runtime_error("tfjsi failed: " + r.err.toStdString());
        const fs::path dir = cache.path / "tfjs-inspector" / "gl-programs";
        return std::distance(fs::directory_iterator(dir), fs::directory_iterator{});
      };
      const QString m = QString::fromStdString(model.string());
      const auto run = programs_after({"run", m, "--backend", "gl"});
      QVERIFY(run > 0);
      QCOMPARE(
          programs_after({"bench", m, "--backend", "gl", "--runs", "1", "--warmup", "0", "--json"}),
          run);
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }

  void bench_reports_and_uses_the_disk_cache() {
    try {
      test::TempDir cache, models;
      qputenv("XDG_CACHE_HOME", QByteArray::fromStdString(cache.path.string()));
      // A private copy of the model, so that its weights can be changed.
      const fs::path src = test::corpus_model("gender");
      fs::copy_file(src, models.path / "gender.json");
      fs::copy_file(src.parent_path() / "gender.bin", models.path / "gender.bin");
      const fs::path model = models.path / "gender.json";

      const nlohmann::json cold = bench(model);
      for (const char* key : {"compile_ms", "upload_ms", "cache_hit"})
        QVERIFY2(cold.contains(key), key);
      QVERIFY(cold["compile_ms"].get<double>() > 0);
      QVERIFY(cold["upload_ms"].get<double>() > 0);
      QCOMPARE(cold["cache_hit"].get<bool>(), false);
      const fs::path dir = cache.path / "tfjs-inspector" / "gl-programs";
      QVERIFY2(fs::is_directory(dir), "no program binaries were saved");

      const nlohmann::json warm = bench(model);
      QCOMPARE(warm["cache_hit"].get<bool>(), true);
      QVERIFY2(warm["compile_ms"].get<double>() < cold["compile_ms"].get<double>(),
               "loading binaries must cost less than compiling");

      // Same shaders, other weights: another model token, so every program is built again.
      {
        std::fstream bin(models.path / "gender.bin",
                         std::ios::in | std::ios::out | std::ios::binary);
        bin.seekp(100);
        const char b = 0x11;
        bin.write(&b, 1);
      }
      const nlohmann::json changed = bench(model);
      QCOMPARE(changed["cache_hit"].get<bool>(), false);

      // Timer queries: the profile says what the driver gave (an array, or null without them).
      const nlohmann::json prof = bench(model, {"--profile"});
      QVERIFY(prof["profile"].contains("gl_ops"));
      if (prof["profile"]["gl_ops"].is_array()) {
        QVERIFY(!prof["profile"]["gl_ops"].empty());
        QVERIFY(prof["profile"]["gl_gpu_ms"].get<double>() >= 0);
      }
      // Per op, the calls that ran inside the kernel before them: some with fusion (the sample's
      // Conv2D -> BiasAdd -> Relu chains), none without.
      const fs::path sample = test::source_dir() / "resources" / "sample";
      const nlohmann::json sample_prof = bench(sample, {"--profile"});
      int fused = 0;
      for (const auto& o : sample_prof["profile"]["ops"]) {
        QVERIFY(o["fused"].get<int>() <= o["calls"].get<int>());
        fused += o["fused"].get<int>();
      }
      QVERIFY(fused > 0);
      const nlohmann::json unfused = bench(sample, {"--profile", "--flag", "fuse=false"});
      for (const auto& o : unfused["profile"]["ops"]) QCOMPARE(o["fused"].get<int>(), 0);
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }

  // The precision a run reports is the one the backend stored tensors at, held in one place (gl's
  // flag gl.float32_enabled): --precision sets it, a --flag given as well has the last word, and
  // a backend without half-float storage says fp32 and warns that --precision fp16 did nothing.
  void precision_is_what_the_backend_stores() {
    test::TempDir cache;
    qputenv("XDG_CACHE_HOME", QByteArray::fromStdString(cache.path.string()));
    const QString model = QString::fromStdString(test::corpus_model("gender").string());
    struct Case {
      QStringList args;
      const char* precision;
      bool warns;
    };
    const std::vector<Case> cases{
        {{"--backend", "gl"}, "fp32", false},
        {{"--backend", "gl", "--precision", "fp16"}, "fp16", false},
        {{"--backend", "gl", "--flag", "gl.float32_enabled=false"}, "fp16", false},
        {{"--backend", "gl", "--precision", "fp16", "--flag", "gl.float32_enabled=true"},
         "fp32",
         true},
        {{"--backend", "cpu", "--precision", "fp16"}, "fp32", true},
    };
    for (const Case& c : cases) {
      const QString what = c.args.join(' ');
      const test::ProcessResult r = test::run_tfjsi(
          QStringList{"bench", model, "--runs", "1", "--warmup", "0", "--json"} + c.args, 300000);
      QVERIFY2(!r.crashed && r.exit_code == 0, qPrintable(what + ": " + QString(r.err)));
      QCOMPARE(QString::fromStdString(r.json()["precision"].get<std::string>()),
               QString(c.precision));
      QCOMPARE(r.err.contains("--precision fp16 is not in effect"), c.warns);
    }
  }

  // --switch-from times the first run after a live precision switch, as the app's Run dock makes
  // one: the run before it at the other precision is reported apart (switched_from), and the
  // switch builds no program where workers build the other precision's kernels after that run
  // (llvmpipe). A switch from the precision bench runs at, or to one the backend lacks, is a
  // usage error.
  void switch_from_times_a_live_switch() {
    try {
      test::TempDir cache;
      qputenv("XDG_CACHE_HOME", QByteArray::fromStdString(cache.path.string()));
      const fs::path model = test::corpus_model("blazeface");
      const nlohmann::json j = bench(model, {"--precision", "fp16", "--switch-from", "fp32"});
      QCOMPARE(j["precision"].get<std::string>(), std::string("fp16"));
      const nlohmann::json& before = j["switched_from"];
      QCOMPARE(before["precision"].get<std::string>(), std::string("fp32"));
      QVERIFY(before["first_ms"].get<double>() > 0);
      QVERIFY(before["new_programs"].get<std::int64_t>() > 0);  // a fresh cache: it built
      QVERIFY(j["first_ms"].get<double>() > 0);
      if (before["built_ahead"].get<std::int64_t>() > 0)
        QCOMPARE(j["new_programs"].get<std::int64_t>(), std::int64_t{0});
      const QString m = QString::fromStdString(model.string());
      for (const QStringList& bad :
           {QStringList{"--backend", "gl", "--precision", "fp16", "--switch-from", "fp16"},
            QStringList{"--backend", "cpu", "--switch-from", "fp16"},
            QStringList{"--backend", "gl", "--switch-from", "fp8"}}) {
        const test::ProcessResult r = test::run_tfjsi(
            QStringList{"bench", m, "--runs", "1", "--warmup", "0", "--json"} + bad, 300000);
        QVERIFY2(!r.crashed && r.exit_code == 2, qPrintable(bad.join(' ') + ": " + r.err));
        QVERIFY2(r.err.contains("--switch-from") || r.err.contains("fp8"),
                 qPrintable(bad.join(' ') + ": " + r.err));
      }
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }
};

QTEST_GUILESS_MAIN(GlCliTest)
#include "gl_cli_test.moc"
