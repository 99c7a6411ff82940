// Fault paths of the gl backend on a real corpus model (gender: convolutions, depthwise, pooling,
// softmax), forced by the backend's test hooks at one named node: a shader that does not compile,
// a texture that cannot be allocated, a lost context; and, without the hooks, an input too wide for
// any texture. Each must leave the run's outputs equal to cpu's (within the fp32 tolerance of
// DESIGN.md), warn with the op, the node and the reason, and never crash; a lost context also
// makes gl unavailable, with that reason, for later runs.
#include <QtTest>

#include <algorithm>
#include <cmath>

#include "backends/all_backends.h"
#include "backends/gl/gl_backend.h"
#include "core/error.h"
#include "gl/gl_test_util.h"
#include "graph/build.h"
#include "io/deterministic_input.h"
#include "model/bundle.h"
#include "runtime/executor.h"
#include "support/test_support.h"

using namespace tfjsi;
using namespace tfjsi::runtime;

namespace {

constexpr const char* kModel = "gender";
constexpr const char* kNode = "StatefulPartitionedCall/model_1/activation_2/Relu";  // _FusedConv2D

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

using test::GlEngine;

}  // namespace

class GlFaultTest : public QObject {
  Q_OBJECT
  model::Bundle bundle_;
  graph::Graph graph_;
  NamedTensors inputs_;
  std::vector<HostTensor> want_;

  void expect_matches_cpu(const std::vector<HostTensor>& got, const std::string& what) {
    QCOMPARE(got.size(), want_.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      QVERIFY2(got[k].shape == want_[k].shape, what.c_str());
      const auto g = got[k].values<float>(), w = want_[k].values<float>();
      double scale = 1, err = 0;
      for (std::size_t i = 0; i < w.size(); ++i) {
        scale = std::max(scale, std::fabs(static_cast<double>(w[i])));
        err = std::max(err, std::fabs(static_cast<double>(g[i]) - w[i]));
      }
      QVERIFY2(err <= 1e-3 * scale,
               (what + ": output " + std::to_string(k) + " is " + std::to_string(err) + " from cpu")
                   .c_str());
    }
  }

  // Runs the model on gl with `fault` at kNode; checks outputs and the one warning it gives.
  void node_fault(gl::GlFault fault, const std::string& reason) {
    GlEngine e;
    Executor ex(e.engine, graph_);
    QVERIFY2(ex.plan().nodes[graph_.find(kNode)].backend == e.gl, "the node must be a gl node");
    e.gl->test_hooks().fault = fault;
    e.gl->test_hooks().fault_node = kNode;
    std::vector<HostTensor> got;
    try {
      got = ex.run(inputs_);
    } catch (const std::exception& x) {
      QFAIL((std::string("the run threw instead of falling back: ") + x.what()).c_str());
    }
    std::printf("%s", e.warnings().c_str());
    expect_matches_cpu(got, "first run");
    QCOMPARE(e.log.size(), std::size_t{1});
    const std::string& w = e.log[0];
    QVERIFY2(contains(w, "WARNING: op '_FusedConv2D' (node '" + std::string(kNode) + "')"),
             w.c_str());
    QVERIFY2(contains(w, "failed on backend 'gl'") && contains(w, "it runs on cpu"), w.c_str());
    QVERIFY2(contains(w, reason), w.c_str());
    QVERIFY(e.gl->availability().available);  // one node's fault is not the backend's

    // Later runs keep that node on cpu without warning again; the rest stays on gl.
    e.gl->reset_stats();
    expect_matches_cpu(ex.run(inputs_), "second run");
    QCOMPARE(e.log.size(), std::size_t{1});
    QVERIFY(e.gl->stats().dispatches > 0);
  }

 private slots:
  void initTestCase() {
    try {
      bundle_ = model::load_bundle(test::corpus_model(kModel));
      graph_ = graph::build_graph(bundle_);
      for (const auto& in : graph_.inputs)
        inputs_[in.name] = io::deterministic_tensor(in.dtype.value_or(DType::Float32),
                                                    io::default_shape(in.shape));
      Engine cpu;
      cpu.set_backend("cpu");
      Executor ex(cpu, graph_);
      want_ = ex.run(inputs_);
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
    QVERIFY(graph_.find(kNode) >= 0);
  }

  void shader_compile_failure_falls_back() {
    node_fault(gl::GlFault::Compile, "compute shader does not compile");
  }

  void texture_allocation_failure_falls_back() {
    node_fault(gl::GlFault::Alloc, "cannot allocate");
  }

  // Without the hook: an input whose shape the graph leaves open arrives wider than
  // GL_MAX_TEXTURE_SIZE (panels cut rows, not columns), so no texture can hold it.
  void texture_past_max_size_falls_back() {
    graph::Graph g;
    graph::Node x;
    x.name = "x";
    x.op = "Placeholder";
    x.outputs.push_back({DType::Float32, PartialShape::unknown()});
    graph::Node relu;
    relu.name = "wide_relu";
    relu.op = "Relu";
    relu.inputs.push_back({0, 0});
    relu.attrs["T"] = graph::TypeAttr{"DT_FLOAT"};
    relu.outputs.push_back({DType::Float32, PartialShape::unknown()});
    g.nodes = {x, relu};
    g.inputs.push_back({"x", {0, 0}, DType::Float32, PartialShape::unknown()});
    g.outputs.push_back({"wide_relu", {1, 0}, DType::Float32, PartialShape::unknown()});

    GlEngine e;
    Executor ex(e.engine, g);
    QVERIFY(ex.plan().nodes[1].backend == e.gl);
    const std::int64_t w = e.gl->context()->limits().max_texture_size + 1;
    HostTensor in = HostTensor::zeros(DType::Float32, {1, w, 1});
    for (std::int64_t i = 0; i < w; ++i)
      in.mutable_values<float>()[i] = static_cast<float>(i % 7) - 3.f;
    std::vector<HostTensor> got;
    try {
      got = ex.run({{"x", in}});
    } catch (const std::exception& err) {
      QFAIL((std::string("the run threw instead of falling back: ") + err.what()).c_str());
    }
    std::printf("%s", e.warnings().c_str());
    QCOMPARE(got.size(), std::size_t{1});
    QVERIFY(got[0].shape == in.shape);
    for (std::int64_t i = 0; i < w; ++i)
      QCOMPARE(got[0].values<float>()[i], std::max(0.f, in.values<float>()[i]));
    QCOMPARE(e.log.size(), std::size_t{1});
    QVERIFY2(contains(e.log[0], "op 'Relu' (node 'wide_relu') failed on backend 'gl'") &&
                 contains(e.log[0], "does not fit a texture"),
             e.log[0].c_str());
  }

  void lost_context_reruns_on_cpu_and_marks_gl_unavailable() {
    GlEngine e;
    Executor ex(e.engine, graph_);
    // A warm run first: weights and programs live in the context that is about to go.
    expect_matches_cpu(ex.run(inputs_), "warm run");
    QVERIFY(e.log.empty());
    e.gl->test_hooks().fault = gl::GlFault::LostContext;
    e.gl->test_hooks().fault_node = kNode;
    std::vector<HostTensor> got;
    try {
      got = ex.run(inputs_);
    } catch (const std::exception& x) {
      QFAIL((std::string("the run threw instead of falling back: ") + x.what()).c_str());
    }
    std::printf("%s", e.warnings().c_str());
    expect_matches_cpu(got, "run that lost the context");
    const std::string all = e.warnings();
    QVERIFY2(contains(all, "WARNING: backend 'gl' failed during the run") &&
                 contains(all, "OpenGL context lost") &&
                 contains(all, "at node '" + std::string(kNode) + "' (_FusedConv2D)") &&
                 contains(all, "the run starts again on cpu"),
             all.c_str());
    QVERIFY2(contains(all, "WARNING: backend 'gl' is unavailable"), all.c_str());

    const Availability a = e.gl->availability();
    QVERIFY(!a.available);
    QVERIFY2(contains(a.reason, "OpenGL context lost") && contains(a.reason, kNode),
             a.reason.c_str());
    for (const BackendInfo& b : e.engine.backends())
      if (b.name == "gl") QCOMPARE(b.availability.reason, a.reason);

    // Later runs: cpu, quietly; no tensor but the weights survives a run.
    e.gl->test_hooks().fault = gl::GlFault::None;
    const std::size_t warned = e.log.size();
    const std::size_t live = e.engine.memory().total.num_tensors;
    expect_matches_cpu(ex.run(inputs_), "run after the loss");
    QCOMPARE(e.log.size(), warned);
    QCOMPARE(e.engine.memory().total.num_tensors, live);
    // Choosing gl again says why it cannot.
    QVERIFY_THROWS_EXCEPTION(tfjsi::BackendUnavailable, e.engine.set_backend("gl"));
  }
};

QTEST_GUILESS_MAIN(GlFaultTest)
#include "gl_fault_test.moc"
