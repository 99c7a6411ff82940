#include "bar_chart.h"

#include <QPainter>
#include <algorithm>

namespace tfjsi::ui {

BarChart::BarChart(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void BarChart::set_bars(QString title, std::vector<Bar> bars, QString other_name) {
  title_ = std::move(title);
  bars_ = std::move(bars);
  other_name_ = std::move(other_name);
  updateGeometry();
  update();
}

QSize BarChart::sizeHint() const {
  return {360, fontMetrics().height() * (static_cast<int>(bars_.size()) + 2)};
}

void BarChart::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  const QFontMetrics fm = fontMetrics();
  const int line = fm.height();
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  p.setPen(palette().text().color());
  QString head = title_;
  if (!other_name_.isEmpty()) head += tr("  (pale: %1)").arg(other_name_);
  p.drawText(QRect(4, 0, width() - 8, line), Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(head, Qt::ElideRight, width() - 8));
  p.setFont(font());
  if (bars_.empty()) {
    p.drawText(rect(), Qt::AlignCenter, tr("Run the model to see where the time goes"));
    return;
  }
  // Scaled to the main values: a first run 100x slower would flatten them all otherwise; its
  // pale bar is cut at the full width and its value written out.
  double hi = 0;
  for (const auto& b : bars_) hi = std::max(hi, b.value);
  if (hi <= 0) hi = 1;
  // Labels take at most 40% of the width; values are written at the bar's end.
  int label_w = 0;
  for (const auto& b : bars_) label_w = std::max(label_w, fm.horizontalAdvance(b.label));
  label_w = std::min(label_w + 6, width() * 2 / 5);
  const bool others =
      std::any_of(bars_.begin(), bars_.end(), [](const Bar& b) { return b.other >= 0; });
  const int value_w = fm.horizontalAdvance(others ? tr("9999.999 ms, first 9999.9")
                                                  : QStringLiteral("9999.999 ms")) +
                      4;
  const int bar_max = std::max(10, width() - label_w - value_w - 8);
  auto length = [&](double v) { return static_cast<int>(std::min(v / hi, 1.0) * bar_max); };
  const int row = std::max(line, (height() - line - 4) / static_cast<int>(bars_.size()));
  int y = line + 4;
  for (const auto& b : bars_) {
    if (y + line > height()) break;
    p.setPen(palette().text().color());
    p.drawText(QRect(4, y, label_w - 6, row), Qt::AlignRight | Qt::AlignVCenter,
               fm.elidedText(b.label, Qt::ElideMiddle, label_w - 6));
    const int h = std::min(row - 2, line);
    const int top = y + (row - h) / 2;
    int end = 0;
    if (b.other >= 0) {
      QColor pale = b.colour;
      pale.setAlpha(70);
      end = length(b.other);
      p.fillRect(QRect(label_w, top, end, h), pale);
    }
    const int w = std::max(1, length(b.value));
    end = std::max(end, w);
    p.fillRect(QRect(label_w, top + h / 4, w, h - h / 2), b.colour);
    QString text = QStringLiteral("%1 ms").arg(b.value, 0, 'f', 3);
    if (b.other >= 0) text += tr(", first %1").arg(b.other, 0, 'f', 1);
    p.drawText(QRect(label_w + end + 4, y, value_w, row), Qt::AlignLeft | Qt::AlignVCenter, text);
    y += row;
  }
}

}  // namespace tfjsi::ui
