// Layout of a Scene (top to bottom), in points with y growing downwards, one open group at a
// time: each open group's own boxes (its nodes, closed groups and open child groups as single
// boxes of their laid-out size) are laid out by graphviz `dot`, innermost groups first, then
// nested into their parents. So opening a group lays out that group and re-places its
// ancestors, and local layouts are cached across calls. A group with more boxes of its own than
// dot handles quickly gets a simple layered layout instead, and the Layout says so in `notes`.
// Edges between boxes of one group follow dot's splines; edges that cross a group's border are
// drawn as curves from their source box to their target box.
// Graphviz keeps global state, so layouts run one at a time (a lock inside); call it off the UI
// thread.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graph_scene.h"

namespace tfjsi::viewers {

struct Vec2 {
  float x = 0, y = 0;
};

struct RectF {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool contains(Vec2 p) const { return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1; }
  bool overlaps(const RectF& r) const {
    return x0 <= r.x1 && r.x0 <= x1 && y0 <= r.y1 && r.y0 <= y1;
  }
  Vec2 center() const { return {(x0 + x1) / 2, (y0 + y1) / 2}; }
};

struct EdgePath {
  std::vector<Vec2> bezier;  // p0, c1, c2, p1, c1, c2, p2, ... (cubic pieces)
  bool has_arrow = false;
  Vec2 arrow_tip;  // where the arrowhead points, when has_arrow
  RectF bounds;
};

struct Layout {
  RectF bounds;
  std::vector<RectF> items;        // per Scene item
  std::vector<EdgePath> edges;     // per Scene edge
  std::vector<RectF> clusters;     // per Scene cluster
  double milliseconds = 0;         // time the layout took
  int dot_runs = 0;                // groups laid out by dot in this call (cache misses)
  std::vector<std::string> notes;  // groups laid out by the simple layered layout, and why
  // Per Scene edge, where its shape label's top-left corner goes (none: not drawn). A tensor
  // feeding several boxes is labelled once, and no label covers a box or another label.
  std::vector<std::optional<Vec2>> edge_labels;
};

// The shape labels of edges, in points: text of this size, placed by place_edge_labels.
inline constexpr float kEdgeLabelSize = 10.5f;
RectF edge_label_rect(const std::string& label, Vec2 top_left);
// Places the labels of `scene`'s edges on `layout`'s splines (compute_layout calls it).
std::vector<std::optional<Vec2>> place_edge_labels(const Scene& scene, const Layout& layout);

// Boxes of one group beyond which dot is not used (its time grows much faster than linearly).
inline constexpr int kDotBoxLimit = 600;

// Box sizes in points, per item, chosen by the caller from its font; an open group's box is at
// least as wide as its title (cluster_title_widths, per Scene cluster, when given).
Layout compute_layout(const Scene& scene, const std::vector<Vec2>& item_sizes,
                      float cluster_label_height,
                      const std::vector<float>& cluster_title_widths = {});

}  // namespace tfjsi::viewers
