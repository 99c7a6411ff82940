// What every layer lowering works with: the graph being built (nodes, weights as Const nodes,
// shapes known so far) and one layer's view of it (its config, node naming, weight lookup,
// errors that name the layer).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "graph/ir.h"
#include "model/bundle.h"

namespace tfjsi::ops {
struct KnownValue;
}

namespace tfjsi::graph::keras {

using Attrs = std::map<std::string, AttrValue, std::less<>>;
using Outputs = std::vector<TensorRef>;

// The graph under construction. Nodes are appended in dependency order, so static shapes can be
// inferred incrementally, as a lowering asks for them.
class GraphWriter {
 public:
  explicit GraphWriter(const model::Bundle& bundle);
  ~GraphWriter();
  GraphWriter(const GraphWriter&) = delete;
  GraphWriter& operator=(const GraphWriter&) = delete;

  const model::Bundle& bundle() const { return bundle_; }
  const std::string& file() const { return file_; }
  Graph& graph() { return graph_; }

  // Appends a node; its name is made unique with a _N suffix when taken.
  int add(Node node);
  bool name_taken(std::string_view name) const { return names_.count(std::string(name)) > 0; }
  void rename(int node, std::string name);

  // What static inference knows of a tensor (dtype may be unknown; shape may be partial).
  const TensorInfo& info(TensorRef ref);
  // Narrows what is known of a tensor's shape where the lowering knows more than the op's rule
  // (Conv2DBackpropInput with a batch-dependent size).
  void refine(TensorRef ref, const PartialShape& shape);

  // Keras masks (Embedding with mask_zero, Masking): the bool [batch, time] tensor that says
  // which time steps of `t` are real. Recurrent layers skip the others.
  void set_mask(TensorRef t, TensorRef mask) { masks_[{t.node, t.output}] = mask; }
  std::optional<TensorRef> mask_of(TensorRef t) const {
    auto it = masks_.find({t.node, t.output});
    if (it == masks_.end()) return std::nullopt;
    return it->second;
  }

  // The Const node holding manifest weight `name`, made once and shared by every use.
  std::optional<int> weight_node(const std::string& name) const;
  void remember_weight(const std::string& name, int node) { weights_[name] = node; }

 private:
  void infer_up_to(std::size_t node);

  const model::Bundle& bundle_;
  std::string file_;
  Graph graph_;
  std::map<std::string, int, std::less<>> names_;
  std::map<std::string, int, std::less<>> weights_;
  std::map<std::pair<int, int>, TensorRef> masks_;
  std::vector<std::vector<std::optional<ops::KnownValue>>> values_;
  std::size_t inferred_ = 0;
};

// One layer being lowered. `name` is its path ("block/block_conv" inside a nested model "block"),
// which is also the group of every node it makes.
class Layer {
 public:
  Layer(GraphWriter& writer, std::string path, std::string short_name, std::string class_name,
        const nlohmann::json& config);

  const std::string& path() const { return path_; }
  const std::string& class_name() const { return class_name_; }
  GraphWriter& writer() { return writer_; }

  // ---- errors ----
  // "model.json: layer 'conv1' (Conv2D): <what>".
  [[noreturn]] void fail(const std::string& what) const;
  // Only channels_last is lowered; channels_first is refused by name.
  void require_channels_last() const;
  // Exactly `n` inputs (or at least `n` when `at_least`).
  void expect_inputs(std::span<const TensorRef> inputs, std::size_t n, bool at_least = false) const;

  // ---- config ----
  // The member, or nullptr when absent or null.
  const nlohmann::json* get(std::string_view key) const;
  bool has(std::string_view key) const { return get(key) != nullptr; }
  std::int64_t int_or(std::string_view key, std::int64_t fallback) const;
  double number_or(std::string_view key, double fallback) const;
  bool bool_or(std::string_view key, bool fallback) const;
  std::string string_or(std::string_view key, std::string fallback) const;
  // An integer or a list of `n` integers (a single integer repeats); `fallback` when absent.
  std::vector<std::int64_t> ints(std::string_view key, std::size_t n,
                                 std::optional<std::vector<std::int64_t>> fallback = {}) const;
  // A list of integers of any length; `fallback` when absent.
  std::vector<std::int64_t> int_list(std::string_view key,
                                     std::vector<std::int64_t> fallback = {}) const;
  // "SAME" or "VALID" from the config's padding ("same"/"valid"); anything else fails.
  std::string padding() const;

  // ---- nodes ----
  // A node "<path>/<suffix>" (suffix defaults to the op) in this layer's group.
  TensorRef add(std::string op, std::vector<TensorRef> inputs, Attrs attrs = {},
                std::string suffix = {});
  // Constants made by the lowering (shapes, axes, scalars).
  TensorRef int_const(std::string suffix, std::vector<std::int32_t> values,
                      std::optional<Shape> shape = {});
  TensorRef float_const(std::string suffix, std::vector<float> values,
                        std::optional<Shape> shape = {});
  TensorRef scalar(std::string suffix, float value) {
    return float_const(suffix, {value}, Shape{});
  }
  // The manifest weight `<layer>/<short_name>` as a Const node. `expected` may hold -1 for a dim
  // that is not known statically. Fails naming the layer and weight when it is missing, is not
  // float32 or has another shape.
  TensorRef weight(const std::string& short_name, const Shape& expected);
  bool has_weight(const std::string& short_name) const {
    return find_weight(short_name) != nullptr;
  }
  HostTensor weight_value(const std::string& short_name, const Shape& expected);

  // ---- shapes ----
  PartialShape shape(TensorRef ref) { return writer_.info(ref).shape; }
  std::optional<DType> dtype(TensorRef ref) { return writer_.info(ref).dtype; }
  // The rank, failing when static inference does not know it.
  int rank(TensorRef ref, std::string_view what = "input");
  // The last dim, failing when it is unknown (weights' shapes depend on it).
  std::int64_t channels(TensorRef ref);

 private:
  const model::Weight* find_weight(const std::string& short_name) const;

  GraphWriter& writer_;
  std::string path_, short_name_, class_name_;
  const nlohmann::json& config_;
};

// A float/int TF DataType attribute.
inline TypeAttr tf_type(DType d) {
  return {std::string(tf_name(d))};
}

// {"T": dtype}: the element-type attribute most TF ops carry.
inline Attrs t_attr(DType d = DType::Float32) {
  return Attrs{{"T", tf_type(d)}};
}

}  // namespace tfjsi::graph::keras
