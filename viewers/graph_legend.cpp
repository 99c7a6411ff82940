#include "graph_legend.h"

#include <cstdio>

#include "op_family.h"

namespace tfjsi::viewers {
namespace {

// A legend's figure, to three significant digits.
std::string figure(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

}  // namespace

Legend make_legend(const SvgColouring* sc) {
  Legend l;
  if (!sc || sc->colouring.mode() == NodeColouring::Mode::Families) {
    l.title = "Legend: op family";
    for (OpFamily fam : all_families())
      l.rows.push_back({family_color(fam), std::string(family_name(fam))});
    return l;
  }
  const NodeColouring& c = sc->colouring;
  l.title = "Legend: " + c.title();
  if (c.mode() == NodeColouring::Mode::Categories) {
    int with = 0;
    for (const auto& cat : c.categories()) {
      l.rows.push_back({cat.color, cat.name + "  (" + std::to_string(cat.count) + ")"});
      with += cat.count;
    }
    l.rows.push_back(
        {NodeColouring::kNoValue, "none  (" + std::to_string(sc->graph_nodes - with) + ")"});
    return l;
  }
  l.scale = true;
  l.scale_low = (c.floored() ? "<=" : "") + figure(c.min_value());
  l.scale_high = figure(c.max_value());
  l.scale_note = c.log_scale() ? "log10 scale" : "linear scale";
  if (c.mark())
    l.rows.push_back({NodeColouring::scale_color(c.mark()->position),
                      c.mark()->label + ": " + std::to_string(c.mark()->above) + " above"});
  l.rows.push_back(
      {NodeColouring::kNoValue, "no value  (" + std::to_string(c.without_value()) + ")"});
  if (c.non_finite() > 0)
    l.rows.push_back(
        {NodeColouring::kNonFinite, "NaN or inf  (" + std::to_string(c.non_finite()) + ")"});
  return l;
}

float legend_height(const Legend& l) {
  return 26 + (l.scale ? 36 : 0) + kLegendRow * static_cast<float>(l.rows.size()) + 6;
}

}  // namespace tfjsi::viewers
