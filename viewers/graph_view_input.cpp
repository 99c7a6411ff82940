// GraphView's input: what is under the pointer (a box, a group's title bar, an overlay), the
// mouse (select, drag to pan, double-click to open or close a group, wheel to zoom) and the keys
// (find, arrows between nodes, zoom and fit).

#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "graph_style.h"
#include "graph_view.h"

namespace tfjsi::viewers {

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
  if (item >= 0) {
    select_item(item);
    return;
  }
  // The title bar of an open group selects the group.
  if (const int c = cluster_header_at(e->position()); c >= 0) {
    const auto& g =
        tree_->groups()[static_cast<size_t>(scene_->clusters[static_cast<size_t>(c)].group)];
    selected_node_ = -1;
    selected_group_ = g.path;
    emit nodeSelected(-1);
    emit groupSelected(QString::fromStdString(g.path), g.total_nodes, true);
    request_frames();
  }
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

}  // namespace tfjsi::viewers
