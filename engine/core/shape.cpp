#include "core/shape.h"

#include <limits>

namespace tfjsi {

std::optional<std::int64_t> checked_num_elements(std::span<const std::int64_t> dims) {
  std::int64_t n = 1;
  for (auto d : dims) {
    if (d < 0) return std::nullopt;
    if (d != 0 && n > std::numeric_limits<std::int64_t>::max() / d) return std::nullopt;
    n *= d;
  }
  return n;
}

std::int64_t num_elements(std::span<const std::int64_t> dims) {
  std::int64_t n = 1;
  for (auto d : dims) n *= d;
  return n;
}

std::string shape_to_string(std::span<const std::int64_t> dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ',';
    // -1 is "unknown"; any other negative is a bad value and is shown as it is.
    s += dims[i] == -1 ? std::string("?") : std::to_string(dims[i]);
  }
  return s + "]";
}

bool PartialShape::fully_known() const {
  if (!rank_known) return false;
  for (auto d : dims)
    if (d < 0) return false;
  return true;
}

std::string PartialShape::to_string() const {
  return rank_known ? shape_to_string(dims) : std::string("<unknown>");
}

}  // namespace tfjsi
