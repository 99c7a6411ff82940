// The fp16 check on the three fp16 test models of tests/reference (the model's name is the first
// argument). Which layer overflows or underflows comes from TF.js (precision/NAME.json, made
// with the models), the inputs and fp32 outputs from its golden data. The check must name a node
// of that layer, under IEEE rounding and under Mesa's truncating, saturating rule; its proposed
// fp32 set, re-run here through the emulation, must bring the outputs back to TF.js's within
// tolerance; gl fp16, when the driver is there, must show the same problem; and tfjsi check-fp16
// --json must say what the library says.
#include <QtTest>
#include <fstream>
#include <unordered_set>

#include "analysis/fp16_check.h"
#include "analysis/fp16_emulation.h"
#include "analysis/node_trace.h"
#include "backends/all_backends.h"
#include "graph/build.h"
#include "io/npy.h"
#include "model/bundle.h"
#include "support/test_support.h"

using namespace tfjsi;
using nlohmann::json;

namespace {

std::string g_model;

json read_json(const std::filesystem::path& p) {
  std::ifstream in(p);
  if (!in) throw std::runtime_error("cannot open " + p.string());
  return json::parse(in);
}

struct Model {
  graph::Graph graph;
  runtime::NamedTensors inputs;
  std::vector<HostTensor> golden;
  json facts;
  std::filesystem::path path;
};

Model load(const std::string& name) {
  Model m;
  const auto root = test::reference_dir();
  m.path = root / "layers" / name / "model.json";
  m.graph = graph::build_graph(model::load_bundle(m.path));
  const auto gdir = root / "golden" / name;
  const json g = read_json(gdir / "golden.json");
  if (g.value("model", "") != "layers/" + name + "/model.json")
    throw std::runtime_error(gdir.string() + " is not the golden data of " + name);
  for (std::size_t k = 0; k < g["inputs"].size(); ++k)
    m.inputs.emplace(m.graph.inputs.at(k).name,
                     io::read_npy(gdir / g["inputs"][k]["file"].get<std::string>()));
  for (const auto& o : g["outputs"])
    m.golden.push_back(io::read_npy(gdir / o["file"].get<std::string>()));
  m.facts = read_json(root / "precision" / (name + ".json"));
  return m;
}

std::string layer_of(const graph::Graph& g, const std::optional<std::string>& node) {
  if (!node) return "(none)";
  const int i = g.find(*node);
  if (i < 0) return "(not a node: " + *node + ")";
  return g.nodes[i].group;
}

std::optional<std::string> fact(const json& facts, const char* key) {
  if (facts[key].is_null()) return std::nullopt;
  return facts[key].get<std::string>();
}

// The proposed plan, re-run independently of the checker, against TF.js's outputs.
double mixed_plan_error(runtime::Engine& engine, const Model& m,
                        const std::vector<std::string>& fp32, analysis::HalfRule rule) {
  analysis::NodeIds ids(m.graph);
  std::unordered_set<int> keep;
  for (const auto& n : fp32) keep.insert(m.graph.find(n));
  const graph::Graph rounded = analysis::graph_with_half_weights(m.graph, rule, keep);
  ids.alias(rounded);
  analysis::Fp16StorageEmulation emu(ids, rule, keep);
  engine.set_backend("cpu");
  runtime::Executor exec(engine, rounded);
  analysis::ScopedObserver watch(engine, emu);
  const auto out = exec.run(analysis::inputs_as_half(m.graph, m.inputs, rule, keep));
  double worst = 0;
  for (std::size_t k = 0; k < out.size(); ++k)
    worst = std::max(worst, analysis::tensor_error(m.golden.at(k), out[k]).normalized());
  return worst;
}

}  // namespace

class Fp16ModelsTest : public QObject {
  Q_OBJECT
 private slots:
  void names_the_layer_and_fixes_it_data() {
    QTest::addColumn<int>("rounding");
    QTest::addColumn<int>("overflow");
    QTest::newRow("ieee") << int(analysis::HalfRounding::NearestEven)
                          << int(analysis::HalfOverflow::Inf);
    QTest::newRow("mesa") << int(analysis::HalfRounding::TowardZero)
                          << int(analysis::HalfOverflow::Clamp);
  }

  void names_the_layer_and_fixes_it() {
    QFETCH(int, rounding);
    QFETCH(int, overflow);
    const Model m = load(g_model);
    runtime::Engine engine;
    backends::add_all_backends(engine);
    analysis::Fp16CheckOptions opt;
    opt.rule = {analysis::HalfRounding(rounding), analysis::HalfOverflow(overflow)};
    opt.use_gl = false;
    const auto r = analysis::check_fp16(engine, m.graph, m.inputs, opt);
    const auto want_over = fact(m.facts, "first_overflow_layer");
    const auto want_under = fact(m.facts, "first_underflow_layer");
    QCOMPARE(layer_of(m.graph, r.first_overflow), want_over.value_or("(none)"));
    QCOMPARE(layer_of(m.graph, r.first_underflow), want_under.value_or("(none)"));
    const auto culprit = want_over ? want_over : want_under;
    if (!culprit) {
      QVERIFY2(r.fp16_safe, qPrintable(QString("output error %1").arg(r.max_output_error)));
      QVERIFY(r.max_output_error <= opt.output_tolerance);
      QVERIFY(r.fp32_nodes.empty());
      QVERIFY(r.fixed);
      return;
    }
    QVERIFY(!r.fp16_safe);
    QCOMPARE(layer_of(m.graph, r.first_error), *culprit);
    QVERIFY2(r.max_output_error > opt.output_tolerance,
             qPrintable(QString("fp16 output error only %1").arg(r.max_output_error)));
    QVERIFY(!r.error_path.empty());
    QCOMPARE(layer_of(m.graph, r.error_path.front().node), *culprit);
    QVERIFY2(r.fixed, qPrintable(QString("fixed_max_error %1").arg(r.fixed_max_error)));
    QVERIFY(!r.fp32_nodes.empty());
    for (const auto& n : r.fp32_nodes) QCOMPARE(layer_of(m.graph, n), *culprit);
    QVERIFY(r.fixed_max_error <= opt.output_tolerance);
    const double again = mixed_plan_error(engine, m, r.fp32_nodes, opt.rule);
    QVERIFY2(again <= opt.output_tolerance,
             qPrintable(QString("mixed plan against TF.js: %1").arg(again)));
  }

  void gl_fp16_agrees() {
    const Model m = load(g_model);
    runtime::Engine engine;
    backends::add_all_backends(engine);
    const auto r = analysis::check_fp16(engine, m.graph, m.inputs);
    QVERIFY2(r.probe.available, qPrintable(QString::fromStdString(r.probe.reason)));
    QVERIFY(r.probe.store.exact);
    QVERIFY(r.gl_max_output_error.has_value());
    const bool bad =
        !m.facts["first_overflow_layer"].is_null() || !m.facts["first_underflow_layer"].is_null();
    QCOMPARE(*r.gl_max_output_error > r.output_tolerance, bad);
    // The emulation under the driver's own rule predicts what gl does.
    QVERIFY(r.driver_max_output_error.has_value());
    QCOMPARE(*r.driver_max_output_error > r.output_tolerance, bad);
  }

  void command_line_json() {
    const Model m = load(g_model);
    const auto res = test::run_tfjsi(
        {"check-fp16", QString::fromStdString(m.path.string()), "--json", "--no-gl"}, 300000);
    QVERIFY2(!res.crashed && res.exit_code == 0, res.err.constData());
    const json j = res.json();
    for (const char* key : {"overflow_rule", "first_overflow", "first_underflow", "first_error",
                            "nodes", "fp32_nodes", "fixed_max_error"})
      QVERIFY2(j.contains(key), key);
    const auto want = fact(m.facts, "first_overflow_layer");
    QCOMPARE(layer_of(m.graph, j["first_overflow"].is_null()
                                   ? std::nullopt
                                   : std::optional<std::string>(j["first_overflow"])),
             want.value_or("(none)"));
    QCOMPARE(j["overflow_rule"].get<std::string>(), std::string("inf"));
    QVERIFY(j["nodes"].size() > 0);
  }
};

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: fp16_models_test MODEL [QtTest options]\n");
    return 2;
  }
  g_model = argv[1];
  std::vector<char*> rest{argv[0]};
  for (int i = 2; i < argc; ++i) rest.push_back(argv[i]);
  Fp16ModelsTest t;
  return QTest::qExec(&t, static_cast<int>(rest.size()), rest.data());
}

#include "fp16_models_test.moc"
