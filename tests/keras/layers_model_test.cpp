// One real tfjs-layers bundle (its name, "layers/NAME", is the first argument), lowered with
// build_graph and checked against the golden data TF.js 4.22 made for it: every layer of the
// config owns nodes, endpoints match golden.json, static shapes give the golden output shapes,
// and the cpu backend reproduces TF.js's outputs within the fp32 tolerance.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>

#include "graph/build.h"
#include "io/npy.h"
#include "model/bundle.h"
#include "runtime/executor.h"
#include "support/test_support.h"

using namespace tfjsi;
using namespace tfjsi::graph;
using nlohmann::json;

namespace {

std::string g_model;  // "layers/seq_cnn"

json read_json(const std::filesystem::path& p) {
  std::ifstream in(p);
  if (!in) throw std::runtime_error("cannot open " + p.string());
  return json::parse(in);
}

// The golden folder of a model: the one whose golden.json names `<model>/model.json`.
std::filesystem::path golden_dir(const std::string& model) {
  const auto root = test::reference_dir() / "golden";
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    const auto g = entry.path() / "golden.json";
    if (!std::filesystem::exists(g)) continue;
    if (read_json(g).value("model", "") == model + "/model.json") return entry.path();
  }
  throw std::runtime_error("no golden data names " + model + "/model.json under " + root.string());
}

std::vector<std::int64_t> dims_of(const json& j) {
  return j.get<std::vector<std::int64_t>>();
}

// Layer paths as the config defines them ("block/block_conv" inside a nested model "block").
void collect_layers(const json& model, const std::string& prefix, std::vector<std::string>& out,
                    bool top) {
  const json& config = model["config"];
  const json& layers = config.is_array() ? config : config["layers"];
  const bool sequential = model["class_name"] == "Sequential";
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const json& l = layers[i];
    const std::string name =
        l.contains("name") ? l["name"].get<std::string>() : l["config"]["name"].get<std::string>();
    const std::string cls = l["class_name"];
    if (cls == "Sequential" || cls == "Model" || cls == "Functional") {
      collect_layers(l, prefix + name + "/", out, false);
      continue;
    }
    // A nested model's InputLayer is replaced by its call's inputs.
    if (cls == "InputLayer" && !top) continue;
    out.push_back(prefix + name);
    if (top && sequential && i == 0 && cls != "InputLayer") out.push_back(name + "_input");
  }
}

// Runs `body`, turning an exception into a test failure that shows its message.
#define NO_THROW(body)                  \
  do {                                  \
    try {                               \
      body;                             \
    } catch (const std::exception& e) { \
      QFAIL(e.what());                  \
    }                                   \
  } while (0)

float max_abs(std::span<const float> v) {
  float m = 0;
  for (float x : v) m = std::max(m, std::fabs(x));
  return m;
}

class LayersModelTest : public QObject {
  Q_OBJECT

  std::filesystem::path model_json_;
  std::filesystem::path golden_;
  json golden_json_;
  model::Bundle bundle_;
  Graph graph_;

 private slots:
  void initTestCase() {
    NO_THROW(model_json_ = test::reference_dir() / g_model / "model.json");
    QVERIFY2(std::filesystem::exists(model_json_), model_json_.c_str());
    NO_THROW(golden_ = golden_dir(g_model));
    NO_THROW(golden_json_ = read_json(golden_ / "golden.json"));
    QCOMPARE(golden_json_.value("kind", ""), std::string("layers"));
    NO_THROW(bundle_ = model::load_bundle(model_json_));
    QVERIFY(bundle_.kind == model::ModelKind::Layers);
    NO_THROW(graph_ = build_graph(bundle_));
  }

  void every_layer_has_nodes() {
    std::vector<std::string> layers;
    collect_layers(bundle_.topology.contains("model_config") ? bundle_.topology["model_config"]
                                                             : bundle_.topology,
                   "", layers, true);
    QVERIFY(!layers.empty());
    std::set<std::string> groups;
    for (const auto& n : graph_.nodes) {
      QVERIFY2(!n.group.empty(), ("node without a group: " + n.name).c_str());
      groups.insert(n.group);
    }
    for (const auto& l : layers)
      QVERIFY2(groups.count(l), ("layer " + l + " has no nodes grouped under it").c_str());
    // And no node belongs to a layer the config does not have.
    for (const auto& g : groups)
      QVERIFY2(std::find(layers.begin(), layers.end(), g) != layers.end(),
               ("group " + g + " is not a layer of the config").c_str());
  }

  void node_names_are_layer_scoped() {
    for (const auto& n : graph_.nodes)
      QVERIFY2(n.name == n.group || n.name.starts_with(n.group + "/"),
               ("node " + n.name + " is not named after its layer " + n.group).c_str());
  }

  void endpoints_match_golden() {
    const json& gin = golden_json_["inputs"];
    const json& gout = golden_json_["outputs"];
    QCOMPARE(graph_.inputs.size(), gin.size());
    QCOMPARE(graph_.outputs.size(), gout.size());
    for (std::size_t i = 0; i < gin.size(); ++i) {
      const Endpoint& e = graph_.inputs[i];
      QCOMPARE(e.name, gin[i]["name"].get<std::string>());
      QVERIFY(e.dtype.has_value());
      QCOMPARE(std::string(to_string(*e.dtype)), gin[i]["dtype"].get<std::string>());
      QCOMPARE(graph_.nodes[static_cast<std::size_t>(e.ref.node)].op, std::string("Placeholder"));
      // Keras leaves the batch open; every other dim is what TF.js was fed.
      const auto want = dims_of(gin[i]["shape"]);
      QVERIFY(e.shape.rank_known);
      QCOMPARE(e.shape.dims.size(), want.size());
      QCOMPARE(e.shape.dims[0], std::int64_t{-1});
      for (std::size_t d = 1; d < want.size(); ++d) QCOMPARE(e.shape.dims[d], want[d]);
    }
    for (std::size_t i = 0; i < gout.size(); ++i) {
      const Endpoint& e = graph_.outputs[i];
      QCOMPARE(e.name, gout[i]["name"].get<std::string>());
      QVERIFY(e.dtype.has_value());
      QCOMPARE(std::string(to_string(*e.dtype)), gout[i]["dtype"].get<std::string>());
      const auto want = dims_of(gout[i]["shape"]);
      QVERIFY2(e.shape.rank_known, ("output " + e.name + " has unknown rank").c_str());
      QCOMPARE(e.shape.dims.size(), want.size());
      for (std::size_t d = 1; d < want.size(); ++d)
        QVERIFY2(e.shape.dims[d] == want[d] || e.shape.dims[d] == -1,
                 ("output " + e.name + " shape " + e.shape.to_string()).c_str());
    }
  }

  void shapes_with_golden_inputs() {
    // With the placeholders fixed to the inputs TF.js was given, static inference must give
    // exactly the golden output shapes.
    Graph g = graph_;
    const json& gin = golden_json_["inputs"];
    for (std::size_t i = 0; i < gin.size(); ++i) {
      Node& p = g.nodes[static_cast<std::size_t>(g.inputs[i].ref.node)];
      p.attrs["shape"] = PartialShape::of(dims_of(gin[i]["shape"]));
      g.inputs[i].shape = PartialShape::of(dims_of(gin[i]["shape"]));
    }
    for (auto& o : g.outputs) o.shape = PartialShape::unknown();
    infer_shapes(g);
    const json& gout = golden_json_["outputs"];
    for (std::size_t i = 0; i < gout.size(); ++i) {
      const auto want = PartialShape::of(dims_of(gout[i]["shape"]));
      QVERIFY2(g.outputs[i].shape == want,
               (g.outputs[i].name + ": " + g.outputs[i].shape.to_string() + " vs golden " +
                want.to_string())
                   .c_str());
    }
  }

  void cpu_matches_tfjs() {
    runtime::Engine engine;
    engine.set_backend("cpu");
    runtime::NamedTensors feeds;
    for (const auto& in : golden_json_["inputs"])
      feeds[in["name"].get<std::string>()] = io::read_npy(golden_ / in["file"].get<std::string>());
    std::vector<HostTensor> outs;
    NO_THROW({
      runtime::Executor exec(engine, graph_);
      outs = exec.run(feeds);
    });
    const json& gout = golden_json_["outputs"];
    QCOMPARE(outs.size(), gout.size());
    for (std::size_t i = 0; i < gout.size(); ++i) {
      const HostTensor want = io::read_npy(golden_ / gout[i]["file"].get<std::string>());
      const std::string name = gout[i]["name"];
      QCOMPARE(outs[i].shape, want.shape);
      QVERIFY(outs[i].dtype == DType::Float32 && want.dtype == DType::Float32);
      const auto a = outs[i].values<float>();
      const auto b = want.values<float>();
      float worst = 0;
      std::size_t at = 0;
      for (std::size_t k = 0; k < a.size(); ++k) {
        const float d = std::fabs(a[k] - b[k]);
        if (!(d <= worst)) {
          worst = d;
          at = k;
        }
      }
      const float tolerance = 1e-3f * std::max(1.0f, max_abs(b));
      qInfo("%s: max |ours - golden| = %g (tolerance %g)", name.c_str(), worst, tolerance);
      QVERIFY2(worst <= tolerance,
               (name + ": max |ours - golden| = " + std::to_string(worst) + " at " +
                std::to_string(at) + " (ours " + std::to_string(a[at]) + ", golden " +
                std::to_string(b[at]) + "), tolerance " + std::to_string(tolerance))
                   .c_str());
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s layers/NAME [Qt Test options]\n", argv[0]);
    return 2;
  }
  g_model = argv[1];
  std::vector<char*> args{argv[0]};
  for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
  QCoreApplication app(argc, argv);
  LayersModelTest test;
  return QTest::qExec(&test, static_cast<int>(args.size()), args.data());
}

#include "layers_model_test.moc"
