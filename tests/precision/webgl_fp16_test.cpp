// fp16 that follows TF.js webgl (flag fp16_follow=webgl, the default; issue #24), on one
// reference layers model (the first argument). TF.js 4.22's own webgl fp16 error on Mesa llvmpipe
// was recorded by record_webgl_errors.py beside this file (TF.js in Chromium, nothing from tfjsi),
// against the same golden outputs of tests/reference. Our gl fp16 run and the fp16 check's
// emulation (under llvmpipe's rule, toward zero and clamp) must land within 0.5x-2x of it, or
// both under 1e-4, as the issue asks (before this mode gl fp16 was at 2.01x on seq_cnn; most of
// these models now give TF.js's figure to the last digit, but a model with a few output values
// near one, as embed_lstm, moves by a whole half-float step at a time).
#include <QCryptographicHash>
#include <QFile>
#include <QtTest>
#include <fstream>

#include "analysis/fp16_emulation.h"
#include "analysis/node_trace.h"
#include "analysis/tensor_error.h"
#include "backends/all_backends.h"
#include "graph/build.h"
#include "io/npy.h"
#include "model/bundle.h"
#include "runtime/fp16_follow.h"
#include "support/test_support.h"

using namespace tfjsi;
using nlohmann::json;

namespace {

std::string g_model;
constexpr double kLow = 0.5, kHigh = 2.0, kFloor = 1e-4;

json read_json(const std::filesystem::path& p) {
  std::ifstream in(p);
  if (!in) throw std::runtime_error("cannot open " + p.string());
  return json::parse(in);
}

std::string sha256(const std::filesystem::path& p) {
  QFile f(QString::fromStdString(p.string()));
  if (!f.open(QIODevice::ReadOnly)) throw std::runtime_error("cannot open " + p.string());
  return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex().toStdString();
}

struct Model {
  graph::Graph graph;
  runtime::NamedTensors inputs;
  std::vector<HostTensor> golden;
  std::vector<bool> float_output;
  double tfjs_error = 0;  // TF.js webgl fp16, recorded
};

Model load(const std::string& name) {
  const auto root = test::reference_dir();
  const auto path = root / "layers" / name / "model.json";
  const auto gdir = root / "golden" / name;
  const json rec =
      read_json(test::source_dir() / "tests" / "precision" / "webgl_fp16_errors.json")["models"].at(
          name);
  const json g = read_json(gdir / "golden.json");
  // The recorded figure is only this data's when the model and inputs are the measured ones.
  if (sha256(path) != rec["model_sha256"].get<std::string>())
    throw std::runtime_error(path.string() +
                             " is not the model TF.js webgl was measured on: run "
                             "tests/precision/record_webgl_errors.py again");
  Model m;
  m.graph = graph::build_graph(model::load_bundle(path));
  for (std::size_t k = 0; k < g["inputs"].size(); ++k) {
    const auto file = gdir / g["inputs"][k]["file"].get<std::string>();
    if (sha256(file) != rec["inputs_sha256"].at(k).get<std::string>())
      throw std::runtime_error(file.string() + " is not the input TF.js webgl was measured on");
    m.inputs.emplace(m.graph.inputs.at(k).name, io::read_npy(file));
  }
  for (const auto& o : g["outputs"]) {
    m.golden.push_back(io::read_npy(gdir / o["file"].get<std::string>()));
    m.float_output.push_back(m.golden.back().dtype == DType::Float32);
  }
  m.tfjs_error = rec["error"].get<double>();
  return m;
}

// As the recorder measures: the largest over float outputs.
double error_of(const Model& m, const std::vector<HostTensor>& out) {
  double worst = 0;
  for (std::size_t k = 0; k < m.golden.size(); ++k)
    if (m.float_output[k])
      worst = std::max(worst, analysis::tensor_error(m.golden[k], out.at(k)).normalized());
  return worst;
}

void expect_like_tfjs(const Model& m, double ours, const char* what) {
  const QString msg = QString("%1: ours %2, TF.js webgl fp16 %3 (ratio %4)")
                          .arg(what)
                          .arg(ours)
                          .arg(m.tfjs_error)
                          .arg(ours / m.tfjs_error);
  if (m.tfjs_error <= kFloor) {
    QVERIFY2(ours <= kFloor, qPrintable(msg));
    return;
  }
  QVERIFY2(ours >= kLow * m.tfjs_error && ours <= kHigh * m.tfjs_error, qPrintable(msg));
}

// fp16 on gl, or on the emulation under llvmpipe's rule, both following TF.js webgl.
std::vector<HostTensor> run_fp16(const Model& m, bool gl) {
  runtime::Engine engine;
  backends::add_all_backends(engine);
  if (gl) {
    engine.set_backend("gl");
    const auto avail = engine.backend().availability();
    if (!avail.available) throw std::runtime_error("gl is not available: " + avail.reason);
    engine.set_precision(runtime::Precision::Fp16);
    if (engine.flags().get_string(runtime::kFp16FollowFlag) != "webgl")
      throw std::runtime_error("fp16_follow does not default to webgl");
    runtime::Executor exec(engine, m.graph);
    return exec.run(m.inputs);
  }
  engine.set_backend("cpu");
  const HalfRule mesa{HalfRounding::TowardZero, HalfOverflow::Clamp};
  analysis::NodeIds ids(m.graph);
  const graph::Graph rounded = analysis::graph_with_half_weights(m.graph, mesa, {});
  ids.alias(rounded);
  analysis::Fp16StorageEmulation emu(ids, mesa, {}, runtime::Fp16Follow::Webgl);
  runtime::Executor exec(engine, rounded);
  analysis::ScopedObserver watch(engine, emu);
  return exec.run(analysis::inputs_as_half(m.graph, m.inputs, mesa, {}));
}

}  // namespace

class WebglFp16Test : public QObject {
  Q_OBJECT
 private slots:
  void emulation_predicts_tfjs_webgl() {
    const Model m = load(g_model);
    expect_like_tfjs(m, error_of(m, run_fp16(m, false)), "emulation");
  }

  void gl_predicts_tfjs_webgl() {
    const Model m = load(g_model);
    expect_like_tfjs(m, error_of(m, run_fp16(m, true)), "gl fp16");
  }

  // Both round in the same places, so they give the same outputs but for fp32 arithmetic
  // (GLSL's exp and division, sums in another order) that can move a value across a half-float
  // step: within one step of each output's largest magnitude. (Before, gl fused a bias add or an
  // activation into the kernel before it and the emulation did not.)
  void gl_and_emulation_agree() {
    const Model m = load(g_model);
    const auto gl = run_fp16(m, true), emu = run_fp16(m, false);
    for (std::size_t k = 0; k < m.golden.size(); ++k) {
      if (!m.float_output[k]) continue;
      const auto e = analysis::tensor_error(emu.at(k), gl.at(k));
      const double step = std::ldexp(std::max(1.0, e.ref_max_abs), -10);
      QVERIFY(!e.shape_mismatch && e.new_nonfinite == 0 && e.lost_nonfinite == 0);
      QVERIFY2(e.max_abs_error <= step,
               qPrintable(QString("output %1: gl and emulation differ by %2, "
                                  "more than one half-float step (%3)")
                              .arg(k)
                              .arg(e.max_abs_error)
                              .arg(step)));
    }
  }
};

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: webgl_fp16_test MODEL [QtTest options]\n");
    return 2;
  }
  g_model = argv[1];
  std::vector<char*> rest{argv[0]};
  for (int i = 2; i < argc; ++i) rest.push_back(argv[i]);
  WebglFp16Test t;
  return QTest::qExec(&t, static_cast<int>(rest.size()), rest.data());
}

#include "webgl_fp16_test.moc"
