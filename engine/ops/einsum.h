// Einsum's equation, read the way TF.js 4.22 reads it (backend_util.decodeEinsumEquation): an
// explicit output after exactly one "->", one or two operands, no ellipsis, no label twice in one
// operand. The static shape rule and the cpu kernel both use it; what TF.js refuses is refused
// here with TF.js's reason.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graph/ir.h"

namespace tfjsi::ops {

struct EinsumEquation {
  std::vector<std::string> inputs;  // one label string per operand (whitespace removed)
  std::string output;
};

// `equation` for `operands` tensors, or nullopt with why TF.js refuses it in `why`.
std::optional<EinsumEquation> parse_einsum(std::string_view equation, std::size_t operands,
                                           std::string* why = nullptr);

// The node's equation attribute parsed for `operands` tensors; throws ModelError naming the node
// and the equation when TF.js would refuse it.
EinsumEquation einsum_equation(const graph::Node& node, std::size_t operands);

}  // namespace tfjsi::ops
