// The graph canvas's drawing: clusters, edges, boxes with their level of detail, group labels
// and the hover tooltip.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "graph_palette.h"
#include "graph_style.h"
#include "graph_view.h"
#include "op_family.h"

namespace tfjsi::viewers {

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
                palette::kInkMuted, msg);
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
  // Level of detail, as in Netron or Model Explorer: near, a box shows its op and name; further
  // out, where that text would be under kMinTextPx, a short op label at a fixed readable size
  // (on the box, or over it on a halo) and group labels, placed map-style where they find room
  // (biggest groups first). Far out, boxes lose outlines and rounding, edges become straight
  // lines without heads.
  const bool titles = kTitleSize * z >= kMinTextPx;
  const bool subtitles = kSubtitleSize * z >= kMinTextPx;
  const bool cluster_text = kClusterText * z >= kMinTextPx;
  const bool tiny = 38.0f * z < 6.0f;  // a node box under 6 px tall
  char buf[192];

  // Clusters: the open groups.
  labels_.clear();
  far_labels_.clear();
  boxes_on_screen_ = 0;
  labelled_boxes_ = 0;
  for (std::size_t c = 0; c < layout_->clusters.size(); ++c) {
    const RectF& r = layout_->clusters[c];
    if (!r.overlaps(view)) continue;
    dl->AddRectFilled(sv({r.x0, r.y0}), sv({r.x1, r.y1}), palette::kClusterFill, tiny ? 0 : 6 * z);
    dl->AddRect(sv({r.x0, r.y0}), sv({r.x1, r.y1}), palette::kClusterFrame, tiny ? 0 : 6 * z);
    const auto& label = scene_->clusters[c].label;
    if (cluster_text) {
      std::snprintf(buf, sizeof buf, "- %s", label.c_str());
      dl->AddText(bold_font(), kClusterText * z, sv({r.x0 + 6, r.y0 + 3}), palette::kClusterTitle,
                  buf);
    } else {
      const int g = scene_->clusters[c].group;
      labels_.push_back({static_cast<float>(tree_->groups()[static_cast<size_t>(g)].total_nodes),
                         static_cast<int>(c), false});
    }
  }

  // Edges.
  const ImU32 edge_col = palette::kEdge;
  const ImU32 edge_sel = palette::kSelected;
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
    // Shape labels where the layout found them room (one per tensor, none over a box).
    if (kEdgeLabelSize * z >= kMinTextPx && e < layout_->edge_labels.size() &&
        layout_->edge_labels[e])
      dl->AddText(font(), kEdgeLabelSize * z, sv(*layout_->edge_labels[e]), palette::kEdgeLabel,
                  se.label.c_str());
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
      dl->AddRect(a, b, palette::kSelected, round, 0, std::max(2.0f, 3 * z));
    } else if (match) {
      dl->AddRect(a, b, palette::kFindMatch, round, 0, std::max(2.0f, 3 * z));
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
    if (!it.is_group) ++boxes_on_screen_;
    if (!titles) {
      // Further out: a short op label, placed with the group labels (after every box is drawn).
      if (!it.is_group && z >= kFarLabelZoom) far_labels_.push_back(static_cast<int>(i));
      if (it.is_group)
        labels_.push_back(
            {static_cast<float>(tree_->groups()[static_cast<size_t>(it.index)].total_nodes),
             static_cast<int>(i), true});
      continue;
    }
    if (!it.is_group) ++labelled_boxes_;
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
                dark ? palette::kInkOnDark : palette::kInk, title);
    if (!subtitles) continue;
    ImVec2 t2 = font()->CalcTextSizeA(kSubtitleSize * z, FLT_MAX, 0, it.subtitle.c_str());
    dl->AddText(font(), kSubtitleSize * z, ImVec2(cx - t2.x / 2, a.y + 21 * z),
                dark ? palette::kInkOnDarkSubtitle : palette::kInkSubtitle, it.subtitle.c_str());
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
    } else {
      // On the cluster's title bar, its bottom on the bar's: far out the label is taller than
      // the bar and rises above the frame, into the space between ranks, rather than sinking
      // onto the group's first nodes.
      if (b.x - a.x < ts.x + 10) continue;
      const float bar = a.y + kClusterHeader * zoom_;
      r = {a.x + 3, bar - ts.y - 2, a.x + ts.x + 9, bar};
    }
    if (r.x1 < 0 || r.y1 < 0 || r.x0 > static_cast<float>(width()) ||
        r.y0 > static_cast<float>(height()))
      continue;
    if (std::any_of(placed_.begin(), placed_.end(), [&](const RectF& p) { return p.overlaps(r); }))
      continue;
    placed_.push_back(r);
    dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1),
                      l.is_item ? palette::kItemLabelHalo : palette::kGroupLabelHalo, 3);
    dl->AddText(bold_font(), size, ImVec2(r.x0 + 3, r.y0 + 1),
                l.is_item ? palette::kInk : palette::kGroupLabelInk, text->c_str());
  }
  draw_far_node_labels(dl);
}

void GraphView::draw_far_node_labels(ImDrawList* dl) {
  // Each box's short op label: inside the box when it fits, else centred over it on a halo,
  // where it covers no label already placed.
  const float size = kFarLabelPx;
  for (int i : far_labels_) {
    const SceneItem& it = scene_->items[static_cast<size_t>(i)];
    const RectF& box = layout_->items[static_cast<size_t>(i)];
    const std::string text = short_op_label(it.title);
    const Vec2 a = to_screen({box.x0, box.y0}), b = to_screen({box.x1, box.y1});
    const ImVec2 ts = bold_font()->CalcTextSizeA(size, FLT_MAX, 0, text.c_str());
    const float cx = (a.x + b.x) / 2, cy = (a.y + b.y) / 2;
    const bool inside = ts.x + 4 <= b.x - a.x && ts.y <= b.y - a.y + 2;
    const RectF r{cx - ts.x / 2 - 2, cy - ts.y / 2, cx + ts.x / 2 + 2, cy + ts.y / 2};
    if (std::any_of(placed_.begin(), placed_.end(), [&](const RectF& p) { return p.overlaps(r); }))
      continue;
    placed_.push_back(r);
    ++labelled_boxes_;
    std::uint32_t fill = it.color;
    if (static_cast<size_t>(i) < fills_.size() && !fills_[static_cast<size_t>(i)].empty())
      fill = fills_[static_cast<size_t>(i)].front().color;
    ImU32 ink = luminance(fill) < 0.45f ? palette::kInkOnDark : palette::kInk;
    if (!inside) {
      dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), palette::kFarLabelHalo, 3);
      ink = palette::kInk;
    }
    dl->AddText(bold_font(), size, ImVec2(cx - ts.x / 2, cy - ts.y / 2), ink, text.c_str());
  }
}

}  // namespace tfjsi::viewers
