#include "graph/keras/layer_builder.h"

#include <algorithm>
#include <cstring>

#include "core/error.h"
#include "model/json_fields.h"
#include "ops/op_def.h"
#include "ops/shape_context.h"

using nlohmann::json;

namespace tfjsi::graph::keras {

namespace {

std::string quote(std::string_view s) {
  return "'" + std::string(s) + "'";
}

bool dims_match(const Shape& actual, const Shape& expected) {
  if (actual.size() != expected.size()) return false;
  for (std::size_t i = 0; i < actual.size(); ++i)
    if (expected[i] >= 0 && actual[i] != expected[i]) return false;
  return true;
}

}  // namespace

// ---------------------------------------------------------------- GraphWriter

GraphWriter::GraphWriter(const model::Bundle& bundle)
    : bundle_(bundle),
      file_(bundle.model_json.empty() ? "model.json" : bundle.model_json.string()) {}

GraphWriter::~GraphWriter() = default;

int GraphWriter::add(Node node) {
  if (names_.count(node.name)) {
    for (int k = 1;; ++k) {
      std::string candidate = node.name + "_" + std::to_string(k);
      if (!names_.count(candidate)) {
        node.name = std::move(candidate);
        break;
      }
    }
  }
  const int index = static_cast<int>(graph_.nodes.size());
  names_.emplace(node.name, index);
  graph_.nodes.push_back(std::move(node));
  return index;
}

void GraphWriter::rename(int node, std::string name) {
  auto& n = graph_.nodes.at(static_cast<std::size_t>(node));
  names_.erase(n.name);
  n.name = std::move(name);
  names_.emplace(n.name, node);
}

void GraphWriter::infer_up_to(std::size_t last) {
  using ops::InferContext;
  using ops::KnownValue;
  values_.resize(graph_.nodes.size());
  for (; inferred_ <= last && inferred_ < graph_.nodes.size(); ++inferred_) {
    Node& n = graph_.nodes[inferred_];
    std::vector<TensorInfo> in;
    std::vector<const KnownValue*> vals;
    std::vector<bool> inferred;
    for (const auto& ref : n.inputs) {
      const auto src = static_cast<std::size_t>(ref.node);
      const auto k = static_cast<std::size_t>(ref.output);
      const bool ok = ref.node >= 0 && src < inferred_ && k < graph_.nodes[src].outputs.size();
      in.push_back(ok ? graph_.nodes[src].outputs[k] : TensorInfo{});
      vals.push_back(ok && k < values_[src].size() && values_[src][k] ? &*values_[src][k]
                                                                      : nullptr);
      inferred.push_back(ok);
    }
    InferContext c(n, std::move(in), std::move(vals), std::move(inferred));
    if (const ops::OpDef* def = ops::find_op(n.op); def && def->shape) {
      def->shape(c);
    } else {
      c.set(0, std::nullopt, PartialShape::unknown());
    }
    c.out_values.resize(c.out.size());
    n.outputs = std::move(c.out);
    values_[inferred_] = std::move(c.out_values);
  }
}

const TensorInfo& GraphWriter::info(TensorRef ref) {
  static const TensorInfo kUnknown{};
  if (ref.node < 0 || static_cast<std::size_t>(ref.node) >= graph_.nodes.size()) return kUnknown;
  infer_up_to(static_cast<std::size_t>(ref.node));
  const auto& outs = graph_.nodes[static_cast<std::size_t>(ref.node)].outputs;
  if (ref.output < 0 || static_cast<std::size_t>(ref.output) >= outs.size()) return kUnknown;
  return outs[static_cast<std::size_t>(ref.output)];
}

void GraphWriter::refine(TensorRef ref, const PartialShape& shape) {
  (void)info(ref);
  auto& outs = graph_.nodes.at(static_cast<std::size_t>(ref.node)).outputs;
  if (static_cast<std::size_t>(ref.output) >= outs.size()) outs.resize(ref.output + 1);
  PartialShape& s = outs[static_cast<std::size_t>(ref.output)].shape;
  if (!s.rank_known || s.dims.size() != shape.dims.size()) {
    s = shape;
    return;
  }
  for (std::size_t i = 0; i < s.dims.size(); ++i)
    if (s.dims[i] < 0) s.dims[i] = shape.dims[i];
}

std::optional<int> GraphWriter::weight_node(const std::string& name) const {
  auto it = weights_.find(name);
  if (it == weights_.end()) return std::nullopt;
  return it->second;
}

// ---------------------------------------------------------------- Layer

Layer::Layer(GraphWriter& writer, std::string path, std::string short_name, std::string class_name,
             const json& config)
    : writer_(writer),
      path_(std::move(path)),
      short_name_(std::move(short_name)),
      class_name_(std::move(class_name)),
      config_(config) {}

void Layer::fail(const std::string& what) const {
  throw ModelError(writer_.file() + ": layer " + quote(path_) + " (" + class_name_ + "): " + what);
}

void Layer::require_channels_last() const {
  const std::string format = string_or("data_format", "channels_last");
  if (format != "channels_last")
    fail("data_format " + quote(format) + " is not supported (only channels_last)");
}

void Layer::expect_inputs(std::span<const TensorRef> inputs, std::size_t n, bool at_least) const {
  if (inputs.size() == n || (at_least && inputs.size() > n)) return;
  fail("expects " + std::string(at_least ? "at least " : "") + std::to_string(n) + " input" +
       (n == 1 ? "" : "s") + ", got " + std::to_string(inputs.size()));
}

const json* Layer::get(std::string_view key) const {
  if (!config_.is_object()) return nullptr;
  auto it = config_.find(key);
  if (it == config_.end() || it->is_null()) return nullptr;
  return &*it;
}

std::int64_t Layer::int_or(std::string_view key, std::int64_t fallback) const {
  const json* j = get(key);
  if (!j) return fallback;
  // Keras writes 3.0 for some integer fields.
  if (const auto v = model::whole_int64(*j)) return *v;
  fail("config " + quote(key) + " must be an integer, got " + j->dump());
}

double Layer::number_or(std::string_view key, double fallback) const {
  const json* j = get(key);
  if (!j) return fallback;
  if (!j->is_number()) fail("config " + quote(key) + " must be a number, got " + j->dump());
  return j->get<double>();
}

bool Layer::bool_or(std::string_view key, bool fallback) const {
  const json* j = get(key);
  if (!j) return fallback;
  if (!j->is_boolean()) fail("config " + quote(key) + " must be true or false, got " + j->dump());
  return j->get<bool>();
}

std::string Layer::string_or(std::string_view key, std::string fallback) const {
  const json* j = get(key);
  if (!j) return fallback;
  if (!j->is_string()) fail("config " + quote(key) + " must be a string, got " + j->dump());
  return j->get<std::string>();
}

std::vector<std::int64_t> Layer::int_list(std::string_view key,
                                          std::vector<std::int64_t> fallback) const {
  const json* j = get(key);
  if (!j) return fallback;
  if (!j->is_array())
    fail("config " + quote(key) + " must be a list of integers, got " + j->dump());
  std::vector<std::int64_t> out;
  for (const auto& v : *j) {
    if (!v.is_number_integer())
      fail("config " + quote(key) + " must be a list of integers, got " + j->dump());
    out.push_back(v.get<std::int64_t>());
  }
  return out;
}

std::vector<std::int64_t> Layer::ints(std::string_view key, std::size_t n,
                                      std::optional<std::vector<std::int64_t>> fallback) const {
  const json* j = get(key);
  if (!j) {
    if (!fallback) fail("config " + quote(key) + " is missing");
    return *fallback;
  }
  if (j->is_number_integer()) return std::vector<std::int64_t>(n, j->get<std::int64_t>());
  std::vector<std::int64_t> v = int_list(key);
  if (v.size() == 1 && n > 1) v.assign(n, v[0]);
  if (v.size() != n)
    fail("config " + quote(key) + " must hold " + std::to_string(n) + " integers, got " +
         j->dump());
  return v;
}

std::string Layer::padding() const {
  const std::string p = string_or("padding", "valid");
  if (p == "same") return "SAME";
  if (p == "valid") return "VALID";
  fail("padding " + quote(p) + " is not supported (same or valid)");
}

TensorRef Layer::add(std::string op, std::vector<TensorRef> inputs, Attrs attrs,
                     std::string suffix) {
  Node n;
  n.name = path_ + "/" + (suffix.empty() ? op : suffix);
  n.op = std::move(op);
  n.inputs = std::move(inputs);
  n.attrs = std::move(attrs);
  n.group = path_;
  return {writer_.add(std::move(n)), 0};
}

TensorRef Layer::int_const(std::string suffix, std::vector<std::int32_t> values,
                           std::optional<Shape> shape) {
  const Shape s = shape ? *shape : Shape{static_cast<std::int64_t>(values.size())};
  HostTensor t = HostTensor::zeros(DType::Int32, s);
  if (t.num_elements() != static_cast<std::int64_t>(values.size()))
    fail("internal: constant " + suffix + " has the wrong number of values");
  std::copy(values.begin(), values.end(), t.mutable_values<std::int32_t>().begin());
  Node n;
  n.name = path_ + "/" + suffix;
  n.op = "Const";
  n.attrs.emplace("dtype", TypeAttr{"DT_INT32"});
  n.group = path_;
  n.value = std::move(t);
  return {writer_.add(std::move(n)), 0};
}

TensorRef Layer::float_const(std::string suffix, std::vector<float> values,
                             std::optional<Shape> shape) {
  const Shape s = shape ? *shape : Shape{static_cast<std::int64_t>(values.size())};
  HostTensor t = HostTensor::zeros(DType::Float32, s);
  if (t.num_elements() != static_cast<std::int64_t>(values.size()))
    fail("internal: constant " + suffix + " has the wrong number of values");
  std::copy(values.begin(), values.end(), t.mutable_values<float>().begin());
  Node n;
  n.name = path_ + "/" + suffix;
  n.op = "Const";
  n.attrs.emplace("dtype", TypeAttr{"DT_FLOAT"});
  n.group = path_;
  n.value = std::move(t);
  return {writer_.add(std::move(n)), 0};
}

const model::Weight* Layer::find_weight(const std::string& short_name) const {
  const auto& bundle = writer_.bundle();
  // tfjs-layers names a weight "<layer>/<weight>"; a nested model's weights may also carry the
  // nested model's name in front ("<model>/<layer>/<weight>").
  if (const auto* w = bundle.find_weight(short_name_ + "/" + short_name)) return w;
  if (const auto* w = bundle.find_weight(path_ + "/" + short_name)) return w;
  // Bundles from TF 2.2+ put an RNN's cell between layer and weight ("lstm/lstm_cell/kernel").
  const std::string head = short_name_ + "/", tail = "/" + short_name;
  for (const auto& w : bundle.weights) {
    if (w.name.size() <= head.size() + tail.size() || !w.name.starts_with(head) ||
        !w.name.ends_with(tail))
      continue;
    const std::string_view middle =
        std::string_view(w.name).substr(head.size(), w.name.size() - head.size() - tail.size());
    if (middle.find('/') == std::string_view::npos) return &w;
  }
  return nullptr;
}

HostTensor Layer::weight_value(const std::string& short_name, const Shape& expected) {
  const model::Weight* w = find_weight(short_name);
  const std::string wanted = short_name_ + "/" + short_name;
  if (!w) fail("weight " + quote(wanted) + " is missing from the weights manifest");
  if (w->value.dtype != DType::Float32)
    fail("weight " + quote(w->name) + " has dtype " + std::string(to_string(w->value.dtype)) +
         ", expected float32");
  if (!dims_match(w->value.shape, expected))
    fail("weight " + quote(w->name) + " has shape " + shape_to_string(w->value.shape) +
         ", expected " + shape_to_string(expected));
  return w->value;
}

TensorRef Layer::weight(const std::string& short_name, const Shape& expected) {
  HostTensor value = weight_value(short_name, expected);
  const std::string manifest_name = find_weight(short_name)->name;
  if (auto node = writer_.weight_node(manifest_name)) return {*node, 0};
  Node n;
  n.name = path_ + "/" + short_name;
  n.op = "Const";
  n.attrs.emplace("dtype", TypeAttr{"DT_FLOAT"});
  n.group = path_;
  n.value = std::move(value);
  const int index = writer_.add(std::move(n));
  writer_.remember_weight(manifest_name, index);
  return {index, 0};
}

int Layer::rank(TensorRef ref, std::string_view what) {
  const PartialShape s = shape(ref);
  if (!s.rank_known) fail("the rank of its " + std::string(what) + " is not known statically");
  return s.rank();
}

std::int64_t Layer::channels(TensorRef ref) {
  const PartialShape s = shape(ref);
  if (!s.rank_known || s.dims.empty() || s.dims.back() < 0)
    fail("the last dim of its input is not known statically (input shape " + s.to_string() + ")");
  return s.dims.back();
}

}  // namespace tfjsi::graph::keras
