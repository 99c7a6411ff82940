// Malformed bundles are refused with a ModelError whose message starts with the file at fault and
// names the culprit; nothing crashes. Graph-level faults (Const without weight, dangling inputs,
// cycles, unused weights) belong to the graph import tests.
#include <sys/stat.h>

#include <QtTest>
#include <random>

#include "bundle_files.h"
#include "core/error.h"
#include "model/bundle.h"
#include "support/test_support.h"

using nlohmann::json;
using namespace tfjsi::test;
namespace fs = std::filesystem;

namespace {

// A valid bundle: float32 a[2] then int32 b[1] in w.bin (12 bytes).
struct Fixture {
  TempDir dir;
  fs::path file = dir.path / "model.json";
  json j = graph_model_json(json::array(
      {{{"paths", {"w.bin"}},
        {"weights", {weight_entry("a", {2}, "float32"), weight_entry("b", {1}, "int32")}}}}));
  Fixture() { write_file(dir.path / "w.bin", f32_bytes({1, 2}) + i32_bytes({3})); }
  json& weight(int i) { return j["weightsManifest"][0]["weights"][i]; }
  void save() { write_json(file, j); }
};

// Loads `path` and checks it is refused with a ModelError that starts with `prefix` and holds
// every needle.
void expect_refused(const fs::path& path, const std::string& prefix,
                    std::initializer_list<std::string> needles) {
  try {
    const auto b = tfjsi::model::load_bundle(path);
    QFAIL(qPrintable("loaded without error: " + QString::fromStdString(path.string())));
  } catch (const tfjsi::ModelError& e) {
    const std::string msg = e.what();
    QVERIFY2(msg.rfind(prefix, 0) == 0,
             qPrintable("message should start with " + QString::fromStdString(prefix) + ": " +
                        msg.c_str()));
    for (const auto& n : needles)
      QVERIFY2(msg.find(n) != std::string::npos,
               qPrintable("message lacks '" + QString::fromStdString(n) + "': " + msg.c_str()));
  } catch (const std::exception& e) {
    QFAIL(qPrintable(QString("not a ModelError: ") + e.what()));
  }
}

void expect_refused(Fixture& f, std::initializer_list<std::string> needles) {
  f.save();
  expect_refused(f.file, f.file.string(), needles);
}

}  // namespace

class BrokenBundleTest : public QObject {
  Q_OBJECT

 private slots:
  void fixture_is_valid() {
    Fixture f;
    f.save();
    QCOMPARE(tfjsi::model::load_bundle(f.file).weights.size(), std::size_t(2));
  }

  void missing_path() {
    TempDir dir;
    expect_refused(dir.path / "nope.json", (dir.path / "nope.json").string(), {"no such file"});
  }

  void folder_without_model_json() {
    TempDir dir;
    expect_refused(dir.path, dir.path.string(), {"model.json"});
  }

  void bad_json_names_position() {
    Fixture f;
    write_file(f.file, "{\"format\": \"graph-model\",\n \"modelTopology\": {\"node\": [}\n}");
    expect_refused(f.file, f.file.string(), {"not valid JSON", "line 2"});
  }

  void empty_file() {
    Fixture f;
    write_file(f.file, "");
    expect_refused(f.file, f.file.string(), {"empty"});
  }

  void top_level_not_an_object() {
    Fixture f;
    f.j = json::array({1, 2});
    expect_refused(f, {"expected a JSON object", "an array"});
  }

  void too_deeply_nested() {
    Fixture f;
    write_file(f.file, std::string(100000, '[') + std::string(100000, ']'));
    expect_refused(f.file, f.file.string(), {"nested"});
  }

  void missing_model_topology() {
    Fixture f;
    f.j.erase("modelTopology");
    expect_refused(f, {"modelTopology"});
  }

  void model_topology_wrong_type() {
    Fixture f;
    f.j["modelTopology"] = "graph";
    expect_refused(f, {"modelTopology", "expected an object", "a string"});
  }

  void topology_neither_graph_nor_layers() {
    Fixture f;
    f.j.erase("format");
    f.j["modelTopology"] = {{"something", 1}};
    expect_refused(f, {"modelTopology", "model_config"});
  }

  void layers_format_without_config() {
    Fixture f;
    f.j["format"] = "layers-model";
    expect_refused(f, {"layers-model", "model_config"});
  }

  void wrong_field_types() {
    {
      Fixture f;
      f.j["format"] = 3;
      expect_refused(f, {"'format'", "expected a string", "a number"});
    }
    {
      Fixture f;
      f.j["signature"] = "inputs";
      expect_refused(f, {"'signature'", "expected an object"});
    }
    {
      Fixture f;
      f.j["userDefinedMetadata"] = {{"signature", json::array()}};
      expect_refused(f, {"userDefinedMetadata.signature", "expected an object"});
    }
  }

  void manifest_not_an_array() {
    Fixture f;
    f.j["weightsManifest"] = {{"paths", {"w.bin"}}};
    expect_refused(f, {"weightsManifest", "expected an array"});
  }

  void group_without_paths() {
    Fixture f;
    f.j["weightsManifest"][0].erase("paths");
    expect_refused(f, {"weightsManifest[0]", "paths"});
  }

  void path_not_a_string() {
    Fixture f;
    f.j["weightsManifest"][0]["paths"] = json::array({7});
    expect_refused(f, {"paths[0]", "expected a string", "a number"});
  }

  void group_without_weights() {
    Fixture f;
    f.j["weightsManifest"][0]["weights"] = {{"name", "a"}};
    expect_refused(f, {"weightsManifest[0]", "weights"});
  }

  void weight_without_name() {
    Fixture f;
    f.weight(1).erase("name");
    expect_refused(f, {"weights[1]", "name"});
  }

  void non_numeric_shape() {
    Fixture f;
    f.weight(0)["shape"] = {2, "x"};
    expect_refused(f, {"'a'", "shape[1]", "expected a number", "a string"});
  }

  void shape_not_an_array() {
    Fixture f;
    f.weight(0)["shape"] = 2;
    expect_refused(f, {"'a'", "shape", "expected an array"});
  }

  void fractional_dim() {
    Fixture f;
    f.weight(0)["shape"] = {2.5};
    expect_refused(f, {"'a'", "shape[0]", "whole number"});
  }

  void negative_dim() {
    Fixture f;
    f.weight(1)["shape"] = {-1};
    expect_refused(f, {"'b'", "shape[0]", ">= 0"});
  }

  void overflowing_shape() {
    Fixture f;
    f.weight(0)["shape"] = {4611686018427387904LL, 4};
    expect_refused(f, {"'a'", "too many elements"});
    Fixture g;
    // Fits int64 as a count, but not once multiplied by 4 bytes.
    g.weight(0)["shape"] = {2305843009213693952LL, 2};
    expect_refused(g, {"'a'", "bytes"});
  }

  void unknown_dtype() {
    Fixture f;
    f.weight(0)["dtype"] = "float64";
    expect_refused(f, {"'a'", "float64", "float32"});
  }

  // TF.js quantizes float32 and int32 weights only.
  void quantized_complex64_is_refused() {
    Fixture f;
    f.weight(0)["dtype"] = "complex64";
    f.weight(0)["quantization"] = {{"dtype", "uint8"}, {"scale", 1}, {"min", 0}};
    expect_refused(f, {"'a'", "uint8", "complex64"});
  }

  void unknown_quantization() {
    Fixture f;
    f.weight(0)["quantization"] = {{"dtype", "int4"}, {"scale", 1}, {"min", 0}};
    expect_refused(f, {"'a'", "int4", "uint8"});
  }

  void quantization_without_scale() {
    Fixture f;
    f.weight(0)["quantization"] = {{"dtype", "uint8"}, {"min", 0}};
    expect_refused(f, {"'a'", "scale"});
  }

  void quantization_scale_not_a_number() {
    Fixture f;
    f.weight(0)["quantization"] = {{"dtype", "uint16"}, {"min", 0}, {"scale", "0.1"}};
    expect_refused(f, {"'a'", "scale", "expected a number"});
  }

  void float16_on_int32() {
    Fixture f;
    f.weight(1)["quantization"] = {{"dtype", "float16"}};
    expect_refused(f, {"'b'", "float16", "int32"});
  }

  void duplicate_weight_names() {
    Fixture f;
    f.weight(1)["name"] = "a";
    expect_refused(f, {"duplicate", "'a'"});
  }

  void absolute_shard_path() {
    Fixture f;
    f.j["weightsManifest"][0]["paths"] = {(f.dir.path / "w.bin").string()};
    expect_refused(f, {"w.bin", "absolute"});
  }

  void parent_shard_path() {
    Fixture f;
    fs::create_directory(f.dir.path / "m");
    fs::rename(f.dir.path / "w.bin", f.dir.path / "m" / "w.bin");  // unused; ".." alone is refused
    f.file = f.dir.path / "m" / "model.json";
    f.j["weightsManifest"][0]["paths"] = {"../m/w.bin"};
    expect_refused(f, {"../m/w.bin", ".."});
  }

  void symlink_leaving_the_folder() {
    Fixture f;
    TempDir outside;
    write_file(outside.path / "secret.bin", f32_bytes({1, 2, 3}));
    fs::create_symlink(outside.path / "secret.bin", f.dir.path / "evil.bin");
    f.j["weightsManifest"][0]["paths"] = {"evil.bin"};
    expect_refused(f, {"evil.bin", "outside"});
  }

  void missing_shard() {
    Fixture f;
    f.j["weightsManifest"][0]["paths"] = {"w.bin", "gone.bin"};
    expect_refused(f, {"gone.bin", "missing"});
  }

  void shard_is_a_folder() {
    Fixture f;
    fs::create_directory(f.dir.path / "d.bin");
    f.j["weightsManifest"][0]["paths"] = {"d.bin"};
    expect_refused(f, {"d.bin", "regular file"});
  }

  // A FIFO must be refused, not opened and waited on.
  void fifo_in_place_of_files() {
    Fixture f;
    QCOMPARE(::mkfifo((f.dir.path / "p.bin").c_str(), 0600), 0);
    f.j["weightsManifest"][0]["paths"] = {"p.bin"};
    expect_refused(f, {"p.bin", "regular file"});
    TempDir d;
    QCOMPARE(::mkfifo((d.path / "model.json").c_str(), 0600), 0);
    expect_refused(d.path, (d.path / "model.json").string(), {"regular"});
  }

  void short_shard_names_shard_and_weight() {
    Fixture f;
    f.weight(1)["shape"] = {2};  // b needs 8 bytes at offset 8; w.bin has 12
    expect_refused(f, {"'w.bin'", "too short", "'b'", "8..16"});
  }

  void short_second_shard() {
    Fixture f;
    write_file(f.dir.path / "w2.bin", "\x01\x02");
    f.j["weightsManifest"][0]["paths"] = {"w.bin", "w2.bin"};
    f.j["weightsManifest"][0]["weights"].push_back(weight_entry("c", {1}, "float32"));
    expect_refused(f, {"'w2.bin'", "'c'"});
  }

  void group_without_files() {
    Fixture f;
    f.j["weightsManifest"][0]["paths"] = json::array();
    expect_refused(f, {"'a'", "lists no weight files"});
  }

  void string_length_runs_off_the_end() {
    Fixture f;
    write_file(f.dir.path / "s.bin", string_bytes({"ok"}) + std::string("\xff\x00\x00\x00zz", 6));
    f.j["weightsManifest"][0] = {{"paths", {"s.bin"}},
                                 {"weights", {weight_entry("s", {2}, "string")}}};
    expect_refused(f, {"'s.bin'", "'s'"});
  }

  void huge_string_count_is_refused_cheaply() {
    Fixture f;
    f.j["weightsManifest"][0]["weights"] =
        json::array({weight_entry("s", {1000000000000LL}, "string")});
    expect_refused(f, {"'w.bin'", "'s'"});
  }

  // Random damage to a valid bundle: it loads or fails with a ModelError, never anything else.
  void mutations_never_crash() {
    Fixture f;
    auto e = weight_entry("q", {3}, "float32");
    e["quantization"] = {{"dtype", "uint8"}, {"scale", 0.5}, {"min", 1}};
    f.j["weightsManifest"][0]["weights"].push_back(e);
    f.j["weightsManifest"][0]["weights"].push_back(weight_entry("s", {2}, "string"));
    const std::string shard =
        f32_bytes({1, 2}) + i32_bytes({3}) + u8_bytes({1, 2, 3}) + string_bytes({"ab", "c"});
    const std::string text = f.j.dump();
    std::mt19937 rng(1234);
    for (int round = 0; round < 400; ++round) {
      std::string t = text, s = shard;
      auto& target = round % 2 ? t : s;
      const int edits = 1 + static_cast<int>(rng() % 3);
      for (int k = 0; k < edits && !target.empty(); ++k) {
        const auto at = rng() % target.size();
        switch (rng() % 3) {
          case 0:
            target[at] = static_cast<char>(rng());
            break;
          case 1:
            target.erase(at, 1 + rng() % 4);
            break;
          case 2:
            target.resize(at);
            break;
        }
      }
      write_file(f.file, t);
      write_file(f.dir.path / "w.bin", s);
      try {
        (void)tfjsi::model::load_bundle(f.file);
      } catch (const tfjsi::ModelError& err) {
        QVERIFY(std::string(err.what()).rfind(f.file.string(), 0) == 0);
      } catch (const std::exception& err) {
        QFAIL(qPrintable(QString("round %1: not a ModelError: %2").arg(round).arg(err.what())));
      }
    }
  }
};

QTEST_GUILESS_MAIN(BrokenBundleTest)
#include "broken_bundle_test.moc"
