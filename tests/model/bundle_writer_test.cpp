// Writing a quantized bundle from small bundles made here (issue #23): weights that are not
// float32 (int32 straddling two shards, quantized int32, string, bool) come out byte for byte with
// their manifest entries; every group stays a group with its own converter-named shards; a float32
// weight stored quantized in the input is written from its decoded values.
#include <QtTest>
#include <cstring>
#include <map>

#include "analysis/quantize_bundle.h"
#include "bundle_files.h"
#include "model/bundle.h"
#include "support/test_support.h"

using nlohmann::json;
using namespace tfjsi::test;

namespace {

// The bytes of each weight of `model_json`, read by hand from its shards.
std::map<std::string, std::string> weight_bytes(const std::filesystem::path& model_json) {
  const json j = read_json(model_json);
  std::map<std::string, std::string> out;
  for (const auto& g : j["weightsManifest"]) {
    std::string data;
    for (const auto& p : g["paths"])
      data += read_file(model_json.parent_path() / p.get<std::string>());
    std::size_t off = 0;
    for (const auto& w : g["weights"]) {
      std::size_t n = 1;
      for (const auto& d : w["shape"]) n *= d.get<std::size_t>();
      std::size_t size = 0;
      if (w["dtype"] == "string") {
        for (std::size_t k = 0; k < n; ++k) {
          std::uint32_t len;
          std::memcpy(&len, data.data() + off + size, 4);
          size += 4 + len;
        }
      } else if (w.contains("quantization")) {
        size = n * (w["quantization"]["dtype"] == "uint8" ? 1 : 2);
      } else {
        size = n * (w["dtype"] == "bool" ? 1 : 4);
      }
      out[w["name"]] = data.substr(off, size);
      off += size;
    }
  }
  return out;
}

std::map<std::string, json> entries(const json& model_json) {
  std::map<std::string, json> out;
  for (const auto& g : model_json["weightsManifest"])
    for (const auto& w : g["weights"]) out[w["name"]] = w;
  return out;
}

}  // namespace

class BundleWriterTest : public QObject {
  Q_OBJECT

 private slots:
  void otherDtypesPassUntouched() {
    TempDir dir;
    std::filesystem::create_directories(dir.path / "in");
    const std::string g1 = i32_bytes({7, -8, 9}) + string_bytes({"ab", "xyz"}) +
                           f32_bytes({-1.5f, 0.f, 3.f}) + u8_bytes({1, 0, 1});
    write_file(dir.path / "a.bin", g1.substr(0, 5));  // the int32 weight straddles a.bin, b.bin
    write_file(dir.path / "b.bin", g1.substr(5));
    write_file(dir.path / "c.bin", u8_bytes({0, 255}) + u16_bytes({0, 65535}));
    json qi = weight_entry("qi", {2}, "int32");
    qi["quantization"] = {
        {"dtype", "uint8"}, {"min", -2.0}, {"scale", 1.0}, {"original_dtype", "int32"}};
    json qf = weight_entry("qf", {2}, "float32");
    qf["quantization"] = {
        {"dtype", "uint16"}, {"min", -1.0}, {"scale", 2.0 / 65535}, {"original_dtype", "float32"}};
    const json manifest =
        json::array({{{"paths", {"a.bin", "b.bin"}},
                      {"weights",
                       {weight_entry("i", {3}, "int32"), weight_entry("s", {2}, "string"),
                        weight_entry("f", {3}, "float32"), weight_entry("b", {3}, "bool")}}},
                     {{"paths", {"c.bin"}}, {"weights", {qi, qf}}}});
    write_json(dir.path / "in" / "model.json", graph_model_json(manifest));
    for (const char* f : {"a.bin", "b.bin", "c.bin"})
      std::filesystem::rename(dir.path / f, dir.path / "in" / f);

    const auto bundle = tfjsi::model::load_bundle(dir.path / "in");
    const auto q = tfjsi::analysis::quantize_bundle(bundle, tfjsi::model::Quantization::Uint8, {});
    std::filesystem::create_directories(dir.path / "out");
    const std::uint64_t written =
        tfjsi::analysis::write_quantized_bundle(bundle, q, dir.path / "out");

    const json in = read_json(dir.path / "in" / "model.json"),
               out = read_json(dir.path / "out" / "model.json");
    QCOMPARE(out["weightsManifest"].size(), std::size_t(2));
    QCOMPARE(out["weightsManifest"][0]["paths"], json({"group1-shard1of1.bin"}));
    QCOMPARE(out["weightsManifest"][1]["paths"], json({"group2-shard1of1.bin"}));
    const auto before = weight_bytes(dir.path / "in" / "model.json");
    const auto after = weight_bytes(dir.path / "out" / "model.json");
    std::size_t total = 0;
    for (const auto& [name, bytes] : after) total += bytes.size();
    QCOMPARE(written, std::uint64_t(total));
    const auto in_entries = entries(in), out_entries = entries(out);
    for (const char* name : {"i", "s", "b", "qi"}) {
      QVERIFY2(after.at(name) == before.at(name), name);
      QVERIFY2(out_entries.at(name) == in_entries.at(name), name);
    }
    // f: [-1.5, 3] covers 0: uint8 with the nudge; qf re-quantized from its decoded [-1, 1].
    const json& f = out["weightsManifest"][0]["weights"][2];
    QCOMPARE(f["quantization"]["dtype"].get<std::string>(), std::string("uint8"));
    QCOMPARE(after.at("f").size(), std::size_t(3));
    const json& qf2 = out["weightsManifest"][1]["weights"][1];
    QCOMPARE(qf2["quantization"]["dtype"].get<std::string>(), std::string("uint8"));
    QCOMPARE(qf2["quantization"]["scale"].get<double>(), 2.0 / 255);
    const auto back = tfjsi::model::load_bundle(dir.path / "out");
    QCOMPARE(back.find_weight("s")->value.strings->at(1), std::string("xyz"));
    QCOMPARE(back.find_weight("i")->value.values<std::int32_t>()[1], -8);
  }
};

QTEST_GUILESS_MAIN(BundleWriterTest)
#include "bundle_writer_test.moc"
