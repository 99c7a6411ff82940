// Where the edges' shape labels go: on their spline, clear of every box and of each other.
// Two edges leaving one box with the same shape ("[1,128,128,16]" to three consumers) carry one
// tensor: it is labelled once. Labels that find no free spot are left out rather than drawn
// over something.
#include <algorithm>
#include <map>
#include <utility>

#include "graph_layout.h"

namespace tfjsi::viewers {

RectF edge_label_rect(const std::string& label, Vec2 top_left) {
  // DejaVu Sans: digits are 0.64 em wide, brackets and commas narrower; 0.6 em a character
  // is a little generous, which keeps neighbours apart.
  const float w = 0.6f * kEdgeLabelSize * static_cast<float>(label.size());
  const float h = 1.25f * kEdgeLabelSize;
  return {top_left.x, top_left.y, top_left.x + w, top_left.y + h};
}

std::vector<std::optional<Vec2>> place_edge_labels(const Scene& scene, const Layout& layout) {
  std::vector<std::optional<Vec2>> out(scene.edges.size());
  std::vector<RectF> taken(layout.items.begin(), layout.items.end());
  // Open groups' title bars too (their labels are drawn there).
  for (const RectF& c : layout.clusters) taken.push_back({c.x0, c.y0, c.x1, c.y0 + 18});
  std::map<std::pair<int, std::string>, bool> labelled;
  for (std::size_t e = 0; e < scene.edges.size() && e < layout.edges.size(); ++e) {
    const auto& se = scene.edges[e];
    const auto& b = layout.edges[e].bezier;
    if (se.label.empty() || b.size() < 4) continue;
    if (!labelled.emplace(std::make_pair(se.from, se.label), true).second) continue;
    // Along the curve from its middle outwards, right of it then left of it.
    const std::size_t n = b.size();
    for (std::size_t k : {n / 2, n / 3, 2 * n / 3, n / 4, 3 * n / 4}) {
      const Vec2 m = b[std::min(k, n - 1)];
      const float w = edge_label_rect(se.label, {0, 0}).x1;
      bool placed = false;
      for (const Vec2 at : {Vec2{m.x + 4, m.y - 6}, Vec2{m.x - 4 - w, m.y - 6}}) {
        const RectF r = edge_label_rect(se.label, at);
        // Labels may touch boxes' margins but not cover their text or another label.
        if (std::any_of(taken.begin(), taken.end(), [&](const RectF& t) { return t.overlaps(r); }))
          continue;
        out[e] = at;
        taken.push_back(r);
        placed = true;
        break;
      }
      if (placed) break;
    }
  }
  return out;
}

}  // namespace tfjsi::viewers
