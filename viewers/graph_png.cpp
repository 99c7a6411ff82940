#include "graph_png.h"

#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "graph_legend.h"

namespace tfjsi::viewers {
namespace {

constexpr float kPad = 10;

// 0xAABBGGRR to a QColor.
QColor qc(std::uint32_t abgr) {
  return QColor(static_cast<int>(abgr & 0xFF), static_cast<int>((abgr >> 8) & 0xFF),
                static_cast<int>((abgr >> 16) & 0xFF));
}

QFont font(float px, bool bold) {
  QFont f(QStringLiteral("DejaVu Sans"));
  f.setPixelSize(std::max(1, static_cast<int>(std::lround(px))));
  f.setBold(bold);
  return f;
}

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

// Text with its baseline at y: left of x, centred on it or ending at it, as SVG's text-anchor.
void text(QPainter& p, float x, float y, const QString& s, Qt::Alignment align) {
  const float w = static_cast<float>(QFontMetricsF(p.font()).horizontalAdvance(s));
  const float left = align == Qt::AlignHCenter ? x - w / 2 : align == Qt::AlignRight ? x - w : x;
  p.drawText(QPointF(left, y), s);
}

void draw_legend(QPainter& p, const Legend& l, float x, float y) {
  p.setPen(QColor(0xB0, 0xB6, 0xBE));
  p.setBrush(Qt::white);
  p.drawRoundedRect(QRectF(x, y, kLegendWidth, legend_height(l)), 4, 4);
  p.setPen(QColor(0x1E, 0x22, 0x28));
  p.setFont(font(11, true));
  text(p, x + 8, y + 17, qs(l.title), Qt::AlignLeft);
  float at = y + 26;
  if (l.scale) {
    constexpr int kSteps = 40;
    const float w = kLegendWidth - 16;
    p.setPen(Qt::NoPen);
    for (int k = 0; k < kSteps; ++k) {
      p.setBrush(qc(NodeColouring::scale_color((static_cast<float>(k) + 0.5f) / kSteps)));
      p.drawRect(QRectF(x + 8 + w * static_cast<float>(k) / kSteps, at, w / kSteps + 0.3f, 12));
    }
    p.setFont(font(10, false));
    p.setPen(QColor(0x3A, 0x40, 0x48));
    text(p, x + 8, at + 24, qs(l.scale_low), Qt::AlignLeft);
    text(p, x + kLegendWidth - 8, at + 24, qs(l.scale_high), Qt::AlignRight);
    p.setFont(font(9, false));
    p.setPen(QColor(0x70, 0x7A, 0x86));
    text(p, x + kLegendWidth / 2, at + 24, qs(l.scale_note), Qt::AlignHCenter);
    at += 36;
  }
  p.setFont(font(10, false));
  for (const auto& r : l.rows) {
    p.setPen(QColor(0x60, 0x68, 0x70));
    p.setBrush(qc(r.color));
    p.drawRoundedRect(QRectF(x + 8, at + 2, 18, 11), 2, 2);
    p.setPen(QColor(0x1E, 0x22, 0x28));
    text(p, x + 32, at + 12, qs(r.label), Qt::AlignLeft);
    at += kLegendRow;
  }
}

void draw_graph(QPainter& p, const Scene& scene, const Layout& layout, int selected_item,
                const SvgColouring* colouring) {
  p.setFont(font(11, false));
  for (std::size_t c = 0; c < scene.clusters.size() && c < layout.clusters.size(); ++c) {
    const auto& r = layout.clusters[c];
    p.setPen(QColor(0x9A, 0xA4, 0xB0));
    p.setBrush(QColor(0, 0, 0, 10));
    p.drawRoundedRect(QRectF(r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0), 6, 6);
    p.setPen(QColor(0x55, 0x60, 0x6E));
    p.setFont(font(11, false));
    text(p, r.x0 + 6, r.y0 + 13, qs(scene.clusters[c].label), Qt::AlignLeft);
  }
  p.setFont(font(9, false));
  for (std::size_t e = 0; e < scene.edges.size() && e < layout.edges.size(); ++e) {
    const auto& b = layout.edges[e].bezier;
    if (b.empty()) continue;
    QPainterPath path(QPointF(b[0].x, b[0].y));
    for (std::size_t k = 1; k + 2 < b.size(); k += 3)
      path.cubicTo(b[k].x, b[k].y, b[k + 1].x, b[k + 1].y, b[k + 2].x, b[k + 2].y);
    if (layout.edges[e].has_arrow)
      path.lineTo(layout.edges[e].arrow_tip.x, layout.edges[e].arrow_tip.y);
    p.setPen(QPen(QColor(0x70, 0x7A, 0x86), 1));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    const auto& label = scene.edges[e].label;
    if (!label.empty() && e < layout.edge_labels.size() && layout.edge_labels[e]) {
      const Vec2 m = *layout.edge_labels[e];
      p.setPen(QColor(0x5A, 0x64, 0x70));
      text(p, m.x, m.y + 10, qs(label), Qt::AlignLeft);
    }
  }
  for (std::size_t i = 0; i < scene.items.size() && i < layout.items.size(); ++i) {
    const auto& it = scene.items[i];
    const auto& r = layout.items[i];
    const QRectF box(r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0);
    const bool sel = static_cast<int>(i) == selected_item;
    const std::vector<FillBand>* bands =
        colouring && i < colouring->fills.size() && !colouring->fills[i].empty()
            ? &colouring->fills[i]
            : nullptr;
    p.setPen(Qt::NoPen);
    if (bands && bands->size() > 1) {
      // Mixed categories: side by side, in proportion, under the outline.
      float x = r.x0;
      for (std::size_t k = 0; k < bands->size(); ++k) {
        const float x2 = k + 1 == bands->size() ? r.x1 : x + (r.x1 - r.x0) * (*bands)[k].share;
        p.setBrush(qc((*bands)[k].color));
        p.drawRect(QRectF(x, r.y0, x2 - x, r.y1 - r.y0));
        x = x2;
      }
      p.setBrush(Qt::NoBrush);
    } else {
      p.setBrush(qc(bands ? bands->front().color : it.color));
    }
    QPen outline(sel ? QColor(0xE0, 0x3A, 0x1E) : QColor(0x40, 0x48, 0x52), sel ? 2.5 : 1);
    if (it.is_group) outline.setDashPattern({4, 2});
    p.setPen(outline);
    p.drawRoundedRect(box, 4, 4);
    p.setPen(QColor(0x1E, 0x22, 0x28));
    p.setFont(font(11, true));
    text(p, r.center().x, r.y0 + 14, qs(it.title), Qt::AlignHCenter);
    p.setPen(QColor(0x3A, 0x40, 0x48));
    p.setFont(font(9, false));
    text(p, r.center().x, r.y0 + 27, qs(it.subtitle), Qt::AlignHCenter);
  }
}

}  // namespace

PngPicture render_png(const Scene& scene, const Layout& layout, int selected_item,
                      const SvgColouring* colouring, const PngLimits& limits) {
  const Legend legend = make_legend(colouring);
  // The SVG's page: the graph, and the legend in a column right of it.
  const float width = layout.bounds.x1 + 2 * kPad + kLegendWidth + kPad;
  const float height = std::max(layout.bounds.y1, legend_height(legend)) + 2 * kPad;
  const float fit = std::min({static_cast<float>(limits.max_side) / width,
                              static_cast<float>(limits.max_side) / height,
                              static_cast<float>(std::sqrt(limits.max_pixels / (width * height)))});
  PngPicture out;
  out.scale = std::min(limits.scale, fit);
  if (out.scale < limits.min_scale)
    throw std::runtime_error(
        "the graph is " + std::to_string(static_cast<int>(width)) + " x " +
        std::to_string(static_cast<int>(height)) + " points: a readable PNG of it would be over " +
        std::to_string(static_cast<int>(limits.max_pixels / 1e6)) + " megapixels (or " +
        std::to_string(limits.max_side) +
        " pixels a side). Export it as SVG, or close groups and export again.");
  if (out.scale < limits.scale)
    out.note = QStringLiteral("drawn at %1% (the graph is big; SVG keeps every detail)")
                   .arg(static_cast<int>(std::lround(out.scale * 100)));
  const QSize size(static_cast<int>(std::ceil(width * out.scale)),
                   static_cast<int>(std::ceil(height * out.scale)));
  out.image = QImage(size, QImage::Format_RGB32);
  if (out.image.isNull())
    throw std::runtime_error("not enough memory for a " + std::to_string(size.width()) + " x " +
                             std::to_string(size.height()) + " image: export it as SVG");
  out.image.fill(QColor(0xFA, 0xFA, 0xFA));
  QPainter p(&out.image);
  p.setRenderHint(QPainter::Antialiasing);
  p.setRenderHint(QPainter::TextAntialiasing);
  p.scale(out.scale, out.scale);
  p.translate(kPad, kPad);
  draw_graph(p, scene, layout, selected_item, colouring);
  draw_legend(p, legend, layout.bounds.x1 + kPad, 0);
  p.end();
  return out;
}

PngPicture write_png(const std::filesystem::path& file, const Scene& scene, const Layout& layout,
                     int selected_item, const SvgColouring* colouring, const PngLimits& limits) {
  PngPicture pic = render_png(scene, layout, selected_item, colouring, limits);
  if (!pic.image.save(QString::fromStdString(file.string()), "PNG"))
    throw std::runtime_error("cannot write " + file.string());
  return pic;
}

}  // namespace tfjsi::viewers
