// The one list of op families. An op is known to the engine (shape inference, the graph view's
// colours) once its family file lists it; a new family file is added here.
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "ops/op_def.h"

namespace tfjsi::ops {
namespace {

struct Index {
  std::vector<const OpDef*> all;
  std::unordered_map<std::string_view, const OpDef*> by_name;
};

const Index& index() {
  static const Index idx = [] {
    Index x;
    for (auto family : {elementwise_ops, conv_ops, matmul_ops, spatial_ops, selection_ops,
                        array_ops, reduction_ops, control_ops, random_ops, ragged_ops,
                        hash_table_ops, sparse_ops, spectral_ops, string_ops})
      for (const OpDef& d : family()) {
        // An op listed twice would make its rule depend on the order above.
        if (!x.by_name.emplace(d.op, &d).second)
          throw std::logic_error("op " + std::string(d.op) + " is listed by two families");
        x.all.push_back(&d);
      }
    return x;
  }();
  return idx;
}

}  // namespace

const OpDef* find_op(std::string_view op) {
  const auto& m = index().by_name;
  const auto it = m.find(op);
  return it == m.end() ? nullptr : it->second;
}

std::span<const OpDef* const> all_ops() {
  return index().all;
}

}  // namespace tfjsi::ops
