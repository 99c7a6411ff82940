// Watching every node's outputs during a run, for analyses that compare two runs of the same
// model (fp32 against fp16 storage, cpu against another backend): stable node ids shared by a
// graph and its structural copies, and an observer that hands each node's values to a callback.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/host_tensor.h"
#include "graph/ir.h"
#include "runtime/observer.h"

namespace tfjsi::analysis {

// Ids for every node of a graph and of its function bodies: the main graph's node i has id i,
// function bodies follow. A copy of the graph (same nodes, other storage) can be aliased so that
// its nodes get the same ids.
class NodeIds {
 public:
  explicit NodeIds(const graph::Graph& graph);
  void alias(const graph::Graph& copy);
  // -1 for a node of neither graph.
  int id(const graph::Node& node) const;
  const graph::Node& node(int id) const { return *nodes_[id]; }
  // The node's name; "function/name" for a node of a function body.
  const std::string& name(int id) const { return names_[id]; }
  int size() const { return static_cast<int>(nodes_.size()); }
  int main_size() const { return main_size_; }

 private:
  void add_graph(const graph::Graph& g, const std::string& prefix);
  std::vector<const graph::Node*> nodes_;
  std::vector<std::string> names_;
  std::unordered_map<const graph::Node*, int> ids_;
  int main_size_ = 0;
};

// One execution of one node.
struct NodeRun {
  int id = -1;
  int occurrence = 0;   // how many times this node ran before, in this run (loops)
  std::string backend;  // the backend that ran it, or "executor"
  // Output values: float32, int32 and bool tensors; nullopt for dead, string or non-tensor ones.
  std::vector<std::optional<HostTensor>> outputs;
  // Input values, when the tap was asked to keep them (same rule as outputs).
  std::vector<std::optional<HostTensor>> inputs;
};

class NodeTap final : public runtime::Observer {
 public:
  using Callback = std::function<void(NodeRun&&)>;
  NodeTap(const NodeIds& ids, Callback callback, bool with_inputs = false)
      : ids_(ids), callback_(std::move(callback)), with_inputs_(with_inputs) {}
  void run_started() override { occurrences_.clear(); }
  void after_kernel(runtime::KernelEvent& event) override;

 private:
  const NodeIds& ids_;
  Callback callback_;
  bool with_inputs_;
  std::unordered_map<int, int> occurrences_;
};

// Registers an observer with an engine for as long as it lives.
class ScopedObserver {
 public:
  ScopedObserver(runtime::Engine& engine, runtime::Observer& o);
  ~ScopedObserver();
  ScopedObserver(const ScopedObserver&) = delete;
  ScopedObserver& operator=(const ScopedObserver&) = delete;

 private:
  runtime::Engine& engine_;
  runtime::Observer& observer_;
};

}  // namespace tfjsi::analysis
