// The limits of engine/model/limits.h: a model just over each one is refused with a ModelError
// that names the file and the limit; one just at it is accepted where that is practical to build.
#include <QtTest>
#include <string>

#include "bundle_files.h"
#include "core/error.h"
#include "graph/build.h"
#include "io/npy.h"
#include "model/bundle.h"
#include "model/limits.h"
#include "model/manifest.h"
#include "support/test_support.h"

using nlohmann::json;
using namespace tfjsi;
using namespace tfjsi::test;
namespace fs = std::filesystem;

namespace {

// Runs `load`, which must throw a ModelError whose message holds every needle.
template <class F>
void expect_refused(F&& load, std::initializer_list<std::string> needles) {
  try {
    load();
  } catch (const ModelError& e) {
    const std::string msg = e.what();
    for (const auto& n : needles)
      QVERIFY2(msg.find(n) != std::string::npos, ("'" + n + "' not in: " + msg).c_str());
    return;
  } catch (const std::exception& e) {
    QFAIL((std::string("not a ModelError: ") + e.what()).c_str());
  }
  QFAIL("accepted, expected a ModelError");
}

// A graph model with one float32 weight `w` of `shape` (all ones) in w.bin, and one Const node.
json one_weight_model(const json& shape) {
  json j = graph_model_json(
      json::array({{{"paths", {"w.bin"}}, {"weights", {weight_entry("w", shape, "float32")}}}}));
  j["modelTopology"]["node"] = {
      {{"name", "w"}, {"op", "Const"}, {"attr", {{"dtype", {{"type", "DT_FLOAT"}}}}}}};
  return j;
}

json nested_arrays(int depth) {
  json v = json::array();
  for (int i = 1; i < depth; ++i) v = json::array({std::move(v)});
  return v;
}

// A layers model: Activation (giving the input shape), then `depth` Sequential models each
// holding the next, the innermost holding one more Activation.
json nested_layers_model(int depth) {
  json inner = {{"class_name", "Activation"},
                {"config", {{"name", "inner_act"}, {"activation", "relu"}}}};
  for (int i = depth; i >= 1; --i)
    inner = {{"class_name", "Sequential"},
             {"config", {{"name", "seq" + std::to_string(i)}, {"layers", {inner}}}}};
  json first = {
      {"class_name", "Activation"},
      {"config",
       {{"name", "first"}, {"activation", "linear"}, {"batch_input_shape", {nullptr, 4}}}}};
  return {{"format", "layers-model"},
          {"modelTopology",
           {{"class_name", "Sequential"},
            {"config", {{"name", "top"}, {"layers", {first, inner}}}},
            {"keras_version", "tfjs-layers 4.22.0"},
            {"backend", "tensor_flow.js"}}},
          {"weightsManifest", json::array()}};
}

std::string npy_with_rank(std::size_t rank) {
  std::string shape = "(";
  for (std::size_t i = 0; i < rank; ++i) shape += "1, ";
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + "), }";
  dict.append((64 - (10 + dict.size() + 1) % 64) % 64, ' ');
  dict += '\n';
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict + f32_bytes({1.5f});
}

}  // namespace

class Limits : public QObject {
  Q_OBJECT

 private slots:
  void json_depth() {
    TempDir dir;
    const auto file = dir.path / "model.json";
    // nlohmann's parser is iterative, but the tree it builds would be walked recursively later.
    write_file(file, std::string(100000, '[') + std::string(100000, ']'));
    expect_refused([&] { model::load_bundle(file); },
                   {file.string(), "nested more than 256 levels", "kMaxJsonDepth"});

    // A model.json is nested 2 levels before userDefinedMetadata's value.
    json j = one_weight_model({1});
    write_file(dir.path / "w.bin", f32_bytes({1}));
    j["userDefinedMetadata"] = {{"deep", nested_arrays(model::kMaxJsonDepth - 2)}};
    write_json(file, j);
    QCOMPARE(model::load_bundle(file).weights.size(), std::size_t{1});
    j["userDefinedMetadata"] = {{"deep", nested_arrays(model::kMaxJsonDepth - 1)}};
    write_json(file, j);
    expect_refused([&] { model::load_bundle(file); }, {file.string(), "kMaxJsonDepth"});
  }

  void string_length() {
    TempDir dir;
    const auto file = dir.path / "model.json";
    write_file(dir.path / "w.bin", f32_bytes({1}));
    json j = one_weight_model({1});
    j["userDefinedMetadata"] = {{"note", std::string(model::kMaxStringBytes, 'x')}};
    write_json(file, j);
    QCOMPARE(model::load_bundle(file).weights.size(), std::size_t{1});
    j["userDefinedMetadata"] = {{"note", std::string(model::kMaxStringBytes + 1, 'x')}};
    write_json(file, j);
    expect_refused([&] { model::load_bundle(file); },
                   {file.string(), "a string of " + std::to_string(model::kMaxStringBytes + 1),
                    "kMaxStringBytes"});
    j["userDefinedMetadata"] = {{std::string(model::kMaxStringBytes + 1, 'k'), 1}};
    write_json(file, j);
    expect_refused([&] { model::load_bundle(file); },
                   {file.string(), "a key of", "kMaxStringBytes"});
  }

  void weight_rank() {
    TempDir dir;
    const auto file = dir.path / "model.json";
    write_file(dir.path / "w.bin", f32_bytes({1}));
    write_json(file, one_weight_model(json(std::vector<int>(model::kMaxRank, 1))));
    QCOMPARE(model::load_bundle(file).weights.at(0).shape.size(), model::kMaxRank);
    write_json(file, one_weight_model(json(std::vector<int>(model::kMaxRank + 1, 1))));
    expect_refused([&] { model::load_bundle(file); },
                   {file.string(), "'w'", "33 dims", "kMaxRank"});
  }

  void weight_elements() {
    // Accepting a weight of the full size would need its gigabytes on disk: the manifest alone
    // is checked for that side.
    std::vector<std::string> warnings;
    const json at =
        json::array({{{"paths", {"w.bin"}},
                      {"weights", {weight_entry("w", {model::kMaxWeightElements}, "bool")}}}});
    QCOMPARE(model::parse_manifest("m.json", at, warnings).at(0).weights.at(0).elements,
             model::kMaxWeightElements);
    const json over =
        json::array({{{"paths", {"w.bin"}},
                      {"weights", {weight_entry("w", {model::kMaxWeightElements + 1}, "bool")}}}});
    expect_refused([&] { model::parse_manifest("m.json", over, warnings); },
                   {"m.json", "'w'", "kMaxWeightElements"});
    // And a file that asks for it is refused before any shard is read.
    TempDir dir;
    write_json(dir.path / "model.json", one_weight_model({model::kMaxWeightElements + 1}));
    expect_refused([&] { model::load_bundle(dir.path); }, {"model.json", "kMaxWeightElements"});
  }

  void total_weight_bytes() {
    // Four float32 weights of 2^28 elements decode to exactly 4 GiB; one more element is over.
    std::vector<std::string> warnings;
    const std::uint64_t quarter = model::kMaxWeightBytes / 4 / 4;
    json weights = json::array();
    for (int i = 0; i < 4; ++i)
      weights.push_back(weight_entry("w" + std::to_string(i), {quarter}, "float32"));
    const json at = json::array({{{"paths", {"w.bin"}}, {"weights", weights}}});
    QCOMPARE(model::parse_manifest("m.json", at, warnings).at(0).weights.size(), std::size_t{4});
    json more = at;
    more[0]["weights"].push_back(weight_entry("w4", {1}, "float32"));
    expect_refused([&] { model::parse_manifest("m.json", more, warnings); },
                   {"m.json", "'w4'", "kMaxWeightBytes"});
    // uint8 weights count by their decoded float32 size, not their stored size.
    json q = at;
    q[0]["weights"].push_back(weight_entry("w4", {1}, "float32"));
    q[0]["weights"][4]["quantization"] = {{"dtype", "uint8"}, {"scale", 1}, {"min", 0}};
    expect_refused([&] { model::parse_manifest("m.json", q, warnings); }, {"kMaxWeightBytes"});
  }

  void node_count() {
    TempDir dir;
    const auto file = dir.path / "model.json";
    json j = graph_model_json(json::array());
    auto& nodes = j["modelTopology"]["node"];
    for (std::size_t i = 0; i < model::kMaxNodes; ++i)
      nodes.push_back({{"name", "n" + std::to_string(i)}, {"op", "NoOp"}});
    write_json(file, j);
    QCOMPARE(model::load_bundle(file).topology["node"].size(), model::kMaxNodes);
    nodes.push_back({{"name", "one_more"}, {"op", "NoOp"}});
    write_json(file, j);
    expect_refused([&] { model::load_bundle(file); },
                   {file.string(), std::to_string(model::kMaxNodes + 1) + " nodes", "kMaxNodes"});
  }

  // Issue #25 item 11: the node count is checked while the text is read, before a DOM of a
  // million nodes is built (that cost 1.2 GB before the limit refused it).
  void node_count_is_checked_before_parsing() {
    TempDir dir;
    const auto file = dir.path / "model.json";
    std::string text = R"({"format": "graph-model", "modelTopology": {"node": [)";
    for (int i = 0; i < 1000000; ++i)
      text += (i ? ",{\"name\":\"n" : "{\"name\":\"n") + std::to_string(i) + "\",\"op\":\"NoOp\"}";
    text += R"(]}, "weightsManifest": []})";
    write_file(file, text);
    expect_refused([&] { model::load_bundle(file); },
                   {file.string(), "nodes or more", "kMaxNodes"});
  }

  void attribute_tensor() {
    // A Const whose value attribute asks for more elements than the limit from one float.
    TempDir dir;
    const auto file = dir.path / "model.json";
    json j = graph_model_json(json::array());
    const auto node = [](std::int64_t n) {
      return json{{"name", "c"},
                  {"op", "Const"},
                  {"attr",
                   {{"dtype", {{"type", "DT_FLOAT"}}},
                    {"value",
                     {{"tensor",
                       {{"dtype", "DT_FLOAT"},
                        {"tensorShape", {{"dim", {{{"size", std::to_string(n)}}}}}},
                        {"floatVal", {1.0}}}}}}}}};
    };
    j["modelTopology"]["node"] = json::array({node(model::kMaxAttrTensorElements + 1)});
    write_json(file, j);
    const auto bundle = model::load_bundle(file);
    expect_refused([&] { graph::build_graph(bundle); }, {"'c'", "kMaxAttrTensorElements"});
    // A shape attribute of too many dims.
    json dims = json::array();
    for (std::size_t i = 0; i <= model::kMaxRank; ++i) dims.push_back({{"size", "1"}});
    j["modelTopology"]["node"] = json::array(
        {{{"name", "p"},
          {"op", "Placeholder"},
          {"attr", {{"dtype", {{"type", "DT_FLOAT"}}}, {"shape", {{"shape", {{"dim", dims}}}}}}}}});
    write_json(file, j);
    const auto b2 = model::load_bundle(file);
    expect_refused([&] { graph::build_graph(b2); }, {"'p'", "kMaxRank"});
  }

  void model_nesting() {
    TempDir dir;
    const auto file = dir.path / "model.json";
    write_json(file, nested_layers_model(model::kMaxModelNesting));
    const auto g = graph::build_graph(model::load_bundle(file));
    QCOMPARE(g.inputs.size(), std::size_t{1});
    write_json(file, nested_layers_model(model::kMaxModelNesting + 1));
    expect_refused([&] { graph::build_graph(model::load_bundle(file)); },
                   {file.string(), "nested more than 32", "kMaxModelNesting"});
  }

  void npy_rank() {
    TempDir dir;
    const auto file = dir.path / "x.npy";
    write_file(file, npy_with_rank(model::kMaxRank));
    QCOMPARE(io::read_npy(file).shape.size(), model::kMaxRank);
    write_file(file, npy_with_rank(model::kMaxRank + 1));
    expect_refused([&] { io::read_npy(file); }, {file.string(), "kMaxRank"});
  }

  void npy_claims_more_than_it_holds() {
    // A 100-byte file must not make the reader allocate the 3.6 GB its header asks for.
    TempDir dir;
    const auto file = dir.path / "x.npy";
    std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (30000, 30000), }";
    dict.append((64 - (10 + dict.size() + 1) % 64) % 64, ' ');
    dict += '\n';
    std::string bytes = "\x93NUMPY\x01";
    bytes += '\0';
    bytes += static_cast<char>(dict.size());
    bytes += '\0';
    write_file(file, bytes + dict + f32_bytes({1, 2}));
    expect_refused([&] { io::read_npy(file); }, {file.string(), "truncated", "holds 8"});
  }
};

QTEST_GUILESS_MAIN(Limits)
#include "limits_test.moc"
