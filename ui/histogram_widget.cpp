#include "histogram_widget.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace tfjsi::ui {

HistogramWidget::HistogramWidget(QWidget* parent) : QWidget(parent) {
  setMinimumHeight(90);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void HistogramWidget::set_data(std::vector<std::int64_t> bins, double min, double max) {
  bins_ = std::move(bins);
  min_ = min;
  max_ = max;
  update();
}

void HistogramWidget::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing, false);
  const QRect area = rect().adjusted(4, 4, -4, -22);
  p.fillRect(area, palette().base());
  p.setPen(palette().mid().color());
  p.drawRect(area.adjusted(0, 0, -1, -1));
  if (bins_.empty()) return;
  const auto top = std::max<std::int64_t>(1, *std::max_element(bins_.begin(), bins_.end()));
  const double bw = static_cast<double>(area.width()) / static_cast<double>(bins_.size());
  // Square-root heights: weights cluster around zero and a linear scale hides the tails.
  for (std::size_t i = 0; i < bins_.size(); ++i) {
    if (bins_[i] == 0) continue;
    double h =
        std::sqrt(static_cast<double>(bins_[i]) / static_cast<double>(top)) * (area.height() - 2);
    QRectF bar(area.left() + bw * static_cast<double>(i) + 0.5, area.bottom() - h,
               std::max(1.0, bw - 1), h);
    p.fillRect(bar, QColor(70, 130, 200));
  }
  p.setPen(palette().text().color());
  QFont f = font();
  f.setPointSizeF(f.pointSizeF() * 0.85);
  p.setFont(f);
  const QRect labels(area.left(), area.bottom() + 3, area.width(), 16);
  p.drawText(labels, Qt::AlignLeft | Qt::AlignVCenter, QString::number(min_, 'g', 4));
  p.drawText(labels, Qt::AlignRight | Qt::AlignVCenter, QString::number(max_, 'g', 4));
  p.drawText(labels, Qt::AlignHCenter | Qt::AlignVCenter, tr("sqrt scale"));
}

}  // namespace tfjsi::ui
