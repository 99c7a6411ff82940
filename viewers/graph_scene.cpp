#include "graph_scene.h"

#include <algorithm>
#include <deque>
#include <map>

#include "op_family.h"

namespace tfjsi::viewers {
namespace {

// The scope of a node: its group when the importer gave one, else its name up to the last '/'.
std::string scope_of(const graph::Node& n) {
  if (!n.group.empty()) return n.group;
  auto slash = n.name.rfind('/');
  return slash == std::string::npos ? std::string() : n.name.substr(0, slash);
}

// The name as read inside its group: the group's path stripped, and cut to a readable length
// keeping the end, which is the part that tells nodes apart.
std::string short_name(const std::string& name, const std::string& group_path) {
  std::string s = name;
  if (!group_path.empty() && s.size() > group_path.size() + 1 &&
      s.compare(0, group_path.size(), group_path) == 0 && s[group_path.size()] == '/')
    s = s.substr(group_path.size() + 1);
  constexpr std::size_t kMax = 34;
  if (s.size() > kMax) s = "..." + s.substr(s.size() - (kMax - 3));
  return s;
}

struct Trie {
  std::string segment, path;
  std::map<std::string, int> kids;
  std::vector<int> nodes;
};

// One item a trie folds into: a node (group == -1) or a group.
struct Folded {
  int node = -1, group = -1;
};

}  // namespace

ScopeTree::ScopeTree(const graph::Graph& graph, bool show_const) {
  std::vector<Trie> trie(1);
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    const auto& n = graph.nodes[i];
    if (!show_const && n.op == "Const") continue;
    int t = 0;
    std::string scope = scope_of(n);
    std::size_t start = 0;
    while (!scope.empty() && start <= scope.size()) {
      auto end = scope.find('/', start);
      if (end == std::string::npos) end = scope.size();
      std::string seg = scope.substr(start, end - start);
      auto it = trie[static_cast<size_t>(t)].kids.find(seg);
      if (it == trie[static_cast<size_t>(t)].kids.end()) {
        Trie child;
        child.segment = seg;
        child.path = scope.substr(0, end);
        trie.push_back(std::move(child));
        int id = static_cast<int>(trie.size()) - 1;
        trie[static_cast<size_t>(t)].kids.emplace(seg, id);
        t = id;
      } else {
        t = it->second;
      }
      start = end + 1;
    }
    trie[static_cast<size_t>(t)].nodes.push_back(static_cast<int>(i));
  }

  groups_.push_back({"", "", -1, {}, {}, 0});
  group_of_node_.assign(graph.nodes.size(), -1);
  // Folds a trie node into what it shows as: one node, one merged group, or a new group.
  auto fold = [&](auto&& self, int t) -> Folded {
    std::vector<Folded> items;
    for (int n : trie[static_cast<size_t>(t)].nodes) items.push_back({n, -1});
    for (auto& [seg, kid] : trie[static_cast<size_t>(t)].kids) items.push_back(self(self, kid));
    if (items.size() == 1) {
      if (items[0].group >= 0) {
        auto& g = groups_[static_cast<size_t>(items[0].group)];
        g.label = trie[static_cast<size_t>(t)].segment + "/" + g.label;
      }
      return items[0];
    }
    groups_.push_back(
        {trie[static_cast<size_t>(t)].path, trie[static_cast<size_t>(t)].segment, -1, {}, {}, 0});
    int g = static_cast<int>(groups_.size()) - 1;
    for (const auto& it : items) {
      if (it.group >= 0) {
        groups_[static_cast<size_t>(g)].groups.push_back(it.group);
        groups_[static_cast<size_t>(it.group)].parent = g;
      } else {
        groups_[static_cast<size_t>(g)].nodes.push_back(it.node);
      }
    }
    return {-1, g};
  };
  for (int n : trie[0].nodes) groups_[0].nodes.push_back(n);
  for (auto& [seg, kid] : trie[0].kids) {
    Folded f = fold(fold, kid);
    if (f.group >= 0) {
      groups_[0].groups.push_back(f.group);
      groups_[static_cast<size_t>(f.group)].parent = 0;
    } else {
      groups_[0].nodes.push_back(f.node);
    }
  }
  // Owners and counts. Folding creates a group after its children, so ascending order visits
  // children first; the root (0) comes last.
  for (std::size_t g = 0; g < groups_.size(); ++g)
    for (int n : groups_[g].nodes) group_of_node_[static_cast<size_t>(n)] = static_cast<int>(g);
  auto count = [&](std::size_t g) {
    auto& grp = groups_[g];
    grp.total_nodes = static_cast<int>(grp.nodes.size());
    for (int c : grp.groups) grp.total_nodes += groups_[static_cast<size_t>(c)].total_nodes;
  };
  for (std::size_t g = 1; g < groups_.size(); ++g) count(g);
  count(0);
}

int ScopeTree::find_group(const std::string& path) const {
  for (std::size_t g = 0; g < groups_.size(); ++g)
    if (groups_[g].path == path) return static_cast<int>(g);
  return -1;
}

std::set<std::string> ScopeTree::initial_open(int budget) const {
  std::set<std::string> open;
  if (groups_.empty()) return open;
  auto items = [&](int g) {
    const auto& grp = groups_[static_cast<size_t>(g)];
    return static_cast<int>(grp.nodes.size() + grp.groups.size());
  };
  int boxes = items(0);
  std::vector<int> frontier(groups_[0].groups.begin(), groups_[0].groups.end());
  auto open_group = [&](int g) {
    boxes += items(g) - 1;
    open.insert(groups_[static_cast<size_t>(g)].path);
    for (int c : groups_[static_cast<size_t>(g)].groups) frontier.push_back(c);
  };
  // A handful of boxes tells nothing (converted Keras models wrap everything in one or two
  // scopes): open the biggest group until there is something to look at, budget or not.
  constexpr int kUseful = 24;
  while (boxes < kUseful && !frontier.empty()) {
    auto it = std::max_element(frontier.begin(), frontier.end(), [&](int a, int b) {
      return groups_[static_cast<size_t>(a)].total_nodes <
             groups_[static_cast<size_t>(b)].total_nodes;
    });
    int g = *it;
    frontier.erase(it);
    open_group(g);
  }
  // Then breadth first, while the boxes stay within the budget: a balanced overview.
  std::deque<int> queue(frontier.begin(), frontier.end());
  frontier.clear();
  while (!queue.empty()) {
    int g = queue.front();
    queue.pop_front();
    if (boxes + items(g) - 1 > budget) continue;
    open_group(g);
    for (int c : groups_[static_cast<size_t>(g)].groups) queue.push_back(c);
  }
  return open;
}

std::vector<std::string> ScopeTree::ancestors_of_node(int node) const {
  std::vector<std::string> out;
  for (int g = group_of_node(node); g > 0; g = groups_[static_cast<size_t>(g)].parent)
    out.push_back(groups_[static_cast<size_t>(g)].path);
  return out;
}

Scene build_scene(const graph::Graph& graph, const ScopeTree& tree,
                  const std::set<std::string>& open_groups) {
  Scene s;
  const auto& groups = tree.groups();
  s.item_of_node.assign(graph.nodes.size(), -1);
  s.item_of_group.assign(groups.size(), -1);
  if (groups.empty()) return s;

  // Walk the open part of the tree: open groups become clusters, closed ones items.
  auto walk = [&](auto&& self, int g, int cluster) -> void {
    const auto& grp = groups[static_cast<size_t>(g)];
    for (int n : grp.nodes) {
      const auto& node = graph.nodes[static_cast<size_t>(n)];
      SceneItem it;
      it.index = n;
      it.cluster = cluster;
      it.title = node.op;
      it.subtitle = short_name(node.name, grp.path);
      it.color = family_color(op_family(node.op));
      s.item_of_node[static_cast<size_t>(n)] = static_cast<int>(s.items.size());
      s.items.push_back(std::move(it));
    }
    for (int c : grp.groups) {
      const auto& child = groups[static_cast<size_t>(c)];
      if (open_groups.contains(child.path)) {
        s.clusters.push_back({c, cluster, child.label});
        self(self, c, static_cast<int>(s.clusters.size()) - 1);
      } else {
        SceneItem it;
        it.is_group = true;
        it.index = c;
        it.cluster = cluster;
        it.title = child.label;
        it.subtitle = std::to_string(child.total_nodes) + " nodes";
        it.color = 0xFFF2E6DC;
        int item = static_cast<int>(s.items.size());
        s.item_of_group[static_cast<size_t>(c)] = item;
        s.items.push_back(std::move(it));
        // Every node inside is shown by this box.
        auto mark = [&](auto&& m, int gg) -> void {
          for (int n : groups[static_cast<size_t>(gg)].nodes)
            s.item_of_node[static_cast<size_t>(n)] = item;
          for (int k : groups[static_cast<size_t>(gg)].groups) m(m, k);
        };
        mark(mark, c);
      }
    }
  };
  walk(walk, 0, -1);

  std::set<std::pair<int, int>> seen;
  s.succ.resize(s.items.size());
  s.pred.resize(s.items.size());
  for (std::size_t n = 0; n < graph.nodes.size(); ++n) {
    int to = s.item_of_node[n];
    if (to < 0) continue;
    for (const auto& ref : graph.nodes[n].inputs) {
      if (ref.node < 0 || static_cast<size_t>(ref.node) >= graph.nodes.size()) continue;
      int from = s.item_of_node[static_cast<size_t>(ref.node)];
      if (from < 0 || from == to || !seen.insert({from, to}).second) continue;
      SceneEdge e{from, to, {}};
      const auto& src = graph.nodes[static_cast<size_t>(ref.node)];
      if (ref.output >= 0 && static_cast<size_t>(ref.output) < src.outputs.size()) {
        const auto& info = src.outputs[static_cast<size_t>(ref.output)];
        if (info.shape.rank_known) e.label = info.shape.to_string();
      }
      s.succ[static_cast<size_t>(from)].push_back(to);
      s.pred[static_cast<size_t>(to)].push_back(from);
      s.edges.push_back(std::move(e));
    }
  }
  return s;
}

}  // namespace tfjsi::viewers
