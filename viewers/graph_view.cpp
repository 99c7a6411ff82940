#include "graph_view.h"

#include <imgui.h>

#include <QImage>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "op_family.h"
#include "svg_export.h"

namespace tfjsi::viewers {
namespace {

constexpr float kTitleSize = 14.0f;
constexpr float kSubtitleSize = 11.5f;
constexpr float kClusterHeader = 18.0f;
constexpr float kClusterText = 12.0f;
constexpr float kMinTextPx = 8.0f;      // smaller text is not drawn
constexpr float kGroupLabelPx = 13.0f;  // group labels far out
constexpr int kCollapseBudget = 300;    // boxes shown at most when a model opens

ImU32 darker(ImU32 c, float f) {
  auto ch = [&](int shift) {
    return static_cast<ImU32>(static_cast<float>((c >> shift) & 0xFF) * f) << shift;
  };
  return (c & 0xFF000000u) | ch(0) | ch(8) | ch(16);
}

float luminance(ImU32 c) {
  const float r = static_cast<float>(c & 0xFF), g = static_cast<float>((c >> 8) & 0xFF),
              b = static_cast<float>((c >> 16) & 0xFF);
  return (0.299f * r + 0.587f * g + 0.114f * b) / 255.0f;
}

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
  std::vector<Vec2> sizes;
  sizes.reserve(scene.items.size());
  for (const auto& it : scene.items) {
    float w1 = bold_font()->CalcTextSizeA(kTitleSize, FLT_MAX, 0, it.title.c_str()).x;
    float w2 = font()->CalcTextSizeA(kSubtitleSize, FLT_MAX, 0, it.subtitle.c_str()).x;
    float w = std::max({w1, w2, 40.0f}) + 18.0f;
    sizes.push_back({w, it.is_group ? 42.0f : 38.0f});
  }
  return sizes;
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
  const int gen = generation_->fetch_add(1) + 1;
  ++outstanding_;
  auto generation = generation_;
  pool_.start([this, scene, sizes = std::move(sizes), key, gen, generation] {
    std::shared_ptr<const Layout> layout;
    QString error;
    if (generation->load() == gen) {  // a newer request supersedes this one: skip the work
      try {
        layout = std::make_shared<const Layout>(compute_layout(*scene, sizes, kClusterHeader));
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
                                bool log_scale) {
  if (!graph_) return;
  colouring_.set_values(*graph_, title.toStdString(), value_by_node, log_scale);
  refresh_fills();
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
  // A long, narrow graph fitted whole is a thread of dots: show it readable, from its top, and
  // let F show the whole of it.
  if (readable) zoom_ = std::max(zoom_, std::min(avail_w / w, 0.85f));
  pan_.x = (static_cast<float>(width()) - legend) / 2 - (b.x0 + w / 2) * zoom_;
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
  pan_ = {static_cast<float>(width()) / 2 - c.x * zoom_,
          static_cast<float>(height()) / 2 - c.y * zoom_};
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
    emit groupSelected(QString::fromStdString(g.path), g.total_nodes);
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

int GraphView::item_at(QPointF p) const {
  if (!layout_) return -1;
  Vec2 w = to_world({static_cast<float>(p.x()), static_cast<float>(p.y())});
  for (std::size_t i = 0; i < layout_->items.size(); ++i)
    if (layout_->items[i].contains(w)) return static_cast<int>(i);
  return -1;
}

int GraphView::cluster_header_at(QPointF p) const {
  if (!layout_) return -1;
  Vec2 w = to_world({static_cast<float>(p.x()), static_cast<float>(p.y())});
  // Innermost first: later clusters are nested in earlier ones.
  for (std::size_t c = layout_->clusters.size(); c-- > 0;) {
    const RectF& r = layout_->clusters[c];
    if (w.x >= r.x0 && w.x <= r.x1 && w.y >= r.y0 && w.y <= r.y0 + kClusterHeader)
      return static_cast<int>(c);
  }
  return -1;
}

bool GraphView::over_overlay(QPointF p) const {
  Vec2 v{static_cast<float>(p.x()), static_cast<float>(p.y())};
  return std::any_of(overlay_rects_.begin(), overlay_rects_.end(),
                     [&](const RectF& r) { return r.contains(v); });
}

void GraphView::mousePressEvent(QMouseEvent* e) {
  ImGuiWidget::mousePressEvent(e);
  if (e->button() != Qt::LeftButton && e->button() != Qt::MiddleButton) return;
  if (over_overlay(e->position())) return;
  left_down_ = true;
  dragging_ = false;
  press_pos_ = last_pos_ = e->position();
  // A click on the canvas leaves the find field.
  find_active_ = false;
}

void GraphView::mouseMoveEvent(QMouseEvent* e) {
  ImGuiWidget::mouseMoveEvent(e);
  if (!left_down_) return;
  QPointF d = e->position() - last_pos_;
  last_pos_ = e->position();
  if (!dragging_ && (e->position() - press_pos_).manhattanLength() > 3) dragging_ = true;
  if (dragging_) pan_by(static_cast<float>(d.x()), static_cast<float>(d.y()));
}

void GraphView::mouseReleaseEvent(QMouseEvent* e) {
  ImGuiWidget::mouseReleaseEvent(e);
  if (!left_down_) return;
  left_down_ = false;
  if (dragging_ || e->button() != Qt::LeftButton) return;
  int item = item_at(e->position());
  if (item >= 0) select_item(item);
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* e) {
  ImGuiWidget::mouseDoubleClickEvent(e);
  if (e->button() != Qt::LeftButton || over_overlay(e->position())) return;
  left_down_ = false;
  int item = item_at(e->position());
  if (item >= 0) {
    toggle_item(item);
    return;
  }
  int c = cluster_header_at(e->position());
  if (c >= 0) {
    int g = scene_->clusters[static_cast<size_t>(c)].group;
    anchor_group_ = tree_->groups()[static_cast<size_t>(g)].path;
    anchor_screen_ = to_screen({layout_->clusters[static_cast<size_t>(c)].center().x,
                                layout_->clusters[static_cast<size_t>(c)].y0});
    set_group_open(anchor_group_, false);
  }
}

void GraphView::wheelEvent(QWheelEvent* e) {
  if (over_overlay(e->position())) {
    ImGuiWidget::wheelEvent(e);
    return;
  }
  const float steps = static_cast<float>(e->angleDelta().y()) / 120.0f;
  const float factor = std::pow(1.18f, steps);
  const float z = std::clamp(zoom_ * factor, 0.01f, 6.0f);
  // Zoom around the cursor: the world point under it stays put.
  Vec2 cur{static_cast<float>(e->position().x()), static_cast<float>(e->position().y())};
  Vec2 w = to_world(cur);
  zoom_ = z;
  pan_ = {cur.x - w.x * zoom_, cur.y - w.y * zoom_};
  request_frames();
}

void GraphView::keyPressEvent(QKeyEvent* e) {
  if (e->key() == Qt::Key_F && (e->modifiers() & Qt::ControlModifier)) {
    open_find();
    return;
  }
  if (find_active_) {
    // The find field is ours, not ImGui's: typed text must not be lost between frames.
    switch (e->key()) {
      case Qt::Key_Escape:
        find_active_ = false;
        break;
      case Qt::Key_Return:
      case Qt::Key_Enter:
        find_next();
        break;
      case Qt::Key_Backspace:
        set_find_text(find_text_.left(find_text_.size() - 1));
        break;
      default:
        if (!e->text().isEmpty() && e->text().at(0).isPrint() &&
            !(e->modifiers() & Qt::ControlModifier))
          set_find_text(find_text_ + e->text());
    }
    request_frames();
    return;
  }
  switch (e->key()) {
    case Qt::Key_F:
      fit();
      return;
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Up:
    case Qt::Key_Down:
      navigate(e->key());
      return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
      toggle_item(selected_item());
      return;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      zoom_ = std::min(6.0f, zoom_ * 1.2f);
      request_frames();
      return;
    case Qt::Key_Minus:
      zoom_ = std::max(0.01f, zoom_ / 1.2f);
      request_frames();
      return;
    case Qt::Key_Escape:
      selected_node_ = -1;
      selected_group_.clear();
      emit nodeSelected(-1);
      request_frames();
      return;
    default:
      ImGuiWidget::keyPressEvent(e);
  }
}

void GraphView::navigate(int key) {
  if (!scene_ || !layout_) return;
  int from = selected_item();
  if (from < 0) {
    // Nothing selected yet: start at the top-most box.
    int best = -1;
    for (std::size_t i = 0; i < layout_->items.size(); ++i)
      if (best < 0 || layout_->items[i].y0 < layout_->items[static_cast<size_t>(best)].y0)
        best = static_cast<int>(i);
    if (best >= 0) {
      select_item(best);
      center_on_item(best);
    }
    return;
  }
  const Vec2 c = layout_->items[static_cast<size_t>(from)].center();
  int best = -1;
  float best_score = 1e30f;
  auto consider = [&](int i, float score) {
    if (i != from && score < best_score) {
      best_score = score;
      best = i;
    }
  };
  if (key == Qt::Key_Up || key == Qt::Key_Down) {
    // Along edges first: up is an input, down a consumer; the nearest one sideways wins.
    const auto& nb = key == Qt::Key_Up ? scene_->pred[static_cast<size_t>(from)]
                                       : scene_->succ[static_cast<size_t>(from)];
    for (int i : nb) consider(i, std::abs(layout_->items[static_cast<size_t>(i)].center().x - c.x));
  } else {
    // Sideways: the nearest box on that side, preferring the same rank.
    for (std::size_t i = 0; i < layout_->items.size(); ++i) {
      Vec2 o = layout_->items[i].center();
      float dx = o.x - c.x;
      if ((key == Qt::Key_Left && dx >= -1) || (key == Qt::Key_Right && dx <= 1)) continue;
      consider(static_cast<int>(i), std::abs(dx) + 4 * std::abs(o.y - c.y));
    }
  }
  if (best < 0) return;
  select_item(best);
  // Scroll only when the box leaves the view.
  const RectF& r = layout_->items[static_cast<size_t>(best)];
  Vec2 a = to_screen({r.x0, r.y0}), b = to_screen({r.x1, r.y1});
  if (a.x < 0 || a.y < 40 || b.x > static_cast<float>(width()) ||
      b.y > static_cast<float>(height()))
    center_on_item(best);
}

void GraphView::export_png(const QString& file) {
  QImage img = grabFramebuffer();
  if (img.isNull() || !img.save(file, "PNG"))
    throw std::runtime_error("cannot write " + file.toStdString());
}

void GraphView::export_svg(const QString& file) {
  if (!scene_ || !layout_) throw std::runtime_error("no graph laid out to export");
  const SvgColouring colouring{colouring_, fills_, static_cast<int>(graph_->nodes.size())};
  write_svg(file.toStdString(), *scene_, *layout_, selected_item(), &colouring);
}

// ---------------------------------------------------------------------------------------------
// Drawing

void GraphView::draw_frame() {
  overlay_rects_.clear();
  draw_canvas();
  draw_toolbar();
  draw_legend();
  draw_status();
}

void GraphView::draw_canvas() {
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  if (!graph_) {
    const char* msg = "Open a model: File > Open, drop a model.json here, or pass a path.";
    ImVec2 sz = ImGui::CalcTextSize(msg);
    dl->AddText(ImVec2((static_cast<float>(width()) - sz.x) / 2, static_cast<float>(height()) / 2),
                IM_COL32(90, 96, 104, 255), msg);
    return;
  }
  if (!layout_ || !scene_) return;
  const Vec2 v0 = to_world({0, 0});
  const Vec2 v1 = to_world({static_cast<float>(width()), static_cast<float>(height())});
  const RectF view{v0.x, v0.y, v1.x, v1.y};
  auto sv = [&](Vec2 w) {
    Vec2 s = to_screen(w);
    return ImVec2(s.x, s.y);
  };
  const float z = zoom_;
  // Level of detail. Text smaller than kMinTextPx is noise: node boxes then go without it, and
  // only groups keep a label, drawn at a readable size where it finds room (biggest groups
  // first). Far out, boxes lose outlines and rounding, edges become straight lines without heads.
  const bool titles = kTitleSize * z >= kMinTextPx;
  const bool subtitles = kSubtitleSize * z >= kMinTextPx;
  const bool cluster_text = kClusterText * z >= kMinTextPx;
  const bool tiny = 38.0f * z < 6.0f;  // a node box under 6 px tall
  char buf[192];

  // Clusters: the open groups.
  labels_.clear();
  for (std::size_t c = 0; c < layout_->clusters.size(); ++c) {
    const RectF& r = layout_->clusters[c];
    if (!r.overlaps(view)) continue;
    dl->AddRectFilled(sv({r.x0, r.y0}), sv({r.x1, r.y1}), IM_COL32(40, 60, 90, 12),
                      tiny ? 0 : 6 * z);
    dl->AddRect(sv({r.x0, r.y0}), sv({r.x1, r.y1}), IM_COL32(150, 160, 176, 255), tiny ? 0 : 6 * z);
    const auto& label = scene_->clusters[c].label;
    if (cluster_text) {
      std::snprintf(buf, sizeof buf, "- %s", label.c_str());
      dl->AddText(bold_font(), kClusterText * z, sv({r.x0 + 6, r.y0 + 3}),
                  IM_COL32(80, 90, 104, 255), buf);
    } else {
      const int g = scene_->clusters[c].group;
      labels_.push_back({static_cast<float>(tree_->groups()[static_cast<size_t>(g)].total_nodes),
                         static_cast<int>(c), false});
    }
  }

  // Edges.
  const ImU32 edge_col = IM_COL32(110, 118, 130, 255);
  const ImU32 edge_sel = IM_COL32(224, 58, 30, 255);
  const int sel = selected_item();
  const float thick = std::clamp(1.2f * z, 0.8f, 2.5f);
  for (std::size_t e = 0; e < layout_->edges.size(); ++e) {
    const EdgePath& p = layout_->edges[e];
    if (!p.bounds.overlaps(view) || p.bezier.size() < 4) continue;
    const auto& se = scene_->edges[e];
    const bool hot = sel >= 0 && (se.from == sel || se.to == sel);
    const ImU32 col = hot ? edge_sel : edge_col;
    if (tiny && !hot) {
      // Far out, an edge is a line from its start to its end; its curve is below a pixel.
      dl->AddLine(sv(p.bezier.front()), sv(p.has_arrow ? p.arrow_tip : p.bezier.back()), col,
                  thick);
      continue;
    }
    for (std::size_t k = 0; k + 3 < p.bezier.size(); k += 3) {
      if (z < 0.15f)  // far out, curves are not worth their triangles
        dl->AddLine(sv(p.bezier[k]), sv(p.bezier[k + 3]), col, hot ? thick * 1.8f : thick);
      else
        dl->AddBezierCubic(sv(p.bezier[k]), sv(p.bezier[k + 1]), sv(p.bezier[k + 2]),
                           sv(p.bezier[k + 3]), col, hot ? thick * 1.8f : thick, z < 0.5f ? 8 : 0);
    }
    if (p.has_arrow && z >= 0.25f) {
      Vec2 a = p.bezier.back(), t = p.arrow_tip;
      float dx = t.x - a.x, dy = t.y - a.y, len = std::sqrt(dx * dx + dy * dy);
      if (len > 0.01f) {
        float nx = -dy / len * 3.5f, ny = dx / len * 3.5f;
        dl->AddTriangleFilled(sv(t), sv({a.x + nx, a.y + ny}), sv({a.x - nx, a.y - ny}), col);
      }
    }
    if (z >= 0.75f && !se.label.empty()) {
      const Vec2 m = p.bezier[p.bezier.size() / 2];
      dl->AddText(font(), 10.5f * z, sv({m.x + 4, m.y - 6}), IM_COL32(84, 94, 108, 255),
                  se.label.c_str());
    }
  }

  // Boxes.
  const bool searching = !find_text_.isEmpty();
  int hovered = -1;
  ImVec2 mouse = ImGui::GetIO().MousePos;
  if (!over_overlay(QPointF(mouse.x, mouse.y)) && !dragging_)
    hovered = item_at(QPointF(mouse.x, mouse.y));
  const float round = tiny ? 0 : z >= 0.2f ? 4 * z : 0;
  for (std::size_t i = 0; i < layout_->items.size(); ++i) {
    const RectF& r = layout_->items[i];
    if (!r.overlaps(view)) continue;
    const SceneItem& it = scene_->items[i];
    ImVec2 a = sv({r.x0, r.y0}), b = sv({r.x1, r.y1});
    std::uint32_t main_color = it.color;
    if (i < fills_.size() && !fills_[i].empty()) {
      const auto& bands = fills_[i];
      main_color = bands.front().color;
      if (bands.size() == 1) {
        dl->AddRectFilled(a, b, main_color, round);
      } else {
        // Mixed categories: side by side, in proportion.
        float x = a.x;
        for (std::size_t k = 0; k < bands.size(); ++k) {
          float x2 = k + 1 == bands.size() ? b.x : x + (b.x - a.x) * bands[k].share;
          dl->AddRectFilled(ImVec2(x, a.y), ImVec2(x2, b.y), bands[k].color);
          x = x2;
        }
      }
    } else {
      dl->AddRectFilled(a, b, main_color, round);
    }
    const bool match = searching && !it.is_group && it.index >= 0 &&
                       static_cast<size_t>(it.index) < match_of_node_.size() &&
                       match_of_node_[static_cast<size_t>(it.index)];
    if (static_cast<int>(i) == sel) {
      dl->AddRect(a, b, IM_COL32(224, 58, 30, 255), round, 0, std::max(2.0f, 3 * z));
    } else if (match) {
      dl->AddRect(a, b, IM_COL32(240, 180, 0, 255), round, 0, std::max(2.0f, 3 * z));
    } else if (!tiny || it.is_group) {
      dl->AddRect(a, b, darker(main_color, static_cast<int>(i) == hovered ? 0.35f : 0.6f), round, 0,
                  it.is_group ? 2.0f : 1.0f);
    }
    if (it.is_group && z >= 0.2f) {
      // A stacked look says "there is more inside".
      dl->AddLine(ImVec2(a.x + 3, b.y + 2.5f * z), ImVec2(b.x + 2.5f * z, b.y + 2.5f * z),
                  darker(main_color, 0.6f));
      dl->AddLine(ImVec2(b.x + 2.5f * z, a.y + 3), ImVec2(b.x + 2.5f * z, b.y + 2.5f * z),
                  darker(main_color, 0.6f));
    }
    if (!titles) {
      // Between "too small" and full size: the op alone, at the smallest readable size, where
      // the box holds it.
      if (!it.is_group && b.y - a.y >= kMinTextPx + 4) {
        ImVec2 ts = bold_font()->CalcTextSizeA(kMinTextPx + 1, FLT_MAX, 0, it.title.c_str());
        if (ts.x + 4 <= b.x - a.x)
          dl->AddText(bold_font(), kMinTextPx + 1,
                      ImVec2((a.x + b.x - ts.x) / 2, (a.y + b.y - ts.y) / 2),
                      luminance(main_color) < 0.45f ? IM_COL32(250, 250, 250, 255)
                                                    : IM_COL32(28, 32, 38, 255),
                      it.title.c_str());
      }
      if (it.is_group)
        labels_.push_back(
            {static_cast<float>(tree_->groups()[static_cast<size_t>(it.index)].total_nodes),
             static_cast<int>(i), true});
      continue;
    }
    const bool dark = luminance(main_color) < 0.45f;
    const float cx = (a.x + b.x) / 2;
    const char* title = it.title.c_str();
    if (it.is_group) {
      std::snprintf(buf, sizeof buf, "+ %s", it.title.c_str());
      title = buf;
    }
    ImVec2 t1 = bold_font()->CalcTextSizeA(kTitleSize * z, FLT_MAX, 0, title);
    dl->AddText(bold_font(), kTitleSize * z,
                ImVec2(cx - t1.x / 2, subtitles ? a.y + 4 * z : (a.y + b.y - t1.y) / 2),
                dark ? IM_COL32(250, 250, 250, 255) : IM_COL32(28, 32, 38, 255), title);
    if (!subtitles) continue;
    ImVec2 t2 = font()->CalcTextSizeA(kSubtitleSize * z, FLT_MAX, 0, it.subtitle.c_str());
    dl->AddText(font(), kSubtitleSize * z, ImVec2(cx - t2.x / 2, a.y + 21 * z),
                dark ? IM_COL32(235, 235, 235, 255) : IM_COL32(56, 62, 72, 255),
                it.subtitle.c_str());
  }
  draw_group_labels(dl);

  if (hovered >= 0 && !ImGui::GetIO().WantCaptureMouse) {
    const SceneItem& it = scene_->items[static_cast<size_t>(hovered)];
    ImGui::BeginTooltip();
    if (it.is_group) {
      const auto& g = tree_->groups()[static_cast<size_t>(it.index)];
      ImGui::Text("%s", g.path.c_str());
      ImGui::TextDisabled("%d nodes - double-click to open", g.total_nodes);
    } else {
      const auto& n = graph_->nodes[static_cast<size_t>(it.index)];
      ImGui::Text("%s", n.op.c_str());
      ImGui::TextUnformatted(n.name.c_str());
      for (const auto& o : n.outputs)
        ImGui::TextDisabled("-> %s %s", o.dtype ? std::string(to_string(*o.dtype)).c_str() : "?",
                            o.shape.to_string().c_str());
    }
    if (colouring_.mode() != NodeColouring::Mode::Families) tooltip_colouring(it);
    ImGui::EndTooltip();
  }
}

void GraphView::tooltip_colouring(const SceneItem& it) {
  const auto& c = colouring_;
  if (!it.is_group) {
    if (c.mode() == NodeColouring::Mode::Values) {
      if (auto v = c.value_of(it.index))
        ImGui::Text("%s: %.4g", c.title().c_str(), *v);
      else
        ImGui::TextDisabled("%s: no value", c.title().c_str());
    } else {
      const int k = c.category_of(it.index);
      ImGui::Text("%s: %s", c.title().c_str(),
                  k >= 0 ? c.categories()[static_cast<size_t>(k)].name.c_str() : "none");
    }
  } else if (c.mode() == NodeColouring::Mode::Values) {
    ImGui::TextDisabled("colour: the largest %s inside", c.title().c_str());
  } else {
    ImGui::TextDisabled("bands: the %s of the nodes inside", c.title().c_str());
  }
}

void GraphView::draw_group_labels(ImDrawList* dl) {
  if (labels_.empty()) return;
  // Map-style labels: biggest groups first, each where it does not cover one already placed.
  std::sort(labels_.begin(), labels_.end(),
            [](const GroupLabel& a, const GroupLabel& b) { return a.weight > b.weight; });
  placed_.clear();
  const float size = kGroupLabelPx;
  for (const auto& l : labels_) {
    if (placed_.size() >= 200) break;
    const std::string* text = nullptr;
    RectF box;
    if (l.is_item) {
      text = &scene_->items[static_cast<size_t>(l.index)].title;
      box = layout_->items[static_cast<size_t>(l.index)];
    } else {
      text = &scene_->clusters[static_cast<size_t>(l.index)].label;
      box = layout_->clusters[static_cast<size_t>(l.index)];
    }
    Vec2 a = to_screen({box.x0, box.y0}), b = to_screen({box.x1, box.y1});
    ImVec2 ts = bold_font()->CalcTextSizeA(size, FLT_MAX, 0, text->c_str());
    RectF r;
    if (l.is_item) {  // centred on the box, free to overflow it
      float cx = (a.x + b.x) / 2, cy = (a.y + b.y) / 2;
      r = {cx - ts.x / 2 - 3, cy - ts.y / 2 - 1, cx + ts.x / 2 + 3, cy + ts.y / 2 + 1};
    } else {  // inside the cluster's top-left corner, only when it fits
      if (b.x - a.x < ts.x + 10 || b.y - a.y < ts.y + 8) continue;
      r = {a.x + 3, a.y + 3, a.x + ts.x + 9, a.y + ts.y + 5};
    }
    if (r.x1 < 0 || r.y1 < 0 || r.x0 > static_cast<float>(width()) ||
        r.y0 > static_cast<float>(height()))
      continue;
    if (std::any_of(placed_.begin(), placed_.end(), [&](const RectF& p) { return p.overlaps(r); }))
      continue;
    placed_.push_back(r);
    dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1),
                      l.is_item ? IM_COL32(255, 255, 255, 225) : IM_COL32(248, 249, 251, 215), 3);
    dl->AddText(bold_font(), size, ImVec2(r.x0 + 3, r.y0 + 1),
                l.is_item ? IM_COL32(28, 32, 38, 255) : IM_COL32(70, 80, 96, 255), text->c_str());
  }
}

void GraphView::draw_toolbar() {
  ImGui::SetNextWindowPos(ImVec2(8, 8));
  ImGui::SetNextWindowBgAlpha(0.92f);
  ImGui::Begin("##toolbar", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove);
  // The find field: text is kept on the Qt side (see keyPressEvent); this only shows it.
  // In a narrow view (a 1280-pixel screen with the docks open) the field and the labels are
  // shorter, so that every button stays on the canvas; the tooltips say the whole.
  const bool narrow = width() < 680;
  const float field_w = narrow ? 130.0f : 220.0f;
  ImVec2 p = ImGui::GetCursorScreenPos();
  const float fh = ImGui::GetFrameHeight();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, ImVec2(p.x + field_w, p.y + fh), IM_COL32(255, 255, 255, 255), 3);
  dl->AddRect(p, ImVec2(p.x + field_w, p.y + fh),
              find_active_ ? IM_COL32(66, 150, 250, 255) : IM_COL32(170, 176, 186, 255), 3, 0,
              find_active_ ? 2.0f : 1.0f);
  if (ImGui::InvisibleButton("##find", ImVec2(field_w, fh))) open_find();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Find a node by name or op (Ctrl+F)");
  std::string shown = find_text_.toStdString();
  const bool blink = find_active_;
  dl->PushClipRect(p, ImVec2(p.x + field_w, p.y + fh), true);
  if (shown.empty() && !find_active_) {
    dl->AddText(ImVec2(p.x + 6, p.y + 3), IM_COL32(150, 150, 150, 255),
                narrow ? "Find (Ctrl+F)" : "Find name or op (Ctrl+F)");
  } else {
    ImVec2 ts = ImGui::CalcTextSize(shown.c_str());
    float x = p.x + 6 + std::min(0.0f, field_w - 14 - ts.x);  // keep the caret in view
    dl->AddText(ImVec2(x, p.y + 3), IM_COL32(20, 20, 20, 255), shown.c_str());
    if (blink)
      dl->AddLine(ImVec2(x + ts.x + 1, p.y + 3), ImVec2(x + ts.x + 1, p.y + fh - 3),
                  IM_COL32(20, 20, 20, 255));
  }
  dl->PopClipRect();
  ImGui::SameLine();
  if (!find_text_.isEmpty()) {
    ImGui::TextDisabled("%d match%s", match_count_, match_count_ == 1 ? "" : "es");
    ImGui::SameLine();
  }
  if (ImGui::Button("Next")) find_next();
  ImGui::SameLine();
  if (ImGui::Button(narrow ? "Fit###fit" : "Fit (F)###fit")) fit();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Fit the graph in the view (F)");
  ImGui::SameLine();
  bool show = show_const_;
  if (ImGui::Checkbox(narrow ? "Const###const" : "Const nodes###const", &show))
    set_show_const(show);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show Const nodes (weights)");
  ImGui::SameLine();
  if (ImGui::Button(narrow ? "Expand###expand" : "Expand all###expand")) expand_all();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Open every group");
  ImGui::SameLine();
  if (ImGui::Button(narrow ? "Collapse###collapse" : "Collapse all###collapse")) collapse_all();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Close every group");
  ImGui::SameLine();
  if (outstanding_ > 0) ImGui::TextColored(ImVec4(0.75f, 0.35f, 0.05f, 1), "laying out...");
  ImVec2 wp = ImGui::GetWindowPos(), ws = ImGui::GetWindowSize();
  overlay_rects_.push_back({wp.x, wp.y, wp.x + ws.x, wp.y + ws.y});
  ImGui::End();
}

void GraphView::draw_status() {
  if (!scene_ || !layout_) return;
  const auto& ft = frame_times();
  double avg = 0;
  for (double t : ft) avg += t;
  if (!ft.empty()) avg /= static_cast<double>(ft.size());
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%zu boxes  %zu edges  |  layout %.0f ms  |  frame %.1f ms  |  zoom %.0f%%",
                scene_->items.size(), scene_->edges.size(), layout_->milliseconds, avg,
                static_cast<double>(zoom_) * 100.0);
  ImVec2 sz = ImGui::CalcTextSize(buf);
  ImVec2 at(static_cast<float>(width()) - sz.x - 10, static_cast<float>(height()) - sz.y - 8);
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  dl->AddRectFilled(ImVec2(at.x - 6, at.y - 3), ImVec2(at.x + sz.x + 6, at.y + sz.y + 3),
                    IM_COL32(255, 255, 255, 220), 3);
  dl->AddText(at, IM_COL32(90, 96, 104, 255), buf);
  if (!layout_->notes.empty()) {
    // A group too big for dot: say why its layout looks plainer.
    std::snprintf(buf, sizeof buf, "%s%s", layout_->notes.front().c_str(),
                  layout_->notes.size() > 1 ? " (and more)" : "");
    ImVec2 nsz = ImGui::CalcTextSize(buf);
    ImVec2 nat(static_cast<float>(width()) - nsz.x - 10, at.y - nsz.y - 10);
    dl->AddRectFilled(ImVec2(nat.x - 6, nat.y - 3), ImVec2(nat.x + nsz.x + 6, nat.y + nsz.y + 3),
                      IM_COL32(255, 243, 214, 235), 3);
    dl->AddText(nat, IM_COL32(140, 80, 10, 255), buf);
  }
}

void GraphView::draw_legend() {
  if (!graph_) return;
  // Top right, under the toolbar's row: fit() keeps that column free, so the legend never
  // covers a fitted graph. It folds to its title bar (click the arrow).
  const float top = 52.0f;
  ImGui::SetNextWindowPos(ImVec2(static_cast<float>(width()) - 8, top), ImGuiCond_Always,
                          ImVec2(1, 0));
  ImGui::SetNextWindowBgAlpha(0.94f);
  ImGui::SetNextWindowSizeConstraints(
      ImVec2(150, 0), ImVec2(320, std::max(120.0f, static_cast<float>(height()) - top - 40)));
  if (legend_collapse_changed_) {
    ImGui::SetNextWindowCollapsed(legend_collapsed_, ImGuiCond_Always);
    legend_collapse_changed_ = false;
  }
  std::string title = colouring_.mode() == NodeColouring::Mode::Families
                          ? std::string("Legend: op family")
                          : "Legend: " + colouring_.title();
  title += "###legend";
  ImGui::Begin(title.c_str(), nullptr,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                   ImGuiWindowFlags_NoMove);
  legend_collapsed_ = ImGui::IsWindowCollapsed();
  if (!legend_collapsed_) {
    switch (colouring_.mode()) {
      case NodeColouring::Mode::Families: {
        // One column: a narrow legend leaves the graph more room beside it.
        for (OpFamily f : all_families()) {
          swatch(family_color(f));
          ImGui::TextUnformatted(std::string(family_name(f)).c_str());
        }
        break;
      }
      case NodeColouring::Mode::Categories:
        draw_category_legend();
        break;
      case NodeColouring::Mode::Values:
        draw_value_legend();
        break;
    }
    ImGui::Separator();
    ImGui::TextDisabled("+ group: double-click\n  opens it; double-click\n  its title closes it");
  }
  ImVec2 wp = ImGui::GetWindowPos(), ws = ImGui::GetWindowSize();
  overlay_rects_.push_back({wp.x, wp.y, wp.x + ws.x, wp.y + ws.y});
  legend_rect_ = QRectF(wp.x, wp.y, ws.x, ws.y);
  if (!legend_collapsed_) legend_width_ = ws.x;
  ImGui::End();
}

void GraphView::swatch(std::uint32_t color) {
  ImVec2 p = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetTextLineHeight();
  ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + h * 1.4f, p.y + h), color, 2);
  ImGui::GetWindowDrawList()->AddRect(p, ImVec2(p.x + h * 1.4f, p.y + h), darker(color, 0.6f), 2);
  ImGui::Dummy(ImVec2(h * 1.4f, h));
  ImGui::SameLine();
}

void GraphView::draw_category_legend() {
  if (ImGui::BeginTable("##categories", 2, ImGuiTableFlags_SizingFixedFit)) {
    for (const auto& c : colouring_.categories()) {
      ImGui::TableNextColumn();
      swatch(c.color);
      ImGui::TextUnformatted(c.name.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%d", c.count);
    }
    ImGui::TableNextColumn();
    swatch(NodeColouring::kNoValue);
    ImGui::TextDisabled("none");
    ImGui::TableNextColumn();
    int with = 0;
    for (const auto& c : colouring_.categories()) with += c.count;
    ImGui::TextDisabled("%d", static_cast<int>(graph_->nodes.size()) - with);
    ImGui::EndTable();
  }
  ImGui::TextDisabled("A mixed group shows its members'\ncategories side by side.");
}

void GraphView::draw_value_legend() {
  const auto& c = colouring_;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = 200, h = 14;
  constexpr int kSteps = 40;
  for (int k = 0; k < kSteps; ++k) {
    float x0 = p.x + w * static_cast<float>(k) / kSteps,
          x1 = p.x + w * static_cast<float>(k + 1) / kSteps;
    dl->AddRectFilled(ImVec2(x0, p.y), ImVec2(x1, p.y + h),
                      NodeColouring::scale_color((static_cast<float>(k) + 0.5f) / kSteps));
  }
  dl->AddRect(p, ImVec2(p.x + w, p.y + h), IM_COL32(120, 120, 120, 255));
  ImGui::Dummy(ImVec2(w, h));
  ImGui::Text("%.3g", c.min_value());
  ImGui::SameLine(w - ImGui::CalcTextSize("0000000").x);
  ImGui::Text("%7.3g", c.max_value());
  ImGui::TextDisabled("%s scale", c.log_scale() ? "log10" : "linear");
  swatch(NodeColouring::kNoValue);
  ImGui::Text("no value (%d)", c.without_value());
  if (c.non_finite() > 0) {
    swatch(NodeColouring::kNonFinite);
    ImGui::Text("NaN or inf (%d)", c.non_finite());
  }
  ImGui::TextDisabled("A group shows its largest value.");
}

}  // namespace tfjsi::viewers
