#include "graph_layout.h"

#include <gvc.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>
#include <stdexcept>
#include <string>

namespace tfjsi::viewers {
namespace {

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

}  // namespace

Layout compute_layout(const Scene& scene, const std::vector<Vec2>& item_sizes,
                      float cluster_label_height) {
  std::lock_guard lock(graphviz_lock());
  auto start = std::chrono::steady_clock::now();
  Layout out;
  Agraph_t* g = agopen(const_cast<char*>("scene"), Agdirected, nullptr);
  set(g, "rankdir", "TB");
  set(g, "nodesep", "0.25");
  set(g, "ranksep", "0.4");
  set(g, "splines", "spline");

  std::vector<Agraph_t*> subs(scene.clusters.size(), nullptr);
  for (std::size_t c = 0; c < scene.clusters.size(); ++c) {
    const auto& cl = scene.clusters[c];
    Agraph_t* parent = cl.parent >= 0 ? subs[static_cast<size_t>(cl.parent)] : g;
    std::string name = "cluster_" + std::to_string(c);
    subs[c] = agsubg(parent, const_cast<char*>(name.c_str()), 1);
    // An empty label would let dot put the header over nodes; a blank line the height of our
    // header reserves the room we draw it in.
    set(subs[c], "label", " ");
    set(subs[c], "margin", "8");
    set(subs[c], "fontsize", std::to_string(cluster_label_height * 0.8f));
  }

  std::vector<Agnode_t*> nodes(scene.items.size(), nullptr);
  for (std::size_t i = 0; i < scene.items.size(); ++i) {
    std::string name = "n" + std::to_string(i);
    Agnode_t* n = agnode(g, const_cast<char*>(name.c_str()), 1);
    set(n, "shape", "box");
    set(n, "fixedsize", "true");
    set(n, "label", "");
    set(n, "width", std::to_string(item_sizes[i].x / 72.0));
    set(n, "height", std::to_string(item_sizes[i].y / 72.0));
    // Put the node into its cluster and every cluster around it.
    std::vector<int> chain;
    for (int c = scene.items[i].cluster; c >= 0; c = scene.clusters[static_cast<size_t>(c)].parent)
      chain.push_back(c);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it)
      agsubnode(subs[static_cast<size_t>(*it)], n, 1);
    nodes[i] = n;
  }
  std::vector<Agedge_t*> edges(scene.edges.size(), nullptr);
  for (std::size_t e = 0; e < scene.edges.size(); ++e) {
    const auto& se = scene.edges[e];
    std::string name = "e" + std::to_string(e);
    edges[e] = agedge(g, nodes[static_cast<size_t>(se.from)], nodes[static_cast<size_t>(se.to)],
                      const_cast<char*>(name.c_str()), 1);
  }

  if (gvLayout(context(), g, "dot") != 0) {
    agclose(g);
    throw std::runtime_error("graphviz could not lay out the graph");
  }
  const boxf bb = GD_bb(g);
  auto flip = [&](pointf p) {
    return Vec2{static_cast<float>(p.x - bb.LL.x), static_cast<float>(bb.UR.y - p.y)};
  };
  out.bounds = {0, 0, static_cast<float>(bb.UR.x - bb.LL.x), static_cast<float>(bb.UR.y - bb.LL.y)};
  out.items.resize(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    Vec2 c = flip(ND_coord(nodes[i]));
    float w = static_cast<float>(ND_width(nodes[i]) * 36.0),
          h = static_cast<float>(ND_height(nodes[i]) * 36.0);
    out.items[i] = {c.x - w, c.y - h, c.x + w, c.y + h};
  }
  out.edges.resize(edges.size());
  for (std::size_t e = 0; e < edges.size(); ++e) {
    EdgePath& p = out.edges[e];
    p.bounds = {1e30f, 1e30f, -1e30f, -1e30f};
    const splines* spl = ED_spl(edges[e]);
    if (spl && spl->size > 0) {
      const bezier& bz = spl->list[0];
      for (int k = 0; k < bz.size; ++k) {
        p.bezier.push_back(flip(bz.list[k]));
        grow(p.bounds, p.bezier.back());
      }
      if (bz.eflag) {
        p.has_arrow = true;
        p.arrow_tip = flip(bz.ep);
        grow(p.bounds, p.arrow_tip);
      }
    }
    if (p.bezier.empty()) {
      // dot leaves no path when it gives up on an edge; draw it straight.
      const auto& a = out.items[static_cast<size_t>(scene.edges[e].from)];
      const auto& b = out.items[static_cast<size_t>(scene.edges[e].to)];
      Vec2 p0{a.center().x, a.y1}, p1{b.center().x, b.y0};
      p.bezier = {p0, p0, p1, p1};
      grow(p.bounds, p0);
      grow(p.bounds, p1);
    }
  }
  out.clusters.resize(subs.size());
  for (std::size_t c = 0; c < subs.size(); ++c) {
    const boxf cb = GD_bb(subs[c]);
    Vec2 a = flip(cb.LL), b = flip(cb.UR);
    out.clusters[c] = {std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x),
                       std::max(a.y, b.y)};
  }
  gvFreeLayout(context(), g);
  agclose(g);
  out.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace tfjsi::viewers
