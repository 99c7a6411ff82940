// A small line plot painted with QPainter: several named series over a shared sample index, a
// legend, y ticks in the plot's unit (bytes or a count), and markers on the x axis (the runs).
// The Memory panel stacks two of them; Qt Charts is not a dependency of the project.
#pragma once

#include <QColor>
#include <QString>
#include <QWidget>
#include <vector>

namespace tfjsi::ui {

// "0 B", "12.5 KiB", "3.20 MiB".
QString format_bytes(double bytes);

class LinePlot : public QWidget {
  Q_OBJECT
 public:
  enum class Unit { Bytes, Count };
  struct Series {
    QString name;
    QColor colour;
    std::vector<double> values;  // one per sample; the series share the x axis
    bool dashed = false;
  };
  struct Marker {
    int index = 0;  // the sample it marks
    QColor colour;
  };

  explicit LinePlot(QString title, Unit unit, QWidget* parent = nullptr);

  void set_data(std::vector<Series> series, std::vector<Marker> markers);
  const std::vector<Series>& series() const { return series_; }
  QSize sizeHint() const override { return {360, 150}; }
  QSize minimumSizeHint() const override { return {200, 90}; }

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  QString label(double v) const;

  QString title_;
  Unit unit_;
  std::vector<Series> series_;
  std::vector<Marker> markers_;
};

}  // namespace tfjsi::ui
