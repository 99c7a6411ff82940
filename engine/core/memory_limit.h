// The size check made before every large allocation a model or an input asks for: a tensor, a
// TensorArray or TensorList of N slots. Past what this machine can hold (RAM plus swap, or the
// process's address-space limit when lower), the request is refused up front with a message that
// says how many bytes for what; asking anyway would end in std::bad_alloc at best, and at worst
// (an overcommitted allocation that zero-filling then touches) in the kernel's OOM killer.
#pragma once

#include <cstdint>
#include <string>

#include "core/error.h"

namespace tfjsi {

// A request larger than the machine: a ModelError (exit code 1), since a model or an input asked
// for it. The executor puts the node's name in front.
class TooLarge : public ModelError {
 public:
  using ModelError::ModelError;
};

// Bytes this process could allocate at most: min(RAM + swap, RLIMIT_AS). Read once.
std::uint64_t memory_limit();

// Throws TooLarge "<what> needs <bytes> bytes, more than this machine's memory (<limit> bytes)"
// when bytes > memory_limit().
void check_allocation(std::uint64_t bytes, const std::string& what);

// a * b, or UINT64_MAX when that overflows (then check_allocation refuses it).
std::uint64_t saturating_bytes(std::uint64_t a, std::uint64_t b);

}  // namespace tfjsi
