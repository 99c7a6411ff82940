// XNNPACK operators (with their packed weights) made once per node and kept across runs and across
// switches away from the backend and back. An entry is reused while its parameters and the weight
// buffers it was packed from are the same; otherwise it is made again.
#pragma once

#include <xnnpack.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "core/buffer.h"
#include "graph/ir.h"

namespace tfjsi::xnnpack {

// Owns one xnn_operator_t.
struct OperatorDeleter {
  void operator()(xnn_operator_t op) const { xnn_delete_operator(op); }
};
using Operator = std::unique_ptr<xnn_operator, OperatorDeleter>;

// "invalid_parameter", ... for messages.
const char* status_name(xnn_status s);

struct CacheStats {
  std::int64_t created = 0;  // operators made (each packs its weights)
  std::int64_t failed = 0;   // creations XNNPACK refused (the node then runs on a cpu kernel)
  std::int64_t reused = 0;   // lookups answered from the cache
};

class OperatorCache {
 public:
  // What an operator was made from: its parameters (shape-derived numbers, attribute values,
  // float bit patterns) and the weight buffers it packed. Weights are held weakly, so a cached
  // operator never keeps a dropped model's weights alive, and a dead buffer never matches.
  struct Recipe {
    std::vector<std::int64_t> params;
    std::vector<std::shared_ptr<const Buffer>> weights;
    std::size_t weight_bytes = 0;  // what the packed copy holds, roughly (for memory())
  };

  // The operator for (node, slot) made by `recipe`: the cached one when it matches, else made by
  // `create` (which fills its argument and returns XNNPACK's status). The node's op is part of the
  // key. Returns nullptr when XNNPACK refuses the parameters; the refusal is cached too.
  xnn_operator_t get(const graph::Node& node, int slot, const Recipe& recipe,
                     const std::function<xnn_status(xnn_operator_t*)>& create);

  // Drops entries whose weights are gone (a closed model).
  void prune();
  void clear() { entries_.clear(); }

  std::size_t size() const { return entries_.size(); }
  std::size_t weight_bytes() const;
  const CacheStats& stats() const { return stats_; }
  void reset_stats() { stats_ = {}; }

 private:
  struct Entry {
    std::vector<std::int64_t> params;
    std::vector<std::weak_ptr<const Buffer>> weights;
    std::vector<const Buffer*> weight_ptrs;
    std::size_t weight_bytes = 0;
    Operator op;  // null when XNNPACK refused these parameters
  };
  static bool matches(const Entry& e, const Recipe& r);

  // Keyed by node address and slot (a node may need two operators, e.g. a convolution and an
  // activation XNNPACK cannot fuse). A stale address from a destroyed graph is harmless: its
  // entry is checked against the recipe like any other.
  std::map<std::pair<const graph::Node*, int>, Entry> entries_;
  CacheStats stats_;
};

}  // namespace tfjsi::xnnpack
