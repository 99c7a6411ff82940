// What the graph canvas shows: name scopes as a tree of collapsible groups, and for a given set
// of open groups the boxes (nodes or collapsed groups) and the edges between them. Qt-free.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "graph/ir.h"

namespace tfjsi::viewers {

// A name scope (split at '/'). Scopes that would hold a single item are dissolved, and chains
// of scopes holding one sub-scope and nothing else are merged, so every group is worth a box.
struct ScopeGroup {
  std::string path;         // full scope path: the stable id of the group
  std::string label;        // the part of the path this group adds to its parent's
  int parent = -1;          // -1 for the root (index 0)
  std::vector<int> groups;  // child groups
  std::vector<int> nodes;   // graph nodes directly inside
  int total_nodes = 0;      // visible nodes inside, at any depth
};

class ScopeTree {
 public:
  // Only nodes passing the filter (Const nodes are hidden unless `show_const`) take part.
  ScopeTree(const graph::Graph& graph, bool show_const);

  const std::vector<ScopeGroup>& groups() const { return groups_; }
  bool node_visible(int node) const { return group_of_node_[static_cast<size_t>(node)] >= 0; }
  // The innermost group holding the node (0 = root), or -1 for a hidden node.
  int group_of_node(int node) const { return group_of_node_[static_cast<size_t>(node)]; }
  int find_group(const std::string& path) const;
  int visible_node_count() const { return groups_.empty() ? 0 : groups_[0].total_nodes; }
  // Groups to open so that the view starts useful and small: the biggest groups open until
  // there are a couple of dozen boxes, then groups open breadth first while the count of boxes
  // stays within `budget`.
  std::set<std::string> initial_open(int budget) const;
  // The paths of `group` and of every group above it (the root excluded).
  std::vector<std::string> ancestors_of_node(int node) const;

 private:
  std::vector<ScopeGroup> groups_;
  std::vector<int> group_of_node_;
};

struct SceneItem {
  bool is_group = false;
  int index = -1;        // graph node index, or group index in the ScopeTree
  int cluster = -1;      // the open group drawn around it (index in Scene::clusters), -1 for none
  std::string title;     // op, or the group's label
  std::string subtitle;  // node name, or "N nodes"
  std::uint32_t color = 0;
};

struct SceneEdge {
  int from = -1, to = -1;  // item indices
  std::string label;       // the tensor's shape when known
};

struct SceneCluster {
  int group = -1;   // group index in the ScopeTree
  int parent = -1;  // enclosing cluster, -1 for none
  std::string label;
};

struct Scene {
  std::vector<SceneItem> items;
  std::vector<SceneEdge> edges;
  std::vector<SceneCluster> clusters;
  std::vector<int> item_of_node;   // per graph node: the item showing it (itself or a group)
  std::vector<int> item_of_group;  // per group: its item when collapsed and visible, else -1
  std::vector<std::vector<int>> succ, pred;  // per item: neighbour items
};

Scene build_scene(const graph::Graph& graph, const ScopeTree& tree,
                  const std::set<std::string>& open_groups);

}  // namespace tfjsi::viewers
