// Broken bundles through `tfjsi info`, as a user meets them: each malformation must end with exit
// code 1 and a message that names the culprit (file, weight or node), never a crash or a hang.
// Every case starts from one small valid graph model written here and breaks one thing in it.
#include <QtTest>
#include <fstream>

#include "support/test_support.h"

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// x (Placeholder [1,4]) + w (Const [4], from the manifest) -> y
json valid_model() {
  return json::parse(R"({
    "format": "graph-model",
    "generatedBy": "test",
    "convertedBy": "test",
    "modelTopology": {
      "node": [
        {"name": "x", "op": "Placeholder",
         "attr": {"dtype": {"type": "DT_FLOAT"},
                  "shape": {"shape": {"dim": [{"size": "1"}, {"size": "4"}]}}}},
        {"name": "w", "op": "Const",
         "attr": {"dtype": {"type": "DT_FLOAT"},
                  "value": {"tensor": {"dtype": "DT_FLOAT",
                                       "tensorShape": {"dim": [{"size": "4"}]}}}}},
        {"name": "y", "op": "AddV2", "input": ["x", "w"], "attr": {"T": {"type": "DT_FLOAT"}}}
      ],
      "versions": {"producer": 1}
    },
    "weightsManifest": [
      {"paths": ["group1-shard1of1.bin"],
       "weights": [{"name": "w", "shape": [4], "dtype": "float32"}]}
    ]
  })");
}

struct Bundle {
  tfjsi::test::TempDir dir;
  fs::path json_path() const { return dir.path / "model" / "model.json"; }
  fs::path folder() const { return dir.path / "model"; }
};

void write_file(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << bytes;
}

// Writes `model` and a shard of `shard_bytes` bytes next to it.
void write_bundle(const Bundle& b, const json& model, std::size_t shard_bytes = 16) {
  write_file(b.json_path(), model.dump(1));
  write_file(b.folder() / "group1-shard1of1.bin", std::string(shard_bytes, '\x01'));
}

}  // namespace

class BrokenBundleTest : public QObject {
  Q_OBJECT

  // Runs `tfjsi info` on the bundle and checks the outcome: exit 1, no crash, and each of
  // `culprits` named in the message.
  void expect_refused(const Bundle& b, const QStringList& culprits, const fs::path& target = {}) {
    const fs::path path = target.empty() ? b.json_path() : target;
    const auto r = tfjsi::test::run_tfjsi({"info", QString::fromStdString(path.string())}, 30000);
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(!r.crashed, qPrintable("tfjsi crashed or hung; stderr: " + err));
    QVERIFY2(r.exit_code == 1,
             qPrintable(QString("exit code %1, stderr: %2").arg(r.exit_code).arg(err)));
    QVERIFY2(!err.contains("internal error"), qPrintable(err));
    for (const auto& c : culprits)
      QVERIFY2(err.contains(c), qPrintable("message does not name '" + c + "': " + err));
  }

 private slots:
  void theValidBundleLoads() {
    Bundle b;
    write_bundle(b, valid_model());
    const auto r =
        tfjsi::test::run_tfjsi({"info", QString::fromStdString(b.json_path().string()), "--json"});
    QVERIFY2(r.exit_code == 0, r.err.constData());
    QCOMPARE(r.json()["node_count"].get<int>(), 3);
  }

  void badJson() {
    Bundle b;
    write_bundle(b, valid_model());
    std::string text = valid_model().dump();
    write_file(b.json_path(), text.substr(0, text.size() / 2));
    expect_refused(b, {"model.json"});
  }

  void notAnObject() {
    Bundle b;
    write_bundle(b, valid_model());
    write_file(b.json_path(), "[1, 2, 3]");
    expect_refused(b, {"model.json"});
  }

  void missingModelTopology() {
    Bundle b;
    json m = valid_model();
    m.erase("modelTopology");
    write_bundle(b, m);
    expect_refused(b, {"model.json", "modelTopology"});
  }

  void folderWithoutModelJson() {
    Bundle b;
    fs::create_directories(b.folder());
    expect_refused(b, {"model.json"}, b.folder());
  }

  void missingShard() {
    Bundle b;
    write_bundle(b, valid_model());
    fs::remove(b.folder() / "group1-shard1of1.bin");
    expect_refused(b, {"group1-shard1of1.bin"});
  }

  void shortShard() {
    Bundle b;
    write_bundle(b, valid_model(), 10);  // w needs 16 bytes
    expect_refused(b, {"group1-shard1of1.bin", "'w'"});
  }

  void shardPathWithDotDot() {
    Bundle b;
    json m = valid_model();
    m["weightsManifest"][0]["paths"][0] = "../outside.bin";
    write_bundle(b, m);
    write_file(b.dir.path / "outside.bin", std::string(16, '\0'));
    expect_refused(b, {"../outside.bin"});
  }

  void absoluteShardPath() {
    Bundle b;
    json m = valid_model();
    const fs::path abs = b.dir.path / "abs.bin";
    write_file(abs, std::string(16, '\0'));
    m["weightsManifest"][0]["paths"][0] = abs.string();
    write_bundle(b, m);
    expect_refused(b, {QString::fromStdString(abs.string())});
  }

  void shardSymlinkLeavingTheFolder() {
    Bundle b;
    write_bundle(b, valid_model());
    const fs::path outside = b.dir.path / "secret.bin";
    write_file(outside, std::string(16, '\0'));
    fs::remove(b.folder() / "group1-shard1of1.bin");
    fs::create_symlink(outside, b.folder() / "group1-shard1of1.bin");
    expect_refused(b, {"group1-shard1of1.bin"});
  }

  void nonNumericShape() {
    Bundle b;
    json m = valid_model();
    m["weightsManifest"][0]["weights"][0]["shape"] = json::array({"four"});
    write_bundle(b, m);
    expect_refused(b, {"'w'", "shape"});
  }

  void negativeDim() {
    Bundle b;
    json m = valid_model();
    m["weightsManifest"][0]["weights"][0]["shape"] = json::array({-4});
    write_bundle(b, m);
    expect_refused(b, {"'w'"});
  }

  void shapeWhoseByteCountOverflows() {
    Bundle b;
    json m = valid_model();
    m["weightsManifest"][0]["weights"][0]["shape"] = json::array({4294967296LL, 4294967296LL, 16});
    write_bundle(b, m);
    expect_refused(b, {"'w'"});
  }

  void unknownDtype() {
    Bundle b;
    json m = valid_model();
    m["weightsManifest"][0]["weights"][0]["dtype"] = "float64";
    write_bundle(b, m);
    expect_refused(b, {"'w'", "float64"});
  }

  void unknownQuantization() {
    Bundle b;
    json m = valid_model();
    m["weightsManifest"][0]["weights"][0]["quantization"] = {
        {"dtype", "int4"}, {"scale", 1}, {"min", 0}};
    write_bundle(b, m);
    expect_refused(b, {"'w'", "int4"});
  }

  void manifestWithoutPaths() {
    Bundle b;
    json m = valid_model();
    m["weightsManifest"][0].erase("paths");
    write_bundle(b, m);
    expect_refused(b, {"paths"});
  }

  void constWithoutWeight() {
    Bundle b;
    json m = valid_model();
    m["weightsManifest"][0]["weights"][0]["name"] = "not_w";
    write_bundle(b, m);
    expect_refused(b, {"'w'"});
  }

  void inputNamingAMissingNode() {
    Bundle b;
    json m = valid_model();
    m["modelTopology"]["node"][2]["input"][1] = "ghost";
    write_bundle(b, m);
    expect_refused(b, {"'y'", "ghost"});
  }

  void cycleOutsideControlFlow() {
    Bundle b;
    json m = valid_model();
    auto& nodes = m["modelTopology"]["node"];
    nodes.push_back({{"name", "a"}, {"op", "AddV2"}, {"input", {"y", "b"}}});
    nodes.push_back({{"name", "b"}, {"op", "Relu"}, {"input", {"a"}}});
    write_bundle(b, m);
    expect_refused(b, {"cycle"});
  }

  void duplicateNodeName() {
    Bundle b;
    json m = valid_model();
    m["modelTopology"]["node"].push_back(m["modelTopology"]["node"][2]);
    write_bundle(b, m);
    expect_refused(b, {"'y'"});
  }

  void manifestWeightThatNoNodeUses() {
    Bundle b;
    json m = valid_model();
    m["weightsManifest"][0]["weights"].push_back(
        {{"name", "orphan"}, {"shape", {2}}, {"dtype", "float32"}});
    write_bundle(b, m, 24);
    expect_refused(b, {"'orphan'"});
  }

  void weightsManifestOfTheWrongType() {
    Bundle b;
    json m = valid_model();
    m["weightsManifest"] = "group1-shard1of1.bin";
    write_bundle(b, m);
    expect_refused(b, {"weightsManifest"});
  }

  void nodeWithoutOp() {
    Bundle b;
    json m = valid_model();
    m["modelTopology"]["node"][2].erase("op");
    write_bundle(b, m);
    expect_refused(b, {"'y'"});
  }

  void overLongShardIsOnlyAWarning() {
    Bundle b;
    write_bundle(b, valid_model(), 64);
    const auto r = tfjsi::test::run_tfjsi({"info", QString::fromStdString(b.json_path().string())});
    QCOMPARE(r.exit_code, 0);
    QVERIFY2(r.err.contains("group1-shard1of1.bin"), r.err.constData());
  }

  void usageErrorsExitWith2() {
    QCOMPARE(tfjsi::test::run_tfjsi({"info"}).exit_code, 2);
    QCOMPARE(tfjsi::test::run_tfjsi({"info", "a", "--no-such-option"}).exit_code, 2);
    QCOMPARE(tfjsi::test::run_tfjsi({"frobnicate"}).exit_code, 2);
  }
};

QTEST_GUILESS_MAIN(BrokenBundleTest)
#include "broken_bundle_test.moc"
