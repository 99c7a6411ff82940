// The graph canvas: a model's graph laid out by graphviz dot, drawn with Dear ImGui inside a
// QOpenGLWidget. Pan (drag), zoom (wheel, around the cursor), fit (F), select (click), find
// (Ctrl+F, Enter for the next match), move along edges (arrow keys), name scopes as groups that
// open and close (double-click), Const nodes hidden unless asked for.
// One class in files by job: graph_view.cpp (state, layout, selection and find),
// graph_view_input.cpp (pointer and keys), graph_view_draw.cpp (the canvas),
// graph_view_overlays.cpp (toolbar, legend, status line); export goes through graph_png.h and
// svg_export.h. Its own colours are graph_palette.h's.
#pragma once

#include <QRectF>
#include <QString>
#include <QStringList>
#include <QThreadPool>
#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "graph/ir.h"
#include "graph_layout.h"
#include "graph_scene.h"
#include "imgui_widget.h"
#include "node_colouring.h"

struct ImDrawList;

namespace tfjsi::viewers {

class GraphView : public ImGuiWidget {
  Q_OBJECT
 public:
  explicit GraphView(QWidget* parent = nullptr);
  ~GraphView() override;

  // Shows `graph` (nullptr clears the view). The view keeps the graph alive.
  void set_graph(std::shared_ptr<const graph::Graph> graph);
  const graph::Graph* graph() const { return graph_.get(); }

  bool show_const() const { return show_const_; }
  void set_show_const(bool show);
  void expand_all();
  void collapse_all();
  // Opens or closes the group with this scope path.
  void set_group_open(const std::string& path, bool open);

  // Selects a node (-1: none), opening the groups around it; `center` scrolls it into view.
  void select_node(int node, bool center = true);
  int selected_node() const { return selected_node_; }
  int find_node(const QString& name) const;

  void fit();               // the whole graph
  void fit(bool readable);  // readable: a long graph is shown from its top at a legible zoom
  void open_find();
  void set_find_text(const QString& text);
  QString find_text() const { return find_text_; }
  // Selects the next node whose name or op contains the find text; false when none does.
  bool find_next();

  bool layout_pending() const { return outstanding_ > 0; }
  bool has_layout() const { return layout_ != nullptr; }
  // Where a node's box (or the group box showing it) is on the widget, when laid out.
  std::optional<QPoint> node_position(int node) const;
  // True when the node is drawn as its own box (not hidden, not inside a closed group).
  bool node_has_own_box(int node) const;
  // True when a widget position is covered by the toolbar or the legend.
  bool over_overlay(QPoint widget_pos) const { return over_overlay(QPointF(widget_pos)); }
  int visible_box_count() const { return scene_ ? static_cast<int>(scene_->items.size()) : 0; }
  double last_layout_ms() const { return layout_ ? layout_->milliseconds : 0.0; }
  // What the layout says about itself (groups too big for dot, laid out the simple way).
  QStringList layout_notes() const;
  float zoom() const { return zoom_; }
  // In the last frame: node boxes on screen, and how many of them carried a label (their op
  // and name near, a short op label further out).
  int boxes_on_screen() const { return boxes_on_screen_; }
  int labelled_boxes() const { return labelled_boxes_; }
  // The laid-out scene on show (null before the first layout).
  const Scene* scene() const { return scene_.get(); }
  const Layout* layout() const { return layout_.get(); }
  void pan_by(float dx, float dy);

  // Colouring after a run. Keys are graph node names (graph::Node::name); names the graph does
  // not hold are ignored (counted in colouring().unmatched()). The legend explains the colours.
  // Collapsed groups: with values, a group takes the colour of its largest member value (the
  // slowest node, the largest error); with categories, a group whose members share one category
  // takes its colour, a mixed group is drawn as bands in proportion to its members' categories.
  // One colour per category (gl, xnnpack and cpu always keep theirs); legend with counts.
  void set_node_categories(const QString& title,
                           const std::unordered_map<std::string, std::string>& category_by_node);
  // A continuous scale over the finite values (log10 when log_scale, which places values <= 0 at
  // its low end, as it does values below `floor`: the legend then says "<=" at that end); nodes
  // without a value are grey, NaN and inf magenta. Legend: a colour bar with the range.
  void set_node_values(const QString& title,
                       const std::unordered_map<std::string, double>& value_by_node, bool log_scale,
                       double floor = 0);
  // Marks a value on the scale of set_node_values (a tolerance): a tick on the legend's colour
  // bar, with `label` and the count of nodes past it. The next colouring clears it.
  void set_value_mark(double value, const QString& label);
  void clear_node_colouring();  // back to op families
  const NodeColouring& colouring() const { return colouring_; }
  // The fill of the box showing a node (its own or its group's), once laid out; empty if none.
  std::vector<FillBand> box_fill_of_node(int node) const;
  bool legend_collapsed() const { return legend_collapsed_; }
  void set_legend_collapsed(bool collapsed);
  // The legend's rectangle on the widget (empty before the first frame).
  QRectF legend_rect() const { return legend_rect_; }
  // Moves the legend by (dx, dy) pixels, as dragging its title bar does; it stays on the canvas.
  void move_legend(float dx, float dy);
  // Where a node's box is on the widget (its own box or its group's), once laid out.
  std::optional<QRectF> node_screen_rect(int node) const;

  // The whole graph as the view colours it, with its legend and without the toolbar and status
  // line. Throw std::runtime_error naming the file when it cannot be written (or the graph is
  // too big for a readable PNG); export_png returns a note when it drew the graph smaller.
  QString export_png(const QString& file);
  void export_svg(const QString& file);

 signals:
  void nodeSelected(int node);  // -1: nothing (or a group) selected
  // A group was selected, or the selected group was opened or closed.
  void groupSelected(const QString& path, int node_count, bool open);
  void layoutReady();
  void layoutFailed(const QString& message);
  void showConstChanged(bool show);

 protected:
  void draw_frame() override;
  void imgui_ready() override;
  void mousePressEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  void resizeGL(int w, int h) override;

 private:
  void rebuild_tree();
  void request_layout();
  void adopt(std::shared_ptr<const Scene> scene, std::shared_ptr<const Layout> layout);
  std::vector<Vec2> item_sizes(const Scene& scene) const;
  std::vector<float> cluster_title_widths(const Scene& scene) const;
  std::string cache_key() const;
  int item_at(QPointF widget_pos) const;
  int cluster_header_at(QPointF widget_pos) const;
  bool over_overlay(QPointF widget_pos) const;
  void center_on_item(int item);
  void toggle_item(int item);
  void navigate(int key);
  int selected_item() const;
  void select_item(int item);
  bool matches(int node) const;

  Vec2 to_screen(Vec2 w) const { return {w.x * zoom_ + pan_.x, w.y * zoom_ + pan_.y}; }
  Vec2 to_world(Vec2 s) const { return {(s.x - pan_.x) / zoom_, (s.y - pan_.y) / zoom_}; }

  void draw_canvas();
  void draw_toolbar();
  void draw_legend();
  void draw_status();
  void draw_value_legend();
  void draw_category_legend();
  void refresh_fills();
  void draw_group_labels(ImDrawList* dl);
  void draw_far_node_labels(ImDrawList* dl);
  void tooltip_colouring(const SceneItem& it);
  void swatch(std::uint32_t color);
  void keep_selection_clear_of_legend();

  std::shared_ptr<const graph::Graph> graph_;
  std::unique_ptr<ScopeTree> tree_;
  std::set<std::string> open_;
  bool show_const_ = false;

  std::shared_ptr<const Scene> scene_;
  std::shared_ptr<const Layout> layout_;
  std::map<std::string, std::pair<std::shared_ptr<const Scene>, std::shared_ptr<const Layout>>>
      cache_;
  int outstanding_ = 0;  // layout jobs sent to the pool and not yet back
  std::shared_ptr<std::atomic<int>> generation_ = std::make_shared<std::atomic<int>>(0);
  bool layout_wanted_ = false;  // asked for before the GL context (and fonts) existed

  Vec2 pan_{0, 0};
  float zoom_ = 1.0f;
  bool fit_on_next_layout_ = true;
  int center_on_next_layout_ = -1;  // graph node to bring into view when its layout arrives
  std::string anchor_group_;        // a group just toggled: keep it where it was on screen
  Vec2 anchor_screen_{0, 0};

  int selected_node_ = -1;
  std::string selected_group_;

  bool find_active_ = false;
  QString find_text_;
  int match_count_ = 0;

  bool dragging_ = false;
  bool left_down_ = false;
  QPointF press_pos_, last_pos_;
  std::vector<RectF> overlay_rects_;

  NodeColouring colouring_;
  std::vector<std::vector<FillBand>> fills_;  // per scene item, from colouring_
  bool legend_collapsed_ = false;
  bool legend_collapse_changed_ = false;
  QRectF legend_rect_;
  Vec2 legend_offset_{0, 0};  // from its place at the top right, where the user dragged it
  bool legend_dragging_ = false;
  // After a colouring change or a jump: once the legend is drawn, move the view if it covers
  // the selected node.
  bool legend_check_pending_ = false;
  struct GroupLabel {
    float weight = 0;  // nodes inside: bigger groups are labelled first
    int index = -1;    // scene item (is_item) or cluster
    bool is_item = false;
  };
  std::vector<GroupLabel> labels_;  // reused each frame, not reallocated
  std::vector<int> far_labels_;     // scene items to give a short op label this frame
  int boxes_on_screen_ = 0, labelled_boxes_ = 0;
  std::vector<RectF> placed_;
  std::vector<char> match_of_node_;  // per graph node: matches the find text
  float legend_width_ = 190.0f;      // last drawn width: fit keeps this much room on the right
  QThreadPool pool_;
};

}  // namespace tfjsi::viewers
