// What the graph canvas draws over the graph: the find toolbar, the status line and the legend.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "graph_palette.h"
#include "graph_style.h"
#include "graph_view.h"
#include "op_family.h"

namespace tfjsi::viewers {

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
  dl->AddRectFilled(p, ImVec2(p.x + field_w, p.y + fh), palette::kFieldFill, 3);
  dl->AddRect(p, ImVec2(p.x + field_w, p.y + fh),
              find_active_ ? palette::kFieldFrameActive : palette::kFieldFrame, 3, 0,
              find_active_ ? 2.0f : 1.0f);
  if (ImGui::InvisibleButton("##find", ImVec2(field_w, fh))) open_find();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Find a node by name or op (Ctrl+F)");
  std::string shown = find_text_.toStdString();
  const bool blink = find_active_;
  dl->PushClipRect(p, ImVec2(p.x + field_w, p.y + fh), true);
  if (shown.empty() && !find_active_) {
    dl->AddText(ImVec2(p.x + 6, p.y + 3), palette::kFieldPlaceholder,
                narrow ? "Find (Ctrl+F)" : "Find name or op (Ctrl+F)");
  } else {
    ImVec2 ts = ImGui::CalcTextSize(shown.c_str());
    float x = p.x + 6 + std::min(0.0f, field_w - 14 - ts.x);  // keep the caret in view
    dl->AddText(ImVec2(x, p.y + 3), palette::kInkField, shown.c_str());
    if (blink)
      dl->AddLine(ImVec2(x + ts.x + 1, p.y + 3), ImVec2(x + ts.x + 1, p.y + fh - 3),
                  palette::kInkField);
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
  if (outstanding_ > 0)
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::kBusyInk), "laying out...");
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
                    palette::kStatusFill, 3);
  dl->AddText(at, palette::kInkMuted, buf);
  if (!layout_->notes.empty()) {
    // A group too big for dot: say why its layout looks plainer.
    std::snprintf(buf, sizeof buf, "%s%s", layout_->notes.front().c_str(),
                  layout_->notes.size() > 1 ? " (and more)" : "");
    ImVec2 nsz = ImGui::CalcTextSize(buf);
    ImVec2 nat(static_cast<float>(width()) - nsz.x - 10, at.y - nsz.y - 10);
    dl->AddRectFilled(ImVec2(nat.x - 6, nat.y - 3), ImVec2(nat.x + nsz.x + 6, nat.y + nsz.y + 3),
                      palette::kNoteFill, 3);
    dl->AddText(nat, palette::kNoteInk, buf);
  }
}

void GraphView::draw_legend() {
  if (!graph_) return;
  // Top right, under the toolbar's row: fit() keeps that column free, so the legend never
  // covers a fitted graph. It folds to its title bar (click the arrow), and its title bar drags
  // it elsewhere (off the nodes a user wants to see); it stays inside the view.
  const float top = 52.0f;
  const float w = static_cast<float>(width()), h = static_cast<float>(height());
  ImVec2 anchor(w - 8 + legend_offset_.x, top + legend_offset_.y);
  if (!legend_rect_.isEmpty()) {  // keep at least its title bar on the canvas
    anchor.x = std::clamp(anchor.x, static_cast<float>(legend_rect_.width()), w);
    anchor.y = std::clamp(anchor.y, 0.0f, std::max(0.0f, h - 24));
    legend_offset_ = {anchor.x - (w - 8), anchor.y - top};
  }
  ImGui::SetNextWindowPos(anchor, ImGuiCond_Always, ImVec2(1, 0));
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
  {
    // Dragging by the title bar (ImGui's own move is off: the position is ours to keep).
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 wp = ImGui::GetWindowPos();
    const float bar = ImGui::GetFrameHeight();
    const bool on_bar = ImGui::IsWindowHovered() && io.MousePos.y < wp.y + bar &&
                        io.MousePos.x > wp.x + bar;  // not the fold arrow
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && on_bar) legend_dragging_ = true;
    if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) legend_dragging_ = false;
    if (legend_dragging_ && (io.MouseDelta.x != 0 || io.MouseDelta.y != 0)) {
      move_legend(io.MouseDelta.x, io.MouseDelta.y);
    }
  }
  if (!legend_collapsed_) {
    // The auto-size follows the content only: without this a long title ("Legend: Compare
    // error, gl fp16 vs cpu") is cut at the legend's right edge.
    const float title_w = ImGui::CalcTextSize(title.c_str(), nullptr, true).x +
                          ImGui::GetFrameHeight() - ImGui::GetStyle().WindowPadding.x;
    ImGui::Dummy(ImVec2(std::min(title_w, 300.0f), 0));
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
  keep_selection_clear_of_legend();
}

void GraphView::move_legend(float dx, float dy) {
  legend_offset_.x += dx;
  legend_offset_.y += dy;
  request_frames();
}

void GraphView::keep_selection_clear_of_legend() {
  // A colouring's legend can be wider than the one before (fp16 status after op families) and
  // come down over the node just jumped to: move the view so the node is left of it.
  if (!legend_check_pending_ || legend_collapsed_ || legend_rect_.isEmpty()) return;
  legend_check_pending_ = false;
  const int item = selected_item();
  if (item < 0 || !layout_) return;
  const RectF& r = layout_->items[static_cast<size_t>(item)];
  const Vec2 a = to_screen({r.x0, r.y0}), b = to_screen({r.x1, r.y1});
  const QRectF box(QPointF(a.x, a.y), QPointF(b.x, b.y));
  if (!box.intersects(legend_rect_)) return;
  const float shift = static_cast<float>(box.right() - legend_rect_.left()) + 16;
  if (box.left() - shift >= 0) {
    pan_.x -= shift;
  } else {  // no room on the left: put it under the legend instead
    pan_.y += static_cast<float>(legend_rect_.bottom() - box.top()) + 16;
  }
  request_frames();
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
  dl->AddRect(p, ImVec2(p.x + w, p.y + h), palette::kScaleFrame);
  if (c.mark()) {  // a tick through the bar, pointed at from above
    const float x = p.x + w * c.mark()->position;
    dl->AddLine(ImVec2(x, p.y - 3), ImVec2(x, p.y + h + 3), palette::kInkField, 2.0f);
    dl->AddTriangleFilled(ImVec2(x - 4, p.y - 7), ImVec2(x + 4, p.y - 7), ImVec2(x, p.y - 2),
                          palette::kInkField);
  }
  ImGui::Dummy(ImVec2(w, h));
  ImGui::Text(c.floored() ? "<=%.3g" : "%.3g", c.min_value());
  ImGui::SameLine(w - ImGui::CalcTextSize("0000000").x);
  ImGui::Text("%7.3g", c.max_value());
  ImGui::TextDisabled("%s scale", c.log_scale() ? "log10" : "linear");
  if (c.mark()) ImGui::Text("| %s: %d above", c.mark()->label.c_str(), c.mark()->above);
  swatch(NodeColouring::kNoValue);
  ImGui::Text("no value (%d)", c.without_value());
  if (c.non_finite() > 0) {
    swatch(NodeColouring::kNonFinite);
    ImGui::Text("NaN or inf (%d)", c.non_finite());
  }
  ImGui::TextDisabled("A group shows its largest value.");
}

}  // namespace tfjsi::viewers
