// build_graph on one corpus model (its name is the first argument): endpoints against an
// independent reading of model.json, shapes against the signature and hand-derived values.
#include <QtTest>
#include <fstream>
#include <set>

#include "graph/build.h"
#include "model/bundle.h"
#include "ops/attr.h"
#include "support/test_support.h"

using namespace tfjsi;
using namespace tfjsi::graph;
using ojson = nlohmann::ordered_json;

namespace {

std::string g_model;

PartialShape shape_of(const ojson& s) {
  if (s.value("unknownRank", false)) return PartialShape::unknown();
  PartialShape p = PartialShape::of({});
  for (const auto& d : s.value("dim", ojson::array()))
    p.dims.push_back(d.contains("size") ? std::stoll(d["size"].get<std::string>()) : 0);
  return p;
}

// Shapes checked by hand from the model files: input size, the conv's filter (from the weights
// manifest), its strides and padding. SAME gives ceil(in / stride).
struct Expected {
  const char* model;
  const char* node;
  std::vector<std::int64_t> dims;
};
const Expected kExpected[] = {
    // 256x256x3 input, 5x5x3x24 filter, stride 2, SAME: 128x128x24.
    {"blazeface", "StatefulPartitionedCall/functional_1/conv2d/Relu", {1, 128, 128, 24}},
    // then a 3x3 depthwise (multiplier 1), stride 1, SAME: same size.
    {"blazeface",
     "StatefulPartitionedCall/functional_1/depthwise_conv2d/depthwise",
     {1, 128, 128, 24}},
    // 256x256x3, 3x3x3x16, stride 2, SAME: 128x128x16; then a stride-2 depthwise: 64x64x16.
    {"selfie", "Conv2D", {1, 128, 128, 16}},
    {"selfie", "depthwise", {1, 64, 64, 16}},
    // 256x256x3, 3x3x3x32, stride 2, SAME.
    {"handdetect", "StatefulPartitionedCall/model/activation/Relu", {1, 128, 128, 32}},
    // 385x385x3, 3x3x3x24, stride 2, SAME: ceil(385/2) = 193; a stride-2 depthwise: 97.
    {"posenet", "MobilenetV1/MobilenetV1/Conv2d_0/Relu6", {1, 193, 193, 24}},
    {"posenet",
     "MobilenetV1/MobilenetV1/Conv2d_2_depthwise/BatchNorm/batchnorm/add_1/conv",
     {1, 97, 97, 48}},
};

}  // namespace

class CorpusGraphTest : public QObject {
  Q_OBJECT
 private:
  model::Bundle bundle_;
  Graph graph_;
  ojson json_;

  const ojson& signature() const {
    if (json_.contains("userDefinedMetadata") && json_["userDefinedMetadata"].is_object() &&
        json_["userDefinedMetadata"].contains("signature"))
      return json_["userDefinedMetadata"]["signature"];
    static const ojson kNull;
    return json_.contains("signature") ? json_["signature"] : kNull;
  }

 private slots:
  void initTestCase() {
    QVERIFY2(!g_model.empty(), "usage: graph_corpus MODEL");
    const auto path = test::corpus_model(g_model);
    std::ifstream in(path);
    json_ = ojson::parse(in);
    bundle_ = model::load_bundle(path);
    graph_ = build_graph(bundle_);
  }

  void every_node_is_imported_in_topological_order() {
    QCOMPARE(graph_.nodes.size(), json_["modelTopology"]["node"].size());
    for (std::size_t i = 0; i < graph_.nodes.size(); ++i) {
      const Node& n = graph_.nodes[i];
      QCOMPARE(graph_.find(n.name), static_cast<int>(i));
      for (const auto& in : n.inputs) {
        const Node& src = graph_.nodes[static_cast<std::size_t>(in.node)];
        const bool back_edge = src.op == "NextIteration" && n.op == "Merge";
        QVERIFY2(back_edge || in.node < static_cast<int>(i), n.name.c_str());
        QVERIFY2(in.output < static_cast<int>(src.outputs.size()), n.name.c_str());
      }
      if (n.op == "Const") QVERIFY2(n.value.has_value(), n.name.c_str());
    }
  }

  void endpoints_follow_tfjs() {
    // TF.js 4.22: signature keys in file order when the signature lists them, else every
    // Placeholder (inputs) / every node no other node names (outputs), in file order.
    std::vector<std::string> in_names, out_names;
    std::vector<std::pair<std::string, int>> in_refs, out_refs;
    auto split = [](std::string t) -> std::pair<std::string, int> {
      const auto c = t.rfind(':');
      if (c == std::string::npos) return {t, 0};
      return {t.substr(0, c), std::stoi(t.substr(c + 1))};
    };
    const ojson& sig = signature();
    const auto& nodes = json_["modelTopology"]["node"];
    if (sig.is_object() && sig.contains("inputs") && !sig["inputs"].empty()) {
      for (const auto& [key, info] : sig["inputs"].items()) {
        in_names.push_back(key);
        in_refs.push_back(split(info["name"].get<std::string>()));
      }
    } else {
      for (const auto& n : nodes)
        if (n["op"].get<std::string>().starts_with("Placeholder")) {
          in_names.push_back(n["name"]);
          in_refs.push_back({n["name"], 0});
        }
    }
    if (sig.is_object() && sig.contains("outputs") && !sig["outputs"].empty()) {
      for (const auto& [key, info] : sig["outputs"].items()) {
        out_names.push_back(key);
        out_refs.push_back(split(info["name"].get<std::string>()));
      }
    } else {
      std::set<std::string> consumed;
      for (const auto& n : nodes)
        for (const auto& i : n.value("input", ojson::array())) {
          std::string s = i.get<std::string>();
          if (s.starts_with("^")) s = s.substr(1);
          consumed.insert(split(s).first);
        }
      for (const auto& n : nodes)
        if (!consumed.count(n["name"])) {
          out_names.push_back(n["name"]);
          out_refs.push_back({n["name"], 0});
        }
    }
    QCOMPARE(graph_.inputs.size(), in_names.size());
    for (std::size_t i = 0; i < in_names.size(); ++i) {
      QCOMPARE(graph_.inputs[i].name, in_names[i]);
      QCOMPARE(graph_.nodes[static_cast<std::size_t>(graph_.inputs[i].ref.node)].name,
               in_refs[i].first);
      QCOMPARE(graph_.inputs[i].ref.output, in_refs[i].second);
    }
    QCOMPARE(graph_.outputs.size(), out_names.size());
    for (std::size_t i = 0; i < out_names.size(); ++i) {
      QCOMPARE(graph_.outputs[i].name, out_names[i]);
      QCOMPARE(graph_.nodes[static_cast<std::size_t>(graph_.outputs[i].ref.node)].name,
               out_refs[i].first);
      QCOMPARE(graph_.outputs[i].ref.output, out_refs[i].second);
    }
  }

  void input_shapes_come_from_placeholders_and_signature() {
    const ojson& sig = signature();
    for (const auto& e : graph_.inputs) {
      const Node& n = graph_.nodes[static_cast<std::size_t>(e.ref.node)];
      QVERIFY(e.dtype.has_value());
      const PartialShape ph = ops::attr<PartialShape>(n, "shape");
      // Placeholder dims stay; its unknown dims are the signature's when that knows them.
      PartialShape expected = ph;
      if (sig.is_object() && sig.contains("inputs") && sig["inputs"].contains(e.name) &&
          sig["inputs"][e.name].contains("tensorShape")) {
        const PartialShape s = shape_of(sig["inputs"][e.name]["tensorShape"]);
        if (!expected.rank_known)
          expected = s;
        else if (s.rank_known && s.dims.size() == expected.dims.size())
          for (std::size_t k = 0; k < s.dims.size(); ++k)
            if (expected.dims[k] < 0) expected.dims[k] = s.dims[k];
      }
      QCOMPARE(e.shape, expected);
    }
  }

  void output_shapes_agree_with_signature() {
    // The converter wrote the signature from TF's own shape inference: wherever both we and it
    // know a dim, they must agree.
    const ojson& sig = signature();
    if (!sig.is_object() || !sig.contains("outputs")) return;
    for (const auto& e : graph_.outputs) {
      const auto& info = sig["outputs"][e.name];
      if (!info.contains("tensorShape")) continue;
      const PartialShape theirs = shape_of(info["tensorShape"]);
      const TensorInfo& ours = graph_.nodes[static_cast<std::size_t>(e.ref.node)]
                                   .outputs[static_cast<std::size_t>(e.ref.output)];
      if (!ours.shape.rank_known || !theirs.rank_known) continue;
      QVERIFY2(ours.shape.dims.size() == theirs.dims.size(),
               (e.name + ": " + ours.shape.to_string() + " vs " + theirs.to_string()).c_str());
      for (std::size_t k = 0; k < theirs.dims.size(); ++k)
        if (ours.shape.dims[k] >= 0 && theirs.dims[k] >= 0)
          QVERIFY2(ours.shape.dims[k] == theirs.dims[k],
                   (e.name + ": " + ours.shape.to_string() + " vs " + theirs.to_string()).c_str());
    }
  }

  void static_inputs_give_known_shapes_everywhere() {
    bool all_static = !graph_.inputs.empty();
    for (const auto& n : graph_.nodes)
      if (n.op == "Placeholder" && !ops::attr<PartialShape>(n, "shape").fully_known())
        all_static = false;
    if (!all_static) {
      // Dynamic inputs: still every node has its outputs, and the outputs' ranks are known.
      for (const auto& e : graph_.outputs)
        QVERIFY2(graph_.nodes[static_cast<std::size_t>(e.ref.node)].outputs.size() >
                     static_cast<std::size_t>(e.ref.output),
                 e.name.c_str());
      return;
    }
    for (const auto& n : graph_.nodes)
      for (std::size_t k = 0; k < n.outputs.size(); ++k)
        QVERIFY2(n.outputs[k].shape.fully_known(),
                 (n.name + " (" + n.op + ") output " + std::to_string(k) + ": " +
                  n.outputs[k].shape.to_string())
                     .c_str());
    for (const auto& e : graph_.outputs) QVERIFY2(e.shape.fully_known(), e.name.c_str());
  }

  void hand_derived_shapes() {
    for (const auto& x : kExpected) {
      if (g_model != x.model) continue;
      const int i = graph_.find(x.node);
      QVERIFY2(i >= 0, x.node);
      QCOMPARE(graph_.nodes[static_cast<std::size_t>(i)].outputs.at(0).shape,
               PartialShape::of(x.dims));
    }
  }
};

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MODEL [Qt Test options]\n", argv[0]);
    return 2;
  }
  g_model = argv[1];
  std::vector<char*> args{argv[0]};
  for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
  QCoreApplication app(argc, argv);
  CorpusGraphTest test;
  return QTest::qExec(&test, static_cast<int>(args.size()), args.data());
}

#include "corpus_test.moc"
