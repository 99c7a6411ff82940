// Emulated fp16 storage (fp16 tensors in RGBA32F textures, every value stored rounded as the
// driver's RGBA16F would round it; backends/gl/fp16_storage.h) is exact. First argument:
//   rounding  the rounding pass (GLSL) and the upload rounding (host) match the driver's RGBA16F
//             textures on values of every exponent, both signs and the edges where the rules
//             differ, and not with another rule; under each of the four rules (nearest-even and
//             inf, what GPUs do, included) the pass rounds as the host's reference does;
//             emulated tensors report RGBA32F's bytes; an add rounds what kernels left
//             unrounded (lazy rounding) exactly as RGBA16F holds it, with no pass; storage is
//             emulated by default where the build depends on the texture formats (llvmpipe), native
//             elsewhere;
//   MODEL     (a corpus model's name or a reference layers model's) fed the inputs TF.js was fed,
//             every fp16 output with gl.fp16_storage=emulated is bit for bit the output with
//             native RGBA16F textures (NaN matching NaN), and in one engine a switch fp32 ->
//             fp16 builds no program.
#include <QtTest>
#include <bit>
#include <cmath>
#include <fstream>
#include <random>

#include "backends/all_backends.h"
#include "backends/gl/gl_backend.h"
#include "core/error.h"
#include "gl/gl_test_util.h"
#include "graph/build.h"
#include "io/npy.h"
#include "model/bundle.h"
#include "runtime/executor.h"
#include "support/test_support.h"

using namespace tfjsi;
namespace fs = std::filesystem;

namespace {

std::string g_model;

struct Model {
  graph::Graph graph;
  runtime::NamedTensors inputs;
};

Model load(const std::string& name) {
  const fs::path ref = test::reference_dir();
  const fs::path gdir = ref / "golden" / name;
  std::ifstream in(gdir / "golden.json");
  if (!in) throw std::runtime_error("no golden data for " + name + " in " + gdir.string());
  const nlohmann::json g = nlohmann::json::parse(in);
  const fs::path path = fs::exists(ref / "layers" / name / "model.json")
                            ? ref / "layers" / name / "model.json"
                            : test::corpus_model(name);
  Model m;
  m.graph = graph::build_graph(model::load_bundle(path));
  if (g["inputs"].size() != m.graph.inputs.size())
    throw std::runtime_error(name + ": golden inputs do not match the graph's");
  for (std::size_t k = 0; k < g["inputs"].size(); ++k)
    m.inputs.emplace(m.graph.inputs[k].name,
                     io::read_npy(gdir / g["inputs"][k]["file"].get<std::string>()));
  return m;
}

// An engine on gl at fp16 with the given storage, compiling from source (no disk cache).
struct Fp16Engine {
  test::GlEngine e;
  explicit Fp16Engine(const std::string& storage) {
    e.engine.set_precision(runtime::Precision::Fp16);
    e.engine.flags().set("gl.fp16_storage", storage);
  }
};

std::uint32_t bits(float v) {
  return std::bit_cast<std::uint32_t>(v);
}

// Empty when `a` (emulated) and `b` (native RGBA16F, or the reference) are the same bits (any NaN
// matching any NaN), else the first difference.
std::string first_difference(std::span<const float> a, std::span<const float> b) {
  if (a.size() != b.size()) return "sizes differ";
  std::size_t n = 0;
  std::string first;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (bits(a[i]) == bits(b[i]) || (std::isnan(a[i]) && std::isnan(b[i]))) continue;
    if (n++ == 0)
      first = "element " + std::to_string(i) + ": emulated " + std::to_string(a[i]) + " (0x" +
              QString::number(bits(a[i]), 16).toStdString() + "), want " + std::to_string(b[i]) +
              " (0x" + QString::number(bits(b[i]), 16).toStdString() + ")";
  }
  return n == 0 ? std::string() : first + ", " + std::to_string(n) + " elements differ";
}

// Values of every float exponent from 2^-37 to 2^32, random fraction bits, both signs, and the
// edges where the rules differ (halfway cases, the overflow threshold, half's subnormals).
HostTensor probe_values(std::uint32_t seed) {
  std::mt19937 rng(seed);
  HostTensor t = HostTensor::zeros(DType::Float32, {1, 64, 64, 4});
  auto v = t.mutable_values<float>();
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::uint32_t exp = 90 + static_cast<std::uint32_t>(i % 70);
    const std::uint32_t sign = (i / 70) % 2 ? 0x80000000u : 0u;
    v[i] =
        std::bit_cast<float>(sign | (exp << 23) | (static_cast<std::uint32_t>(rng()) & 0x7fffffu));
  }
  const float edges[] = {65504.f,
                         65519.f,
                         65520.f,
                         65536.f,
                         1.0f + 0.5f / 1024.f,
                         std::ldexp(1.0f, -25),
                         std::ldexp(3.0f, -26),
                         std::ldexp(1.0f, -14),
                         std::ldexp(1023.5f, -24),
                         std::ldexp(1.5f, -24)};
  for (std::size_t i = 0; i < std::size(edges); ++i) v[i] = edges[i], v[i + 16] = -edges[i];
  return t;
}

// probe_values() made exact in an fp32 texture, then stored by a kernel (Neg, exact before the
// store) into an fp16 tensor of `storage`, emulating `rules` when given, and read back.
std::vector<float> stored(const std::string& storage,
                          std::optional<gl::HalfStorageRules> rules = std::nullopt) {
  const HostTensor t = probe_values(5);
  test::GlFixture f;
  if (rules) f.gl->set_half_rules(*rules);
  f.flags.set("gl.fp16_storage", storage);
  auto in = f.gl->upload(t);
  f.set_fp16(true);
  runtime::RunContext ctx{nullptr, f.flags};
  runtime::TensorView view{in, DType::Float32, t.shape};
  auto out = f.gl->run(test::make_node("Neg"), std::span(&view, 1), ctx);
  const auto* d = dynamic_cast<const gl::GlTensorData*>(out.at(0).data.get());
  if (!d || d->storage() != (storage == "native" ? gl::Storage::Fp16 : gl::Storage::Fp16Emulated))
    throw std::runtime_error("the output is not an fp16 tensor of " + storage + " storage");
  const HostTensor back = f.gl->download(out[0]);
  const auto v = back.values<float>();
  return {v.begin(), v.end()};
}

// Lazy rounding (GlBackend::dispatch): probe_values() of two seeds made exact in fp32 textures,
// each negated into an fp16 tensor of `storage` (emulated: left unrounded), then both read by an
// AddV2 (which rounds them as it loads and its own store); or, when `then_neg`, the first also by
// a Neg (which cannot round what it loads: the pass runs first). The values read back of the last
// kernel, and the dispatches it all took, the download's included.
std::pair<std::vector<float>, std::int64_t> lazy_chain(const std::string& storage, bool then_neg) {
  const HostTensor a = probe_values(5), b = probe_values(7);
  test::GlFixture f;
  f.flags.set("gl.fp16_storage", storage);
  auto ua = f.gl->upload(a), ub = f.gl->upload(b);
  f.set_fp16(true);
  runtime::RunContext ctx{nullptr, f.flags};
  f.gl->reset_stats();
  auto neg = [&](const runtime::TensorView& v) {
    return f.gl->run(test::make_node("Neg"), std::span(&v, 1), ctx).at(0);
  };
  const runtime::TensorView in[2] = {neg({ua, DType::Float32, a.shape}),
                                     neg({ub, DType::Float32, b.shape})};
  runtime::TensorView out = f.gl->run(test::make_node("AddV2"), std::span(in), ctx).at(0);
  if (then_neg) out = neg(in[0]);
  const HostTensor back = f.gl->download(out);
  const auto v = back.values<float>();
  return {{v.begin(), v.end()}, f.gl->stats().dispatches};
}

// probe_values() uploaded into an fp16 tensor of `storage` and read back.
std::vector<float> uploaded(const std::string& storage,
                            std::optional<gl::HalfStorageRules> rules = std::nullopt) {
  const HostTensor t = probe_values(9);
  test::GlFixture f;
  if (rules) f.gl->set_half_rules(*rules);
  f.flags.set("gl.fp16_storage", storage);
  f.set_fp16(true);
  const HostTensor back = f.gl->download({f.gl->upload(t), DType::Float32, t.shape});
  const auto v = back.values<float>();
  return {v.begin(), v.end()};
}

}  // namespace

class GlFp16RoundingTest : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    test::GlEngine e;
    const auto a = e.gl->availability();
    QVERIFY2(a.available, ("gl must start on this machine (Mesa llvmpipe): " + a.reason).c_str());
    QVERIFY2(e.gl->half_rules().has_value(),
             e.engine.flags().get_string("gl.fp16_rounding").c_str());
  }

  // Emulated by default where a program's build depends on the bound formats (llvmpipe: image
  // reads name them, and it builds per format), native elsewhere; the flag takes only its two
  // values.
  void default_follows_the_driver() {
    test::GlEngine e;
    const bool per_format = e.gl->context()->limits().build_per_format;
    QCOMPARE(e.engine.flags().get_string("gl.fp16_storage"),
             std::string(per_format ? "emulated" : "native"));
    QCOMPARE(e.gl->fp16_emulated(), per_format);
    QVERIFY(e.engine.flags().get_string("gl.fp16_rounding").find("(probed)") != std::string::npos);
    e.engine.flags().set("gl.fp16_storage", "half");
    QVERIFY_THROWS_EXCEPTION(UsageError, e.gl->fp16_emulated());
  }

  // The rounding pass against the driver's own RGBA16F store, on values of every float exponent
  // (random fraction bits, both signs): a Neg, whose result is exact before the store, into each
  // storage.
  void store_rounding_matches_rgba16f() {
    const std::string diff = first_difference(stored("emulated"), stored("native"));
    QVERIFY2(diff.empty(), diff.c_str());
  }

  // Lazy rounding: an add rounds the operands two kernels left unrounded and its own sum, with no
  // pass between (three dispatches, as native storage takes), bit for bit as RGBA16F textures
  // hold them. A Neg of an unrounded tensor, which cannot round what it loads, gets the pass
  // first (native's four dispatches and one; a Neg of halves stores halves: none after it).
  void lazy_rounding_matches_rgba16f() {
    for (bool then_neg : {false, true}) {
      const auto [emulated, em_dispatches] = lazy_chain("emulated", then_neg);
      const auto [native, na_dispatches] = lazy_chain("native", then_neg);
      const std::string diff = first_difference(emulated, native);
      QVERIFY2(diff.empty(), diff.c_str());
      QCOMPARE(na_dispatches, std::int64_t{then_neg ? 4 : 3});
      QCOMPARE(em_dispatches, na_dispatches + (then_neg ? 1 : 0));
    }
  }

  // Uploads: the host rounding against the driver's RGBA16F upload, on the same kind of values.
  void upload_rounding_matches_rgba16f() {
    const std::string diff = first_difference(uploaded("emulated"), uploaded("native"));
    QVERIFY2(diff.empty(), diff.c_str());
  }

  // The two comparisons above can fail: emulating the other rounding and overflow rule than the
  // driver's (nearest-even and inf on llvmpipe) is not exact, on stores and uploads alike.
  void another_rule_is_not_exact() {
    test::GlEngine e;
    gl::HalfStorageRules other = *e.gl->half_rules();
    for (HalfRule* r : {&other.upload, &other.store}) {
      r->rounding = r->rounding == HalfRounding::TowardZero ? HalfRounding::NearestEven
                                                            : HalfRounding::TowardZero;
      r->overflow = r->overflow == HalfOverflow::Clamp ? HalfOverflow::Inf : HalfOverflow::Clamp;
    }
    QVERIFY(!first_difference(stored("emulated", other), stored("native")).empty());
    QVERIFY(!first_difference(uploaded("emulated", other), uploaded("native")).empty());
  }

  // Under every rule, the driver's or not (nearest-even and inf is what most GPUs do), the pass
  // and the upload round as the host's reference (core/half_float.h) does.
  void every_rule_rounds_as_the_reference() {
    for (HalfRounding r : {HalfRounding::NearestEven, HalfRounding::TowardZero})
      for (HalfOverflow o : {HalfOverflow::Inf, HalfOverflow::Clamp}) {
        const HalfRule rule{r, o};
        const std::string name = std::string(to_string(r)) + ", " + std::string(to_string(o));
        for (int upload = 0; upload < 2; ++upload) {
          HostTensor want = probe_values(upload ? 9 : 5);
          auto v = want.mutable_values<float>();
          for (float& x : v) x = round_to_half(upload ? x : -x, rule);
          const std::vector<float> got =
              upload ? uploaded("emulated", gl::HalfStorageRules{rule, rule})
                     : stored("emulated", gl::HalfStorageRules{rule, rule});
          const std::string diff = first_difference(got, v);
          QVERIFY2(diff.empty(), (name + (upload ? " upload: " : " store: ") + diff).c_str());
        }
      }
  }

  // Memory reports the real bytes: an emulated fp16 texture is RGBA32F's 16 bytes a texel.
  void emulated_tensors_take_rgba32f_bytes() {
    const HostTensor t = test::random_tensor({1, 8, 8, 4}, 3);
    std::size_t bytes[2] = {}, texels = 0;
    int k = 0;
    for (const char* storage : {"native", "emulated"}) {
      test::GlFixture f;
      f.set_fp16(true);
      f.flags.set("gl.fp16_storage", storage);
      auto d = f.gl->upload(t);
      bytes[k++] = d->bytes();
      // The texture's size (llvmpipe pads sides that are powers of two: 9x9 here).
      const auto& l = static_cast<const gl::GlTensorData&>(*d).layout();
      texels = static_cast<std::size_t>(l.tex_width() * l.tex_height());
    }
    QCOMPARE(bytes[0], texels * 8);
    QCOMPARE(bytes[1], texels * 16);
  }
};

class GlFp16ModelTest : public QObject {
  Q_OBJECT

 private slots:
  // The model's fp16 outputs, emulated against native, bit for bit.
  void model_outputs_bit_identical() {
    Model m;
    try {
      m = load(g_model);
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
    std::vector<std::vector<HostTensor>> outs;
    for (const char* storage : {"native", "emulated"}) {
      Fp16Engine fe(storage);
      runtime::Executor ex(fe.e.engine, m.graph);
      outs.push_back(ex.run(m.inputs));
      QCOMPARE(fe.e.gl->fp16_emulated(), std::string(storage) == "emulated");
    }
    QCOMPARE(outs[0].size(), outs[1].size());
    for (std::size_t k = 0; k < outs[0].size(); ++k) {
      if (outs[0][k].dtype != DType::Float32) continue;
      const std::string diff =
          first_difference(outs[1][k].values<float>(), outs[0][k].values<float>());
      QVERIFY2(diff.empty(), (g_model + " output " + std::to_string(k) + ": " + diff).c_str());
    }
  }

  // In one engine (the GUI's live switch), fp32 -> fp16 -> fp32 builds no program after the
  // first fp32 run where storage is emulated: every program's source, and the formats it binds,
  // are fp32's, and the rounding pass was built by the probe at start. Rounding only where our
  // kernels store (fp16_follow=accuracy), fp16 runs fp32's plan: nothing at all is built.
  // Following TF.js webgl (the default), Mean, Sum and Softmax run TF.js's stages at both
  // precisions in one program each, but fp16 runs apart what fp32 fuses and TF.js stores in
  // between: at most two programs for each fusion it gives up (the kernel without its epilogue
  // and the op on its own), once; switching again builds nothing. Each fp16 run gives, bit for
  // bit, what a fresh fp16 engine gives: the weights the fp32 runs uploaded are made again at
  // half precision (Engine::set_precision), not read at fp32.
  void switch_to_fp16_compiles_nothing() {
    Model m;
    try {
      m = load(g_model);
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
    for (const char* follow : {"webgl", "accuracy"}) {
      std::vector<HostTensor> fresh;
      {
        test::GlEngine f;
        f.engine.flags().set("gl.fp16_storage", "emulated");
        f.engine.flags().set("fp16_follow", follow);
        f.engine.set_precision(runtime::Precision::Fp16);
        runtime::Executor fx(f.engine, m.graph);
        fresh = fx.run(m.inputs);
      }
      test::GlEngine e;
      e.engine.flags().set("gl.fp16_storage", "emulated");
      e.engine.flags().set("fp16_follow", follow);
      runtime::Executor ex(e.engine, m.graph);
      e.engine.set_precision(runtime::Precision::Fp32);
      ex.run(m.inputs);
      const int fused32 = ex.plan().fusions;
      for (int round = 0; round < 2; ++round) {
        e.gl->reset_stats();
        e.engine.set_precision(runtime::Precision::Fp16);
        const auto half = ex.run(m.inputs);
        for (std::size_t k = 0; k < half.size(); ++k) {
          if (half[k].dtype != DType::Float32) continue;
          const std::string diff =
              first_difference(half[k].values<float>(), fresh[k].values<float>());
          QVERIFY2(diff.empty(), (std::string(follow) + ", switch " + std::to_string(round + 1) +
                                  ", output " + std::to_string(k) + ": " + diff)
                                     .c_str());
        }
        const auto s = e.gl->stats();
        QVERIFY(s.dispatches > 0);
        const int given_up = fused32 - ex.plan().fusions;
        QVERIFY(given_up >= 0);
        const std::int64_t allowed =
            round == 0 && std::string(follow) == "webgl" ? 2 * given_up : 0;
        QVERIFY2(s.new_kernels <= allowed,
                 (std::string(follow) + ", switch " + std::to_string(round + 1) + ": fp16 built " +
                  std::to_string(s.new_kernels) + " programs, " + std::to_string(given_up) +
                  " fusions given up")
                     .c_str());
        e.gl->reset_stats();
        e.engine.set_precision(runtime::Precision::Fp32);
        ex.run(m.inputs);
        QCOMPARE(e.gl->stats().new_kernels, std::int64_t{0});
      }
    }
  }
};

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: gl_fp16_storage_test rounding|MODEL [QtTest options]\n");
    return 2;
  }
  g_model = argv[1];
  std::vector<char*> rest{argv[0]};
  for (int i = 2; i < argc; ++i) rest.push_back(argv[i]);
  if (g_model == "rounding") {
    GlFp16RoundingTest t;
    return QTest::qExec(&t, static_cast<int>(rest.size()), rest.data());
  }
  GlFp16ModelTest t;
  return QTest::qExec(&t, static_cast<int>(rest.size()), rest.data());
}

#include "gl_fp16_storage_test.moc"
