#include "svg_export.h"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

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

}  // namespace

void write_svg(const std::filesystem::path& file, const Scene& scene, const Layout& layout,
               int selected_item) {
  std::ofstream f(file);
  if (!f) throw std::runtime_error("cannot write " + file.string());
  const float pad = 10;
  f << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(layout.bounds.x1 + 2 * pad)
    << "\" height=\"" << num(layout.bounds.y1 + 2 * pad) << "\" viewBox=\"" << num(-pad) << ' '
    << num(-pad) << ' ' << num(layout.bounds.x1 + 2 * pad) << ' ' << num(layout.bounds.y1 + 2 * pad)
    << "\" font-family=\"DejaVu Sans, sans-serif\">\n"
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
    const auto& label = scene.edges[e].label;
    if (!label.empty()) {
      const Vec2 m = p.bezier[p.bezier.size() / 2];
      f << "<text x=\"" << num(m.x + 4) << "\" y=\"" << num(m.y) << "\" font-size=\"8\" "
        << "fill=\"#5A6470\">" << escape(label) << "</text>\n";
    }
  }
  for (std::size_t i = 0; i < scene.items.size() && i < layout.items.size(); ++i) {
    const auto& it = scene.items[i];
    const auto& r = layout.items[i];
    const bool sel = static_cast<int>(i) == selected_item;
    f << "<g class=\"" << (it.is_group ? "group" : "node") << "\"><rect x=\"" << num(r.x0)
      << "\" y=\"" << num(r.y0) << "\" width=\"" << num(r.x1 - r.x0) << "\" height=\""
      << num(r.y1 - r.y0) << "\" rx=\"4\" fill=\"" << css(it.color) << "\" stroke=\""
      << (sel ? "#E03A1E" : "#404852") << "\" stroke-width=\"" << (sel ? 2.5 : 1) << "\""
      << (it.is_group ? " stroke-dasharray=\"4 2\"" : "") << "/>"
      << "<text x=\"" << num(r.center().x) << "\" y=\"" << num(r.y0 + 14)
      << "\" text-anchor=\"middle\" font-size=\"11\" font-weight=\"bold\" fill=\"#1E2228\">"
      << escape(it.title) << "</text>"
      << "<text x=\"" << num(r.center().x) << "\" y=\"" << num(r.y0 + 27)
      << "\" text-anchor=\"middle\" font-size=\"9\" fill=\"#3A4048\">" << escape(it.subtitle)
      << "</text></g>\n";
  }
  f << "</svg>\n";
  if (!f) throw std::runtime_error("cannot write " + file.string());
}

}  // namespace tfjsi::viewers
