// The graph canvas coloured after a run, on a real corpus model (facemesh-attention, 2140 nodes):
// by a category per node (a backend), by a value per node on a continuous scale, and back to op
// families; collapsed groups take their members' colours by the documented rule; the legend
// never covers a fitted graph. Needs a display (xvfb-run).
#include <QtTest>

#include <map>

#include "graph/build.h"
#include "graph_view.h"
#include "gui_test_main.h"
#include "model/bundle.h"
#include "op_family.h"
#include "support/test_support.h"

using namespace tfjsi;
using namespace tfjsi::viewers;

namespace {

constexpr int kLayoutTimeoutMs = 120000;

// A box on the screen identifies the item drawing it: nodes sharing one are in one group.
using BoxKey = std::tuple<int, int, int, int>;
BoxKey key_of(const QRectF& r) {
  return {qRound(r.left() * 4), qRound(r.top() * 4), qRound(r.right() * 4), qRound(r.bottom() * 4)};
}

}  // namespace

class GraphColouringTest : public QObject {
  Q_OBJECT
 private:
  std::shared_ptr<const graph::Graph> graph_;
  std::unique_ptr<GraphView> view_;

  void save(const QString& name) {
    QImage img = view_->grabFramebuffer();
    QVERIFY(img.save(QDir::current().filePath(name)));
  }

  // Boxes drawing more than one node (collapsed groups) and the nodes in each.
  std::map<BoxKey, std::vector<int>> group_boxes() const {
    std::map<BoxKey, std::vector<int>> out;
    for (int n = 0; n < static_cast<int>(graph_->nodes.size()); ++n) {
      auto r = view_->node_screen_rect(n);
      if (r && !view_->node_has_own_box(n)) out[key_of(*r)].push_back(n);
    }
    return out;
  }

 private slots:
  void initTestCase() {
    auto bundle = model::load_bundle(test::corpus_model("facemesh-attention"));
    graph_ = std::make_shared<const graph::Graph>(graph::build_graph(bundle));
    view_ = std::make_unique<GraphView>();
    view_->resize(1300, 850);
    view_->show();
    QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
    view_->set_graph(graph_);
    QTRY_VERIFY_WITH_TIMEOUT(view_->has_layout() && !view_->layout_pending(), kLayoutTimeoutMs);
    QVERIFY2(!group_boxes().empty(), "the model should open with some groups collapsed");
  }

  void categoriesColourNodesAndGroups() {
    // A plausible partition: convolutions on gl, elementwise ops on xnnpack, the rest on cpu.
    std::unordered_map<std::string, std::string> backend;
    std::map<std::string, int> expected_counts;
    for (const auto& n : graph_->nodes) {
      if (n.op == "Const") continue;
      const OpFamily f = op_family(n.op);
      std::string b = f == OpFamily::Conv ? "gl" : f == OpFamily::Elementwise ? "xnnpack" : "cpu";
      backend[n.name] = b;
      ++expected_counts[b];
    }
    backend["no/such/node"] = "gl";
    view_->set_node_categories("backend", backend);
    const auto& c = view_->colouring();
    QCOMPARE(c.mode(), NodeColouring::Mode::Categories);
    QCOMPARE(c.unmatched(), 1);
    QCOMPARE(c.categories().size(), std::size_t(3));
    std::set<std::uint32_t> colors;
    std::map<std::string, std::uint32_t> color_of;
    for (const auto& cat : c.categories()) {
      QCOMPARE(cat.count, expected_counts[cat.name]);
      colors.insert(cat.color);
      color_of[cat.name] = cat.color;
    }
    QCOMPARE(colors.size(), std::size_t(3));
    QVERIFY(!colors.contains(NodeColouring::kNoValue));

    // Own boxes: their node's category.
    int own = 0;
    for (int n = 0; n < static_cast<int>(graph_->nodes.size()); ++n) {
      if (!view_->node_has_own_box(n)) continue;
      auto fill = view_->box_fill_of_node(n);
      QCOMPARE(fill.size(), std::size_t(1));
      QCOMPARE(fill[0].color, color_of.at(backend.at(graph_->nodes[static_cast<size_t>(n)].name)));
      ++own;
    }
    QVERIFY(own > 50);
    // Groups: one colour when the members agree, else bands in proportion to them.
    int mixed = 0;
    for (const auto& [box, members] : group_boxes()) {
      std::map<std::uint32_t, int> count;
      for (int n : members)
        ++count[color_of.at(backend.at(graph_->nodes[static_cast<size_t>(n)].name))];
      auto fill = view_->box_fill_of_node(members.front());
      QCOMPARE(fill.size(), count.size());
      float sum = 0;
      for (const auto& band : fill) {
        QVERIFY(count.contains(band.color));
        QVERIFY(std::abs(band.share - static_cast<float>(count[band.color]) /
                                          static_cast<float>(members.size())) < 1e-5f);
        sum += band.share;
      }
      QVERIFY(std::abs(sum - 1.0f) < 1e-5f);
      if (fill.size() > 1) ++mixed;
    }
    QVERIFY(mixed > 0);
    QTest::qWait(100);
    save("graph_colouring_backend.png");
  }

  void valuesColourOnAScale() {
    // A real per-node figure: the element count of the first output where shape inference
    // knows its rank; the other nodes get no value and must be grey.
    std::unordered_map<std::string, double> elements;
    for (const auto& n : graph_->nodes) {
      if (n.op == "Const" || n.outputs.empty() || !n.outputs[0].shape.rank_known) continue;
      // An unknown dim (the batch) counts as 1, as the tfjsi contract makes it.
      double e = 1;
      for (auto d : n.outputs[0].shape.dims) e *= d < 0 ? 1.0 : static_cast<double>(d);
      elements[n.name] = e;
    }
    QVERIFY(elements.size() > 100);
    view_->set_node_values("output elements", elements, /*log_scale=*/true);
    const auto& c = view_->colouring();
    QCOMPARE(c.mode(), NodeColouring::Mode::Values);
    double lo = 1e300, hi = 0;
    for (const auto& [name, v] : elements)
      if (v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
    QCOMPARE(c.min_value(), lo);
    QCOMPARE(c.max_value(), hi);
    QCOMPARE(c.without_value(), static_cast<int>(graph_->nodes.size() - elements.size()));

    int checked = 0, grey = 0;
    for (int n = 0; n < static_cast<int>(graph_->nodes.size()); ++n) {
      if (!view_->node_has_own_box(n)) continue;
      auto fill = view_->box_fill_of_node(n);
      QCOMPARE(fill.size(), std::size_t(1));
      auto it = elements.find(graph_->nodes[static_cast<size_t>(n)].name);
      if (it == elements.end()) {
        QCOMPARE(fill[0].color, NodeColouring::kNoValue);
        ++grey;
      } else {
        // Where the value sits on the log scale between the smallest and largest value.
        const double t =
            (std::log10(it->second) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
        QCOMPARE(fill[0].color, NodeColouring::scale_color(static_cast<float>(t)));
        ++checked;
      }
    }
    QVERIFY(checked > 50);
    // A group takes the colour of its largest member.
    for (const auto& [box, members] : group_boxes()) {
      double worst = -1;
      int worst_node = -1;
      for (int n : members) {
        auto it = elements.find(graph_->nodes[static_cast<size_t>(n)].name);
        if (it != elements.end() && it->second > worst) worst = it->second, worst_node = n;
      }
      auto fill = view_->box_fill_of_node(members.front());
      QCOMPARE(fill.size(), std::size_t(1));
      QCOMPARE(fill[0].color,
               worst_node < 0 ? NodeColouring::kNoValue : c.node_color(*graph_, worst_node));
    }
    QTest::qWait(100);
    save("graph_colouring_values.png");
    Q_UNUSED(grey);
  }

  void clearGoesBackToFamilies() {
    view_->clear_node_colouring();
    QCOMPARE(view_->colouring().mode(), NodeColouring::Mode::Families);
    for (int n = 0; n < static_cast<int>(graph_->nodes.size()); ++n) {
      if (!view_->node_has_own_box(n)) continue;
      auto fill = view_->box_fill_of_node(n);
      QCOMPARE(fill.size(), std::size_t(1));
      QCOMPARE(fill[0].color, family_color(op_family(graph_->nodes[static_cast<size_t>(n)].op)));
    }
  }

  void legendNeverCoversTheFittedGraph() {
    view_->set_legend_collapsed(false);
    for (bool expanded : {false, true}) {
      if (expanded) {
        view_->expand_all();
        QTRY_VERIFY_WITH_TIMEOUT(view_->has_layout() && !view_->layout_pending(), kLayoutTimeoutMs);
      }
      view_->fit();
      QTest::qWait(100);
      QTRY_VERIFY(!view_->legend_rect().isEmpty());
      QVERIFY(!view_->legend_collapsed());
      const QRectF legend = view_->legend_rect();
      for (int n = 0; n < static_cast<int>(graph_->nodes.size()); ++n)
        if (auto r = view_->node_screen_rect(n))
          QVERIFY2(!r->intersects(legend),
                   qPrintable(QString("node %1 under the legend")
                                  .arg(QString::fromStdString(
                                      graph_->nodes[static_cast<size_t>(n)].name))));
    }
    save("graph_colouring_fit_expanded.png");
    // Folded, the legend is its title bar only.
    const double open_height = view_->legend_rect().height();
    view_->set_legend_collapsed(true);
    QTRY_VERIFY(view_->legend_rect().height() < open_height / 3);
  }
};

int main(int argc, char** argv) {
  return tfjsi::test::run_gui_suite<GraphColouringTest>(argc, argv, "tfjs-inspector-test");
}
#include "graph_colouring_test.moc"
