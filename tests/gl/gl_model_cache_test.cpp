// Caches on a real model (corpus blazeface) on gl: a second run in the same process builds no
// program and uploads no weight (only the model's input crosses to gl); a second engine whose
// backend shares the first one's disk folder loads every program from there and compiles none; the
// model token defaults to a hash of the bundle's files; textures of a run are recycled by the next
// (none made, same outputs from textures holding the last run's data), sizes a run did not use are
// freed at its end, and the engine's memory reset frees them all.
#include <QtTest>

#include "backends/all_backends.h"
#include "backends/gl/gl_backend.h"
#include "graph/build.h"
#include "io/deterministic_input.h"
#include "model/bundle.h"
#include "runtime/executor.h"
#include "support/test_support.h"

using namespace tfjsi;

namespace {

struct GlEngine {
  runtime::Engine engine;
  gl::GlBackend* gl = nullptr;
  explicit GlEngine(const std::filesystem::path& cache_dir) {
    backends::add_all_backends(engine);
    gl = dynamic_cast<gl::GlBackend*>(engine.find_backend("gl"));
    if (!gl) throw std::runtime_error("no gl backend registered");
    const auto a = gl->availability();
    if (!a.available) throw std::runtime_error("gl is not available: " + a.reason);
    gl->set_program_cache_dir(cache_dir);
    engine.set_backend("gl");
  }
};

runtime::NamedTensors inputs_of(const graph::Graph& g, int& float_inputs) {
  runtime::NamedTensors in;
  float_inputs = 0;
  for (const auto& e : g.inputs) {
    const DType dt = e.dtype.value_or(DType::Float32);
    float_inputs += dt == DType::Float32;
    in[e.name] = io::deterministic_tensor(dt, io::default_shape(e.shape));
  }
  return in;
}

}  // namespace

class GlModelCacheTest : public QObject {
  Q_OBJECT

  model::Bundle bundle_;
  graph::Graph graph_;
  test::TempDir cache_;

 private slots:
  void initTestCase() {
    try {
      bundle_ = model::load_bundle(test::corpus_model("blazeface"));
      graph_ = graph::build_graph(bundle_);
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }

  void secondRunCompilesAndUploadsNothing() {
    GlEngine e(cache_.path);
    runtime::Executor ex(e.engine, graph_);
    QVERIFY2(ex.plan().fallbacks.empty(), "blazeface should run wholly on gl");
    int float_inputs = 0;
    const auto in = inputs_of(graph_, float_inputs);
    e.gl->reset_stats();
    const auto first = ex.run(in);
    const gl::GlStats s1 = e.gl->stats();
    QVERIFY(s1.new_kernels > 0);
    QVERIFY(s1.uploads > float_inputs);  // the weights went up
    const auto compiled = e.gl->programs()->stats().compiled;

    e.gl->reset_stats();
    const auto second = ex.run(in);
    const gl::GlStats s2 = e.gl->stats();
    QCOMPARE(s2.new_kernels, std::int64_t{0});
    QCOMPARE(e.gl->programs()->stats().compiled, compiled);
    QCOMPARE(s2.uploads, std::int64_t{float_inputs});  // the input only, no weight
    QVERIFY(s2.dispatches <= s1.dispatches);           // weights repacked on the first run stay
    QCOMPARE(first.size(), second.size());
    for (std::size_t i = 0; i < first.size(); ++i)
      QVERIFY(first[i].values<float>().size() == second[i].values<float>().size() &&
              std::equal(first[i].values<float>().begin(), first[i].values<float>().end(),
                         second[i].values<float>().begin()));
  }

  void secondEngineLoadsEveryProgramFromDisk() {
    GlEngine e(cache_.path);
    if (e.gl->programs()->stats().compiled == 0 && !e.gl->programs()->disk_enabled())
      QFAIL("the driver offers no program binary formats: the disk cache cannot work here");
    runtime::Executor ex(e.engine, graph_);
    int float_inputs = 0;
    const auto in = inputs_of(graph_, float_inputs);
    const auto compiled_before = e.gl->programs()->stats().compiled;  // the start-up probe
    ex.run(in);
    const auto& cs = e.gl->programs()->stats();
    QCOMPARE(cs.compiled, compiled_before);
    QVERIFY(cs.disk_loaded > 0);
    QCOMPARE(cs.disk_rejected, std::int64_t{0});
  }

  void texturesAreRecycledAcrossRuns() {
    GlEngine e(cache_.path);
    runtime::Executor ex(e.engine, graph_);
    int float_inputs = 0;
    const auto in = inputs_of(graph_, float_inputs);
    const auto first = ex.run(in);
    ex.run(in);  // weights may have taken textures freed by the first run: the pool fills here
    const gl::TexturePool& pool = e.gl->texture_pool();
    const std::size_t created = pool.created();
    const auto textures = gl::live_gl_objects().textures;
    QVERIFY(pool.cached_textures() > 0);
    // Other inputs, then the first ones again: every texture comes from the pool, its old
    // contents never show through.
    runtime::NamedTensors other;
    for (const auto& [name, t] : in) {
      HostTensor flipped = HostTensor::zeros(t.dtype, t.shape);  // its own storage
      const auto src = t.values<float>();
      auto dst = flipped.mutable_values<float>();
      for (std::size_t k = 0; k < src.size(); ++k) dst[k] = 1.0f - src[k];
      other[name] = std::move(flipped);
    }
    const auto between = ex.run(other);
    const auto third = ex.run(in);
    QCOMPARE(pool.created(), created);
    QCOMPARE(gl::live_gl_objects().textures, textures);
    QCOMPARE(first.size(), third.size());
    for (std::size_t i = 0; i < first.size(); ++i) {
      const auto a = first[i].values<float>(), b = third[i].values<float>(),
                 c = between[i].values<float>();
      QVERIFY(std::equal(a.begin(), a.end(), b.begin(), b.end()));
      QVERIFY(!std::equal(a.begin(), a.end(), c.begin(), c.end()));
    }

    // A run on cpu leaves the gl pool alone; a gl run that no longer needs a size frees it.
    e.engine.set_backend("cpu");
    ex.run(in);
    QCOMPARE(gl::live_gl_objects().textures, textures);
    QVERIFY(pool.cached_textures() > 0);

    // The memory reset frees every texture the pool keeps; the next run makes them again.
    const std::size_t kept = pool.cached_textures();
    e.engine.reset_memory();
    QCOMPARE(pool.cached_textures(), std::size_t{0});
    QCOMPARE(gl::live_gl_objects().textures, textures - static_cast<std::int64_t>(kept));
    e.engine.set_backend("gl");
    const auto again = ex.run(in);
    QVERIFY(pool.created() > created);
    for (std::size_t i = 0; i < first.size(); ++i) {
      const auto a = first[i].values<float>(), b = again[i].values<float>();
      QVERIFY(std::equal(a.begin(), a.end(), b.begin(), b.end()));
    }
  }

  void poolDropsSizesARoundDidNotUse() {
    GlEngine e(cache_.path);
    const auto& ctx = e.gl->context();
    gl::TexturePool pool;
    const gl::TexLayout a{1, 3, 5, 6}, b{1, 7, 2, 4};
    const auto textures = gl::live_gl_objects().textures;
    const gl::TexturePool::Key ka = gl::TexturePool::key_of(a, false);
    const gl::TexturePool::Key kb = gl::TexturePool::key_of(b, true);
    pool.give(pool.take(ctx, a, false), ka);
    pool.give(pool.take(ctx, b, true), kb);
    QCOMPARE(pool.created(), std::size_t{2});
    QCOMPARE(pool.cached_bytes(), ka.bytes() + kb.bytes());
    pool.end_round();  // both were asked for in this round: kept
    QCOMPARE(pool.cached_textures(), std::size_t{2});
    pool.give(pool.take(ctx, a, false), ka);  // a recycled, b not asked for
    QCOMPARE(pool.created(), std::size_t{2});
    pool.end_round();
    QCOMPARE(pool.cached_textures(), std::size_t{1});
    QCOMPARE(pool.cached_bytes(), ka.bytes());
    QCOMPARE(gl::live_gl_objects().textures, textures + 1);
    pool.trim();
    QCOMPARE(pool.cached_textures(), std::size_t{0});
    QCOMPARE(gl::live_gl_objects().textures, textures);
  }

  // A run's tensors of one size reuse the textures of another's that died (wider and taller, at
  // most kMaxWaste times the texels), so that a first run makes textures for its peak, not for
  // every size it meets; the layout's pads then say the texture's real size.
  void poolFitsSmallerTensorsIntoFreeTextures() {
    GlEngine e(cache_.path);
    const auto& ctx = e.gl->context();
    gl::TexturePool pool;
    const gl::TexLayout big{1, 10, 11, 8};  // 11 x 20 texels
    pool.give(pool.take(ctx, big, false), gl::TexturePool::key_of(big, false));
    gl::TexLayout fits{1, 9, 9, 8};  // 9 x 18: 162 texels of 220
    gl::GlObject t = pool.take_fitting(ctx, fits, false);
    QCOMPARE(pool.created(), std::size_t{1});
    QCOMPARE(fits.tex_width(), std::int64_t{11});
    QCOMPARE(fits.tex_height(), std::int64_t{20});
    QCOMPARE(fits.texel_index(0, 1), std::int64_t{11});  // rows are the texture's
    pool.give(std::move(t), gl::TexturePool::key_of(fits, false));
    QCOMPARE(pool.cached_textures(), std::size_t{1});
    gl::TexLayout tiny{1, 2, 3, 4};  // 6 texels: a 220-texel texture would waste too much
    pool.give(pool.take_fitting(ctx, tiny, false), gl::TexturePool::key_of(tiny, false));
    QCOMPARE(pool.created(), std::size_t{2});
    QCOMPARE(tiny.tex_width(), std::int64_t{3});
    gl::TexLayout taller{1, 11, 11, 8};  // 11 x 22: no free texture is tall enough
    pool.give(pool.take_fitting(ctx, taller, false), gl::TexturePool::key_of(taller, false));
    QCOMPARE(pool.created(), std::size_t{3});
    gl::TexLayout half{1, 10, 11, 8};  // the right size, but RGBA16F
    pool.give(pool.take_fitting(ctx, half, true), gl::TexturePool::key_of(half, true));
    QCOMPARE(pool.created(), std::size_t{4});
  }

  void modelTokenDefaultsToBundleHash() {
    GlEngine e(cache_.path);
    e.gl->model_opened(bundle_);
    std::vector<std::filesystem::path> files{bundle_.model_json};
    for (const auto& s : bundle_.shards) files.push_back(s.path);
    const std::string want = gl::model_token_of_files(files);
    QCOMPARE(e.gl->programs()->model_token(), want);
    // A run keeps it: the key is set when a model is opened and nowhere else.
    runtime::Executor ex(e.engine, graph_);
    int float_inputs = 0;
    ex.run(inputs_of(graph_, float_inputs));
    QCOMPARE(e.gl->programs()->model_token(), want);
  }
};

QTEST_GUILESS_MAIN(GlModelCacheTest)
#include "gl_model_cache_test.moc"
