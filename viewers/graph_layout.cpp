#include "graph_layout.h"

#include <gvc.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace tfjsi::viewers {
namespace {

constexpr float kClusterMargin = 8.0f;
constexpr std::size_t kCacheLimit = 4096;  // local layouts kept across calls

std::mutex& graphviz_lock() {
  static std::mutex m;
  return m;
}

GVC_t* context() {
  // One context for the process: loading plugins for every layout would cost for nothing.
  static GVC_t* gvc = gvContext();
  return gvc;
}

void set(void* obj, const char* key, const std::string& value) {
  agsafeset(obj, const_cast<char*>(key), const_cast<char*>(value.c_str()), const_cast<char*>(""));
}

void grow(RectF& r, Vec2 p) {
  r.x0 = std::min(r.x0, p.x);
  r.y0 = std::min(r.y0, p.y);
  r.x1 = std::max(r.x1, p.x);
  r.y1 = std::max(r.y1, p.y);
}

// One group's own boxes and the edges between them.
struct LocalGraph {
  std::vector<Vec2> sizes;
  std::vector<std::pair<int, int>> edges;
};

// Its layout, with the content's top-left corner at (0, 0).
struct LocalLayout {
  float w = 0, h = 0;
  std::vector<RectF> boxes;
  std::vector<std::vector<Vec2>> splines;  // per local edge; empty when there is none
  std::vector<std::optional<Vec2>> arrow_tips;
  bool simple = false;
};

std::string key_of(const LocalGraph& g) {
  std::string k;
  k.reserve(g.sizes.size() * 10 + g.edges.size() * 10);
  for (Vec2 s : g.sizes) {
    k += std::to_string(std::lround(s.x * 2));
    k += ',';
    k += std::to_string(std::lround(s.y * 2));
    k += ';';
  }
  k += '|';
  for (auto [a, b] : g.edges) {
    k += std::to_string(a);
    k += '>';
    k += std::to_string(b);
    k += ';';
  }
  return k;
}

// The edges that close a cycle, found by a depth-first search in box order. Boxes of collapsed
// groups can form cycles (A -> group -> A). dot would break them itself, but graphviz 2.42's
// acyclic() leaks the virtual edge of every edge it reverses (1 KB a layout, seen under ASan on
// handtrack); handing dot these edges reversed keeps its input acyclic.
std::vector<bool> back_edges(const LocalGraph& lg) {
  const std::size_t n = lg.sizes.size();
  std::vector<std::vector<std::size_t>> out_edges(n);
  for (std::size_t e = 0; e < lg.edges.size(); ++e)
    out_edges[static_cast<size_t>(lg.edges[e].first)].push_back(e);
  enum class Mark : unsigned char { New, OnPath, Done };
  std::vector<Mark> mark(n, Mark::New);
  std::vector<bool> back(lg.edges.size(), false);
  std::vector<std::pair<std::size_t, std::size_t>> stack;  // (box, next out-edge to follow)
  for (std::size_t root = 0; root < n; ++root) {
    if (mark[root] != Mark::New) continue;
    mark[root] = Mark::OnPath;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto& [box, next] = stack.back();
      if (next == out_edges[box].size()) {
        mark[box] = Mark::Done;
        stack.pop_back();
        continue;
      }
      const std::size_t e = out_edges[box][next++];
      const auto to = static_cast<std::size_t>(lg.edges[e].second);
      if (to == box) continue;  // a self-loop is no cycle dot has to break
      if (mark[to] == Mark::OnPath) {
        back[e] = true;
      } else if (mark[to] == Mark::New) {
        mark[to] = Mark::OnPath;
        stack.push_back({to, 0});
      }
    }
  }
  return back;
}

LocalLayout dot_layout(const LocalGraph& lg) {
  LocalLayout out;
  Agraph_t* g = agopen(const_cast<char*>("scope"), Agdirected, nullptr);
  set(g, "rankdir", "TB");
  set(g, "nodesep", "0.25");
  set(g, "ranksep", "0.4");
  set(g, "splines", "spline");
  std::vector<Agnode_t*> nodes(lg.sizes.size());
  for (std::size_t i = 0; i < lg.sizes.size(); ++i) {
    std::string name = "n" + std::to_string(i);
    Agnode_t* n = agnode(g, const_cast<char*>(name.c_str()), 1);
    set(n, "shape", "box");
    set(n, "fixedsize", "true");
    set(n, "label", "");
    set(n, "width", std::to_string(lg.sizes[i].x / 72.0));
    set(n, "height", std::to_string(lg.sizes[i].y / 72.0));
    nodes[i] = n;
  }
  std::vector<Agedge_t*> edges(lg.edges.size());
  const std::vector<bool> reversed = back_edges(lg);
  for (std::size_t e = 0; e < lg.edges.size(); ++e) {
    std::string name = "e" + std::to_string(e);
    Agnode_t* from = nodes[static_cast<size_t>(lg.edges[e].first)];
    Agnode_t* to = nodes[static_cast<size_t>(lg.edges[e].second)];
    if (reversed[e]) std::swap(from, to);
    edges[e] = agedge(g, from, to, const_cast<char*>(name.c_str()), 1);
    // The arrow stays at the real target: the tail of the reversed edge.
    if (reversed[e]) set(edges[e], "dir", "back");
  }
  if (gvLayout(context(), g, "dot") != 0) {
    agclose(g);
    throw std::runtime_error("graphviz could not lay out the graph");
  }
  const boxf bb = GD_bb(g);
  auto flip = [&](pointf p) {
    return Vec2{static_cast<float>(p.x - bb.LL.x), static_cast<float>(bb.UR.y - p.y)};
  };
  out.w = static_cast<float>(bb.UR.x - bb.LL.x);
  out.h = static_cast<float>(bb.UR.y - bb.LL.y);
  out.boxes.resize(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    Vec2 c = flip(ND_coord(nodes[i]));
    float w = lg.sizes[i].x / 2, h = lg.sizes[i].y / 2;
    out.boxes[i] = {c.x - w, c.y - h, c.x + w, c.y + h};
  }
  out.splines.resize(edges.size());
  out.arrow_tips.resize(edges.size());
  for (std::size_t e = 0; e < edges.size(); ++e) {
    const splines* spl = ED_spl(edges[e]);
    if (!spl || spl->size == 0) continue;
    const bezier& bz = spl->list[0];
    for (int k = 0; k < bz.size; ++k) out.splines[e].push_back(flip(bz.list[k]));
    if (reversed[e]) {
      // Drawn from the real source to the real target, the arrow at the dot edge's tail.
      std::reverse(out.splines[e].begin(), out.splines[e].end());
      if (bz.sflag) out.arrow_tips[e] = flip(bz.sp);
    } else if (bz.eflag) {
      out.arrow_tips[e] = flip(bz.ep);
    }
  }
  gvFreeLayout(context(), g);
  agclose(g);
  return out;
}

// A layered layout in linear-ish time for groups too big for dot: longest-path layers,
// a few barycenter sweeps to untangle, layers packed and centred. Edges get no splines (they
// are drawn as plain curves).
LocalLayout layered_layout(const LocalGraph& lg) {
  const std::size_t n = lg.sizes.size();
  std::vector<std::vector<int>> succ(n), pred(n);
  for (auto [a, b] : lg.edges) {
    succ[static_cast<size_t>(a)].push_back(b);
    pred[static_cast<size_t>(b)].push_back(a);
  }
  // Layers by longest path from the sources (Kahn's order); nodes on a cycle go below their
  // already placed inputs.
  std::vector<int> layer(n, 0), indeg(n);
  for (std::size_t v = 0; v < n; ++v) indeg[v] = static_cast<int>(pred[v].size());
  std::vector<int> queue;
  for (std::size_t v = 0; v < n; ++v)
    if (indeg[v] == 0) queue.push_back(static_cast<int>(v));
  std::vector<char> done(n, 0);
  for (std::size_t head = 0;; ++head) {
    if (head == queue.size()) {
      // A cycle: release its lowest-numbered node.
      auto it = std::find(done.begin(), done.end(), 0);
      if (it == done.end()) break;
      const int v = static_cast<int>(it - done.begin());
      if (std::find(queue.begin(), queue.end(), v) == queue.end()) queue.push_back(v);
      if (head == queue.size()) break;
    }
    const int v = queue[head];
    if (done[static_cast<size_t>(v)]) continue;
    done[static_cast<size_t>(v)] = 1;
    for (int w : succ[static_cast<size_t>(v)]) {
      layer[static_cast<size_t>(w)] =
          std::max(layer[static_cast<size_t>(w)], layer[static_cast<size_t>(v)] + 1);
      if (--indeg[static_cast<size_t>(w)] == 0) queue.push_back(w);
    }
  }
  const int nl = n ? *std::max_element(layer.begin(), layer.end()) + 1 : 0;
  std::vector<std::vector<int>> layers(static_cast<size_t>(nl));
  for (std::size_t v = 0; v < n; ++v)
    layers[static_cast<size_t>(layer[v])].push_back(static_cast<int>(v));
  std::vector<float> pos(n);
  auto number = [&] {
    for (const auto& l : layers)
      for (std::size_t i = 0; i < l.size(); ++i)
        pos[static_cast<size_t>(l[i])] = static_cast<float>(i);
  };
  number();
  std::vector<float> bary(n);
  for (int sweep = 0; sweep < 4; ++sweep) {
    const bool down = sweep % 2 == 0;
    for (int li = 0; li < nl; ++li) {
      auto& l = layers[static_cast<size_t>(down ? li : nl - 1 - li)];
      for (int v : l) {
        const auto& nb = down ? pred[static_cast<size_t>(v)] : succ[static_cast<size_t>(v)];
        float sum = 0;
        for (int u : nb) sum += pos[static_cast<size_t>(u)];
        bary[static_cast<size_t>(v)] =
            nb.empty() ? pos[static_cast<size_t>(v)] : sum / static_cast<float>(nb.size());
      }
      std::stable_sort(l.begin(), l.end(), [&](int a, int b) {
        return bary[static_cast<size_t>(a)] < bary[static_cast<size_t>(b)];
      });
      for (std::size_t i = 0; i < l.size(); ++i)
        pos[static_cast<size_t>(l[i])] = static_cast<float>(i);
    }
  }
  LocalLayout out;
  out.simple = true;
  out.boxes.resize(n);
  constexpr float kNodeSep = 18, kRankSep = 30;
  float y = 0, max_w = 0;
  std::vector<float> widths(static_cast<size_t>(nl));
  for (int li = 0; li < nl; ++li) {
    float w = 0;
    for (int v : layers[static_cast<size_t>(li)])
      w += lg.sizes[static_cast<size_t>(v)].x + kNodeSep;
    widths[static_cast<size_t>(li)] = w - kNodeSep;
    max_w = std::max(max_w, widths[static_cast<size_t>(li)]);
  }
  for (int li = 0; li < nl; ++li) {
    const auto& l = layers[static_cast<size_t>(li)];
    float x = (max_w - widths[static_cast<size_t>(li)]) / 2, h = 0;
    for (int v : l) h = std::max(h, lg.sizes[static_cast<size_t>(v)].y);
    for (int v : l) {
      const Vec2 s = lg.sizes[static_cast<size_t>(v)];
      const float top = y + (h - s.y) / 2;
      out.boxes[static_cast<size_t>(v)] = {x, top, x + s.x, top + s.y};
      x += s.x + kNodeSep;
    }
    y += h + kRankSep;
  }
  out.w = max_w;
  out.h = std::max(0.0f, y - kRankSep);
  out.splines.resize(lg.edges.size());
  out.arrow_tips.resize(lg.edges.size());
  return out;
}

std::unordered_map<std::string, std::shared_ptr<const LocalLayout>>& cache() {
  static std::unordered_map<std::string, std::shared_ptr<const LocalLayout>> c;
  return c;
}

// A curve from the bottom of one box to the top of another, for edges dot did not route.
void plain_edge(EdgePath& p, const RectF& a, const RectF& b) {
  const Vec2 p0{a.center().x, a.y1}, tip{b.center().x, b.y0};
  const Vec2 p1{tip.x, tip.y - 6};
  const float bend = std::max(18.0f, std::abs(p1.y - p0.y) * 0.4f);
  p.bezier = {p0, {p0.x, p0.y + bend}, {p1.x, p1.y - bend}, p1};
  p.has_arrow = true;
  p.arrow_tip = tip;
}

}  // namespace

Layout compute_layout(const Scene& scene, const std::vector<Vec2>& item_sizes,
                      float cluster_label_height, const std::vector<float>& cluster_title_widths) {
  std::lock_guard lock(graphviz_lock());
  auto start = std::chrono::steady_clock::now();
  Layout out;
  const int nc = static_cast<int>(scene.clusters.size());
  const int root = nc;  // containers: clusters 0..nc-1, then the top level
  auto container_of = [&](int cluster) { return cluster < 0 ? root : cluster; };

  // Every container's own boxes: its items, then its open child groups.
  std::vector<std::vector<int>> own_items(static_cast<size_t>(nc + 1)),
      own_clusters(static_cast<size_t>(nc + 1));
  std::vector<int> local_of_item(scene.items.size()), local_of_cluster(static_cast<size_t>(nc));
  for (std::size_t i = 0; i < scene.items.size(); ++i) {
    auto& v = own_items[static_cast<size_t>(container_of(scene.items[i].cluster))];
    local_of_item[i] = static_cast<int>(v.size());
    v.push_back(static_cast<int>(i));
  }
  for (int c = 0; c < nc; ++c) {
    auto k = static_cast<size_t>(container_of(scene.clusters[static_cast<size_t>(c)].parent));
    local_of_cluster[static_cast<size_t>(c)] =
        static_cast<int>(own_items[k].size() + own_clusters[k].size());
    own_clusters[k].push_back(c);
  }
  // Clusters are listed parents first; their depth orders the walk to a common ancestor.
  std::vector<int> depth(static_cast<size_t>(nc));
  for (int c = 0; c < nc; ++c) {
    const int p = scene.clusters[static_cast<size_t>(c)].parent;
    depth[static_cast<size_t>(c)] = p < 0 ? 1 : depth[static_cast<size_t>(p)] + 1;
  }
  auto depth_of = [&](int c) { return c < 0 ? 0 : depth[static_cast<size_t>(c)]; };
  auto parent_of = [&](int c) { return scene.clusters[static_cast<size_t>(c)].parent; };

  // Each scene edge becomes an edge between the two boxes of their innermost common group that
  // hold its ends; only an edge between two items there keeps dot's spline.
  std::vector<LocalGraph> local(static_cast<size_t>(nc + 1));
  std::vector<std::unordered_map<long long, int>> local_edge_index(static_cast<size_t>(nc + 1));
  std::vector<std::pair<int, int>> direct(scene.edges.size(), {-1, -1});  // container, local edge
  for (std::size_t e = 0; e < scene.edges.size(); ++e) {
    const int ia = scene.edges[e].from, ib = scene.edges[e].to;
    int ca = scene.items[static_cast<size_t>(ia)].cluster,
        cb = scene.items[static_cast<size_t>(ib)].cluster;
    int ra = local_of_item[static_cast<size_t>(ia)], rb = local_of_item[static_cast<size_t>(ib)];
    bool items = true;
    while (depth_of(ca) > depth_of(cb)) {
      ra = local_of_cluster[static_cast<size_t>(ca)];
      ca = parent_of(ca);
      items = false;
    }
    while (depth_of(cb) > depth_of(ca)) {
      rb = local_of_cluster[static_cast<size_t>(cb)];
      cb = parent_of(cb);
      items = false;
    }
    while (ca != cb) {
      ra = local_of_cluster[static_cast<size_t>(ca)];
      rb = local_of_cluster[static_cast<size_t>(cb)];
      ca = parent_of(ca);
      cb = parent_of(cb);
      items = false;
    }
    if (ra == rb) continue;
    const auto k = static_cast<size_t>(container_of(ca));
    const long long key = (static_cast<long long>(ra) << 32) | static_cast<unsigned>(rb);
    auto [it, added] = local_edge_index[k].emplace(key, static_cast<int>(local[k].edges.size()));
    if (added) local[k].edges.push_back({ra, rb});
    if (items) direct[e] = {static_cast<int>(k), it->second};
  }

  // Lay out the innermost groups first: a group's box size is its laid-out content's.
  std::vector<std::shared_ptr<const LocalLayout>> laid(static_cast<size_t>(nc + 1));
  std::vector<Vec2> cluster_size(static_cast<size_t>(nc));
  std::vector<int> order;
  for (int c = nc - 1; c >= 0; --c) order.push_back(c);
  order.push_back(root);
  for (int k : order) {
    auto& lg = local[static_cast<size_t>(k)];
    for (int i : own_items[static_cast<size_t>(k)])
      lg.sizes.push_back(item_sizes[static_cast<size_t>(i)]);
    for (int c : own_clusters[static_cast<size_t>(k)])
      lg.sizes.push_back(cluster_size[static_cast<size_t>(c)]);
    std::shared_ptr<const LocalLayout> l;
    if (!lg.sizes.empty()) {
      std::string key = key_of(lg);
      if (auto it = cache().find(key); it != cache().end()) {
        l = it->second;
      } else {
        if (static_cast<int>(lg.sizes.size()) <= kDotBoxLimit) {
          l = std::make_shared<const LocalLayout>(dot_layout(lg));
          ++out.dot_runs;
        } else {
          l = std::make_shared<const LocalLayout>(layered_layout(lg));
        }
        if (cache().size() >= kCacheLimit) cache().clear();
        cache().emplace(std::move(key), l);
      }
      if (l->simple)
        out.notes.push_back(
            (k == root ? std::string("top level")
                       : "'" + scene.clusters[static_cast<size_t>(k)].label + "'") +
            ": " + std::to_string(lg.sizes.size()) +
            " boxes, laid out by a simple layered layout (dot would take too long)");
    } else {
      l = std::make_shared<const LocalLayout>();
    }
    laid[static_cast<size_t>(k)] = l;
    if (k != root)
      cluster_size[static_cast<size_t>(k)] = {
          std::max({l->w + 2 * kClusterMargin, 60.0f,
                    static_cast<size_t>(k) < cluster_title_widths.size()
                        ? cluster_title_widths[static_cast<size_t>(k)]
                        : 0.0f}),
          l->h + 2 * kClusterMargin + cluster_label_height};
  }

  // Place the containers top down: a group's content sits inside its box, under its header.
  std::vector<Vec2> origin(static_cast<size_t>(nc + 1));
  out.clusters.resize(static_cast<size_t>(nc));
  out.items.resize(scene.items.size());
  std::vector<int> top_down;
  top_down.push_back(root);
  for (int c = 0; c < nc; ++c) top_down.push_back(c);
  for (int k : top_down) {
    const Vec2 o = origin[static_cast<size_t>(k)];
    const auto& l = *laid[static_cast<size_t>(k)];
    if (l.boxes.empty()) continue;
    const auto& items = own_items[static_cast<size_t>(k)];
    for (std::size_t j = 0; j < items.size(); ++j) {
      const RectF& b = l.boxes[j];
      out.items[static_cast<size_t>(items[j])] = {b.x0 + o.x, b.y0 + o.y, b.x1 + o.x, b.y1 + o.y};
    }
    const auto& kids = own_clusters[static_cast<size_t>(k)];
    for (std::size_t j = 0; j < kids.size(); ++j) {
      const RectF& b = l.boxes[items.size() + j];
      const RectF r{b.x0 + o.x, b.y0 + o.y, b.x1 + o.x, b.y1 + o.y};
      out.clusters[static_cast<size_t>(kids[j])] = r;
      origin[static_cast<size_t>(kids[j])] = {r.x0 + kClusterMargin,
                                              r.y0 + kClusterMargin + cluster_label_height};
    }
  }
  out.bounds = {0, 0, laid[static_cast<size_t>(root)]->w, laid[static_cast<size_t>(root)]->h};

  out.edges.resize(scene.edges.size());
  for (std::size_t e = 0; e < scene.edges.size(); ++e) {
    EdgePath& p = out.edges[e];
    const auto [k, le] = direct[e];
    if (k >= 0) {
      const auto& l = *laid[static_cast<size_t>(k)];
      const Vec2 o = origin[static_cast<size_t>(k)];
      for (Vec2 q : l.splines[static_cast<size_t>(le)]) p.bezier.push_back({q.x + o.x, q.y + o.y});
      if (const auto& tip = l.arrow_tips[static_cast<size_t>(le)]) {
        p.has_arrow = true;
        p.arrow_tip = {tip->x + o.x, tip->y + o.y};
      }
    }
    if (p.bezier.size() < 4) {
      p.bezier.clear();
      plain_edge(p, out.items[static_cast<size_t>(scene.edges[e].from)],
                 out.items[static_cast<size_t>(scene.edges[e].to)]);
    }
    p.bounds = {1e30f, 1e30f, -1e30f, -1e30f};
    for (Vec2 q : p.bezier) grow(p.bounds, q);
    if (p.has_arrow) grow(p.bounds, p.arrow_tip);
  }
  out.edge_labels = place_edge_labels(scene, out);
  out.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace tfjsi::viewers
