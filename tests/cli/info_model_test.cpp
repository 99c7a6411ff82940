// `tfjsi info --json` against an independent reading of the same model.json: node count, op
// histogram, signature and weight bytes are recomputed here straight from the JSON (not through
// the engine), and endpoint names are checked against what real TF.js reported when it made the
// golden data. Run once per model: the model's name is the first argument.
#include <QtTest>
#include <fstream>
#include <map>
#include <set>

#include "support/test_support.h"

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string g_model;  // corpus model name, or "layers/NAME" for a reference layers model

fs::path model_path() {
  if (g_model.starts_with("layers/")) return tfjsi::test::reference_dir() / g_model / "model.json";
  return tfjsi::test::corpus_model(g_model);
}

json read_json(const fs::path& p) {
  std::ifstream in(p);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  return json::parse(in);
}

std::size_t bytes_per_stored_element(const json& w) {
  std::string dtype = w.at("dtype").get<std::string>();
  if (w.contains("quantization")) dtype = w["quantization"].at("dtype").get<std::string>();
  if (dtype == "float32" || dtype == "int32") return 4;
  if (dtype == "float16" || dtype == "uint16") return 2;
  if (dtype == "uint8" || dtype == "bool") return 1;
  throw std::runtime_error("test does not know stored dtype " + dtype);
}

}  // namespace

class InfoModelTest : public QObject {
  Q_OBJECT

 private slots:
  void matchesTheModelJson() {
    const fs::path path = model_path();
    const json raw = read_json(path);
    const auto r =
        tfjsi::test::run_tfjsi({"info", QString::fromStdString(path.string()), "--json"});
    QVERIFY2(!r.crashed, r.err.constData());
    QCOMPARE(r.exit_code, 0);
    const json info = r.json();

    const bool layers = raw["modelTopology"].contains("model_config") ||
                        raw["modelTopology"].contains("class_name");
    QCOMPARE(info["kind"].get<std::string>(), std::string(layers ? "layers-model" : "graph-model"));

    // Weights: count and bytes on disk, straight from the manifest.
    std::size_t count = 0;
    std::uint64_t stored = 0, shard_bytes = 0;
    std::map<std::string, int> quant;
    for (const auto& group : raw["weightsManifest"]) {
      for (const auto& p : group["paths"])
        shard_bytes += fs::file_size(path.parent_path() / p.get<std::string>());
      for (const auto& w : group["weights"]) {
        ++count;
        std::uint64_t n = 1;
        for (const auto& d : w["shape"]) n *= d.get<std::uint64_t>();
        if (w["dtype"] == "string") continue;  // variable length; covered by shard_bytes below
        stored += n * bytes_per_stored_element(w);
        ++quant[w.contains("quantization") ? w["quantization"]["dtype"].get<std::string>()
                                           : std::string("none")];
      }
    }
    QCOMPARE(info["weights"]["count"].get<std::size_t>(), count);
    QCOMPARE(info["weights"]["bytes_on_disk"].get<std::uint64_t>(), stored);
    QCOMPARE(stored, shard_bytes);  // the corpus and reference shards hold exactly the manifest
    for (const auto& [q, n] : quant)
      QCOMPARE(info["weights"]["by_quantization"][q]["count"].get<int>(), n);

    if (!layers) {
      // Node count and op histogram of a graph model are those of modelTopology.node.
      std::map<std::string, int> ops;
      for (const auto& n : raw["modelTopology"]["node"]) ++ops[n["op"].get<std::string>()];
      QCOMPARE(info["node_count"].get<std::size_t>(), raw["modelTopology"]["node"].size());
      using Histogram = std::map<std::string, int>;
      QCOMPARE(info["op_histogram"].get<Histogram>(), ops);
    } else {
      // A layers model lowers every layer to one or more nodes grouped under its name.
      const json& topo = raw["modelTopology"];
      const json& mc = topo.contains("model_config") ? topo["model_config"] : topo;
      const json& config = mc["config"];
      const json& layer_list = config.is_array() ? config : config["layers"];
      QVERIFY(layer_list.is_array() && !layer_list.empty());
      QVERIFY(info["node_count"].get<std::size_t>() >= layer_list.size());
    }

    // Endpoints: the names and order real TF.js reported (golden.json, written by tests/reference).
    const fs::path golden =
        tfjsi::test::reference_dir() / "golden" / fs::path(g_model).filename() / "golden.json";
    const json g = read_json(golden);
    QVERIFY2(!g.contains("error"), g.dump().c_str());
    QCOMPARE(info["inputs"].size(), g["inputs"].size());
    QCOMPARE(info["outputs"].size(), g["outputs"].size());
    std::set<std::string> want_inputs, got_inputs;
    // TF.js feeds a graph model by signature key ("input_1:0") where the signature has one; our
    // endpoints carry the same names.
    for (const auto& e : g["inputs"])
      want_inputs.insert(e.contains("key") ? e["key"].get<std::string>()
                                           : e["name"].get<std::string>());
    for (const auto& e : info["inputs"]) got_inputs.insert(e["name"].get<std::string>());
    QCOMPARE(got_inputs, want_inputs);  // inputs are fed by name: order is free
    for (std::size_t i = 0; i < g["outputs"].size(); ++i)
      QCOMPARE(info["outputs"][i]["name"].get<std::string>(),
               g["outputs"][i]["name"].get<std::string>());
  }
};

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MODEL_NAME [QtTest options]\n", argv[0]);
    return 2;
  }
  g_model = argv[1];
  QCoreApplication app(argc, argv);
  InfoModelTest t;
  // Hand QtTest the remaining arguments, without the model name.
  std::vector<char*> rest{argv[0]};
  for (int i = 2; i < argc; ++i) rest.push_back(argv[i]);
  return QTest::qExec(&t, static_cast<int>(rest.size()), rest.data());
}

#include "info_model_test.moc"
