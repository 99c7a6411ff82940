// A small bar chart of a weight's value histogram, with its range underneath.
#pragma once

#include <QWidget>
#include <cstdint>
#include <vector>

namespace tfjsi::ui {

class HistogramWidget : public QWidget {
  Q_OBJECT
 public:
  explicit HistogramWidget(QWidget* parent = nullptr);
  void set_data(std::vector<std::int64_t> bins, double min, double max);
  const std::vector<std::int64_t>& bins() const { return bins_; }
  QSize sizeHint() const override { return {260, 110}; }

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  std::vector<std::int64_t> bins_;
  double min_ = 0, max_ = 0;
};

}  // namespace tfjsi::ui
