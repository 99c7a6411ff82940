// The graph canvas's model of a graph: name scopes as groups, boxes and edges for a set of open
// groups, Const nodes hidden, and the dot layout of the result.
#include <QtTest>

#include "graph_layout.h"
#include "graph_scene.h"
#include "support/test_support.h"
#include "svg_export.h"

using namespace tfjsi;
using namespace tfjsi::viewers;

namespace {

// A small graph: input -> scope "net/block1" (conv, relu) -> "net/block2" (conv, relu) -> out,
// with one Const weight per conv, and a lone node in "net/single".
graph::Graph sample() {
  graph::Graph g;
  auto add = [&](std::string name, std::string op, std::vector<int> inputs) {
    graph::Node n;
    n.name = std::move(name);
    n.op = std::move(op);
    for (int i : inputs) n.inputs.push_back({i, 0});
    graph::TensorInfo info;
    info.dtype = DType::Float32;
    info.shape = PartialShape::of({1, 8, 8, 4});
    n.outputs.push_back(info);
    g.nodes.push_back(std::move(n));
    return static_cast<int>(g.nodes.size()) - 1;
  };
  int in = add("input", "Placeholder", {});
  int w1 = add("net/block1/w", "Const", {});
  int c1 = add("net/block1/conv", "Conv2D", {in, w1});
  int r1 = add("net/block1/relu", "Relu", {c1});
  int w2 = add("net/block2/w", "Const", {});
  int c2 = add("net/block2/conv", "Conv2D", {r1, w2});
  int r2 = add("net/block2/relu", "Relu", {c2});
  int s = add("net/single/sigmoid", "Sigmoid", {r2});
  add("out", "Identity", {s});
  g.rebuild_index();
  return g;
}

}  // namespace

class GraphSceneTest : public QObject {
  Q_OBJECT
 private slots:
  void scopesBecomeGroups() {
    const auto g = sample();
    ScopeTree tree(g, /*show_const=*/false);
    QCOMPARE(tree.visible_node_count(), 7);  // 9 nodes, 2 Const hidden
    QVERIFY(!tree.node_visible(g.find("net/block1/w")));
    // "net" holds block1, block2 and the sigmoid (its one-node scope "single" is dissolved).
    const int net = tree.find_group("net");
    QVERIFY(net > 0);
    QCOMPARE(tree.groups()[static_cast<size_t>(net)].total_nodes, 5);
    QCOMPARE(tree.find_group("net/single"), -1);
    QCOMPARE(tree.group_of_node(g.find("net/single/sigmoid")), net);
    const int b1 = tree.find_group("net/block1");
    QVERIFY(b1 > 0);
    QCOMPARE(tree.groups()[static_cast<size_t>(b1)].parent, net);
    QCOMPARE(tree.group_of_node(g.find("input")), 0);
  }

  void chainsMerge() {
    graph::Graph g;
    for (std::string n : {"a/b/c/x", "a/b/c/y", "z"}) {
      graph::Node node;
      node.name = n;
      node.op = "Relu";
      g.nodes.push_back(node);
    }
    g.rebuild_index();
    ScopeTree tree(g, false);
    // a and a/b hold nothing but the next scope: one group, labelled with the whole chain.
    QCOMPARE(tree.groups().size(), size_t{2});
    QCOMPARE(tree.groups()[1].path, std::string("a/b/c"));
    QCOMPARE(tree.groups()[1].label, std::string("a/b/c"));
  }

  void closedGroupIsOneBox() {
    const auto g = sample();
    ScopeTree tree(g, false);
    Scene closed = build_scene(g, tree, {});
    QCOMPARE(closed.items.size(), size_t{3});  // input, net, out
    QCOMPARE(closed.edges.size(), size_t{2});
    const int net_item = closed.item_of_node[static_cast<size_t>(g.find("net/block2/conv"))];
    QVERIFY(closed.items[static_cast<size_t>(net_item)].is_group);

    Scene open = build_scene(g, tree, {"net"});
    QCOMPARE(open.clusters.size(), size_t{1});
    // input, block1, block2, sigmoid, out
    QCOMPARE(open.items.size(), size_t{5});
    Scene all = build_scene(g, tree, {"net", "net/block1", "net/block2"});
    QCOMPARE(all.items.size(), size_t{7});
    QCOMPARE(all.edges.size(), size_t{6});
    // Edge labels carry the producer's shape.
    QCOMPARE(all.edges[0].label, std::string("[1,8,8,4]"));
  }

  void constToggle() {
    const auto g = sample();
    ScopeTree with(g, true);
    QCOMPARE(with.visible_node_count(), 9);
    Scene s = build_scene(g, with, {"net", "net/block1", "net/block2"});
    QCOMPARE(s.items.size(), size_t{9});
    QCOMPARE(s.edges.size(), size_t{8});
  }

  void initialOpenRespectsBudget() {
    // A small graph opens whole: a few boxes are never worth hiding.
    const auto small = sample();
    QCOMPARE(ScopeTree(small, false).initial_open(3).size(), size_t{3});

    // 40 two-node scopes, all inside one wrapping scope, as converted Keras models are.
    graph::Graph g;
    for (int i = 0; i < 40; ++i)
      for (std::string leaf : {"a", "b"}) {
        graph::Node n;
        n.name = "wrap/s" + std::to_string(i) + "/" + leaf;
        n.op = "Relu";
        g.nodes.push_back(n);
      }
    g.rebuild_index();
    ScopeTree tree(g, false);
    auto open = tree.initial_open(45);
    // The wrapper opens (one box says nothing), giving 40 boxes; each further scope adds one.
    QVERIFY(open.contains("wrap"));
    QCOMPARE(open.size(), size_t{1 + 5});
    Scene s = build_scene(g, tree, open);
    QCOMPARE(s.items.size(), size_t{45});
  }

  void layoutPlacesEveryBoxTopDown() {
    const auto g = sample();
    ScopeTree tree(g, false);
    Scene s = build_scene(g, tree, {"net", "net/block1", "net/block2"});
    std::vector<Vec2> sizes(s.items.size(), Vec2{80, 36});
    Layout l = compute_layout(s, sizes, 18);
    QCOMPARE(l.items.size(), s.items.size());
    QCOMPARE(l.edges.size(), s.edges.size());
    QCOMPARE(l.clusters.size(), s.clusters.size());
    for (const auto& r : l.items) {
      QVERIFY(std::abs((r.x1 - r.x0) - 80) < 1);
      QVERIFY(r.x0 >= l.bounds.x0 - 1 && r.y1 <= l.bounds.y1 + 1);
    }
    // Top to bottom: every edge goes down the page.
    for (const auto& e : s.edges)
      QVERIFY(l.items[static_cast<size_t>(e.from)].center().y <
              l.items[static_cast<size_t>(e.to)].center().y);
    for (const auto& p : l.edges) QVERIFY(p.bezier.size() >= 4 && (p.bezier.size() - 1) % 3 == 0);
    // Each cluster holds its boxes.
    for (std::size_t i = 0; i < s.items.size(); ++i)
      if (s.items[i].cluster >= 0) {
        const auto& c = l.clusters[static_cast<size_t>(s.items[i].cluster)];
        QVERIFY(c.contains(l.items[i].center()));
      }

    test::TempDir dir;
    write_svg(dir.path / "g.svg", s, l, 0);
    QFile f(QString::fromStdString((dir.path / "g.svg").string()));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray svg = f.readAll();
    QVERIFY(svg.startsWith("<?xml"));
    QCOMPARE(svg.count("class=\"node\""), static_cast<qsizetype>(s.items.size()));
    QCOMPARE(svg.count("<path "), static_cast<qsizetype>(s.edges.size()));
    QVERIFY(svg.contains(">Conv2D<"));
  }

  // Closed groups can close a cycle: input -> g/x -> a -> b -> g/y -> out, with g closed, is
  // g -> a -> b -> g. Every edge must still run from its source box to its target box, and the
  // layout must not reach graphviz's cycle breaking (which leaks; the sanitizer pass sees it).
  void cycleThroughClosedGroupKeepsDirections() {
    graph::Graph g;
    auto add = [&](std::string name, std::vector<int> inputs) {
      graph::Node n;
      n.name = std::move(name);
      n.op = "Relu";
      for (int i : inputs) n.inputs.push_back({i, 0});
      n.outputs.push_back({DType::Float32, PartialShape::of({1, 4})});
      g.nodes.push_back(std::move(n));
      return static_cast<int>(g.nodes.size()) - 1;
    };
    const int in = add("input", {});
    const int x = add("g/x", {in});
    const int a = add("a", {x});
    const int b = add("b", {a});
    const int y = add("g/y", {b});
    add("out", {y});
    g.rebuild_index();
    ScopeTree tree(g, false);
    Scene s = build_scene(g, tree, {});
    QCOMPARE(s.items.size(), size_t{5});  // input, g, a, b, out
    QCOMPARE(s.edges.size(), size_t{5});
    std::vector<Vec2> sizes(s.items.size(), Vec2{80, 36});
    Layout l = compute_layout(s, sizes, 18);
    auto near = [](const RectF& r, Vec2 p) {
      return RectF{r.x0 - 3, r.y0 - 3, r.x1 + 3, r.y1 + 3}.contains(p);
    };
    for (std::size_t e = 0; e < s.edges.size(); ++e) {
      const EdgePath& p = l.edges[e];
      QVERIFY(p.bezier.size() >= 4);
      const RectF& from = l.items[static_cast<size_t>(s.edges[e].from)];
      const RectF& to = l.items[static_cast<size_t>(s.edges[e].to)];
      QVERIFY2(near(from, p.bezier.front()),
               qPrintable(QString("edge %1 starts off its source").arg(e)));
      QVERIFY(p.has_arrow);
      QVERIFY2(near(to, p.arrow_tip), qPrintable(QString("edge %1 points off its target").arg(e)));
    }
  }
};

QTEST_GUILESS_MAIN(GraphSceneTest)
#include "graph_scene_test.moc"
