// Where the values inside a partition live: one scratch buffer that every partition's runtime
// shares (they run one after another), instead of a workspace per runtime, which this XNNPACK
// keeps for the runtime's life (76 runtimes of blazepose-heavy held 72 MiB of them).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace tfjsi::xnnpack {

// A value of `bytes` written at step `first` and last read at step `last` (steps: the
// partition's nodes in order).
struct ScratchValue {
  std::size_t bytes = 0;
  int first = 0, last = 0;
};

struct ScratchPlan {
  std::vector<std::size_t> offsets;  // per value, a multiple of kScratchAlign
  std::size_t bytes = 0;             // the buffer they need, XNN_EXTRA_BYTES of slack excluded
};

inline constexpr std::size_t kScratchAlign = 64;

// Values whose steps overlap get disjoint bytes; the others may share. Largest first, each at
// the lowest offset free of the values placed before it that it overlaps.
ScratchPlan plan_scratch(std::span<const ScratchValue> values);

}  // namespace tfjsi::xnnpack
