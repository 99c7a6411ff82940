#include "backends/xnnpack/scratch_plan.h"

#include <algorithm>
#include <numeric>

namespace tfjsi::xnnpack {

ScratchPlan plan_scratch(std::span<const ScratchValue> values) {
  const auto round = [](std::size_t n) {
    return (n + kScratchAlign - 1) / kScratchAlign * kScratchAlign;
  };
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return values[a].bytes > values[b].bytes; });
  ScratchPlan plan;
  plan.offsets.assign(values.size(), 0);
  std::vector<std::size_t> placed;
  for (std::size_t v : order) {
    const std::size_t size = round(values[v].bytes);
    // The byte ranges of placed values live at the same time as v, by offset.
    std::vector<std::pair<std::size_t, std::size_t>> taken;
    for (std::size_t u : placed)
      if (values[u].first <= values[v].last && values[v].first <= values[u].last)
        taken.emplace_back(plan.offsets[u], plan.offsets[u] + round(values[u].bytes));
    std::sort(taken.begin(), taken.end());
    std::size_t at = 0;
    for (const auto& [begin, end] : taken) {
      if (at + size <= begin) break;
      at = std::max(at, end);
    }
    plan.offsets[v] = at;
    plan.bytes = std::max(plan.bytes, at + size);
    placed.push_back(v);
  }
  return plan;
}

}  // namespace tfjsi::xnnpack
