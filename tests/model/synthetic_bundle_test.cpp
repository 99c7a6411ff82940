// Small bundles written here cover what the corpus does not: shards split mid-weight, several
// groups, uint16 and int32 quantization, string and bool weights, layers models, path forms.
#include <QtTest>

#include <bit>
#include <cmath>
#include <fstream>

#include "bundle_files.h"
#include "core/error.h"
#include "model/bundle.h"
#include "support/test_support.h"

using nlohmann::json;
using tfjsi::model::Bundle;
using tfjsi::model::load_bundle;
using tfjsi::model::Quantization;
using namespace tfjsi::test;

namespace {

std::vector<float> floats(const tfjsi::model::Weight* w) {
  if (!w) throw std::runtime_error("weight missing");
  auto v = w->value.values<float>();
  return {v.begin(), v.end()};
}

std::vector<std::int32_t> ints(const tfjsi::model::Weight* w) {
  if (!w) throw std::runtime_error("weight missing");
  auto v = w->value.values<std::int32_t>();
  return {v.begin(), v.end()};
}

const tfjsi::model::Weight& get(const Bundle& b, const char* name) {
  const auto* w = b.find_weight(name);
  if (!w) throw std::runtime_error(std::string("weight missing: ") + name);
  return *w;
}

}  // namespace

class SyntheticBundleTest : public QObject {
  Q_OBJECT

 private slots:
  // Weight b starts in shard 1 and ends in shard 2; a weight wholly in one shard is borrowed.
  void weight_straddles_two_shards() {
    TempDir dir;
    const auto bytes = f32_bytes({1, 2, 3, 4, 5, 6, 7});   // a: 3 values, b: 4 values
    write_file(dir.path / "s1.bin", bytes.substr(0, 16));  // a and the first float of b
    write_file(dir.path / "s2.bin", bytes.substr(16));
    write_json(
        dir.path / "model.json",
        graph_model_json(json::array(
            {{{"paths", {"s1.bin", "s2.bin"}},
              {"weights",
               {weight_entry("a", {3}, "float32"), weight_entry("b", {2, 2}, "float32")}}}})));
    const auto b = load_bundle(dir.path / "model.json");
    QCOMPARE(b.weights.size(), std::size_t(2));
    QCOMPARE(floats(b.find_weight("a")), (std::vector<float>{1, 2, 3}));
    QCOMPARE(floats(b.find_weight("b")), (std::vector<float>{4, 5, 6, 7}));
    QCOMPARE(get(b, "b").offset, std::uint64_t(12));
    QCOMPARE(get(b, "b").stored_bytes, std::uint64_t(16));
    QCOMPARE(get(b, "b").value.shape, (tfjsi::Shape{2, 2}));
    QVERIFY(!get(b, "a").value.buffer->owned());
    QVERIFY(get(b, "b").value.buffer->owned());
    QCOMPARE(b.shards.size(), std::size_t(2));
    QCOMPARE(b.shards[1].manifest_path, std::string("s2.bin"));
    QCOMPARE(b.shards[1].bytes, std::uint64_t(12));
    QVERIFY(b.warnings.empty());
  }

  // A borrowed weight keeps its mapping alive after the bundle is gone, and is read-only.
  void borrowed_weight_outlives_bundle() {
    TempDir dir;
    write_file(dir.path / "w.bin", i32_bytes({7, -8, 9}));
    write_json(dir.path / "model.json",
               graph_model_json(json::array(
                   {{{"paths", {"w.bin"}}, {"weights", {weight_entry("k", {3}, "int32")}}}})));
    tfjsi::HostTensor kept;
    {
      auto b = load_bundle(dir.path);
      kept = get(b, "k").value;
    }
    std::filesystem::remove(dir.path / "w.bin");
    QVERIFY(!kept.buffer->owned());
    auto v = kept.values<std::int32_t>();
    QCOMPARE((std::vector<std::int32_t>(v.begin(), v.end())),
             (std::vector<std::int32_t>{7, -8, 9}));
    QVERIFY_THROWS_EXCEPTION(std::logic_error, kept.buffer->mutable_data());
  }

  // Each group starts at byte 0 of its own shards.
  void two_groups() {
    TempDir dir;
    write_file(dir.path / "g0.bin", f32_bytes({1.5f, 2.5f}));
    write_file(dir.path / "g1.bin", i32_bytes({10, 20, 30}));
    write_json(dir.path / "model.json",
               graph_model_json(json::array(
                   {{{"paths", {"g0.bin"}}, {"weights", {weight_entry("x", {2}, "float32")}}},
                    {{"paths", {"g1.bin"}}, {"weights", {weight_entry("y", {3}, "int32")}}}})));
    const auto b = load_bundle(dir.path / "model.json");
    QCOMPARE(get(b, "y").group, std::size_t(1));
    QCOMPARE(get(b, "y").offset, std::uint64_t(0));
    QCOMPARE(ints(b.find_weight("y")), (std::vector<std::int32_t>{10, 20, 30}));
    QCOMPARE(floats(b.find_weight("x")), (std::vector<float>{1.5f, 2.5f}));
    QCOMPARE(b.shards[1].group, std::size_t(1));
    QCOMPARE(b.bytes_on_disk(), std::uint64_t(20));
  }

  void uint16_quantization() {
    TempDir dir;
    write_file(dir.path / "q.bin", u16_bytes({0, 1, 40000, 65535}));
    auto e = weight_entry("q", {4}, "float32");
    e["quantization"] = {
        {"dtype", "uint16"}, {"scale", 0.001}, {"min", -2.0}, {"original_dtype", "float32"}};
    write_json(dir.path / "model.json",
               graph_model_json(json::array({{{"paths", {"q.bin"}}, {"weights", {e}}}})));
    const auto b = load_bundle(dir.path / "model.json");
    const auto& w = get(b, "q");
    QCOMPARE(w.quantization, Quantization::Uint16);
    QCOMPARE(w.stored_bytes, std::uint64_t(8));
    QCOMPARE(w.value.dtype, tfjsi::DType::Float32);
    const std::vector<float> expected{
        static_cast<float>(0 * 0.001 - 2.0), static_cast<float>(1 * 0.001 - 2.0),
        static_cast<float>(40000 * 0.001 - 2.0), static_cast<float>(65535 * 0.001 - 2.0)};
    QCOMPARE(floats(&w), expected);
    QCOMPARE(b.bytes_decoded(), std::uint64_t(16));
  }

  // int32 weights quantized to uint8 are rounded half up, like Math.round.
  void int32_quantized_rounds_like_math_round() {
    TempDir dir;
    write_file(dir.path / "q.bin", u8_bytes({0, 1, 2, 3, 4, 255}));
    auto e = weight_entry("n", {6}, "int32");
    e["quantization"] = {{"dtype", "uint8"}, {"scale", 0.5}, {"min", -1.5}};
    write_json(dir.path / "model.json",
               graph_model_json(json::array({{{"paths", {"q.bin"}}, {"weights", {e}}}})));
    const auto b = load_bundle(dir.path / "model.json");
    // q*0.5-1.5 = -1.5, -1, -0.5, 0, 0.5, 126: halves go toward +inf.
    QCOMPARE(ints(b.find_weight("n")), (std::vector<std::int32_t>{-1, -1, 0, 0, 1, 126}));
    QCOMPARE(get(b, "n").value.dtype, tfjsi::DType::Int32);
  }

  // Dequantized values beyond float range become infinities, as in a Float32Array.
  // A scale and min whose dequantized values do not fit in float32 are damaged parameters: the
  // load refuses them naming the weight (#25), rather than running on infinities.
  void quantized_overflow_is_refused() {
    TempDir dir;
    write_file(dir.path / "q.bin", u8_bytes({0, 1, 2}));
    auto e = weight_entry("q", {3}, "float32");
    e["quantization"] = {{"dtype", "uint8"}, {"scale", 1e300}, {"min", -1e300}};
    write_json(dir.path / "model.json",
               graph_model_json(json::array({{{"paths", {"q.bin"}}, {"weights", {e}}}})));
    try {
      load_bundle(dir.path);
      QFAIL("a dequantization that overflows float32 was accepted");
    } catch (const tfjsi::ModelError& err) {
      const std::string what = err.what();
      QVERIFY2(what.find("weight 'q'") != std::string::npos &&
                   what.find("does not fit in float32") != std::string::npos,
               err.what());
    }
  }

  void float16_special_values() {
    TempDir dir;
    // 1.0, -2.0, smallest subnormal, +inf, -0, 65504, NaN
    write_file(dir.path / "h.bin",
               u16_bytes({0x3c00, 0xc000, 0x0001, 0x7c00, 0x8000, 0x7bff, 0x7e00}));
    auto e = weight_entry("h", {7}, "float32");
    e["quantization"] = {{"dtype", "float16"}, {"original_dtype", "float32"}};
    write_json(dir.path / "model.json",
               graph_model_json(json::array({{{"paths", {"h.bin"}}, {"weights", {e}}}})));
    const auto v = floats(load_bundle(dir.path).find_weight("h"));
    QCOMPARE(v[0], 1.0f);
    QCOMPARE(v[1], -2.0f);
    QCOMPARE(v[2], std::ldexp(1.0f, -24));
    QVERIFY(std::isinf(v[3]) && v[3] > 0);
    QVERIFY(v[4] == 0.0f && std::signbit(v[4]));
    QCOMPARE(v[5], 65504.0f);
    QVERIFY(std::isnan(v[6]));
  }

  // A float32 weight after a float16 one sits at a 2-byte offset: copied, values intact.
  void misaligned_float32_is_copied() {
    TempDir dir;
    write_file(dir.path / "m.bin", u16_bytes({0x3c00}) + f32_bytes({3.25f, -1.0f}));
    auto h = weight_entry("h", {1}, "float32");
    h["quantization"] = {{"dtype", "float16"}};
    write_json(dir.path / "model.json",
               graph_model_json(json::array(
                   {{{"paths", {"m.bin"}}, {"weights", {h, weight_entry("f", {2}, "float32")}}}})));
    const auto b = load_bundle(dir.path);
    QCOMPARE(get(b, "f").offset, std::uint64_t(2));
    QVERIFY(get(b, "f").value.buffer->owned());
    QCOMPARE(floats(b.find_weight("f")), (std::vector<float>{3.25f, -1.0f}));
  }

  // Strings (TF.js encoding) and bools, the string straddling the shard boundary.
  void string_and_bool_weights() {
    TempDir dir;
    const std::string strings = string_bytes({"hello", "", "\xc3\xa9t\xc3\xa9"});
    const std::string all = strings + u8_bytes({1, 0, 2});
    write_file(dir.path / "a.bin", all.substr(0, 7));
    write_file(dir.path / "b.bin", all.substr(7));
    write_json(dir.path / "model.json",
               graph_model_json(json::array(
                   {{{"paths", {"a.bin", "b.bin"}},
                     {"weights",
                      {weight_entry("s", {3}, "string"), weight_entry("flags", {3}, "bool")}}}})));
    const auto b = load_bundle(dir.path);
    const auto& s = get(b, "s");
    QCOMPARE(s.value.dtype, tfjsi::DType::String);
    QVERIFY(s.value.strings);
    QCOMPARE(*s.value.strings, (std::vector<std::string>{"hello", "", "\xc3\xa9t\xc3\xa9"}));
    QCOMPARE(s.stored_bytes, static_cast<std::uint64_t>(strings.size()));
    const auto& f = get(b, "flags");
    QCOMPARE(f.offset, static_cast<std::uint64_t>(strings.size()));
    auto v = f.value.values<std::uint8_t>();
    QCOMPARE((std::vector<std::uint8_t>(v.begin(), v.end())), (std::vector<std::uint8_t>{1, 0, 1}));
  }

  // complex64 weights are (real, imag) float32 pairs, interleaved as TF.js's decodeWeights reads
  // them; a second weight after one starts 8 bytes an element further.
  void complex64_weight() {
    TempDir dir;
    write_file(dir.path / "w.bin", f32_bytes({1.5f, -2.0f, 0.0f, 3.25f}) + i32_bytes({7}));
    write_json(dir.path / "model.json",
               graph_model_json(json::array(
                   {{{"paths", {"w.bin"}},
                     {"weights",
                      {weight_entry("c", {2}, "complex64"), weight_entry("i", {1}, "int32")}}}})));
    const auto b = load_bundle(dir.path);
    const auto& c = get(b, "c");
    QCOMPARE(c.value.dtype, tfjsi::DType::Complex64);
    QCOMPARE(c.value.byte_size(), std::size_t(16));
    const float* v = reinterpret_cast<const float*>(c.value.buffer->data());
    QCOMPARE((std::vector<float>(v, v + 4)), (std::vector<float>{1.5f, -2.0f, 0.0f, 3.25f}));
    QCOMPARE(get(b, "i").offset, std::uint64_t(16));
    QCOMPARE(ints(b.find_weight("i")), (std::vector<std::int32_t>{7}));
  }

  // Scalars and empty tensors take no special path.
  void scalar_and_empty_weights() {
    TempDir dir;
    write_file(dir.path / "w.bin", f32_bytes({42.0f}));
    write_json(
        dir.path / "model.json",
        graph_model_json(json::array({{{"paths", {"w.bin"}},
                                       {"weights",
                                        {weight_entry("empty", {0, 3}, "float32"),
                                         weight_entry("scalar", json::array(), "float32")}}}})));
    const auto b = load_bundle(dir.path);
    QCOMPARE(get(b, "empty").value.num_elements(), std::int64_t(0));
    QCOMPARE(floats(b.find_weight("scalar")), std::vector<float>{42.0f});
    QCOMPARE(get(b, "scalar").value.rank(), 0);
  }

  // MODEL may be the folder, model.json, or a json file under another name.
  void folder_and_file_paths() {
    TempDir dir;
    write_file(dir.path / "w.bin", f32_bytes({1}));
    const auto j = graph_model_json(
        json::array({{{"paths", {"w.bin"}}, {"weights", {weight_entry("w", {1}, "float32")}}}}));
    write_json(dir.path / "model.json", j);
    write_json(dir.path / "age.json", j);
    const auto by_dir = load_bundle(dir.path);
    QCOMPARE(by_dir.model_json, dir.path / "model.json");
    QCOMPARE(by_dir.dir, std::filesystem::canonical(dir.path));
    const auto by_name = load_bundle(dir.path / "age.json");
    QCOMPARE(by_name.model_json, dir.path / "age.json");
    QCOMPARE(floats(by_name.find_weight("w")), std::vector<float>{1});
    // A shard in a subfolder, and a symlink that stays inside, are fine.
    std::filesystem::create_directory(dir.path / "sub");
    write_file(dir.path / "sub" / "x.bin", f32_bytes({5}));
    std::filesystem::create_symlink("sub/x.bin", dir.path / "link.bin");
    write_json(dir.path / "model.json",
               graph_model_json(json::array({{{"paths", {"sub/x.bin", "./link.bin"}},
                                              {"weights", {weight_entry("w", {2}, "float32")}}}})));
    QCOMPARE(floats(load_bundle(dir.path).find_weight("w")), (std::vector<float>{5, 5}));
  }

  void over_long_shard_is_a_warning() {
    TempDir dir;
    write_file(dir.path / "w.bin", f32_bytes({1, 2, 3}));
    write_json(dir.path / "model.json",
               graph_model_json(json::array(
                   {{{"paths", {"w.bin"}}, {"weights", {weight_entry("w", {2}, "float32")}}}})));
    const auto b = load_bundle(dir.path);
    QCOMPARE(b.warnings.size(), std::size_t(1));
    QVERIFY(b.warnings[0].find("w.bin") != std::string::npos);
    QVERIFY(b.warnings[0].find("4 bytes") != std::string::npos);
  }

  void no_manifest_means_no_weights() {
    TempDir dir;
    auto j = graph_model_json(json());
    j.erase("weightsManifest");
    write_json(dir.path / "model.json", j);
    const auto b = load_bundle(dir.path);
    QVERIFY(b.weights.empty());
    QVERIFY(b.shards.empty());
  }

  // Graph-model fields: signature (top level, or inside userDefinedMetadata), initializer.
  void graph_model_fields() {
    TempDir dir;
    auto j = graph_model_json(json::array());
    j["signature"] = {{"inputs", {{"x:0", {{"name", "x:0"}}}}}};
    j["modelInitializer"] = {{"node", json::array()}};
    write_json(dir.path / "model.json", j);
    auto b = load_bundle(dir.path);
    QCOMPARE(b.kind, tfjsi::model::ModelKind::Graph);
    QCOMPARE(b.converted_by, std::string("TensorFlow.js Converter v4.22.0"));
    QVERIFY(b.signature == j["signature"]);
    QVERIFY(b.initializer == j["modelInitializer"]);
    QVERIFY(b.metadata.is_null());
    j["userDefinedMetadata"] = {{"signature", {{"outputs", json::object()}}}, {"author", "x"}};
    write_json(dir.path / "model.json", j);
    b = load_bundle(dir.path);
    QVERIFY(b.signature == j["userDefinedMetadata"]["signature"]);
    QCOMPARE(b.metadata["author"].get<std::string>(), std::string("x"));
  }

  // nlohmann::json sorts keys; the loader notes the signature's as model.json writes them, from
  // the signature TF.js uses, and only for those objects (not for lookalikes inside arrays).
  void signature_key_order_as_written() {
    TempDir dir;
    const std::string top = R"({"format": "graph-model", "modelTopology": {"node": []},
      "signature": {"outputs": {"zeta": {"name": "a:0"}, "10": {"name": "b:0"},
                                "alpha": {"name": "c:0"}},
                    "inputs": {"y": {"name": "y:0"}, "x": {"name": "x:0"}}},
      "other": [{"signature": {"inputs": {"q": {}, "p": {}}}}]})";
    std::ofstream(dir.path / "model.json") << top;
    auto b = load_bundle(dir.path);
    QCOMPARE(b.signature_order.inputs, (std::vector<std::string>{"y", "x"}));
    QCOMPARE(b.signature_order.outputs, (std::vector<std::string>{"zeta", "10", "alpha"}));

    const std::string nested = R"({"format": "graph-model", "modelTopology": {"node": []},
      "signature": {"inputs": {"y": {"name": "y:0"}, "x": {"name": "x:0"}}},
      "userDefinedMetadata": {"signature": {"inputs": {"b": {"name": "b:0"},
                                                       "a": {"name": "a:0"}}}}})";
    std::ofstream(dir.path / "model.json") << nested;
    b = load_bundle(dir.path);
    QCOMPARE(b.signature_order.inputs, (std::vector<std::string>{"b", "a"}));
    QVERIFY(b.signature_order.outputs.empty());
    // userDefinedMetadata's signature is the one in effect (as in TF.js), whole: the top-level
    // inputs y and x are gone.
    QCOMPARE(b.signature.dump(), json::parse(R"({"inputs": {"b": {"name": "b:0"},
                                                          "a": {"name": "a:0"}}})")
                                     .dump());
  }

  // Keras converter form: model_config, keras_version, backend, training_config, no format.
  void layers_model_from_keras_converter() {
    TempDir dir;
    write_file(dir.path / "w.bin", f32_bytes({1, 2}));
    json j = {
        {"modelTopology",
         {{"keras_version", "2.11.0"},
          {"backend", "tensorflow"},
          {"model_config", {{"class_name", "Sequential"}, {"config", {{"layers", json::array()}}}}},
          {"training_config", {{"loss", "mse"}}}}},
        {"weightsManifest",
         {{{"paths", {"w.bin"}}, {"weights", {weight_entry("dense/kernel", {2, 1}, "float32")}}}}}};
    write_json(dir.path / "model.json", j);
    const auto b = load_bundle(dir.path);
    QCOMPARE(b.kind, tfjsi::model::ModelKind::Layers);
    QCOMPARE(std::string(tfjsi::model::to_string(b.kind)), std::string("layers-model"));
    QVERIFY(b.format.empty());
    QCOMPARE(b.keras_version, std::string("2.11.0"));
    QCOMPARE(b.keras_backend, std::string("tensorflow"));
    QVERIFY(b.training_config == j["modelTopology"]["training_config"]);
    QCOMPARE(floats(b.find_weight("dense/kernel")), (std::vector<float>{1, 2}));
  }

  // tfjs-layers model.save form: bare {class_name, config}, trainingConfig at the top level.
  void layers_model_from_model_save() {
    TempDir dir;
    json j = {{"format", "layers-model"},
              {"generatedBy", "TensorFlow.js tfjs-layers v4.22.0"},
              {"convertedBy", nullptr},
              {"modelTopology",
               {{"class_name", "Functional"},
                {"config", json::object()},
                {"keras_version", "tfjs-layers 4.22.0"}}},
              {"trainingConfig", {{"loss", "categoricalCrossentropy"}}},
              {"weightsManifest", json::array()}};
    write_json(dir.path / "model.json", j);
    const auto b = load_bundle(dir.path);
    QCOMPARE(b.kind, tfjsi::model::ModelKind::Layers);
    QVERIFY(b.converted_by.empty());
    QCOMPARE(b.keras_version, std::string("tfjs-layers 4.22.0"));
    QVERIFY(b.training_config == j["trainingConfig"]);
  }

  void to_string_names() {
    QCOMPARE(std::string(tfjsi::model::to_string(Quantization::None)), std::string("none"));
    QCOMPARE(std::string(tfjsi::model::to_string(Quantization::Uint8)), std::string("uint8"));
    QCOMPARE(std::string(tfjsi::model::to_string(Quantization::Uint16)), std::string("uint16"));
    QCOMPARE(std::string(tfjsi::model::to_string(Quantization::Float16)), std::string("float16"));
    QCOMPARE(std::string(tfjsi::model::to_string(tfjsi::model::ModelKind::Graph)),
             std::string("graph-model"));
  }
};

QTEST_GUILESS_MAIN(SyntheticBundleTest)
#include "synthetic_bundle_test.moc"
