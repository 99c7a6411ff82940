// Tensor shapes: concrete ones for data, partial ones (unknown dims, unknown rank) for the graph.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tfjsi {

// A concrete shape: every dim >= 0. Row-major (C order) everywhere.
using Shape = std::vector<std::int64_t>;

// Number of elements, or nullopt when a dim is negative or the product overflows int64.
std::optional<std::int64_t> checked_num_elements(std::span<const std::int64_t> dims);
// Number of elements of a shape already known to be valid.
std::int64_t num_elements(std::span<const std::int64_t> dims);
// "[1,224,224,3]"; unknown dims print as "?".
std::string shape_to_string(std::span<const std::int64_t> dims);

// A shape as the graph knows it before running: dims may be -1 (unknown), or the rank itself may
// be unknown.
struct PartialShape {
  bool rank_known = false;
  std::vector<std::int64_t> dims;  // -1 for an unknown dim; empty when !rank_known

  static PartialShape unknown() { return {}; }
  static PartialShape of(std::vector<std::int64_t> d) { return {true, std::move(d)}; }
  bool fully_known() const;
  int rank() const { return rank_known ? static_cast<int>(dims.size()) : -1; }
  std::string to_string() const;  // "[1,?,?,3]" or "<unknown>"
  bool operator==(const PartialShape&) const = default;
};

}  // namespace tfjsi
