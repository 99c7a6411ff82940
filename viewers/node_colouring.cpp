#include "node_colouring.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <string_view>

#include "graph_palette.h"
#include "op_family.h"

namespace tfjsi::viewers {
namespace {

std::uint32_t mix(std::uint32_t a, std::uint32_t b, float t) {
  std::uint32_t out = 0xFF000000u;
  for (int shift = 0; shift < 24; shift += 8) {
    float ca = static_cast<float>((a >> shift) & 0xFF),
          cb = static_cast<float>((b >> shift) & 0xFF);
    out |= static_cast<std::uint32_t>(std::lround(ca + (cb - ca) * t)) << shift;
  }
  return out;
}

// Backends keep one colour everywhere in the app; anything else takes the next free colour.
// "X (fused)" (nodes that ran inside the kernel before them) is a pale shade of X's colour.
std::uint32_t known_category_color(const std::string& name) {
  constexpr std::string_view fused = " (fused)";
  if (name.size() > fused.size() && name.ends_with(fused))
    if (std::uint32_t base = known_category_color(name.substr(0, name.size() - fused.size())))
      return mix(base, palette::rgba(255, 255, 255), 0.55f);
  if (name == "gl") return palette::rgba(120, 190, 110);       // green
  if (name == "xnnpack") return palette::rgba(110, 160, 230);  // blue
  if (name == "cpu") return palette::rgba(240, 160, 80);       // orange
  // fp16 status (the Precision dock): trouble in warm colours, fine in a quiet one.
  if (name == "overflows") return palette::rgba(215, 60, 60);              // red
  if (name == "underflows") return palette::rgba(90, 120, 210);            // blue
  if (name == "error past threshold") return palette::rgba(240, 170, 70);  // amber
  if (name == "ok") return palette::rgba(175, 205, 175);                   // pale green
  return 0;
}

constexpr std::array<std::uint32_t, 10> kPalette = {
    palette::rgba(230, 120, 150), palette::rgba(170, 130, 220), palette::rgba(100, 200, 200),
    palette::rgba(220, 200, 90),  palette::rgba(180, 140, 100), palette::rgba(150, 150, 150),
    palette::rgba(240, 110, 90),  palette::rgba(130, 210, 150), palette::rgba(90, 140, 190),
    palette::rgba(210, 170, 200)};

}  // namespace

void NodeColouring::clear() {
  *this = NodeColouring();
}

void NodeColouring::set_categories(
    const graph::Graph& graph, std::string title,
    const std::unordered_map<std::string, std::string>& category_by_node) {
  clear();
  mode_ = Mode::Categories;
  title_ = std::move(title);
  category_of_node_.assign(graph.nodes.size(), -1);
  std::map<std::string, int> index;
  std::vector<std::string> names;
  std::vector<std::pair<int, int>> assigned;  // node, category (by first-seen index)
  for (const auto& [node_name, cat] : category_by_node) {
    int n = graph.find(node_name);
    if (n < 0) {
      ++unmatched_;
      continue;
    }
    auto [it, added] = index.emplace(cat, static_cast<int>(names.size()));
    if (added) names.push_back(cat);
    assigned.push_back({n, it->second});
  }
  // Legend order: most nodes first, then by name, so a run's main backend leads.
  std::vector<int> counts(names.size(), 0);
  for (auto [n, c] : assigned) ++counts[static_cast<size_t>(c)];
  std::vector<int> order(names.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    if (counts[static_cast<size_t>(a)] != counts[static_cast<size_t>(b)])
      return counts[static_cast<size_t>(a)] > counts[static_cast<size_t>(b)];
    return names[static_cast<size_t>(a)] < names[static_cast<size_t>(b)];
  });
  std::vector<int> rank(names.size());
  std::size_t next_palette = 0;
  for (std::size_t r = 0; r < order.size(); ++r) {
    const auto c = static_cast<size_t>(order[r]);
    rank[c] = static_cast<int>(r);
    std::uint32_t color = known_category_color(names[c]);
    if (!color) color = kPalette[next_palette++ % kPalette.size()];
    categories_.push_back({names[c], color, counts[c]});
  }
  for (auto [n, c] : assigned)
    category_of_node_[static_cast<size_t>(n)] = rank[static_cast<size_t>(c)];
}

void NodeColouring::set_values(const graph::Graph& graph, std::string title,
                               const std::unordered_map<std::string, double>& value_by_node,
                               bool log_scale, double floor) {
  clear();
  mode_ = Mode::Values;
  title_ = std::move(title);
  log_scale_ = log_scale;
  value_of_node_.assign(graph.nodes.size(), std::numeric_limits<double>::quiet_NaN());
  has_value_.assign(graph.nodes.size(), false);
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& [node_name, v] : value_by_node) {
    int n = graph.find(node_name);
    if (n < 0) {
      ++unmatched_;
      continue;
    }
    value_of_node_[static_cast<size_t>(n)] = v;
    has_value_[static_cast<size_t>(n)] = true;
    if (!std::isfinite(v)) {
      ++non_finite_;
      continue;
    }
    // A log scale cannot place zero or negatives: they sit at its low end.
    if (log_scale && v <= 0) continue;
    if (floor > 0 && v < floor) {
      floored_ = true;
      continue;
    }
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  for (std::size_t n = 0; n < graph.nodes.size(); ++n)
    if (!has_value_[n]) ++without_value_;
  if (floored_) {
    lo = floor;
    hi = std::max(hi, floor);
  }
  if (lo > hi) lo = hi = log_scale ? 1.0 : 0.0;
  min_ = lo;
  max_ = hi;
}

void NodeColouring::set_mark(double value, std::string label) {
  if (mode_ != Mode::Values) return;
  Mark m{value, std::move(label), 0, scale_pos(value)};
  for (std::size_t n = 0; n < value_of_node_.size(); ++n)
    if (has_value_[n] && (std::isnan(value_of_node_[n]) || value_of_node_[n] > value)) ++m.above;
  mark_ = std::move(m);
}

float NodeColouring::scale_pos(double v) const {
  double a = min_, b = max_, x = v;
  if (log_scale_) {
    if (x <= 0) return 0;
    a = std::log10(a);
    b = std::log10(b);
    x = std::log10(x);
  }
  if (b <= a) return 1.0f;  // one value only: it is the largest
  return static_cast<float>(std::clamp((x - a) / (b - a), 0.0, 1.0));
}

std::uint32_t NodeColouring::scale_color(float t) {
  // A sequential scale whose lightness falls steadily, so the order reads in greyscale too.
  static constexpr std::array<std::uint32_t, 5> stops = {
      palette::rgba(255, 246, 200), palette::rgba(250, 200, 110), palette::rgba(236, 120, 70),
      palette::rgba(190, 50, 80), palette::rgba(110, 20, 110)};
  t = std::clamp(t, 0.0f, 1.0f) * static_cast<float>(stops.size() - 1);
  auto i = std::min(static_cast<std::size_t>(t), stops.size() - 2);
  return mix(stops[i], stops[i + 1], t - static_cast<float>(i));
}

std::uint32_t NodeColouring::node_color(const graph::Graph& graph, int node) const {
  const auto n = static_cast<size_t>(node);
  switch (mode_) {
    case Mode::Families:
      return family_color(op_family(graph.nodes[n].op));
    case Mode::Categories: {
      int c = n < category_of_node_.size() ? category_of_node_[n] : -1;
      return c >= 0 ? categories_[static_cast<size_t>(c)].color : kNoValue;
    }
    case Mode::Values: {
      if (n >= has_value_.size() || !has_value_[n]) return kNoValue;
      double v = value_of_node_[n];
      return std::isfinite(v) ? scale_color(scale_pos(v)) : kNonFinite;
    }
  }
  return kNoValue;
}

std::vector<std::vector<FillBand>> NodeColouring::item_fills(const graph::Graph& graph,
                                                             const Scene& scene) const {
  std::vector<std::vector<FillBand>> fills(scene.items.size());
  for (std::size_t i = 0; i < scene.items.size(); ++i) {
    const auto& it = scene.items[i];
    if (!it.is_group)
      fills[i] = {{mode_ == Mode::Families ? it.color : node_color(graph, it.index), 1}};
  }
  if (mode_ == Mode::Families) {
    for (std::size_t i = 0; i < scene.items.size(); ++i)
      if (scene.items[i].is_group) fills[i] = {{scene.items[i].color, 1}};
    return fills;
  }
  // Gather the members of every collapsed group.
  const std::size_t nc = categories_.size() + 1;  // the last slot: no category
  std::vector<std::vector<int>> cat_counts(scene.items.size());
  std::vector<double> worst(scene.items.size(), -std::numeric_limits<double>::infinity());
  std::vector<char> any_value(scene.items.size(), 0), any_bad(scene.items.size(), 0);
  for (std::size_t n = 0; n < scene.item_of_node.size(); ++n) {
    const int item = scene.item_of_node[n];
    if (item < 0 || !scene.items[static_cast<size_t>(item)].is_group) continue;
    const auto i = static_cast<size_t>(item);
    if (mode_ == Mode::Categories) {
      if (cat_counts[i].empty()) cat_counts[i].assign(nc, 0);
      const int c = category_of_node_[n];
      ++cat_counts[i][c >= 0 ? static_cast<size_t>(c) : nc - 1];
    } else if (has_value_[n]) {
      any_value[i] = 1;
      if (!std::isfinite(value_of_node_[n]))
        any_bad[i] = 1;
      else
        worst[i] = std::max(worst[i], value_of_node_[n]);
    }
  }
  for (std::size_t i = 0; i < scene.items.size(); ++i) {
    if (!scene.items[i].is_group) continue;
    if (mode_ == Mode::Values) {
      // A NaN or inf inside is the worst there is.
      std::uint32_t c = any_bad[i]                                ? kNonFinite
                        : any_value[i] && std::isfinite(worst[i]) ? scale_color(scale_pos(worst[i]))
                        : any_value[i]                            ? scale_color(0)
                                                                  : kNoValue;
      fills[i] = {{c, 1}};
      continue;
    }
    int total = 0;
    for (int k : cat_counts[i]) total += k;
    if (total == 0) {
      fills[i] = {{kNoValue, 1}};
      continue;
    }
    for (std::size_t c = 0; c < nc; ++c) {
      const int k = cat_counts[i][c];
      if (k == 0) continue;
      fills[i].push_back({c + 1 < nc ? categories_[c].color : kNoValue,
                          static_cast<float>(k) / static_cast<float>(total)});
    }
  }
  return fills;
}

}  // namespace tfjsi::viewers
