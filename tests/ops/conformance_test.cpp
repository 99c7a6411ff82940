// The op conformance suite on one backend: every case tests/ops/gen made (a small graph around
// one op of TF.js's converter, with real TF.js 4.22's outputs) run through our engine in this one
// process and compared with DESIGN.md's tolerance: for each float output max |ours - golden| <=
// 1e-3 * max(1, max |golden|) (NaN where TF.js has NaN, infinities equal), ints, bools and strings
// exactly. Where static shape inference (the ops' shape rules: what `tfjsi info` and the graph view
// show) fully knows an output's shape, it must be TF.js's too. Argument: the backend (cpu,
// xnnpack, gl).
//
// tests/ops/unsupported.txt lists what we cannot run yet, by op or case and backend. It is checked
// both ways: a listed case must still fail with our "no kernel on backend ..." message (or a
// kernel's "... is not supported on <backend>" for a mode it lacks; one that passes must leave the
// list), an unlisted one must match. Cases TF.js refuses are counted, not run, but for ops we
// refuse on purpose too (ops/refused.h): those must stop naming the node, the op and why. The suite
// also fails when the converter's op list (ops::converter_ops()) holds an op no case covers.
// Draws TF.js makes without a seed (golden "check": {"uniform": [lo, hi]}) are checked against
// the distribution instead of TF.js's values, and TF.js's own draw is held to the same check.
#include <QtTest>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "backends/all_backends.h"
#include "graph/build.h"
#include "io/npy.h"
#include "model/bundle.h"
#include "ops/converter_ops.h"
#include "ops/refused.h"
#include "runtime/engine.h"
#include "runtime/executor.h"
#include "support/test_support.h"

using nlohmann::json;
namespace fs = std::filesystem;
using namespace tfjsi;

namespace {

std::string g_backend;

json read_json(const fs::path& p) {
  std::ifstream in(p);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  return json::parse(in);
}

fs::path ops_dir() {
  const char* d = std::getenv("TFJSI_OPS_DIR");
  if (!d || !*d || !fs::exists(fs::path(d) / "index.json"))
    throw std::runtime_error(
        "TFJSI_OPS_DIR does not name the op conformance data: run tests/ops/make-ops.sh and "
        "configure with -DTFJSI_OPS_DIR=<the folder it prints>");
  return d;
}

// tests/ops/unsupported.txt: "NAME BACKEND..." per line, NAME an op or a case; # comments.
std::map<std::string, std::set<std::string>> read_unsupported(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::map<std::string, std::set<std::string>> out;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string name, backend;
    if (!(words >> name)) continue;
    while (words >> backend) {
      if (backend != "cpu" && backend != "xnnpack" && backend != "gl")
        throw std::runtime_error(file.string() + ":" + std::to_string(n) + ": backend '" + backend +
                                 "' is not cpu, xnnpack or gl");
      out[name].insert(backend);
    }
    if (out[name].empty())
      throw std::runtime_error(file.string() + ":" + std::to_string(n) + ": " + name +
                               " names no backend");
  }
  return out;
}

// Empty when `got` matches the golden output `want` (in case folder `dir`), else what differs.
std::string compare(const HostTensor& got, const json& want, const fs::path& dir) {
  const std::string want_dtype = want["dtype"].get<std::string>();
  if (to_string(got.dtype) != want_dtype)
    return "dtype " + std::string(to_string(got.dtype)) + ", TF.js " + want_dtype;
  const Shape shape = want["shape"].get<Shape>();
  if (got.shape != shape)
    return "shape " + shape_to_string(got.shape) + ", TF.js " + shape_to_string(shape);
  if (got.dtype == DType::String) {
    const auto values = want["values"].get<std::vector<std::string>>();
    for (std::size_t i = 0; i < values.size(); ++i)
      if ((*got.strings)[i] != values[i])
        return "element " + std::to_string(i) + ": '" + (*got.strings)[i] + "', TF.js '" +
               values[i] + "'";
    return {};
  }
  const HostTensor ref = io::read_npy(dir / want["file"].get<std::string>());
  const std::int64_t n = got.num_elements();
  if (got.dtype == DType::Float32) {
    const auto x = got.values<float>(), y = ref.values<float>();
    double max_golden = 0, max_err = 0;
    std::int64_t worst = -1;
    for (std::int64_t i = 0; i < n; ++i) {
      if (std::isnan(y[i]) || std::isnan(x[i])) {
        if (std::isnan(y[i]) != std::isnan(x[i]))
          return "element " + std::to_string(i) + ": " + std::to_string(x[i]) + ", TF.js " +
                 std::to_string(y[i]);
        continue;
      }
      if (std::isinf(y[i]) || std::isinf(x[i])) {
        if (x[i] != y[i])
          return "element " + std::to_string(i) + ": " + std::to_string(x[i]) + ", TF.js " +
                 std::to_string(y[i]);
        continue;
      }
      max_golden = std::max(max_golden, std::abs(double(y[i])));
      const double e = std::abs(double(x[i]) - double(y[i]));
      if (e > max_err) max_err = e, worst = i;
    }
    const double tol = 1e-3 * std::max(1.0, max_golden);
    if (max_err > tol)
      return "max error " + std::to_string(max_err) + " > " + std::to_string(tol) + " at element " +
             std::to_string(worst) + " (" + std::to_string(x[worst]) + ", TF.js " +
             std::to_string(y[worst]) + ")";
    return {};
  }
  if (got.byte_size() != ref.byte_size() ||
      std::memcmp(got.buffer->data(), ref.buffer->data(), got.byte_size()) != 0) {
    for (std::int64_t i = 0; i < n; ++i) {
      const auto a =
          got.dtype == DType::Int32 ? got.values<std::int32_t>()[i] : got.values<std::uint8_t>()[i];
      const auto b =
          ref.dtype == DType::Int32 ? ref.values<std::int32_t>()[i] : ref.values<std::uint8_t>()[i];
      if (a != b)
        return "element " + std::to_string(i) + ": " + std::to_string(a) + ", TF.js " +
               std::to_string(b);
    }
    return "values differ";
  }
  return {};
}

// Empty when `t` (float32 or int32) looks like draws from the uniform distribution on [lo, hi):
// every value in range (hi itself allowed for float32, where lo + (hi - lo) * u rounds to it, as
// it does in TF.js), and from 1000 values on, mean, variance and the count in each tenth of the
// range within 6 standard errors of the distribution's (a false alarm about once in 10^8 runs).
std::string check_uniform(const HostTensor& t, double lo, double hi) {
  std::vector<double> v;
  if (t.dtype == DType::Float32)
    for (float x : t.values<float>()) v.push_back(x);
  else if (t.dtype == DType::Int32)
    for (std::int32_t x : t.values<std::int32_t>()) v.push_back(x);
  else
    return "dtype " + std::string(to_string(t.dtype)) + " is not a number";
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!(v[i] >= lo && (v[i] < hi || (t.dtype == DType::Float32 && v[i] == hi))))
      return "element " + std::to_string(i) + " = " + std::to_string(v[i]) + " is not in [" +
             std::to_string(lo) + ", " + std::to_string(hi) + ")";
  const double n = static_cast<double>(v.size()), w = hi - lo;
  if (n < 1000 || t.dtype != DType::Float32) return {};
  double mean = 0, var = 0;
  for (double x : v) mean += x;
  mean /= n;
  for (double x : v) var += (x - mean) * (x - mean);
  var /= n;
  std::array<double, 10> bins{};
  for (double x : v) bins[std::min<std::size_t>(9, static_cast<std::size_t>((x - lo) / w * 10))]++;
  const auto off = [](double got, double want, double se) { return std::abs(got - want) > 6 * se; };
  const double var_want = w * w / 12, var_se = w * w * std::sqrt((1.0 / 80 - 1.0 / 144) / n);
  if (off(mean, lo + w / 2, w / std::sqrt(12 * n)))
    return "mean " + std::to_string(mean) + ", uniform " + std::to_string(lo + w / 2);
  if (off(var, var_want, var_se))
    return "variance " + std::to_string(var) + ", uniform " + std::to_string(var_want);
  for (std::size_t b = 0; b < bins.size(); ++b)
    if (off(bins[b], n / 10, std::sqrt(n * 0.09)))
      return "tenth " + std::to_string(b) + " of the range holds " + std::to_string(bins[b]) +
             " values, uniform " + std::to_string(n / 10);
  return {};
}

// Where static shape inference (the ops' shape rules) fully knows an output's shape and it is not
// TF.js's, what differs; empty otherwise.
std::string static_shape_differs(const graph::Graph& graph, const json& golden) {
  std::string diff;
  for (const auto& out : golden["outputs"]) {
    const std::string name = out["name"].get<std::string>();
    const auto colon = name.rfind(':');
    const bool indexed = colon != std::string::npos &&
                         name.find_first_not_of("0123456789", colon + 1) == std::string::npos;
    const int node = graph.find(indexed ? std::string_view(name).substr(0, colon) : name);
    const std::size_t k = indexed ? std::stoul(name.substr(colon + 1)) : 0;
    if (node < 0 || k >= graph.nodes[static_cast<std::size_t>(node)].outputs.size()) continue;
    const PartialShape& s = graph.nodes[static_cast<std::size_t>(node)].outputs[k].shape;
    if (!s.fully_known()) continue;
    const Shape want = out["shape"].get<Shape>();
    if (s.dims != want)
      diff += (diff.empty() ? "" : "; ") + name + ": static shape " + shape_to_string(s.dims) +
              ", TF.js " + shape_to_string(want);
  }
  return diff;
}

// Runs one case; empty when it matches TF.js, else the error or the difference.
std::string run_case(runtime::Engine& engine, const fs::path& dir, const json& golden) {
  const model::Bundle bundle = model::load_bundle(dir / "model.json");
  const graph::Graph graph = graph::build_graph(bundle);
  if (std::string d = static_shape_differs(graph, golden); !d.empty()) return d;
  runtime::Executor executor(engine, graph);
  runtime::NamedTensors inputs;
  for (const auto& in : golden["inputs"])
    inputs[in["name"].get<std::string>()] = io::read_npy(dir / in["file"].get<std::string>());
  std::vector<std::string> names;
  for (const auto& out : golden["outputs"]) names.push_back(out["name"].get<std::string>());
  const std::vector<HostTensor> got = executor.run(inputs, names);
  if (got.size() != names.size()) return "made " + std::to_string(got.size()) + " outputs";
  std::string diff;
  for (std::size_t k = 0; k < got.size(); ++k) {
    const json& want = golden["outputs"][k];
    std::string d;
    if (golden.contains("check")) {
      const auto range = golden["check"].at("uniform").get<std::vector<double>>();
      const Shape shape = want["shape"].get<Shape>();
      if (to_string(got[k].dtype) != want["dtype"].get<std::string>())
        d = "dtype " + std::string(to_string(got[k].dtype)) + ", TF.js " +
            want["dtype"].get<std::string>();
      else if (got[k].shape != shape)
        d = "shape " + shape_to_string(got[k].shape) + ", TF.js " + shape_to_string(shape);
      else if (std::string t = check_uniform(io::read_npy(dir / want["file"].get<std::string>()),
                                             range.at(0), range.at(1));
               !t.empty())
        d = "TF.js's own draw fails the check (the check is wrong): " + t;
      else
        d = check_uniform(got[k], range.at(0), range.at(1));
    } else {
      d = compare(got[k], want, dir);
    }
    if (!d.empty()) diff += (diff.empty() ? "" : "; ") + names[k] + ": " + d;
  }
  return diff;
}

}  // namespace

class OpConformanceTest : public QObject {
  Q_OBJECT

 private slots:
  void every_converter_op_has_a_case() {
    const json index = read_json(ops_dir() / "index.json");
    std::set<std::string> covered, in_data;
    for (const auto& o : index["ops"]) {
      in_data.insert(o["op"].get<std::string>());
      if (!o["cases"].empty()) covered.insert(o["op"].get<std::string>());
    }
    QStringList missing, stale;
    for (const auto& c : ops::converter_ops()) {
      if (!covered.contains(std::string(c.op))) missing << QString::fromUtf8(c.op);
      in_data.erase(std::string(c.op));
    }
    for (const auto& op : in_data) stale << QString::fromStdString(op);
    QVERIFY2(missing.isEmpty(), qPrintable("converter ops no case covers: " + missing.join(' ') +
                                           " (add cases to tests/ops/gen/cases_*.mjs)"));
    QVERIFY2(stale.isEmpty(), qPrintable("the conformance data holds ops the converter list "
                                         "(engine/ops/converter_ops.inc) lacks: " +
                                         stale.join(' ') + "; run tests/ops/make-ops.sh"));
  }

  void every_case_matches_tfjs() {
    QVERIFY2(!g_backend.empty(), "usage: ops_conformance_test BACKEND");
    const fs::path dir = ops_dir();
    const json index = read_json(dir / "index.json");
    const auto unsupported = read_unsupported(test::source_dir() / "tests/ops/unsupported.txt");
    std::set<std::string> names;
    for (const auto& c : index["cases"]) {
      names.insert(c["name"].get<std::string>());
      names.insert(c["op"].get<std::string>());
    }
    QStringList failures;
    for (const auto& [name, backends] : unsupported)
      if (!names.contains(name))
        failures << QString::fromStdString("unsupported.txt names '" + name +
                                           "', which is neither a case nor an op of the suite");

    runtime::Engine engine;
    backends::add_all_backends(engine);
    engine.set_backend(g_backend);  // throws (fails) when the backend cannot run here
    engine.set_precision(runtime::Precision::Fp32);

    int pass = 0, refused = 0, listed = 0;
    std::set<std::string> ops_failing, ops_seen;
    const auto t0 = std::chrono::steady_clock::now();
    // TFJSI_OPS_CASES=REGEX runs only the cases whose name matches (to look at one closely).
    const char* only = std::getenv("TFJSI_OPS_CASES");
    const QRegularExpression pick(only ? QString::fromUtf8(only) : QString());
    for (const auto& c : index["cases"]) {
      const std::string name = c["name"].get<std::string>(), op = c["op"].get<std::string>();
      if (only && !pick.match(QString::fromStdString(name)).hasMatch()) continue;
      if (c.contains("refused")) {
        ++refused;
        if (const auto why = ops::refusal(op)) {
          const fs::path cdir = dir / "cases" / name;
          std::string error;
          try {
            const model::Bundle bundle = model::load_bundle(cdir / "model.json");
            const graph::Graph graph = graph::build_graph(bundle);
            runtime::Executor executor(engine, graph);
            runtime::NamedTensors feeds;  // zeros: the run must stop before reading them
            for (const auto& in : graph.inputs) {
              Shape shape;
              for (auto d : in.shape.dims) shape.push_back(std::max<std::int64_t>(d, 1));
              feeds[in.name] = HostTensor::zeros(in.dtype.value_or(DType::Float32), shape);
            }
            const std::vector<std::string> out = {graph.nodes.back().name};
            executor.run(feeds, out);
          } catch (const std::exception& e) {
            error = e.what();
          }
          // "node 'NAME' (OP) is WHY": the first refused node may be an input of the case's.
          if (error.find(") is " + std::string(*why)) == std::string::npos ||
              error.find("node '") == std::string::npos)
            failures << QString::fromStdString(name + ": we refuse " + op +
                                               " on purpose, but running it said: '" + error +
                                               "', not the node, the op and why");
        }
        continue;
      }
      ops_seen.insert(op);
      const auto listed_as = [&](const std::string& key) {
        const auto it = unsupported.find(key);
        return it != unsupported.end() && it->second.contains(g_backend);
      };
      const bool expect_missing = listed_as(name) || listed_as(op);
      const fs::path cdir = dir / "cases" / name;
      std::string error;
      try {
        error = run_case(engine, cdir, read_json(cdir / "golden.json"));
      } catch (const std::exception& e) {
        error = e.what();
        if (error.empty()) error = "an exception without a message";
      }
      // Our two clear refusals: the plan's "no kernel on backend ..." for an op nothing runs,
      // and a kernel's "... is not supported on <backend>" for a mode it lacks (NCHW).
      const bool no_kernel = error.find("no kernel on backend") != std::string::npos ||
                             error.find("is not supported on") != std::string::npos;
      if (expect_missing) {
        ++listed;
        if (error.empty())
          failures << QString::fromStdString(name + " now matches TF.js on " + g_backend +
                                             ": remove it from tests/ops/unsupported.txt");
        else if (!no_kernel)
          failures << QString::fromStdString(name +
                                             " is listed as unsupported but fails "
                                             "otherwise than with 'no kernel' or 'not "
                                             "supported': " +
                                             error);
        ops_failing.insert(op);
      } else if (!error.empty()) {
        failures << QString::fromStdString(name + ": " + error);
        ops_failing.insert(op);
      } else {
        ++pass;
      }
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    qInfo(
        "%s: %d cases: %d match TF.js, %d listed unsupported, %d refused by TF.js; ops: %d of "
        "%d run match on every case; %.1f s",
        g_backend.c_str(), static_cast<int>(index["cases"].size()), pass, listed, refused,
        static_cast<int>(ops_seen.size() - ops_failing.size()), static_cast<int>(ops_seen.size()),
        s);
    for (const auto& f : failures) qWarning("%s", qPrintable(f));
    QVERIFY2(failures.isEmpty(),
             qPrintable(QString::number(failures.size()) + " failures (listed above)"));
  }
};

int main(int argc, char** argv) {
  if (argc > 1 && argv[1][0] != '-') {
    g_backend = argv[1];
    for (int i = 1; i + 1 < argc; ++i) argv[i] = argv[i + 1];
    --argc;
  }
  OpConformanceTest t;
  return QTest::qExec(&t, argc, argv);
}
#include "conformance_test.moc"
