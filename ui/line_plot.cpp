#include "line_plot.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace tfjsi::ui {

QString format_bytes(double bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (std::abs(bytes) >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  if (u == 0) return QStringLiteral("%1 B").arg(static_cast<long long>(bytes));
  return QStringLiteral("%1 %2").arg(bytes, 0, 'f', std::abs(bytes) < 10 ? 2 : 1).arg(units[u]);
}

LinePlot::LinePlot(QString title, Unit unit, QWidget* parent)
    : QWidget(parent), title_(std::move(title)), unit_(unit) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void LinePlot::set_data(std::vector<Series> series, std::vector<Marker> markers) {
  series_ = std::move(series);
  markers_ = std::move(markers);
  update();
}

QString LinePlot::label(double v) const {
  return unit_ == Unit::Bytes ? format_bytes(v) : QString::number(static_cast<long long>(v));
}

void LinePlot::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), palette().base());
  const QFontMetrics fm = fontMetrics();
  const int line = fm.height();

  // The y range: from 0 (a flat line must look flat, not like noise around its value) to a bit
  // over the largest value.
  double hi = 0;
  std::size_t n = 0;
  for (const auto& s : series_) {
    for (double v : s.values) hi = std::max(hi, v);
    n = std::max(n, s.values.size());
  }
  if (hi <= 0) hi = 1;
  hi *= 1.1;
  const int left =
      std::max(fm.horizontalAdvance(label(hi)), fm.horizontalAdvance(label(hi / 2))) + 8;
  // Title and legend on one line above the plot.
  p.setPen(palette().text().color());
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  p.drawText(QPoint(4, line - 3), title_);
  int x = 4 + QFontMetrics(bold).horizontalAdvance(title_) + 12;
  p.setFont(font());
  int legend_rows = 1;
  for (const auto& s : series_) {
    const int w = 16 + fm.horizontalAdvance(s.name) + 10;
    if (x + w > width() - 4) {
      x = 4;
      ++legend_rows;
    }
    const int y = legend_rows * line - line / 2 - 1;
    p.setPen(QPen(s.colour, 2, s.dashed ? Qt::DashLine : Qt::SolidLine));
    p.drawLine(x, y, x + 12, y);
    p.setPen(palette().text().color());
    p.drawText(QPoint(x + 16, legend_rows * line - 3), s.name);
    x += w;
  }
  const QRect plot(left, legend_rows * line + 4, width() - left - 8,
                   height() - legend_rows * line - 4 - line - 4);
  if (plot.width() < 20 || plot.height() < 20) return;
  p.setPen(palette().mid().color());
  p.drawRect(plot);
  // Grid lines at half the range and at the largest value.
  for (double f : {0.5, 1.0 / 1.1}) {
    const int y = plot.bottom() - static_cast<int>(f * plot.height());
    p.setPen(QPen(palette().mid().color(), 1, Qt::DotLine));
    p.drawLine(plot.left(), y, plot.right(), y);
    p.setPen(palette().text().color());
    const QString l = label(hi * f);
    p.drawText(QRect(0, y - line / 2, left - 4, line), Qt::AlignRight | Qt::AlignVCenter, l);
  }
  p.drawText(QRect(0, plot.bottom() - line / 2, left - 4, line), Qt::AlignRight | Qt::AlignVCenter,
             label(0));
  if (n == 0) {
    p.drawText(plot, Qt::AlignCenter, tr("no samples yet"));
    return;
  }
  auto px = [&](std::size_t i) {
    return plot.left() +
           (n == 1 ? plot.width() / 2.0 : static_cast<double>(i) * plot.width() / (n - 1));
  };
  auto py = [&](double v) { return plot.bottom() - v / hi * plot.height(); };
  // Run markers: ticks under the plot in the run's backend colour.
  for (const auto& m : markers_) {
    if (m.index < 0 || static_cast<std::size_t>(m.index) >= n) continue;
    const double mx = px(static_cast<std::size_t>(m.index));
    p.setPen(QPen(m.colour, 2));
    p.drawLine(QPointF(mx, plot.bottom() + 2), QPointF(mx, plot.bottom() + 7));
  }
  p.setPen(palette().text().color());
  p.drawText(QRect(plot.left(), plot.bottom() + 4, plot.width(), line), Qt::AlignRight,
             tr("%1 samples").arg(n));
  p.setClipRect(plot.adjusted(0, -2, 1, 2));
  for (const auto& s : series_) {
    if (s.values.empty()) continue;
    QPainterPath path;
    path.moveTo(px(0), py(s.values[0]));
    for (std::size_t i = 1; i < s.values.size(); ++i) path.lineTo(px(i), py(s.values[i]));
    p.setPen(QPen(s.colour, 2, s.dashed ? Qt::DashLine : Qt::SolidLine));
    p.setBrush(Qt::NoBrush);
    if (s.values.size() == 1)
      p.drawEllipse(QPointF(px(0), py(s.values[0])), 2, 2);
    else
      p.drawPath(path);
  }
}

}  // namespace tfjsi::ui
