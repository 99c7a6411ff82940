// The graph IR every other part works on: TF ops as model.json names them, for graph models and
// for Keras layers models lowered to the same ops.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "core/host_tensor.h"
#include "core/shape.h"

namespace tfjsi::graph {

// A TF DataType attribute, kept as written ("DT_FLOAT", "DT_VARIANT", ...).
struct TypeAttr {
  std::string tf;
  std::optional<DType> dtype() const { return dtype_from_tf(tf); }
  bool operator==(const TypeAttr&) const = default;
};

// A function reference (TF2 control flow: While/If bodies in the GraphDef's library).
struct FuncAttr {
  std::string name;
  bool operator==(const FuncAttr&) const = default;
};

// Every form a GraphDef JSON attribute takes. `s` holds raw bytes (decoded from base64).
using AttrValue =
    std::variant<std::int64_t, float, bool, std::string, TypeAttr, PartialShape, HostTensor,
                 FuncAttr, std::vector<std::int64_t>, std::vector<float>, std::vector<bool>,
                 std::vector<std::string>, std::vector<TypeAttr>, std::vector<PartialShape>,
                 std::vector<HostTensor>, std::vector<FuncAttr>>;

// One output of one node.
struct TensorRef {
  int node = -1;
  int output = 0;
  bool operator==(const TensorRef&) const = default;
};

// What static inference knows of a node output.
struct TensorInfo {
  std::optional<DType> dtype;  // nullopt for non-tensor values (TensorArray/TensorList handles)
  PartialShape shape;
};

struct Node {
  std::string name;
  std::string op;
  std::string device;
  std::vector<TensorRef> inputs;    // data inputs, in order
  std::vector<int> control_inputs;  // "^name" inputs
  std::map<std::string, AttrValue, std::less<>> attrs;
  // The Keras layer a lowered node belongs to, or the node's name scope (up to the last '/');
  // the GUI groups by it.
  std::string group;
  // Const nodes: the value (a weight from the manifest, or the node's own `value` attribute).
  std::optional<HostTensor> value;
  // Filled by shape inference: one entry per output the node has.
  std::vector<TensorInfo> outputs;

  // The stored attribute, or null. Read its value with ops/attr.h's readers.
  const AttrValue* attr(std::string_view key) const;
};

// A model input or output as the user addresses it.
struct Endpoint {
  std::string name;  // the signature key when the model has a signature, else the node name
  TensorRef ref;     // inputs: output 0 of a Placeholder node
  std::optional<DType> dtype;
  PartialShape shape;
};

struct Graph {
  std::vector<Node> nodes;  // topological order (NextIteration back edges do not count)
  std::vector<Endpoint> inputs;
  std::vector<Endpoint> outputs;
  // TF2 control-flow bodies from the GraphDef library, by function name. A body is a Graph whose
  // inputs are the function's arguments and whose outputs are its return values, in order.
  std::map<std::string, std::shared_ptr<const Graph>, std::less<>> functions;
  // Nodes of modelInitializer (hash tables and the like), run once before the first run.
  std::vector<Node> initializer;

  // Index of the node called `name`, or -1.
  int find(std::string_view name) const;
  void rebuild_index();

 private:
  std::unordered_map<std::string, int> index_;
};

// Switch, Merge, Enter, Exit, NextIteration, LoopCond: a graph holding one runs by frames and
// iterations (the executor) and is left as written by graph rewrites.
bool is_tf1_control_flow(std::string_view op);

// Throws ModelError: "node 'name' (Op): attribute 'key' ...".
[[noreturn]] void throw_attr_error(const Node& node, std::string_view key, std::string_view what);

}  // namespace tfjsi::graph
