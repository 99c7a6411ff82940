// lower_keras on hand-made layers configs: the config forms (old list Sequential, Keras 3
// inbound nodes, nested models and their weight names), validation errors that name the layer and
// weight, and layers the reference bundles do not cover, run on cpu against values worked out
// here from the Keras definitions.
#include <QtTest>
#include <cmath>

#include "core/error.h"
#include "graph/build.h"
#include "model/bundle.h"
#include "runtime/executor.h"

using namespace tfjsi;
using namespace tfjsi::graph;
using nlohmann::json;

namespace {

model::Weight weight(std::string name, Shape shape, std::vector<float> values) {
  model::Weight w;
  w.name = std::move(name);
  w.shape = shape;
  w.value = HostTensor::zeros(DType::Float32, shape);
  auto v = w.value.mutable_values<float>();
  if (values.size() != v.size()) throw std::runtime_error("weight " + w.name + ": wrong count");
  std::copy(values.begin(), values.end(), v.begin());
  return w;
}

model::Bundle bundle_of(json topology, std::vector<model::Weight> weights = {}) {
  model::Bundle b;
  b.kind = model::ModelKind::Layers;
  b.model_json = "test/model.json";
  b.topology = std::move(topology);
  b.weights = std::move(weights);
  return b;
}

json input_layer(const std::string& name, json shape, const char* dtype = "float32") {
  return {{"name", name},
          {"class_name", "InputLayer"},
          {"config", {{"batch_input_shape", shape}, {"dtype", dtype}, {"name", name}}},
          {"inbound_nodes", json::array()}};
}

json call_of(std::initializer_list<const char*> inputs) {
  json node = json::array();
  for (const char* in : inputs) node.push_back({in, 0, 0, json::object()});
  return json::array({node});
}

json layer(const std::string& name, const std::string& cls, json config,
           std::initializer_list<const char*> inputs) {
  config["name"] = name;
  return {
      {"name", name}, {"class_name", cls}, {"config", config}, {"inbound_nodes", call_of(inputs)}};
}

// A functional model: one input "x" of `shape`, the given layers, output the last layer.
json functional(json shape, json layers, const std::string& output) {
  json all = json::array({input_layer("x", shape)});
  for (auto& l : layers) all.push_back(l);
  return {{"class_name", "Model"},
          {"config",
           {{"name", "m"},
            {"layers", all},
            {"input_layers", json::array({json::array({"x", 0, 0})})},
            {"output_layers", json::array({json::array({output, 0, 0})})}}}};
}

HostTensor floats(Shape shape, std::vector<float> v) {
  HostTensor t = HostTensor::zeros(DType::Float32, std::move(shape));
  std::copy(v.begin(), v.end(), t.mutable_values<float>().begin());
  return t;
}

std::vector<HostTensor> run_cpu(const Graph& g, runtime::NamedTensors feeds) {
  runtime::Engine engine;
  engine.set_backend("cpu");
  runtime::Executor exec(engine, g);
  return exec.run(feeds);
}

std::vector<float> values(const HostTensor& t) {
  auto v = t.values<float>();
  return {v.begin(), v.end()};
}

void expect_near(const std::vector<float>& got, const std::vector<float>& want) {
  QCOMPARE(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    QVERIFY2(std::fabs(got[i] - want[i]) <= 1e-5f * std::max(1.0f, std::fabs(want[i])),
             ("element " + std::to_string(i) + ": " + std::to_string(got[i]) + " vs " +
              std::to_string(want[i]))
                 .c_str());
}

// The ModelError message of lowering `b`, or a failure when it lowers.
std::string error_of(const model::Bundle& b) {
  try {
    (void)build_graph(b);
  } catch (const ModelError& e) {
    return e.what();
  }
  return "<no error>";
}

#define EXPECT_MENTIONS(msg, part) \
  QVERIFY2((msg).find(part) != std::string::npos, ("'" + (msg) + "' lacks " + (part)).c_str())

json dense_config(int units, const char* activation = "linear") {
  return {{"units", units}, {"activation", activation}, {"use_bias", true}};
}

class KerasLoweringTest : public QObject {
  Q_OBJECT

 private slots:
  void old_sequential_list_config() {
    // Keras 1 style: config is the layer list itself.
    json dense = {{"class_name", "Dense"},
                  {"config",
                   {{"name", "d"},
                    {"units", 2},
                    {"activation", "relu"},
                    {"batch_input_shape", {nullptr, 3}}}}};
    auto b = bundle_of(
        {{"class_name", "Sequential"}, {"config", json::array({dense})}},
        {weight("d/kernel", {3, 2}, {1, -1, 2, 0, -3, 1}), weight("d/bias", {2}, {0.5f, -0.5f})});
    const Graph g = build_graph(b);
    QCOMPARE(g.inputs.size(), std::size_t{1});
    QCOMPARE(g.inputs[0].name, std::string("d_input"));
    QCOMPARE(g.inputs[0].shape, PartialShape::of({-1, 3}));
    QCOMPARE(g.outputs.size(), std::size_t{1});
    QCOMPARE(g.outputs[0].name, std::string("d"));
    QCOMPARE(g.outputs[0].shape, PartialShape::of({-1, 2}));
    // The layer's last node takes its name; weights are Const nodes in its group.
    QCOMPARE(g.nodes[static_cast<std::size_t>(g.find("d"))].op, std::string("Relu"));
    const Node& k = g.nodes[static_cast<std::size_t>(g.find("d/kernel"))];
    QCOMPARE(k.op, std::string("Const"));
    QCOMPARE(k.group, std::string("d"));
    QVERIFY(k.value && k.value->shape == (Shape{3, 2}));

    // x = [1, 2, 3]: x W = [1 + 4 - 9, -1 + 0 + 3] = [-4, 2]; + b = [-3.5, 1.5]; relu.
    const auto out = run_cpu(g, {{"d_input", floats({1, 3}, {1, 2, 3})}});
    expect_near(values(out[0]), {0.0f, 1.5f});
  }

  void keras3_inbound_nodes_match_list_form() {
    auto list_form =
        functional({nullptr, 3}, json::array({layer("d", "Dense", dense_config(2), {"x"})}), "d");
    json keras3 = list_form;
    auto& d = keras3["config"]["layers"][1];
    d["inbound_nodes"] = json::array(
        {{{"args",
           json::array({{{"class_name", "__keras_tensor__"},
                         {"config", {{"shape", {nullptr, 3}}, {"keras_history", {"x", 0, 0}}}}}})},
          {"kwargs", json::object()}}});
    keras3["class_name"] = "Functional";
    const std::vector<model::Weight> w{weight("d/kernel", {3, 2}, {1, 2, 3, 4, 5, 6}),
                                       weight("d/bias", {2}, {0, 0})};
    const Graph a = build_graph(bundle_of(list_form, w));
    const Graph b = build_graph(bundle_of(keras3, w));
    QCOMPARE(a.nodes.size(), b.nodes.size());
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
      QCOMPARE(a.nodes[i].name, b.nodes[i].name);
      QCOMPARE(a.nodes[i].op, b.nodes[i].op);
    }
  }

  void model_config_wrapper_and_nested_weight_prefix() {
    // Converted Keras bundles wrap the model in model_config; weights of a nested model may carry
    // its name in front.
    json inner = {{"class_name", "Sequential"},
                  {"config",
                   {{"name", "inner"},
                    {"layers", json::array({{{"class_name", "Dense"},
                                             {"config",
                                              {{"name", "d"},
                                               {"units", 1},
                                               {"use_bias", false},
                                               {"batch_input_shape", {nullptr, 2}}}}}})}}}};
    inner["name"] = "inner";
    inner["inbound_nodes"] = json::array({json::array({json::array({"x", 0, 0, json::object()})})});
    json outer = functional({nullptr, 2}, json::array({inner}), "inner");
    outer["config"]["output_layers"] = json::array({json::array({"inner", 1, 0})});
    auto b = bundle_of({{"model_config", outer}}, {weight("inner/d/kernel", {2, 1}, {2, 3})});
    const Graph g = build_graph(b);
    QCOMPARE(g.outputs[0].name, std::string("inner"));
    const int d = g.find("inner/d");
    QVERIFY(d >= 0);
    QCOMPARE(g.nodes[static_cast<std::size_t>(d)].group, std::string("inner/d"));
    const auto out = run_cpu(g, {{"x", floats({1, 2}, {1, 1})}});
    expect_near(values(out[0]), {5.0f});
  }

  void shared_layer_called_twice() {
    // One Dense applied twice: its weights are shared, its second call is node 1.
    json d = layer("d", "Dense", dense_config(2), {"x"});
    d["inbound_nodes"].push_back(json::array({json::array({"d", 0, 0, json::object()})}));
    json m = functional({nullptr, 2}, json::array({d}), "d");
    m["config"]["output_layers"] = json::array({json::array({"d", 1, 0})});
    auto b =
        bundle_of(m, {weight("d/kernel", {2, 2}, {1, 0, 0, 2}), weight("d/bias", {2}, {1, 1})});
    const Graph g = build_graph(b);
    int kernels = 0;
    for (const auto& n : g.nodes) kernels += n.op == "Const" && n.name.starts_with("d/kernel");
    QCOMPARE(kernels, 1);
    // [1, 1] -> [2, 3] -> [3, 7].
    const auto out = run_cpu(g, {{"x", floats({1, 2}, {1, 1})}});
    expect_near(values(out[0]), {3.0f, 7.0f});
  }

  void unknown_layer_class() {
    auto b = bundle_of(functional(
        {nullptr, 2}, json::array({layer("odd", "Frobnicate", json::object(), {"x"})}), "odd"));
    const std::string msg = error_of(b);
    EXPECT_MENTIONS(msg, "'odd'");
    EXPECT_MENTIONS(msg, "Frobnicate");
    EXPECT_MENTIONS(msg, "test/model.json");
  }

  void missing_weight() {
    auto b = bundle_of(
        functional({nullptr, 3}, json::array({layer("fc", "Dense", dense_config(2), {"x"})}), "fc"),
        {weight("fc/kernel", {3, 2}, {1, 2, 3, 4, 5, 6})});
    const std::string msg = error_of(b);
    EXPECT_MENTIONS(msg, "'fc'");
    EXPECT_MENTIONS(msg, "fc/bias");
    EXPECT_MENTIONS(msg, "missing");
  }

  void weight_with_wrong_shape() {
    auto b = bundle_of(
        functional({nullptr, 3}, json::array({layer("fc", "Dense", dense_config(2), {"x"})}), "fc"),
        {weight("fc/kernel", {4, 2}, std::vector<float>(8, 0)), weight("fc/bias", {2}, {0, 0})});
    const std::string msg = error_of(b);
    EXPECT_MENTIONS(msg, "fc/kernel");
    EXPECT_MENTIONS(msg, "[4,2]");
    EXPECT_MENTIONS(msg, "[3,2]");
  }

  void inbound_node_names_missing_layer() {
    auto b = bundle_of(functional(
        {nullptr, 3}, json::array({layer("fc", "Dense", dense_config(2), {"ghost"})}), "fc"));
    const std::string msg = error_of(b);
    EXPECT_MENTIONS(msg, "'fc'");
    EXPECT_MENTIONS(msg, "'ghost'");
  }

  void channels_first_is_refused() {
    json conv = {{"filters", 2}, {"kernel_size", {1, 1}}, {"data_format", "channels_first"}};
    auto b = bundle_of(
        functional({nullptr, 3, 4, 4}, json::array({layer("c", "Conv2D", conv, {"x"})}), "c"));
    const std::string msg = error_of(b);
    EXPECT_MENTIONS(msg, "'c'");
    EXPECT_MENTIONS(msg, "channels_first");
  }

  void rnn_needs_static_time_steps() {
    json lstm = {{"units", 2}, {"activation", "tanh"}, {"recurrent_activation", "sigmoid"}};
    auto b = bundle_of(
        functional({nullptr, nullptr, 3}, json::array({layer("rnn", "LSTM", lstm, {"x"})}), "rnn"),
        {weight("rnn/kernel", {3, 8}, std::vector<float>(24, 0)),
         weight("rnn/recurrent_kernel", {2, 8}, std::vector<float>(16, 0)),
         weight("rnn/bias", {8}, std::vector<float>(8, 0))});
    const std::string msg = error_of(b);
    EXPECT_MENTIONS(msg, "'rnn'");
    EXPECT_MENTIONS(msg, "time steps");
  }

  void unknown_activation() {
    auto b = bundle_of(functional(
        {nullptr, 2}, json::array({layer("a", "Activation", {{"activation", "sparkle"}}, {"x"})}),
        "a"));
    const std::string msg = error_of(b);
    EXPECT_MENTIONS(msg, "'a'");
    EXPECT_MENTIONS(msg, "sparkle");
  }

  void malformed_configs_are_model_errors() {
    // A config value of the wrong type names the layer and key.
    auto b = bundle_of(functional(
        {nullptr, 3}, json::array({layer("fc", "Dense", {{"units", "three"}}, {"x"})}), "fc"));
    std::string msg = error_of(b);
    EXPECT_MENTIONS(msg, "'fc'");
    EXPECT_MENTIONS(msg, "units");
    // JSON of the wrong shape anywhere is a ModelError naming the file, never a crash.
    json m =
        functional({nullptr, 3}, json::array({layer("fc", "Dense", dense_config(2), {"x"})}), "fc");
    m["config"]["layers"][1]["class_name"] = 42;
    msg = error_of(bundle_of(m));
    EXPECT_MENTIONS(msg, "test/model.json");
    m["config"]["layers"][1]["class_name"] = "Dense";
    m["config"]["layers"][1]["inbound_nodes"] =
        json::array({json::array({json::array({"x", "zero", 0})})});
    msg = error_of(bundle_of(m));
    EXPECT_MENTIONS(msg, "'fc'");
    // A cycle between two layers: neither call can ever be made.
    json a = layer("a", "Dense", dense_config(3), {"b"});
    json c = layer("b", "Dense", dense_config(3), {"a"});
    msg = error_of(bundle_of(functional({nullptr, 3}, json::array({a, c}), "b")));
    EXPECT_MENTIONS(msg, "never made");
  }

  void relu_with_threshold_slope_and_max() {
    // Keras ReLU: max_value above the cap, x from threshold up, slope * (x - threshold) below.
    json cfg = {{"max_value", 4.0}, {"negative_slope", 0.5}, {"threshold", 1.0}};
    const Graph g = build_graph(
        bundle_of(functional({nullptr, 5}, json::array({layer("r", "ReLU", cfg, {"x"})}), "r")));
    const auto out = run_cpu(g, {{"x", floats({1, 5}, {-1, 0.5f, 1, 3, 7})}});
    expect_near(values(out[0]), {-1.0f, -0.25f, 1.0f, 3.0f, 4.0f});
  }

  void elu_with_alpha_and_hard_sigmoid() {
    json layers = json::array({layer("e", "ELU", {{"alpha", 2.0}}, {"x"}),
                               layer("h", "Activation", {{"activation", "hard_sigmoid"}}, {"e"})});
    const Graph g = build_graph(bundle_of(functional({nullptr, 3}, layers, "h")));
    const auto out = run_cpu(g, {{"x", floats({1, 3}, {-1, 0.5f, 4})}});
    const float e0 = 2.0f * (std::exp(-1.0f) - 1.0f);
    auto hs = [](float v) { return std::clamp(0.2f * v + 0.5f, 0.0f, 1.0f); };
    expect_near(values(out[0]), {hs(e0), hs(0.5f), hs(4.0f)});
  }

  void softmax_on_an_inner_axis() {
    const Graph g = build_graph(bundle_of(functional(
        {nullptr, 2, 2}, json::array({layer("s", "Softmax", {{"axis", 1}}, {"x"})}), "s")));
    const auto out = run_cpu(g, {{"x", floats({1, 2, 2}, {0, 1, 2, 1})}});
    const float a = 1 / (1 + std::exp(2.0f));  // softmax([0, 2])[0]
    expect_near(values(out[0]), {a, 0.5f, 1 - a, 0.5f});
  }

  void cropping_and_bilinear_upsampling_shapes() {
    json layers = json::array(
        {layer("crop", "Cropping2D", {{"cropping", {{1, 0}, {0, 2}}}}, {"x"}),
         layer("up", "UpSampling2D", {{"size", {2, 3}}, {"interpolation", "bilinear"}}, {"crop"})});
    const Graph g = build_graph(bundle_of(functional({nullptr, 5, 6, 2}, layers, "up")));
    QCOMPARE(g.nodes[static_cast<std::size_t>(g.find("crop"))].outputs[0].shape,
             PartialShape::of({-1, 4, 4, 2}));
    QCOMPARE(g.outputs[0].shape, PartialShape::of({-1, 8, 12, 2}));
  }

  void simple_rnn_go_backwards() {
    // units 1, input dim 1, T = 3: h = tanh(x_t k + h r + b), steps taken last to first.
    json cfg = {
        {"units", 1}, {"activation", "tanh"}, {"go_backwards", true}, {"return_sequences", true}};
    auto b = bundle_of(
        functional({nullptr, 3, 1}, json::array({layer("rnn", "SimpleRNN", cfg, {"x"})}), "rnn"),
        {weight("rnn/kernel", {1, 1}, {0.5f}), weight("rnn/recurrent_kernel", {1, 1}, {-0.7f}),
         weight("rnn/bias", {1}, {0.1f})});
    const Graph g = build_graph(b);
    QCOMPARE(g.outputs[0].shape, PartialShape::of({-1, 3, 1}));
    const std::vector<float> x{1, -2, 3};
    std::vector<float> want;
    float h = 0;
    for (int t = 2; t >= 0; --t) {
      h = std::tanh(x[static_cast<std::size_t>(t)] * 0.5f + h * -0.7f + 0.1f);
      want.push_back(h);
    }
    const auto out = run_cpu(g, {{"x", floats({1, 3, 1}, x)}});
    expect_near(values(out[0]), want);
  }

  void embedding_mask_zero_skips_steps_in_rnn() {
    // Token 0 is padding: the masked step repeats the previous state in the sequence output.
    json emb = layer("emb", "Embedding", {{"input_dim", 6}, {"output_dim", 1}, {"mask_zero", true}},
                     {"x"});
    json rnn = layer("rnn", "SimpleRNN",
                     {{"units", 1}, {"activation", "tanh"}, {"return_sequences", true}}, {"emb"});
    json m = functional({nullptr, 3}, json::array({emb, rnn}), "rnn");
    m["config"]["layers"][0]["config"]["dtype"] = "int32";
    const std::vector<float> table{0.0f, 0.1f, 0.2f, 0.3f, 0.4f, 0.5f};
    auto b = bundle_of(
        m, {weight("emb/embeddings", {6, 1}, table), weight("rnn/kernel", {1, 1}, {2.0f}),
            weight("rnn/recurrent_kernel", {1, 1}, {0.5f}), weight("rnn/bias", {1}, {-0.1f})});
    const Graph g = build_graph(b);
    HostTensor tokens = HostTensor::zeros(DType::Int32, {1, 3});
    const std::int32_t ids[] = {3, 0, 5};
    std::copy(std::begin(ids), std::end(ids), tokens.mutable_values<std::int32_t>().begin());
    const float h0 = std::tanh(0.3f * 2.0f - 0.1f);
    const float h2 = std::tanh(0.5f * 2.0f + h0 * 0.5f - 0.1f);
    const auto out = run_cpu(g, {{"x", tokens}});
    expect_near(values(out[0]), {h0, h0, h2});
  }

  void masking_layer_zeroes_masked_steps() {
    json mask = layer("mask", "Masking", {{"mask_value", -1.0}}, {"x"});
    json gru = layer("gru", "GRU",
                     {{"units", 1},
                      {"activation", "tanh"},
                      {"recurrent_activation", "sigmoid"},
                      {"reset_after", false}},
                     {"mask"});
    json m = functional({nullptr, 2, 2}, json::array({mask, gru}), "gru");
    m["config"]["output_layers"] = json::array({json::array({"gru", 0, 0})});
    // Kernel columns z, r, h; the second step is masked, so the result is the first step's h.
    const std::vector<float> k{0.3f, -0.2f, 0.5f, 0.1f, 0.4f, -0.6f};
    auto b = bundle_of(m, {weight("gru/kernel", {2, 3}, k),
                           weight("gru/recurrent_kernel", {1, 3}, {0.2f, 0.3f, 0.4f}),
                           weight("gru/bias", {3}, {0.0f, 0.0f, 0.1f})});
    const Graph g = build_graph(b);
    auto sig = [](float v) { return 1 / (1 + std::exp(-v)); };
    const float x0 = 1.0f, x1 = 2.0f;
    const float z = sig(x0 * k[0] + x1 * k[3]);
    const float hh = std::tanh(x0 * k[2] + x1 * k[5] + 0.1f);
    const auto out = run_cpu(g, {{"x", floats({1, 2, 2}, {x0, x1, -1, -1})}});
    expect_near(values(out[0]), {(1 - z) * hh});
  }

  void lstm_return_state() {
    // units 1: gates from kernel [1, 4] (i, f, c, o), sigmoid recurrence.
    json cfg = {{"units", 1},
                {"activation", "tanh"},
                {"recurrent_activation", "sigmoid"},
                {"return_state", true}};
    json lstm = layer("lstm", "LSTM", cfg, {"x"});
    json m = functional({nullptr, 2, 1}, json::array({lstm}), "lstm");
    m["config"]["output_layers"] =
        json::array({json::array({"lstm", 0, 0}), json::array({"lstm", 0, 2})});
    const std::vector<float> k{0.5f, -0.3f, 0.8f, 0.2f}, r{0.1f, 0.4f, -0.6f, 0.9f},
        bias{0.0f, 1.0f, 0.1f, -0.2f};
    auto b =
        bundle_of(m, {weight("lstm/kernel", {1, 4}, k), weight("lstm/recurrent_kernel", {1, 4}, r),
                      weight("lstm/bias", {4}, bias)});
    const Graph g = build_graph(b);
    QCOMPARE(g.outputs.size(), std::size_t{2});
    QCOMPARE(g.outputs[1].name, std::string("lstm_1"));
    auto sig = [](float v) { return 1 / (1 + std::exp(-v)); };
    const std::vector<float> x{0.7f, -1.2f};
    float h = 0, c = 0;
    for (float xt : x) {
      float z[4];
      for (int j = 0; j < 4; ++j) z[j] = xt * k[j] + h * r[j] + bias[j];
      c = sig(z[1]) * c + sig(z[0]) * std::tanh(z[2]);
      h = sig(z[3]) * std::tanh(c);
    }
    const auto out = run_cpu(g, {{"x", floats({1, 2, 1}, x)}});
    expect_near(values(out[0]), {h});
    expect_near(values(out[1]), {c});
  }
};

}  // namespace

QTEST_GUILESS_MAIN(KerasLoweringTest)
#include "lowering_test.moc"
