#include "svg_export.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include "graph_legend.h"

namespace tfjsi::viewers {
namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// 0xAABBGGRR to "#RRGGBB".
std::string css(std::uint32_t abgr) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02X%02X%02X", abgr & 0xFF, (abgr >> 8) & 0xFF,
                (abgr >> 16) & 0xFF);
  return buf;
}

std::string num(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

void write_legend(std::ostream& f, const Legend& l, float x, float y) {
  f << "<g class=\"legend\"><rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\""
    << num(kLegendWidth) << "\" height=\"" << num(legend_height(l))
    << "\" rx=\"4\" fill=\"#FFFFFF\" stroke=\"#B0B6BE\"/>"
    << "<text x=\"" << num(x + 8) << "\" y=\"" << num(y + 17)
    << "\" font-size=\"11\" font-weight=\"bold\" fill=\"#1E2228\">" << escape(l.title)
    << "</text>\n";
  float at = y + 26;
  if (l.scale) {
    constexpr int kSteps = 40;
    const float w = kLegendWidth - 16;
    for (int k = 0; k < kSteps; ++k)
      f << "<rect x=\"" << num(x + 8 + w * static_cast<float>(k) / kSteps) << "\" y=\"" << num(at)
        << "\" width=\"" << num(w / kSteps + 0.3f) << "\" height=\"12\" fill=\""
        << css(NodeColouring::scale_color((static_cast<float>(k) + 0.5f) / kSteps)) << "\"/>";
    f << "\n<text x=\"" << num(x + 8) << "\" y=\"" << num(at + 24)
      << "\" font-size=\"10\" fill=\"#3A4048\">" << escape(l.scale_low) << "</text>"
      << "<text x=\"" << num(x + kLegendWidth - 8) << "\" y=\"" << num(at + 24)
      << "\" text-anchor=\"end\" font-size=\"10\" fill=\"#3A4048\">" << escape(l.scale_high)
      << "</text><text x=\"" << num(x + kLegendWidth / 2) << "\" y=\"" << num(at + 24)
      << "\" text-anchor=\"middle\" font-size=\"9\" fill=\"#707A86\">" << escape(l.scale_note)
      << "</text>\n";
    at += 36;
  }
  for (const auto& r : l.rows) {
    f << "<rect x=\"" << num(x + 8) << "\" y=\"" << num(at + 2) << "\" width=\"18\" height=\"11\" "
      << "rx=\"2\" fill=\"" << css(r.color) << "\" stroke=\"#606870\"/>"
      << "<text x=\"" << num(x + 32) << "\" y=\"" << num(at + 12)
      << "\" font-size=\"10\" fill=\"#1E2228\">" << escape(r.label) << "</text>\n";
    at += kLegendRow;
  }
  f << "</g>\n";
}

}  // namespace

void write_svg(const std::filesystem::path& file, const Scene& scene, const Layout& layout,
               int selected_item, const SvgColouring* colouring) {
  std::ofstream f(file);
  if (!f) throw std::runtime_error("cannot write " + file.string());
  const float pad = 10;
  const Legend legend = make_legend(colouring);
  // The legend sits right of the graph, so it never covers a box.
  const float width = layout.bounds.x1 + 2 * pad + kLegendWidth + pad;
  const float height = std::max(layout.bounds.y1, legend_height(legend)) + 2 * pad;
  f << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\""
    << num(height) << "\" viewBox=\"" << num(-pad) << ' ' << num(-pad) << ' ' << num(width) << ' '
    << num(height) << "\" font-family=\"DejaVu Sans, sans-serif\">\n"
    << "<rect x=\"" << num(-pad) << "\" y=\"" << num(-pad) << "\" width=\"100%\" height=\"100%\" "
    << "fill=\"#FAFAFA\"/>\n";

  for (std::size_t c = 0; c < scene.clusters.size() && c < layout.clusters.size(); ++c) {
    const auto& r = layout.clusters[c];
    f << "<g class=\"cluster\"><rect x=\"" << num(r.x0) << "\" y=\"" << num(r.y0) << "\" width=\""
      << num(r.x1 - r.x0) << "\" height=\"" << num(r.y1 - r.y0)
      << "\" rx=\"6\" fill=\"#000000\" fill-opacity=\"0.04\" stroke=\"#9AA4B0\"/>"
      << "<text x=\"" << num(r.x0 + 6) << "\" y=\"" << num(r.y0 + 13) << "\" font-size=\"11\" "
      << "fill=\"#55606E\">" << escape(scene.clusters[c].label) << "</text></g>\n";
  }
  for (std::size_t e = 0; e < scene.edges.size() && e < layout.edges.size(); ++e) {
    const auto& p = layout.edges[e];
    if (p.bezier.empty()) continue;
    f << "<path d=\"M" << num(p.bezier[0].x) << ',' << num(p.bezier[0].y);
    for (std::size_t k = 1; k + 2 < p.bezier.size(); k += 3)
      f << " C" << num(p.bezier[k].x) << ',' << num(p.bezier[k].y) << ' ' << num(p.bezier[k + 1].x)
        << ',' << num(p.bezier[k + 1].y) << ' ' << num(p.bezier[k + 2].x) << ','
        << num(p.bezier[k + 2].y);
    if (p.has_arrow) f << " L" << num(p.arrow_tip.x) << ',' << num(p.arrow_tip.y);
    f << "\" fill=\"none\" stroke=\"#707A86\" stroke-width=\"1\"/>\n";
    // Where the layout found the label room: once per tensor, over no box or other label.
    const auto& label = scene.edges[e].label;
    if (!label.empty() && e < layout.edge_labels.size() && layout.edge_labels[e]) {
      const Vec2 m = *layout.edge_labels[e];
      f << "<text x=\"" << num(m.x) << "\" y=\"" << num(m.y + 10) << "\" font-size=\"9\" "
        << "fill=\"#5A6470\">" << escape(label) << "</text>\n";
    }
  }
  for (std::size_t i = 0; i < scene.items.size() && i < layout.items.size(); ++i) {
    const auto& it = scene.items[i];
    const auto& r = layout.items[i];
    const bool sel = static_cast<int>(i) == selected_item;
    const std::vector<FillBand>* bands =
        colouring && i < colouring->fills.size() && !colouring->fills[i].empty()
            ? &colouring->fills[i]
            : nullptr;
    f << "<g class=\"" << (it.is_group ? "group" : "node") << "\">";
    if (bands && bands->size() > 1) {
      // Mixed categories: side by side, in proportion, under the outline.
      float x = r.x0;
      for (std::size_t k = 0; k < bands->size(); ++k) {
        const float x2 = k + 1 == bands->size() ? r.x1 : x + (r.x1 - r.x0) * (*bands)[k].share;
        f << "<rect x=\"" << num(x) << "\" y=\"" << num(r.y0) << "\" width=\"" << num(x2 - x)
          << "\" height=\"" << num(r.y1 - r.y0) << "\" fill=\"" << css((*bands)[k].color) << "\"/>";
        x = x2;
      }
    }
    const std::string fill =
        bands && bands->size() > 1 ? "none" : css(bands ? bands->front().color : it.color);
    f << "<rect x=\"" << num(r.x0) << "\" y=\"" << num(r.y0) << "\" width=\"" << num(r.x1 - r.x0)
      << "\" height=\"" << num(r.y1 - r.y0) << "\" rx=\"4\" fill=\"" << fill << "\" stroke=\""
      << (sel ? "#E03A1E" : "#404852") << "\" stroke-width=\"" << (sel ? 2.5 : 1) << "\""
      << (it.is_group ? " stroke-dasharray=\"4 2\"" : "") << "/>"
      << "<text x=\"" << num(r.center().x) << "\" y=\"" << num(r.y0 + 14)
      << "\" text-anchor=\"middle\" font-size=\"11\" font-weight=\"bold\" fill=\"#1E2228\">"
      << escape(it.title) << "</text>"
      << "<text x=\"" << num(r.center().x) << "\" y=\"" << num(r.y0 + 27)
      << "\" text-anchor=\"middle\" font-size=\"9\" fill=\"#3A4048\">" << escape(it.subtitle)
      << "</text></g>\n";
  }
  write_legend(f, legend, layout.bounds.x1 + pad, 0);
  f << "</svg>\n";
  if (!f) throw std::runtime_error("cannot write " + file.string());
}

}  // namespace tfjsi::viewers
