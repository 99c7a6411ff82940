// How graph boxes are filled: by op family (the default), by a category per node (the backend
// that ran it), or by a value per node on a continuous scale (time, max |x|, error). Qt-free, so
// the rules are tested without a window.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "graph/ir.h"
#include "graph_scene.h"

namespace tfjsi::viewers {

// One band of a box's fill: a colour and the share of the box it takes (the shares sum to 1).
struct FillBand {
  std::uint32_t color = 0;
  float share = 1.0f;
};

class NodeColouring {
 public:
  enum class Mode { Families, Categories, Values };

  struct Category {
    std::string name;
    std::uint32_t color = 0;
    int count = 0;  // graph nodes with this category
  };

  // Keys are graph node names; names the graph does not hold are counted in unmatched().
  void set_categories(const graph::Graph& graph, std::string title,
                      const std::unordered_map<std::string, std::string>& category_by_node);
  // Values below `floor` sit at the scale's low end, which then starts at `floor` (an error of
  // 1e-14 would otherwise squeeze the errors that matter into the top of a log scale).
  void set_values(const graph::Graph& graph, std::string title,
                  const std::unordered_map<std::string, double>& value_by_node, bool log_scale,
                  double floor = 0);
  void clear();
  // A value marked on the scale (a tolerance), in Values mode; the next set_* clears it.
  struct Mark {
    double value = 0;
    std::string label;
    int above = 0;       // nodes whose value passes it (NaN and inf included)
    float position = 0;  // where it sits on the scale, 0..1
  };
  void set_mark(double value, std::string label);
  const std::optional<Mark>& mark() const { return mark_; }

  Mode mode() const { return mode_; }
  const std::string& title() const { return title_; }
  const std::vector<Category>& categories() const { return categories_; }
  int unmatched() const { return unmatched_; }
  int without_value() const { return without_value_; }  // nodes greyed in Values mode
  int non_finite() const { return non_finite_; }        // NaN or inf values
  bool log_scale() const { return log_scale_; }
  double min_value() const { return min_; }  // the range the colour bar spans (finite values)
  double max_value() const { return max_; }
  bool floored() const { return floored_; }  // some values sit below min_value(), at its end

  // A node's category (index into categories(), -1: none) and value (none when it has none).
  int category_of(int node) const {
    return node >= 0 && static_cast<size_t>(node) < category_of_node_.size()
               ? category_of_node_[static_cast<size_t>(node)]
               : -1;
  }
  std::optional<double> value_of(int node) const {
    if (node < 0 || static_cast<size_t>(node) >= has_value_.size() ||
        !has_value_[static_cast<size_t>(node)])
      return std::nullopt;
    return value_of_node_[static_cast<size_t>(node)];
  }
  // The fill of one graph node.
  std::uint32_t node_color(const graph::Graph& graph, int node) const;
  // The fill of every scene item. A collapsed group in Values mode takes the colour of its
  // largest member value (the worst time or error is what a user looks for); in Categories mode
  // it takes its members' category when they all share one, else it is drawn as bands in
  // proportion to its members' categories (the "mixed" marker). Nodes without a category or
  // value count as grey.
  std::vector<std::vector<FillBand>> item_fills(const graph::Graph& graph,
                                                const Scene& scene) const;
  // A point of the value scale, t in [0, 1], as a colour (light yellow to dark purple).
  static std::uint32_t scale_color(float t);
  static constexpr std::uint32_t kNoValue = 0xFFD6D3D0;    // 0xAABBGGRR
  static constexpr std::uint32_t kNonFinite = 0xFFD030E0;  // magenta: NaN or inf

 private:
  float scale_pos(double v) const;

  Mode mode_ = Mode::Families;
  std::string title_;
  std::vector<int> category_of_node_;  // -1: none
  std::vector<double> value_of_node_;  // NaN with has_value_ false: none
  std::vector<bool> has_value_;
  std::vector<Category> categories_;
  int unmatched_ = 0, without_value_ = 0, non_finite_ = 0;
  bool log_scale_ = false;
  double min_ = 0, max_ = 0;
  bool floored_ = false;
  std::optional<Mark> mark_;
};

}  // namespace tfjsi::viewers
