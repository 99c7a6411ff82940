// The program caches: a second run compiles nothing; nodes that differ in shapes, texture sides,
// activation of the piecewise-linear family, binary op, bias, splat, stride or large pool window
// share a program (and padded textures round-trip exactly); binaries saved on disk load in a
// fresh backend (a fresh context) keyed by model token and driver; corrupt files are detected and
// rebuilt; with Mesa's shader cache disabled there are no binary formats and the source path
// still works. Also the benchmark's stats (compile_ms, upload_ms, per-kernel GPU times).
#include <QProcess>
#include <QtTest>
#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>

#include "gl/gl_test_util.h"
#include "model/bundle.h"
#include "ops/fusion.h"
#include "support/test_support.h"

using namespace tfjsi;
namespace fs = std::filesystem;

namespace {

graph::Node conv_node() {
  graph::Node n = test::make_node("_FusedConv2D", 3);
  n.attrs["strides"] = std::vector<std::int64_t>{1, 2, 2, 1};
  n.attrs["padding"] = std::string("SAME");
  n.attrs["fused_ops"] = std::vector<std::string>{"BiasAdd", "Relu"};
  n.attrs["num_args"] = std::int64_t{1};
  return n;
}

std::vector<HostTensor> conv_inputs() {
  return {test::random_tensor({1, 9, 9, 5}, 1), test::random_tensor({3, 3, 5, 6}, 2),
          test::random_tensor({6}, 3)};
}

// A backend whose disk cache lives in `dir`, opened on a model whose model.json holds `token`: the
// cache's key is the hash of the opened bundle's files, set by model_opened and nowhere else.
struct CachedGl : test::GlFixture {
  CachedGl(const fs::path& dir, const std::string& token) {
    gl->set_program_cache_dir(dir);
    const fs::path models = dir / "models";
    fs::create_directories(models);
    model::Bundle bundle;
    bundle.model_json = models / (token + ".json");
    bundle.dir = models;
    std::ofstream(bundle.model_json) << token;
    gl->model_opened(bundle);
  }
  const gl::ProgramCacheStats& cache() { return gl->programs()->stats(); }
};

std::vector<fs::path> cache_files(const fs::path& dir) {
  std::vector<fs::path> v;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".bin") v.push_back(e.path());
  return v;
}

// A node and its inputs.
using NodeRun = std::pair<graph::Node, std::vector<HostTensor>>;

// Runs the first of `runs` to build what its family needs; then each must match cpu and build
// nothing more.
void expect_one_program(test::GlFixture& f, const std::vector<NodeRun>& runs,
                        const std::string& what) {
  f.run_gl(runs[0].first, runs[0].second);
  const auto before = f.gl->programs()->stats().compiled;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& [n, in] = runs[i];
    test::expect_close(f.run_gl(n, in), test::run_cpu(n, in), false,
                       what + " " + n.op + " #" + std::to_string(i));
    if (QTest::currentTestFailed()) return;
  }
  QVERIFY2(
      f.gl->programs()->stats().compiled == before,
      (what + ": " + std::to_string(f.gl->programs()->stats().compiled - before) + " more programs")
          .c_str());
}

}  // namespace

class GlProgramCacheTest : public QObject {
  Q_OBJECT

 private slots:
  void second_run_compiles_nothing() {
    test::GlFixture f;
    QVERIFY2(f.gl->availability().available, f.gl->availability().reason.c_str());
    const HostTensor want = test::run_cpu(conv_node(), conv_inputs());
    const auto before = f.gl->programs()->stats().compiled;
    HostTensor first = f.run_gl(conv_node(), conv_inputs());
    const auto after_first = f.gl->programs()->stats().compiled;
    // One program, the convolution: the filter (a weight not on the GPU yet) is packed on the
    // host.
    QCOMPARE(after_first - before, 1);
    const auto hits = f.gl->programs()->stats().memory_hits;
    HostTensor second = f.run_gl(conv_node(), conv_inputs());
    QCOMPARE(f.gl->programs()->stats().compiled, after_first);
    QCOMPARE(f.gl->programs()->stats().memory_hits, hits + 1);
    test::expect_close(second, want, false, "second run");
    // Another batch is the same program: shapes are uniforms.
    graph::Node n = conv_node();
    auto in = conv_inputs();
    in[0] = test::random_tensor({2, 9, 9, 5}, 4);
    test::expect_close(f.run_gl(n, in), test::run_cpu(n, in), false, "batch of 2");
    QCOMPARE(f.gl->programs()->stats().compiled, after_first);
    // Native fp16 is two more where inputs are images declared with their format (a driver
    // without GL_EXT_shader_image_load_formatted, such as llvmpipe): the packing of an fp16
    // filter and the convolution. None where the source does not depend on the precision: with
    // that extension, or with fp16 emulated in RGBA32F textures (gl.fp16_storage, whose rounding
    // pass the start-up probe built).
    f.set_fp16(true);
    const bool emulated = f.gl->fp16_emulated();
    f.run_gl(n, in);
    f.set_fp16(false);
    const bool formatted = f.gl->context()->limits().image_load_formatted;
    QCOMPARE(f.gl->programs()->stats().compiled, after_first + (formatted || emulated ? 0 : 2));
  }

  // Nodes of one op variant share a program whatever their shapes, paddings and broadcasts: a
  // convolution on other input sizes and batches (SAME padding then differs), a Relu, an Add
  // broadcasting a row against other shapes, a resize to other sizes. Each still matches cpu.
  // The sizes mix sides that are powers of two and sides that are not: llvmpipe, which builds a
  // program per pattern of them, gets textures with none (and failed this with a program per
  // pattern before).
  void one_program_per_op_variant() {
    test::GlFixture f;
    QVERIFY2(f.gl->availability().available, f.gl->availability().reason.c_str());
    auto same_program = [&](const graph::Node& n, const std::vector<std::vector<HostTensor>>& ins,
                            const std::string& what) {
      const auto before = f.gl->programs()->stats().compiled;
      auto after_first = before;
      for (std::size_t i = 0; i < ins.size(); ++i) {
        test::expect_close(f.run_gl(n, ins[i]), test::run_cpu(n, ins[i]), false,
                           what + " #" + std::to_string(i));
        if (QTest::currentTestFailed()) return;
        if (i == 0) {
          after_first = f.gl->programs()->stats().compiled;
          QVERIFY2(after_first > before, what.c_str());
        }
      }
      QVERIFY2(f.gl->programs()->stats().compiled == after_first,
               (what + ": " + std::to_string(after_first - before) + " programs for the first, " +
                std::to_string(f.gl->programs()->stats().compiled - after_first) + " more")
                   .c_str());
    };
    auto r = [](Shape s, std::uint32_t seed) { return test::random_tensor(std::move(s), seed); };
    same_program(conv_node(),
                 {{r({1, 9, 9, 12}, 1), r({3, 3, 12, 6}, 2), r({6}, 3)},
                  {r({1, 11, 13, 12}, 4), r({3, 3, 12, 6}, 5), r({6}, 6)},
                  {r({2, 5, 22, 12}, 7), r({3, 3, 12, 6}, 8), r({6}, 9)},
                  {r({1, 8, 16, 12}, 10), r({3, 3, 12, 6}, 11), r({6}, 12)}},
                 "_FusedConv2D 3x3 stride 2");
    same_program(test::make_node("Relu"),
                 {{r({1, 6, 7, 3}, 1)}, {r({2, 5, 7, 9}, 2)}, {r({1, 4, 8, 4}, 3)}}, "Relu");
    same_program(test::make_node("AddV2", 2),
                 {{r({2, 3, 5, 6}, 1), r({6}, 2)},
                  {r({3, 5, 6}, 3), r({6}, 4)},
                  {r({2, 4, 8, 6}, 5), r({6}, 6)}},
                 "AddV2 with a broadcast row");
    graph::Node resize = test::make_node("ResizeBilinear", 2);
    resize.attrs["half_pixel_centers"] = true;
    same_program(resize,
                 {{r({1, 4, 5, 3}, 1), test::int_tensor({8, 10})},
                  {r({1, 4, 3, 7}, 2), test::int_tensor({8, 6})}},
                 "ResizeBilinear");
  }

  // What differs only in a uniform shares a program: a fused convolution without activation,
  // with Relu, Relu6, LeakyRelu and a hard swish (the activation's parameters are uniforms); Add,
  // Sub, Mul, RealDiv, Maximum, Minimum and SquaredDifference (the op is a uniform); the standalone
  // Relu, Relu6 and LeakyRelu. Each still matches cpu, on values that cross every activation's
  // kinks.
  void activations_and_ops_share_programs() {
    test::GlFixture f;
    QVERIFY2(f.gl->availability().available, f.gl->availability().reason.c_str());
    // Every node on the same inputs.
    auto one_program = [&](const std::vector<graph::Node>& nodes, const std::vector<HostTensor>& in,
                           const std::string& what) {
      std::vector<NodeRun> runs;
      for (const graph::Node& n : nodes) runs.emplace_back(n, in);
      expect_one_program(f, runs, what);
    };
    const HostTensor x = test::random_tensor({1, 7, 9, 8}, 1, -8.f, 8.f);
    std::vector<graph::Node> convs;
    for (const auto& act : {"", "Relu", "Relu6", "LeakyRelu"}) {
      graph::Node n = conv_node();
      n.attrs["fused_ops"] =
          *act ? std::vector<std::string>{"BiasAdd", act} : std::vector<std::string>{"BiasAdd"};
      if (std::string(act) == "LeakyRelu") n.attrs["leakyrelu_alpha"] = 0.3f;
      convs.push_back(n);
    }
    const std::vector<HostTensor> conv_in{x, test::random_tensor({3, 3, 8, 6}, 2),
                                          test::random_tensor({6}, 3, -4.f, 4.f)};
    one_program(convs, conv_in, "_FusedConv2D");
    std::vector<graph::Node> binaries;
    for (const auto& op :
         {"AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "SquaredDifference"})
      binaries.push_back(test::make_node(op, 2));
    one_program(binaries, {x, test::random_tensor({8}, 4, 0.5f, 2.f)}, "binary");
    // A converted Keras hard swish fused into the convolution (as gl's fusion leaves it): after
    // the binary ops, whose program its run links for fp16, which runs a hard swish's steps apart.
    graph::Node hard_swish = conv_node();
    hard_swish.attrs["fused_ops"] = std::vector<std::string>{"BiasAdd"};
    hard_swish.attrs[std::string(ops::kFusedHardSwishScale)] = 1.f / 6;
    hard_swish.attrs[std::string(ops::kFusedHardSwishShift)] = 3.f;
    one_program({convs.front(), hard_swish}, conv_in, "_FusedConv2D with and without a hard swish");
    graph::Node leaky = test::make_node("LeakyRelu");
    leaky.attrs["alpha"] = 0.1f;
    one_program({test::make_node("Relu"), test::make_node("Relu6"), leaky}, {x}, "unary");
  }

  // What #19 moved from #defines to uniforms shares a program: a convolution with a bias and one
  // without (which binds a stand-in for it), 1x1 convolutions with strides 1 and 2, an Add that
  // splats a one-channel operand across the lanes and one that does not, average pools over 5x5
  // and 8x8 windows, and Reshape, Slice, ConcatV2, PadV2 and StridedSlice on other shapes,
  // offsets, paddings and strides. Each still matches cpu.
  void uniform_values_share_programs() {
    test::GlFixture f;
    QVERIFY2(f.gl->availability().available, f.gl->availability().reason.c_str());
    auto one_program = [&](const std::vector<NodeRun>& runs, const std::string& what) {
      expect_one_program(f, runs, what);
    };
    auto r = [](Shape s, std::uint32_t seed) { return test::random_tensor(std::move(s), seed); };
    auto conv = [](bool bias, std::int64_t stride) {
      graph::Node n = test::make_node(bias ? "_FusedConv2D" : "Conv2D", bias ? 3 : 2);
      n.attrs["strides"] = std::vector<std::int64_t>{1, stride, stride, 1};
      n.attrs["padding"] = std::string("SAME");
      if (bias) {
        n.attrs["fused_ops"] = std::vector<std::string>{"BiasAdd"};
        n.attrs["num_args"] = std::int64_t{1};
      }
      return n;
    };
    one_program({{conv(true, 1), {r({1, 7, 9, 8}, 1), r({3, 3, 8, 6}, 2), r({6}, 3)}},
                 {conv(false, 1), {r({1, 7, 9, 8}, 4), r({3, 3, 8, 6}, 5)}}},
                "3x3 convolution with and without a bias");
    one_program({{conv(false, 1), {r({1, 8, 8, 12}, 6), r({1, 1, 12, 8}, 7)}},
                 {conv(false, 2), {r({1, 8, 8, 12}, 8), r({1, 1, 12, 8}, 9)}},
                 {conv(false, 2), {r({1, 9, 7, 12}, 10), r({1, 1, 12, 8}, 11)}}},
                "1x1 convolution, strides 1 and 2");
    one_program({{test::make_node("AddV2", 2), {r({1, 4, 5, 8}, 12), r({1, 4, 5, 8}, 13)}},
                 {test::make_node("AddV2", 2), {r({1, 4, 5, 8}, 14), r({1, 4, 5, 1}, 15)}},
                 {test::make_node("AddV2", 2), {r({1, 4, 5, 1}, 16), r({1, 4, 5, 8}, 17)}}},
                "AddV2 with and without a splatted channel");
    auto pool = [](std::int64_t k) {
      graph::Node n = test::make_node("AvgPool");
      n.attrs["ksize"] = std::vector<std::int64_t>{1, k, k, 1};
      n.attrs["strides"] = std::vector<std::int64_t>{1, k, k, 1};
      n.attrs["padding"] = std::string("VALID");
      return n;
    };
    one_program({{pool(5), {r({1, 10, 10, 8}, 18)}}, {pool(8), {r({1, 8, 16, 8}, 19)}}},
                "AvgPool 5x5 and 8x8");
    // The shape ops' generated sources name their sizes and offsets as uniforms.
    auto ints = [](std::vector<std::int32_t> v, Shape s = {}) {
      return test::int_tensor(std::move(v), std::move(s));
    };
    one_program({{test::make_node("Reshape", 2), {r({1, 6, 5, 3}, 20), ints({1, 10, 9})}},
                 {test::make_node("Reshape", 2), {r({2, 7, 3, 5}, 21), ints({1, 14, 15})}}},
                "Reshape to other channel counts");
    one_program({{test::make_node("Slice", 3),
                  {r({1, 6, 7, 8}, 22), ints({0, 1, 2, 3}), ints({1, 4, 3, 5})}},
                 {test::make_node("Slice", 3),
                  {r({1, 9, 9, 12}, 23), ints({0, 4, 0, 1}), ints({1, 2, 6, 2})}}},
                "Slice at other offsets");
    graph::Node concat = test::make_node("ConcatV2", 3);
    one_program({{concat, {r({1, 4, 4, 3}, 24), r({1, 4, 4, 5}, 25), ints({3})}},
                 {concat, {r({2, 3, 5, 6}, 26), r({2, 3, 5, 2}, 27), ints({-1})}}},
                "ConcatV2 of two on the channels");
    graph::Node pad2 = test::make_node("PadV2", 3);
    auto value = [](float v) {
      HostTensor t = HostTensor::zeros(DType::Float32, {});
      t.mutable_values<float>()[0] = v;
      return t;
    };
    one_program(
        {{pad2, {r({1, 5, 5, 3}, 28), ints({0, 0, 1, 2, 2, 1, 0, 1}, {4, 2}), value(0.5f)}},
         {pad2, {r({1, 4, 6, 3}, 29), ints({0, 0, 3, 0, 0, 2, 1, 0}, {4, 2}), value(-2.f)}}},
        "PadV2 with other paddings and values");
    graph::Node ss = test::make_node("StridedSlice", 4);
    one_program(
        {{ss, {r({1, 8, 8, 6}, 30), ints({0, 1, 0, 0}), ints({1, 7, 8, 5}), ints({1, 2, 3, 1})}},
         {ss, {r({1, 9, 5, 7}, 31), ints({0, 0, 4, 1}), ints({1, 9, 0, 7}), ints({1, 3, -1, 2})}}},
        "StridedSlice with other begins and strides");
  }

  // Textures whose sides the driver may see padded (llvmpipe: no side a power of two) upload and
  // read back exactly, panels included (a vector taller than the largest texture side).
  void texture_sides_and_round_trip() {
    test::GlFixture f;
    QVERIFY2(f.gl->availability().available, f.gl->availability().reason.c_str());
    const bool odd = f.gl->context()->limits().variant_per_pow2_sides;
    const std::int64_t tall = 4 * (f.gl->context()->limits().max_texture_size + 1);
    for (const Shape& s : std::vector<Shape>{{1, 4, 8, 4}, {1}, {2, 2}, {3, 5, 7}, {tall}}) {
      const HostTensor h = test::random_tensor(s, 5);
      const runtime::TensorView v{f.gl->upload(h), DType::Float32, s};
      const auto& l = static_cast<const gl::GlTensorData&>(*v.data).layout();
      const std::string what = shape_to_string(s) + " in a texture of " +
                               std::to_string(l.tex_width()) + "x" + std::to_string(l.tex_height());
      if (odd)
        QVERIFY2(!std::has_single_bit(static_cast<std::uint64_t>(l.tex_width())) &&
                     !std::has_single_bit(static_cast<std::uint64_t>(l.tex_height())),
                 what.c_str());
      const HostTensor back = f.gl->download(v);
      QVERIFY2(back.shape == s, what.c_str());
      QVERIFY2(std::equal(back.values<float>().begin(), back.values<float>().end(),
                          h.values<float>().begin()),
               what.c_str());
      test::expect_close(f.run_gl(test::make_node("Relu"), {h}),
                         test::run_cpu(test::make_node("Relu"), {h}), false, "Relu of " + what);
    }
  }

  // Kernels that read through samplers (the path of kernels with many inputs, forced here) and
  // write through a writeonly image without a format: switching fp32 -> fp16 -> fp32 compiles
  // nothing, and each precision still gives its own results. fp16 in RGBA16F textures (native):
  // the formats differ, the sources do not.
  void precision_switch_compiles_nothing_with_samplers() {
    test::GlFixture f;
    QVERIFY2(f.gl->availability().available, f.gl->availability().reason.c_str());
    f.gl->test_hooks().inputs_as_samplers = true;
    f.flags.set("gl.fp16_storage", "native");
    const HostTensor want = test::run_cpu(conv_node(), conv_inputs());
    f.run_gl(conv_node(), conv_inputs());
    const auto compiled = f.gl->programs()->stats().compiled;
    f.set_fp16(true);
    const HostTensor half = f.run_gl(conv_node(), conv_inputs());
    f.set_fp16(false);
    QCOMPARE(f.gl->programs()->stats().compiled, compiled);
    test::expect_close(half, want, true, "fp16 through the fp32 programs");
    const HostTensor full = f.run_gl(conv_node(), conv_inputs());
    QCOMPARE(f.gl->programs()->stats().compiled, compiled);
    test::expect_close(full, want, false, "fp32 again");
  }

  void disk_round_trip() {
    test::TempDir tmp;
    const HostTensor want = test::run_cpu(conv_node(), conv_inputs());
    {
      CachedGl a(tmp.path, "model-a");
      QVERIFY2(a.gl->availability().available, a.gl->availability().reason.c_str());
      QVERIFY2(a.gl->context()->limits().num_binary_formats > 0,
               "the driver offers no program binary formats (is MESA_SHADER_CACHE_DISABLE set?)");
      QVERIFY(a.gl->programs()->disk_enabled());
      test::expect_close(a.run_gl(conv_node(), conv_inputs()), want, false, "compiled");
      QCOMPARE(a.cache().disk_loaded, 0);
      QVERIFY(a.cache().disk_saved >= 1);
      QVERIFY(!cache_files(tmp.path).empty());
    }
    {
      // A fresh backend and context: the programs come from disk, nothing is compiled.
      CachedGl b(tmp.path, "model-a");
      const auto compiled0 = b.cache().compiled;
      test::expect_close(b.run_gl(conv_node(), conv_inputs()), want, false, "from disk");
      QCOMPARE(b.cache().compiled, compiled0);
      QVERIFY(b.cache().disk_loaded >= 1);
      QCOMPARE(b.cache().disk_rejected, 0);
    }
    {
      // Another model token never reuses them.
      CachedGl c(tmp.path, "model-b");
      const auto compiled0 = c.cache().compiled;
      c.run_gl(conv_node(), conv_inputs());
      QCOMPARE(c.cache().compiled, compiled0 + 1);  // the convolution
      QCOMPARE(c.cache().disk_loaded, 0);
    }
  }

  void corrupt_file_is_rebuilt() {
    test::TempDir tmp;
    const HostTensor want = test::run_cpu(conv_node(), conv_inputs());
    { CachedGl(tmp.path, "m").run_gl(conv_node(), conv_inputs()); }
    const auto files = cache_files(tmp.path);
    QVERIFY(!files.empty());
    // Flip bytes in the middle of every binary (the checksum catches it), and truncate one.
    for (const fs::path& p : files) {
      std::fstream io(p, std::ios::in | std::ios::out | std::ios::binary);
      const auto size = static_cast<std::streamoff>(fs::file_size(p));
      io.seekp(size / 2);
      const char junk[8] = {'\x5a', '\x13', '\x77', '\x00', '\x42', '\x99', '\x01', '\x7f'};
      io.write(junk, sizeof junk);
    }
    {
      CachedGl b(tmp.path, "m");
      const auto compiled0 = b.cache().compiled;
      test::expect_close(b.run_gl(conv_node(), conv_inputs()), want, false, "after corruption");
      QVERIFY(b.cache().disk_rejected >= 1);
      QVERIFY(b.cache().compiled > compiled0);
      QVERIFY(b.cache().disk_saved >= 1);  // rebuilt and saved again
    }
    {
      CachedGl c(tmp.path, "m");
      c.run_gl(conv_node(), conv_inputs());
      QCOMPARE(c.cache().disk_rejected, 0);
      QVERIFY(c.cache().disk_loaded >= 1);
    }
    for (const fs::path& p : cache_files(tmp.path)) fs::resize_file(p, 10);
    {
      CachedGl d(tmp.path, "m");
      test::expect_close(d.run_gl(conv_node(), conv_inputs()), want, false, "after truncation");
      QVERIFY(d.cache().disk_rejected >= 1);
    }
  }

  void no_binary_formats_keeps_source_path() {
    // MESA_SHADER_CACHE_DISABLE=true leaves no binary formats: the child still computes correctly
    // and writes nothing.
    test::TempDir tmp;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("TFJSI_GL_CACHE_PROBE", QString::fromStdString(tmp.path.string()));
    env.insert("MESA_SHADER_CACHE_DISABLE", "true");
    p.setProcessEnvironment(env);
    p.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    const QString out = QString::fromUtf8(p.readAllStandardOutput()).trimmed();
    QCOMPARE(out, QString("formats=0 disk=0 ok=1"));
    QVERIFY(cache_files(tmp.path).empty());
  }

  void stats_for_the_benchmark() {
    test::GlFixture f;
    f.gl->reset_stats();
    f.flags.set_value("gl.timer_queries", true);
    f.run_gl(conv_node(), conv_inputs());
    const gl::GlStats s = f.gl->stats();
    QVERIFY(s.upload_ms > 0);
    QCOMPARE(s.uploads, 3);
    QCOMPARE(s.upload_bytes, (9 * 9 * 5 + 3 * 3 * 5 * 6 + 6) * 4);
    QVERIFY(s.dispatches >= 1);
    QVERIFY(s.new_kernels >= 1);
    QVERIFY(s.compile_ms > 0);
    if (f.gl->context()->limits().timer_queries) {
      QVERIFY(s.device_ms_by_op.count("_FusedConv2D"));
    }
    // The same work again: no new programs, no compile time.
    const double compile0 = s.compile_ms;
    f.run_gl(conv_node(), conv_inputs());
    QCOMPARE(f.gl->stats().compile_ms, compile0);
    f.flags.set_value("gl.timer_queries", false);
  }
};

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsSet("TFJSI_GL_CACHE_PROBE")) {
    CachedGl g(qEnvironmentVariable("TFJSI_GL_CACHE_PROBE").toStdString(), "probe");
    if (!g.gl->availability().available) {
      std::printf("unavailable\n");
      return 1;
    }
    const HostTensor want = test::run_cpu(conv_node(), conv_inputs());
    const HostTensor got = g.run_gl(conv_node(), conv_inputs());
    bool ok = true;
    for (std::size_t i = 0; i < want.values<float>().size(); ++i)
      ok = ok && std::fabs(want.values<float>()[i] - got.values<float>()[i]) < 1e-4f;
    std::printf("formats=%d disk=%d ok=%d\n", g.gl->context()->limits().num_binary_formats,
                g.gl->programs()->disk_enabled() ? 1 : 0, ok ? 1 : 0);
    return 0;
  }
  QCoreApplication app(argc, argv);
  GlProgramCacheTest t;
  return QTest::qExec(&t, argc, argv);
}

#include "gl_program_cache_test.moc"
