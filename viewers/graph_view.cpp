#include "graph_view.h"

#include <QImage>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "graph_png.h"
#include "graph_style.h"
#include "svg_export.h"

namespace tfjsi::viewers {
namespace {

std::string to_lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

GraphView::GraphView(QWidget* parent) : ImGuiWidget(parent) {
  pool_.setMaxThreadCount(1);  // graphviz is not reentrant; one layout at a time
  setMinimumSize(320, 240);
  setAcceptDrops(false);  // drops go to the main window
}

GraphView::~GraphView() {
  generation_->fetch_add(1);  // queued jobs see they are stale and return at once
  pool_.waitForDone();
}

void GraphView::set_graph(std::shared_ptr<const graph::Graph> graph) {
  graph_ = std::move(graph);
  colouring_.clear();
  fills_.clear();
  cache_.clear();
  scene_.reset();
  layout_.reset();
  selected_node_ = -1;
  selected_group_.clear();
  fit_on_next_layout_ = true;
  center_on_next_layout_ = -1;
  anchor_group_.clear();
  open_.clear();
  tree_.reset();
  if (graph_) {
    rebuild_tree();
    if (tree_->visible_node_count() > kCollapseBudget) {
      open_ = tree_->initial_open(kCollapseBudget);
    } else {
      for (const auto& g : tree_->groups())
        if (!g.path.empty()) open_.insert(g.path);
    }
    request_layout();
  }
  set_find_text(find_text_);
  request_frames();
}

void GraphView::rebuild_tree() {
  tree_ = std::make_unique<ScopeTree>(*graph_, show_const_);
}

void GraphView::set_show_const(bool show) {
  if (show == show_const_) return;
  show_const_ = show;
  emit showConstChanged(show);
  if (!graph_) return;
  rebuild_tree();
  if (selected_node_ >= 0 && !tree_->node_visible(selected_node_)) {
    selected_node_ = -1;
    emit nodeSelected(-1);
  }
  request_layout();
}

void GraphView::expand_all() {
  if (!tree_) return;
  for (const auto& g : tree_->groups())
    if (!g.path.empty()) open_.insert(g.path);
  fit_on_next_layout_ = true;
  request_layout();
}

void GraphView::collapse_all() {
  if (!tree_) return;
  open_.clear();
  fit_on_next_layout_ = true;
  request_layout();
}

void GraphView::set_group_open(const std::string& path, bool open) {
  if (!tree_) return;
  if (open == open_.contains(path)) return;
  if (open)
    open_.insert(path);
  else
    open_.erase(path);
  if (path == selected_group_)
    if (const int g = tree_->find_group(path); g >= 0)
      emit groupSelected(QString::fromStdString(path),
                         tree_->groups()[static_cast<size_t>(g)].total_nodes, open);
  request_layout();
}

std::string GraphView::cache_key() const {
  std::string key = show_const_ ? "c1" : "c0";
  for (const auto& p : open_) {
    key += '\n';
    key += p;
  }
  return key;
}

std::vector<Vec2> GraphView::item_sizes(const Scene& scene) const {
  make_imgui_current();
  return measure_items(scene, font(), bold_font());
}

std::vector<float> GraphView::cluster_title_widths(const Scene& scene) const {
  make_imgui_current();
  return measure_cluster_titles(scene, bold_font());
}

void GraphView::request_layout() {
  if (!graph_ || !tree_) return;
  if (!imgui_initialized()) {
    layout_wanted_ = true;
    return;
  }
  std::string key = cache_key();
  if (auto it = cache_.find(key); it != cache_.end()) {
    adopt(it->second.first, it->second.second);
    return;
  }
  auto scene = std::make_shared<const Scene>(build_scene(*graph_, *tree_, open_));
  auto sizes = item_sizes(*scene);
  auto titles = cluster_title_widths(*scene);
  const int gen = generation_->fetch_add(1) + 1;
  ++outstanding_;
  auto generation = generation_;
  pool_.start([this, scene, sizes = std::move(sizes), titles = std::move(titles), key, gen,
               generation] {
    std::shared_ptr<const Layout> layout;
    QString error;
    if (generation->load() == gen) {  // a newer request supersedes this one: skip the work
      try {
        layout =
            std::make_shared<const Layout>(compute_layout(*scene, sizes, kClusterHeader, titles));
      } catch (const std::exception& e) {
        error = QString::fromUtf8(e.what());
      }
    }
    // The destructor waits for the pool, so `this` is alive here; a queued call whose context
    // object has died is dropped by Qt.
    QMetaObject::invokeMethod(
        this,
        [this, scene, layout, key, error] {
          --outstanding_;
          if (!error.isEmpty()) {
            emit layoutFailed(error);
            return;
          }
          if (!layout) return;
          cache_[key] = {scene, layout};
          if (key == cache_key()) adopt(scene, layout);
        },
        Qt::QueuedConnection);
  });
  request_frames();
}

void GraphView::adopt(std::shared_ptr<const Scene> scene, std::shared_ptr<const Layout> layout) {
  scene_ = std::move(scene);
  layout_ = std::move(layout);
  refresh_fills();
  if (fit_on_next_layout_) {
    fit_on_next_layout_ = false;
    anchor_group_.clear();
    fit(/*readable=*/true);
  } else if (!anchor_group_.empty() && tree_) {
    // Keep the group the user just opened or closed under the cursor: its box (or its cluster)
    // goes where the old box was.
    int g = tree_->find_group(anchor_group_);
    std::optional<Vec2> top;
    if (g >= 0 && scene_->item_of_group[static_cast<size_t>(g)] >= 0) {
      const auto& r =
          layout_->items[static_cast<size_t>(scene_->item_of_group[static_cast<size_t>(g)])];
      top = Vec2{r.center().x, r.y0};
    } else {
      for (std::size_t c = 0; c < scene_->clusters.size(); ++c)
        if (scene_->clusters[c].group == g)
          top = Vec2{layout_->clusters[c].center().x, layout_->clusters[c].y0};
    }
    if (top) pan_ = {anchor_screen_.x - top->x * zoom_, anchor_screen_.y - top->y * zoom_};
    anchor_group_.clear();
  }
  if (center_on_next_layout_ >= 0) {
    int item = scene_->item_of_node[static_cast<size_t>(center_on_next_layout_)];
    center_on_next_layout_ = -1;
    if (item >= 0) center_on_item(item);
  }
  emit layoutReady();
  request_frames();
}

void GraphView::refresh_fills() {
  fills_.clear();
  if (graph_ && scene_) fills_ = colouring_.item_fills(*graph_, *scene_);
  legend_check_pending_ = true;
  request_frames();
}

void GraphView::set_node_categories(
    const QString& title, const std::unordered_map<std::string, std::string>& category_by_node) {
  if (!graph_) return;
  colouring_.set_categories(*graph_, title.toStdString(), category_by_node);
  refresh_fills();
}

void GraphView::set_node_values(const QString& title,
                                const std::unordered_map<std::string, double>& value_by_node,
                                bool log_scale, double floor) {
  if (!graph_) return;
  colouring_.set_values(*graph_, title.toStdString(), value_by_node, log_scale, floor);
  refresh_fills();
}

void GraphView::set_value_mark(double value, const QString& label) {
  colouring_.set_mark(value, label.toStdString());
  request_frames();
}

void GraphView::clear_node_colouring() {
  colouring_.clear();
  refresh_fills();
}

std::vector<FillBand> GraphView::box_fill_of_node(int node) const {
  if (!scene_ || node < 0 || static_cast<size_t>(node) >= scene_->item_of_node.size()) return {};
  const int item = scene_->item_of_node[static_cast<size_t>(node)];
  if (item < 0 || static_cast<size_t>(item) >= fills_.size()) return {};
  return fills_[static_cast<size_t>(item)];
}

std::optional<QRectF> GraphView::node_screen_rect(int node) const {
  if (!scene_ || !layout_ || node < 0 || static_cast<size_t>(node) >= scene_->item_of_node.size())
    return std::nullopt;
  const int item = scene_->item_of_node[static_cast<size_t>(node)];
  if (item < 0) return std::nullopt;
  const RectF& r = layout_->items[static_cast<size_t>(item)];
  Vec2 a = to_screen({r.x0, r.y0}), b = to_screen({r.x1, r.y1});
  return QRectF(QPointF(a.x, a.y), QPointF(b.x, b.y));
}

QStringList GraphView::layout_notes() const {
  QStringList out;
  if (layout_)
    for (const auto& n : layout_->notes) out << QString::fromStdString(n);
  return out;
}

void GraphView::set_legend_collapsed(bool collapsed) {
  if (collapsed == legend_collapsed_) return;
  legend_collapsed_ = collapsed;
  legend_collapse_changed_ = true;
  request_frames();
}

void GraphView::imgui_ready() {
  if (layout_wanted_) {
    layout_wanted_ = false;
    request_layout();
  }
}

void GraphView::resizeGL(int w, int h) {
  ImGuiWidget::resizeGL(w, h);
  if (layout_ && fit_on_next_layout_) fit(true);
}

void GraphView::fit() {
  fit(false);
}

void GraphView::fit(bool readable) {
  if (!layout_ || width() <= 0 || height() <= 0) return;
  const RectF& b = layout_->bounds;
  const float margin = 40.0f;
  const float top = 44.0f;  // the toolbar
  float w = std::max(1.0f, b.x1 - b.x0), h = std::max(1.0f, b.y1 - b.y0);
  // The legend's column on the right stays free (unless it is folded or the view is narrow).
  // A view too narrow to give the legend a column folds it to its title bar instead, which sits
  // in the top margin.
  if (graph_ && !legend_collapsed_ && static_cast<float>(width()) < 2.5f * legend_width_)
    set_legend_collapsed(true);
  const float legend = !graph_ || legend_collapsed_ ? 0.0f : legend_width_ + 8;
  float avail_w = static_cast<float>(width()) - 2 * margin - legend;
  float avail_h = static_cast<float>(height()) - 2 * margin - top;
  zoom_ = std::clamp(std::min(avail_w / w, avail_h / h), 0.02f, 1.5f);
  // A big graph fitted whole is boxes without labels: open it as Netron does, at a zoom where
  // every box shows its op and name, from its top where the inputs are, and let F show the
  // whole of it.
  if (readable) zoom_ = std::max(zoom_, kOpenZoom);
  float focus_x = b.x0 + w / 2;
  if (w * zoom_ > avail_w && !layout_->items.empty()) {
    // Wider than the view: centre on the boxes of the first screenful rather than on the middle
    // of the graph, which may hold nothing at its top.
    const float first_screen = b.y0 + avail_h / zoom_;
    float sum = 0;
    int n = 0;
    for (const RectF& r : layout_->items)
      if (r.y0 < first_screen) {
        sum += r.center().x;
        ++n;
      }
    if (n) focus_x = sum / static_cast<float>(n);
  }
  pan_.x = (static_cast<float>(width()) - legend) / 2 - focus_x * zoom_;
  // A tall graph starts at its top, where the inputs are; a small one is centred.
  if (h * zoom_ > avail_h)
    pan_.y = margin + top - b.y0 * zoom_;
  else
    pan_.y = top + (static_cast<float>(height()) - top) / 2 - (b.y0 + h / 2) * zoom_;
  request_frames();
}

void GraphView::pan_by(float dx, float dy) {
  pan_.x += dx;
  pan_.y += dy;
  request_frames(1);
}

void GraphView::center_on_item(int item) {
  if (!layout_ || item < 0) return;
  Vec2 c = layout_->items[static_cast<size_t>(item)].center();
  if (zoom_ < 0.6f) zoom_ = 0.8f;  // a found node should be readable
  // In the middle of what the legend leaves free, when it stands in its column on the right.
  const float legend =
      legend_collapsed_ || legend_offset_.x != 0 || legend_offset_.y != 0 ? 0 : legend_width_ + 8;
  pan_ = {(static_cast<float>(width()) - legend) / 2 - c.x * zoom_,
          static_cast<float>(height()) / 2 - c.y * zoom_};
  legend_check_pending_ = true;
  request_frames();
}

int GraphView::find_node(const QString& name) const {
  return graph_ ? graph_->find(name.toStdString()) : -1;
}

void GraphView::select_node(int node, bool center) {
  if (!graph_ || node >= static_cast<int>(graph_->nodes.size())) return;
  selected_group_.clear();
  selected_node_ = node;
  if (node >= 0 && tree_ && tree_->node_visible(node)) {
    bool opened = false;
    for (const auto& path : tree_->ancestors_of_node(node))
      if (open_.insert(path).second) opened = true;
    if (opened) {
      if (center) center_on_next_layout_ = node;
      request_layout();
    } else if (center && scene_) {
      center_on_item(scene_->item_of_node[static_cast<size_t>(node)]);
    }
    // A layout still on its way would move the view again: centre once it lands.
    if (center && outstanding_ > 0) center_on_next_layout_ = node;
  }
  emit nodeSelected(node);
  request_frames();
}

int GraphView::selected_item() const {
  if (!scene_) return -1;
  if (!selected_group_.empty() && tree_) {
    int g = tree_->find_group(selected_group_);
    return g >= 0 ? scene_->item_of_group[static_cast<size_t>(g)] : -1;
  }
  if (selected_node_ >= 0 && static_cast<size_t>(selected_node_) < scene_->item_of_node.size())
    return scene_->item_of_node[static_cast<size_t>(selected_node_)];
  return -1;
}

void GraphView::select_item(int item) {
  if (!scene_ || item < 0) return;
  const auto& it = scene_->items[static_cast<size_t>(item)];
  if (it.is_group) {
    const auto& g = tree_->groups()[static_cast<size_t>(it.index)];
    selected_node_ = -1;
    selected_group_ = g.path;
    emit nodeSelected(-1);
    emit groupSelected(QString::fromStdString(g.path), g.total_nodes, open_.contains(g.path));
  } else {
    selected_group_.clear();
    selected_node_ = it.index;
    emit nodeSelected(it.index);
  }
  request_frames();
}

void GraphView::toggle_item(int item) {
  if (!scene_ || item < 0) return;
  const auto& it = scene_->items[static_cast<size_t>(item)];
  if (!it.is_group) return;
  const auto& r = layout_->items[static_cast<size_t>(item)];
  anchor_screen_ = to_screen({r.center().x, r.y0});
  anchor_group_ = tree_->groups()[static_cast<size_t>(it.index)].path;
  set_group_open(anchor_group_, true);
}

bool GraphView::matches(int node) const {
  if (find_text_.isEmpty() || !graph_) return false;
  const auto& n = graph_->nodes[static_cast<size_t>(node)];
  const std::string needle = to_lower(find_text_.toStdString());
  return to_lower(n.name).find(needle) != std::string::npos ||
         to_lower(n.op).find(needle) != std::string::npos;
}

bool GraphView::find_next() {
  if (!graph_ || !tree_ || find_text_.isEmpty()) return false;
  const int n = static_cast<int>(graph_->nodes.size());
  for (int step = 1; step <= n; ++step) {
    int cand = ((selected_node_ < 0 ? -1 : selected_node_) + step) % n;
    if (cand < 0) cand += n;
    if (tree_->node_visible(cand) && matches(cand)) {
      select_node(cand, true);
      return true;
    }
  }
  return false;
}

void GraphView::open_find() {
  find_active_ = true;
  setFocus(Qt::ShortcutFocusReason);
  request_frames();
}

void GraphView::set_find_text(const QString& text) {
  find_text_ = text;
  match_count_ = 0;
  match_of_node_.clear();
  if (graph_ && tree_ && !text.isEmpty()) {
    // Matched once here, not per box per frame.
    match_of_node_.assign(graph_->nodes.size(), 0);
    for (int i = 0; i < static_cast<int>(graph_->nodes.size()); ++i)
      if (tree_->node_visible(i) && matches(i)) {
        match_of_node_[static_cast<size_t>(i)] = 1;
        ++match_count_;
      }
  }
  request_frames();
}

std::optional<QPoint> GraphView::node_position(int node) const {
  if (!scene_ || !layout_ || node < 0 || static_cast<size_t>(node) >= scene_->item_of_node.size())
    return std::nullopt;
  int item = scene_->item_of_node[static_cast<size_t>(node)];
  if (item < 0) return std::nullopt;
  Vec2 s = to_screen(layout_->items[static_cast<size_t>(item)].center());
  return QPoint(static_cast<int>(std::lround(s.x)), static_cast<int>(std::lround(s.y)));
}

bool GraphView::node_has_own_box(int node) const {
  if (!scene_ || node < 0 || static_cast<size_t>(node) >= scene_->item_of_node.size()) return false;
  int item = scene_->item_of_node[static_cast<size_t>(node)];
  return item >= 0 && !scene_->items[static_cast<size_t>(item)].is_group;
}

QString GraphView::export_png(const QString& file) {
  if (!scene_ || !layout_) throw std::runtime_error("no graph laid out to export");
  // The whole graph, drawn off screen as the SVG is: not the view's pixels, which hold only what
  // is on screen, at the view's zoom, under the toolbar and legend.
  const SvgColouring colouring{colouring_, fills_, static_cast<int>(graph_->nodes.size())};
  return write_png(file.toStdString(), *scene_, *layout_, selected_item(), &colouring).note;
}

void GraphView::export_svg(const QString& file) {
  if (!scene_ || !layout_) throw std::runtime_error("no graph laid out to export");
  const SvgColouring colouring{colouring_, fills_, static_cast<int>(graph_->nodes.size())};
  write_svg(file.toStdString(), *scene_, *layout_, selected_item(), &colouring);
}

}  // namespace tfjsi::viewers
