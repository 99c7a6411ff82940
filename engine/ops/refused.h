// Ops tfjsi declines to run on purpose, each with why. A model holding one still loads (its graph,
// weights and shapes can be inspected); running it stops before the first node with the reason,
// naming the node. `tfjsi env --ops`, the Environment panel and docs/ops.md show the reason.
#pragma once

#include <optional>
#include <string_view>

namespace tfjsi::ops {

// Why `op` is not run, or nullopt for every op we would run given a kernel.
std::optional<std::string_view> refusal(std::string_view op);

}  // namespace tfjsi::ops
