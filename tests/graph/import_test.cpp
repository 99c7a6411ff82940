// import_graphdef and sort_topologically on hand-made bundles: references, Const values,
// endpoints (TF.js 4.22 GraphModel rules), library functions, the initializer, cycles.
#include <QtTest>

#include "core/error.h"
#include "graph/build.h"
#include "ops/attr.h"
#include "support/test_support.h"

using nlohmann::json;
using namespace tfjsi;
using namespace tfjsi::graph;

namespace {

json node(std::string name, std::string op, std::vector<std::string> inputs = {},
          json attrs = json::object()) {
  json n = {{"name", name}, {"op", op}, {"attr", attrs}};
  if (!inputs.empty()) n["input"] = inputs;
  return n;
}

json placeholder(std::string name, std::vector<int> dims, const char* type = "DT_FLOAT") {
  json d = json::array();
  for (int x : dims) d.push_back({{"size", std::to_string(x)}});
  return node(name, "Placeholder", {},
              {{"dtype", {{"type", type}}}, {"shape", {{"shape", {{"dim", d}}}}}});
}

// A Const carrying its own value (no manifest weight).
json int_const(std::string name, std::vector<int> values, bool vector = true) {
  json t = {{"dtype", "DT_INT32"}, {"intVal", values}};
  if (vector) t["tensorShape"] = {{"dim", {{{"size", std::to_string(values.size())}}}}};
  return node(name, "Const", {}, {{"dtype", {{"type", "DT_INT32"}}}, {"value", {{"tensor", t}}}});
}

// A vector, not a json: `{one_node}` as a json would be an array under GCC and the node itself
// under clang (a one-element braced list of the same type is a copy there).
model::Bundle bundle_of(std::vector<json> nodes) {
  model::Bundle b;
  b.topology = {{"node", json(std::move(nodes))}, {"versions", json::object()}};
  return b;
}

model::Weight weight(std::string name, Shape shape, float fill) {
  model::Weight w;
  w.name = std::move(name);
  w.shape = shape;
  w.value = HostTensor::zeros(DType::Float32, shape);
  for (float& f : w.value.mutable_values<float>()) f = fill;
  return w;
}

const Node& by_name(const Graph& g, std::string_view name) {
  const int i = g.find(name);
  if (i < 0) throw std::runtime_error("no node " + std::string(name));
  return g.nodes[static_cast<std::size_t>(i)];
}

std::vector<std::string> names(const std::vector<Endpoint>& eps) {
  std::vector<std::string> out;
  for (const auto& e : eps) out.push_back(e.name);
  return out;
}

std::vector<std::string> order(const Graph& g) {
  std::vector<std::string> out;
  for (const auto& n : g.nodes) out.push_back(n.name);
  return out;
}

template <class F>
QString error_of(F&& f) {
  try {
    f();
  } catch (const ModelError& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace

class ImportTest : public QObject {
  Q_OBJECT
 private slots:
  void references_and_groups() {
    auto b =
        bundle_of({placeholder("x", {1, 4}),
                   node("block/split", "Split", {"axis", "x"}, {{"num_split", {{"i", "2"}}}}),
                   int_const("axis", {1}, false),
                   node("block/inner/add", "AddV2", {"block/split:1", "block/split", "^axis"})});
    const Graph g = import_graphdef(b);
    const Node& add = by_name(g, "block/inner/add");
    QCOMPARE(add.inputs.size(), std::size_t{2});
    QCOMPARE(add.inputs[0], (TensorRef{g.find("block/split"), 1}));
    QCOMPARE(add.inputs[1], (TensorRef{g.find("block/split"), 0}));
    QCOMPARE(add.control_inputs, (std::vector<int>{g.find("axis")}));
    QCOMPARE(add.group, std::string("block/inner"));
    QCOMPARE(by_name(g, "x").group, std::string());
    QCOMPARE(ops::attr<std::int64_t>(by_name(g, "block/split"), "num_split"), std::int64_t{2});
  }

  // Attributes named as the engine's own markers (fusion's, the webgl marks) are dropped: a file
  // cannot make an AddV2 apply a Relu that TF.js would not.
  void engine_markers_are_not_read() {
    auto b = bundle_of({placeholder("x", {1, 4}), node("add", "AddV2", {"x", "x"},
                                                       {{"_tfjsi_activation", {{"s", "UmVsdQ=="}}},
                                                        {"_tfjsi_addend", {{"b", true}}},
                                                        {"T", {{"type", "DT_FLOAT"}}}})});
    const Graph g = import_graphdef(b);
    const Node& add = by_name(g, "add");
    QVERIFY(!add.attr("_tfjsi_activation"));
    QVERIFY(!add.attr("_tfjsi_addend"));
    QVERIFY(add.attr("T"));
  }

  void missing_input_names_both_nodes() {
    auto b = bundle_of({placeholder("x", {1}), node("relu", "Relu", {"ghost:0"})});
    const QString msg = error_of([&] { import_graphdef(b); });
    QVERIFY2(msg.contains("'relu'") && msg.contains("'ghost'"), qPrintable(msg));
    auto dup = bundle_of({placeholder("x", {1}), placeholder("x", {2})});
    QVERIFY(error_of([&] { import_graphdef(dup); }).contains("'x'"));
    auto bad = bundle_of({placeholder("x", {1}), node("relu", "Relu", {"x:one"})});
    QVERIFY(error_of([&] { import_graphdef(bad); }).contains("'relu'"));
    auto bad_attr = bundle_of({node("p", "Placeholder", {}, {{"dtype", {{"type", "float"}}}})});
    const QString m2 = error_of([&] { import_graphdef(bad_attr); });
    QVERIFY2(m2.contains("'p'") && m2.contains("'dtype'"), qPrintable(m2));
  }

  void const_values() {
    // The manifest weight wins; a Const with its own content keeps it; one with neither fails.
    json stripped = node(
        "w", "Const", {},
        {{"dtype", {{"type", "DT_FLOAT"}}},
         {"value",
          {{"tensor", {{"dtype", "DT_FLOAT"}, {"tensorShape", {{"dim", {{{"size", "3"}}}}}}}}}}});
    auto b = bundle_of({stripped, int_const("k", {4, 5})});
    b.weights.push_back(weight("w", {3}, 0.5f));
    const Graph g = import_graphdef(b);
    const Node& w = by_name(g, "w");
    QVERIFY(w.value.has_value());
    QCOMPARE(w.value->shape, (Shape{3}));
    QCOMPARE(w.value->values<float>()[2], 0.5f);
    QCOMPARE(w.value->buffer.get(), b.weights[0].value.buffer.get());  // shared, not copied
    const Node& k = by_name(g, "k");
    QVERIFY(k.value.has_value());
    QCOMPARE(k.value->values<std::int32_t>()[1], 5);

    // TF.js would ignore a weight no Const takes; the tfjsi contract (tests/cli broken bundles)
    // refuses it, since it means the shards do not belong to this topology.
    auto extra = bundle_of({stripped});
    extra.weights.push_back(weight("w", {3}, 0.5f));
    extra.weights.push_back(weight("orphan", {2}, 1.0f));
    const QString orphan = error_of([&] { import_graphdef(extra); });
    QVERIFY2(orphan.contains("'orphan'"), qPrintable(orphan));

    auto missing = bundle_of({stripped});
    const QString msg = error_of([&] { import_graphdef(missing); });
    QVERIFY2(msg.contains("'w'") && msg.contains("Const"), qPrintable(msg));
  }

  void endpoints_without_signature() {
    // Inputs: every Placeholder* in file order. Outputs: nodes nothing consumes (a control
    // input counts), walked in JavaScript key order: integer-like names first, ascending.
    auto b = bundle_of(
        {placeholder("b_in", {1}), node("z", "Relu", {"b_in"}), placeholder("a_in", {2}),
         node("10", "Neg", {"a_in"}), node("2", "Neg", {"a_in"}), node("guard", "NoOp", {"^b_in"}),
         node("after", "Identity", {"z", "^guard"}), node("pwd", "PlaceholderWithDefault", {"z"})});
    const Graph g = import_graphdef(b);
    QCOMPARE(names(g.inputs), (std::vector<std::string>{"b_in", "a_in", "pwd"}));
    QCOMPARE(names(g.outputs), (std::vector<std::string>{"2", "10", "after", "pwd"}));
    QCOMPARE(g.outputs[0].ref, (TensorRef{g.find("2"), 0}));
    QCOMPARE(g.inputs[1].shape, PartialShape::of({2}));
    QVERIFY(g.inputs[1].dtype == DType::Float32);
  }

  void endpoints_with_signature() {
    // Key order matters (TF.js walks the file's order): the loader notes it in signature_order.
    nlohmann::ordered_json sig;
    sig["inputs"]["image"] = {
        {"name", "img:0"},
        {"dtype", "DT_UINT8"},
        {"tensorShape",
         {{"dim", {{{"size", "1"}}, {{"size", "320"}}, {{"size", "320"}}, {{"size", "3"}}}}}}};
    sig["inputs"]["gone"] = {{"name", "nowhere:0"}, {"dtype", "DT_FLOAT"}};
    sig["outputs"]["zeta"] = {{"name", "top:1"}, {"dtype", "DT_INT32"}};
    sig["outputs"]["alpha"] = {{"name", "score"}, {"dtype", "DT_FLOAT"}};
    auto b = bundle_of({placeholder("img", {1, -1, -1, 3}, "DT_UINT8"),
                        node("score", "Sigmoid", {"img"}), int_const("k", {5}, false),
                        node("top", "TopKV2", {"score", "k"}), node("unused", "Neg", {"score"})});
    b.signature = json::parse(sig.dump());  // nlohmann::json sorts keys: alpha before zeta
    b.signature_order = {{"image", "gone"}, {"zeta", "alpha"}};
    const Graph g = import_graphdef(b);
    QCOMPARE(names(g.inputs), (std::vector<std::string>{"image"}));  // "gone" names no node
    QCOMPARE(g.inputs[0].ref, (TensorRef{g.find("img"), 0}));
    QVERIFY(g.inputs[0].dtype == DType::Int32);
    QCOMPARE(g.inputs[0].shape, PartialShape::of({1, 320, 320, 3}));  // signature fills -1s
    QCOMPARE(names(g.outputs), (std::vector<std::string>{"zeta", "alpha"}));
    QCOMPARE(g.outputs[0].ref, (TensorRef{g.find("top"), 1}));
    QCOMPARE(g.outputs[1].ref, (TensorRef{g.find("score"), 0}));

    // A signature with outputs only: the inputs are the Placeholders. (Which signature is in
    // effect, userDefinedMetadata's or the top-level one, the loader decides: model tests.)
    b.signature = {{"outputs", {{"only", {{"name", "unused:0"}}}}}};
    b.signature_order = {};
    const Graph g2 = import_graphdef(b);
    QCOMPARE(names(g2.outputs), (std::vector<std::string>{"only"}));
    QCOMPARE(names(g2.inputs), (std::vector<std::string>{"img"}));
  }

  void library_functions() {
    json body = {
        {"signature",
         {{"name", "scale_fn"},
          {"inputArg", {{{"name", "x"}, {"type", "DT_FLOAT"}}}},
          {"outputArg",
           {{{"name", "y"}, {"type", "DT_FLOAT"}}, {{"name", "idx"}, {"type", "DT_INT32"}}}}}},
        {"nodeDef",
         {node("two", "Const", {},
               {{"dtype", {{"type", "DT_FLOAT"}}},
                {"value", {{"tensor", {{"dtype", "DT_FLOAT"}, {"floatVal", {2.0}}}}}}}),
          node("mul", "Mul", {"x", "two:output:0"}, {{"T", {{"type", "DT_FLOAT"}}}}),
          int_const("k", {1}, false), node("topk", "TopKV2", {"mul:z:0", "k:output:0"})}},
        {"ret", {{"y", "mul:z:0"}, {"idx", "topk:indices:0"}}}};
    auto b = bundle_of({placeholder("in", {4}),
                        node("call", "StatefulPartitionedCall", {"in"},
                             {{"f", {{"func", {{"name", "scale_fn"}}}}},
                              {"Tout", {{"list", {{"type", {"DT_FLOAT", "DT_INT32"}}}}}}})});
    b.topology["library"] = {{"function", {body}}};
    const Graph g = build_graph(b);
    QCOMPARE(ops::attr<FuncAttr>(by_name(g, "call"), "f").name, std::string("scale_fn"));
    QCOMPARE(by_name(g, "call").outputs.size(), std::size_t{2});
    QVERIFY(by_name(g, "call").outputs[1].dtype == DType::Int32);
    QCOMPARE(g.functions.size(), std::size_t{1});
    const Graph& f = *g.functions.at("scale_fn");
    QCOMPARE(names(f.inputs), (std::vector<std::string>{"x"}));
    QCOMPARE(by_name(f, "x").op, std::string("Placeholder"));
    QVERIFY(f.inputs[0].dtype == DType::Float32);
    QCOMPARE(names(f.outputs), (std::vector<std::string>{"y", "idx"}));
    QCOMPARE(f.outputs[0].ref, (TensorRef{f.find("mul"), 0}));
    QCOMPARE(f.outputs[1].ref, (TensorRef{f.find("topk"), 1}));  // "indices" is output 1
    QCOMPARE(by_name(f, "mul").inputs[1], (TensorRef{f.find("two"), 0}));
    QCOMPARE(by_name(f, "two").value->values<float>()[0], 2.0f);

    // The three-part form is for function bodies only.
    auto outside = bundle_of({placeholder("x", {1}), node("n", "Neg", {"x:output:0"})});
    QVERIFY(error_of([&] { import_graphdef(outside); }).contains("'n'"));
  }

  void initializer_nodes() {
    auto b = bundle_of({placeholder("x", {1})});
    b.initializer = {{"node",
                      {node("table_init", "LookupTableImportV2", {"table", "keys"}),
                       int_const("keys", {1, 2}), node("table", "HashTableV2", {}, {})}}};
    const Graph g = import_graphdef(b);
    QCOMPARE(g.initializer.size(), std::size_t{3});
    // Sorted: the table and keys come before the import that uses them.
    QCOMPARE(g.initializer.back().name, std::string("table_init"));
    QCOMPARE(g.nodes.size(), std::size_t{1});
  }

  void topological_order_is_stable() {
    auto b = bundle_of({node("c", "AddV2", {"a", "b"}), placeholder("a", {1}),
                        placeholder("b", {1}), node("d", "Neg", {"a"}), node("e", "Neg", {"c"})});
    Graph g = import_graphdef(b);
    const int out_node = g.outputs.empty() ? -1 : g.outputs[0].ref.node;
    const std::string out_name = g.nodes[static_cast<std::size_t>(out_node)].name;
    sort_topologically(g);
    QCOMPARE(order(g), (std::vector<std::string>{"a", "b", "c", "d", "e"}));
    QCOMPARE(by_name(g, "c").inputs[0], (TensorRef{g.find("a"), 0}));
    QCOMPARE(by_name(g, "e").inputs[0], (TensorRef{g.find("c"), 0}));
    QCOMPARE(g.nodes[static_cast<std::size_t>(g.outputs[0].ref.node)].name, out_name);
    QCOMPARE(g.find("e"), 4);
    // A sorted graph keeps its order.
    auto before = order(g);
    sort_topologically(g);
    QCOMPARE(order(g), before);
  }

  void cycles() {
    auto b = bundle_of({placeholder("x", {1}), node("p", "AddV2", {"x", "q"}),
                        node("q", "Neg", {"p"}), node("tail", "Neg", {"q"})});
    Graph g = import_graphdef(b);
    const QString msg = error_of([&] { sort_topologically(g); });
    QVERIFY2(msg.contains("'p'") || msg.contains("'q'"), qPrintable(msg));
    QVERIFY2(!msg.contains("'tail'"), qPrintable(msg));

    // A control-only cycle is a cycle too.
    auto c = bundle_of({node("a", "NoOp", {"^b"}), node("b", "NoOp", {"^a"})});
    Graph gc = import_graphdef(c);
    QVERIFY(!error_of([&] { sort_topologically(gc); }).isEmpty());
  }

  void while_loop_back_edge() {
    // i = 0; while (i < 10) i = i + 1 — TF1 control flow, written out of order on purpose.
    auto b = bundle_of({
        node("next", "NextIteration", {"add"}, {{"T", {{"type", "DT_INT32"}}}}),
        node("merge", "Merge", {"enter", "next"}, {{"T", {{"type", "DT_INT32"}}}}),
        int_const("zero", {0}, false),
        int_const("ten", {10}, false),
        int_const("one", {1}, false),
        node("enter", "Enter", {"zero"},
             {{"T", {{"type", "DT_INT32"}}}, {"frame_name", {{"s", "bG9vcA=="}}}}),
        node("less", "Less", {"merge", "ten"}, {{"T", {{"type", "DT_INT32"}}}}),
        node("cond", "LoopCond", {"less"}),
        node("switch", "Switch", {"merge", "cond"}, {{"T", {{"type", "DT_INT32"}}}}),
        node("body", "Identity", {"switch:1"}, {{"T", {{"type", "DT_INT32"}}}}),
        node("add", "AddV2", {"body", "one"}, {{"T", {{"type", "DT_INT32"}}}}),
        node("exit", "Exit", {"switch"}, {{"T", {{"type", "DT_INT32"}}}}),
    });
    Graph g = import_graphdef(b);
    sort_topologically(g);
    auto pos = [&](const char* n) { return g.find(n); };
    QVERIFY(pos("enter") < pos("merge"));
    QVERIFY(pos("merge") < pos("switch"));
    QVERIFY(pos("add") < pos("next"));
    QVERIFY(pos("next") > pos("merge"));  // the back edge does not order them
    infer_shapes(g);
    QCOMPARE(by_name(g, "merge").outputs.size(), std::size_t{2});
    QCOMPARE(by_name(g, "merge").outputs[0].shape, PartialShape::of({}));
    QCOMPARE(by_name(g, "switch").outputs.size(), std::size_t{2});
    QCOMPARE(by_name(g, "exit").outputs[0].shape, PartialShape::of({}));
    QVERIFY(by_name(g, "less").outputs[0].dtype == DType::Bool);
  }

  void loop_that_grows_widens_merge() {
    // x = [1]; loop: x = concat(x, x): the loop variable's length changes every iteration.
    auto b = bundle_of({
        node("enter", "Enter", {"x0"}, {{"T", {{"type", "DT_INT32"}}}}),
        int_const("x0", {1}),
        node("merge", "Merge", {"enter", "next"}, {{"T", {{"type", "DT_INT32"}}}}),
        int_const("axis", {0}, false),
        node("grow", "ConcatV2", {"merge", "merge", "axis"}, {{"T", {{"type", "DT_INT32"}}}}),
        node("next", "NextIteration", {"grow"}, {{"T", {{"type", "DT_INT32"}}}}),
    });
    Graph g = import_graphdef(b);
    sort_topologically(g);
    infer_shapes(g);
    QCOMPARE(by_name(g, "merge").outputs[0].shape, PartialShape::of({-1}));
    QCOMPARE(by_name(g, "grow").outputs[0].shape, PartialShape::of({-1}));
  }

  void layers_models_are_refused() {
    model::Bundle b;
    b.kind = model::ModelKind::Layers;
    b.model_json = "keras/model.json";
    const QString msg = error_of([&] { build_graph(b); });
    QVERIFY2(msg.contains("keras/model.json") && msg.contains("layers models"), qPrintable(msg));
  }
};

QTEST_GUILESS_MAIN(ImportTest)
#include "import_test.moc"
