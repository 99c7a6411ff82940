// Op families: the colour a node gets in the graph view and the legend that explains it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "ops/op_def.h"

namespace tfjsi::viewers {

// The families are the engine's (ops/op_def.h, kept with each op); the names and colours are the
// viewer's.
using OpFamily = ops::Family;

// Other for ops the engine does not know.
OpFamily op_family(std::string_view op);
std::string_view family_name(OpFamily f);
// Fill colour as 0xAABBGGRR (the ImGui packing, also written as SVG colours).
std::uint32_t family_color(OpFamily f);
// Every family, in legend order.
std::span<const OpFamily> all_families();

}  // namespace tfjsi::viewers
