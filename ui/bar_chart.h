// Horizontal bars painted with QPainter: the top entries of the Profile panel (nodes or ops), each
// with its label and value, longest first; a second, paler bar per entry shows another figure
// (the first run) when given.
#pragma once

#include <QColor>
#include <QString>
#include <QWidget>
#include <vector>

namespace tfjsi::ui {

class BarChart : public QWidget {
  Q_OBJECT
 public:
  struct Bar {
    QString label;
    double value = 0;
    double other = -1;  // < 0: none
    QColor colour;
  };

  explicit BarChart(QWidget* parent = nullptr);
  // `other_name` names the paler bars ("first run"); empty when there are none.
  void set_bars(QString title, std::vector<Bar> bars, QString other_name = {});
  const std::vector<Bar>& bars() const { return bars_; }
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override { return {200, 120}; }

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  QString title_, other_name_;
  std::vector<Bar> bars_;
};

}  // namespace tfjsi::ui
