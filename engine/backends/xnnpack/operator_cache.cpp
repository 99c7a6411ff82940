#include "backends/xnnpack/operator_cache.h"

#include <string>

namespace tfjsi::xnnpack {

const char* status_name(xnn_status s) {
  switch (s) {
    case xnn_status_success:
      return "success";
    case xnn_status_uninitialized:
      return "uninitialized";
    case xnn_status_invalid_parameter:
      return "invalid_parameter";
    case xnn_status_invalid_state:
      return "invalid_state";
    case xnn_status_unsupported_parameter:
      return "unsupported_parameter";
    case xnn_status_unsupported_hardware:
      return "unsupported_hardware";
    case xnn_status_out_of_memory:
      return "out_of_memory";
  }
  return "unknown status";
}

bool OperatorCache::matches(const Entry& e, const Recipe& r) {
  if (e.params != r.params || e.weight_ptrs.size() != r.weights.size()) return false;
  for (std::size_t i = 0; i < r.weights.size(); ++i) {
    // The address alone could belong to a new buffer; the weak pointer proves it is the same one.
    if (e.weight_ptrs[i] != r.weights[i].get()) return false;
    if (r.weights[i] && e.weights[i].lock() != r.weights[i]) return false;
  }
  return true;
}

xnn_operator_t OperatorCache::get(const graph::Node& node, int slot, const Recipe& recipe,
                                  const std::function<xnn_status(xnn_operator_t*)>& create) {
  Recipe keyed = recipe;
  keyed.params.insert(keyed.params.begin(),
                      static_cast<std::int64_t>(std::hash<std::string>{}(node.op)));
  Entry& e = entries_[{&node, slot}];
  if (matches(e, keyed)) {
    ++stats_.reused;
    return e.op.get();
  }
  e.op.reset();
  e.params = std::move(keyed.params);
  e.weights.assign(keyed.weights.begin(), keyed.weights.end());
  e.weight_ptrs.clear();
  for (const auto& w : keyed.weights) e.weight_ptrs.push_back(w.get());
  e.weight_bytes = 0;
  xnn_operator_t op = nullptr;
  const xnn_status s = create(&op);
  if (s != xnn_status_success || !op) {
    if (op) xnn_delete_operator(op);
    ++stats_.failed;
    return nullptr;
  }
  e.op.reset(op);
  e.weight_bytes = recipe.weight_bytes;
  ++stats_.created;
  return op;
}

void OperatorCache::prune() {
  for (auto it = entries_.begin(); it != entries_.end();) {
    const Entry& e = it->second;
    bool dead = false;
    for (std::size_t i = 0; i < e.weights.size(); ++i)
      dead = dead || (e.weight_ptrs[i] && e.weights[i].expired());
    it = dead ? entries_.erase(it) : std::next(it);
  }
}

std::size_t OperatorCache::weight_bytes() const {
  std::size_t n = 0;
  for (const auto& [key, e] : entries_) n += e.weight_bytes;
  return n;
}

}  // namespace tfjsi::xnnpack
