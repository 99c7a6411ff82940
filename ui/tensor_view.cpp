#include "tensor_view.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <array>
#include <cmath>

#include "analysis/fp16_rounding.h"
#include "tensor_stats.h"

namespace tfjsi::ui {
namespace {

// Five stops along viridis: dark for low, yellow for high, readable in grey too, and far from the
// overlay colours.
QRgb heat(double u) {
  static constexpr std::array<std::array<int, 3>, 5> stops = {
      {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}};
  u = std::clamp(u, 0.0, 1.0) * 4.0;
  const int i = std::min(3, static_cast<int>(u));
  const double f = u - i;
  auto mix = [&](int c) {
    return static_cast<int>(std::lround(stops[i][c] + f * (stops[i + 1][c] - stops[i][c])));
  };
  return qRgb(mix(0), mix(1), mix(2));
}

struct Geometry {
  std::int64_t h = 0, w = 0, c = 0, n = 1;
  bool matrix = false;  // rows x columns of values, not pixels of an image
};

// An image is NHWC or HWC with at most 4 channels. Anything else 2-D at heart is a matrix, drawn
// as one: [1, 384, 16] (anchors x values) is 384 rows of 16 values, not a 1-pixel strip of
// 384 pixels with 16 channels; [N, R, C] is N matrices; [R, C] one.
Geometry geometry(const HostTensor& t) {
  Geometry g;
  if (t.rank() == 4) {
    g = {t.shape[1], t.shape[2], t.shape[3], t.shape[0]};
  } else if (t.rank() == 3 && t.shape[2] <= 4 && t.shape[0] > 1 && t.shape[1] > 1) {
    g = {t.shape[0], t.shape[1], t.shape[2], 1};
  } else if (t.rank() == 3) {
    g = {t.shape[1], t.shape[2], 1, t.shape[0], true};
  } else if (t.rank() == 2 && t.shape[0] > 1 && t.shape[1] > 1) {
    g = {t.shape[0], t.shape[1], 1, 1, true};
  }
  return g;
}

}  // namespace

bool has_image_view(const HostTensor& t) {
  if (t.dtype == DType::String || t.dtype == DType::Complex64 || !t.buffer || t.rank() < 2 ||
      t.rank() > 4)
    return false;
  const Geometry g = geometry(t);
  return g.h > 0 && g.w > 0 && g.c > 0 && g.n > 0 && g.h <= 32768 && g.w <= 32768;
}

bool image_is_matrix(const HostTensor& t) {
  return geometry(t).matrix;
}

int image_channels(const HostTensor& t) {
  return static_cast<int>(geometry(t).c);
}
int image_batches(const HostTensor& t) {
  return static_cast<int>(geometry(t).n);
}

ChannelImage render_channel(const HostTensor& t, int batch, int channel) {
  ChannelImage out;
  if (!has_image_view(t)) return out;
  const Geometry g = geometry(t);
  batch = std::clamp<int>(batch, 0, static_cast<int>(g.n - 1));
  const bool rgb = channel < 0 && g.c >= 3;
  if (!rgb) channel = std::clamp<int>(channel, 0, static_cast<int>(g.c - 1));
  const std::int64_t base = batch * g.h * g.w * g.c;
  auto at = [&](std::int64_t y, std::int64_t x, std::int64_t c) {
    return element(t, base + (y * g.w + x) * g.c + c);
  };
  const int first_c = rgb ? 0 : channel, last_c = rgb ? 2 : channel;

  bool any = false;
  for (std::int64_t y = 0; y < g.h; ++y)
    for (std::int64_t x = 0; x < g.w; ++x)
      for (int c = first_c; c <= last_c; ++c) {
        const double v = at(y, x, c);
        if (!std::isfinite(v)) continue;
        out.lo = any ? std::min(out.lo, v) : v;
        out.hi = any ? std::max(out.hi, v) : v;
        any = true;
      }
  const double span = out.hi > out.lo ? out.hi - out.lo : 1.0;

  out.image = QImage(static_cast<int>(g.w), static_cast<int>(g.h), QImage::Format_RGB32);
  for (std::int64_t y = 0; y < g.h; ++y) {
    auto* row = reinterpret_cast<QRgb*>(out.image.scanLine(static_cast<int>(y)));
    for (std::int64_t x = 0; x < g.w; ++x) {
      QRgb mark = 0;
      int rgbv[3] = {0, 0, 0};
      for (int c = first_c; c <= last_c; ++c) {
        const double v = at(y, x, c);
        if (std::isnan(v)) {
          mark = kNanColour;
          ++out.nan;
        } else if (std::isinf(v)) {
          mark = mark ? mark : kInfColour;
          ++out.inf;
        } else if (std::abs(v) > analysis::kHalfMax) {
          mark = mark ? mark : kOverFp16Colour;
          ++out.over_fp16;
        }
        if (rgb)
          rgbv[c] = static_cast<int>(std::lround(std::clamp((v - out.lo) / span, 0.0, 1.0) * 255));
        else if (std::isfinite(v))
          row[x] = heat((v - out.lo) / span);
      }
      if (rgb) row[x] = qRgb(rgbv[0], rgbv[1], rgbv[2]);
      if (mark) row[x] = mark;
    }
  }
  return out;
}

TensorView::TensorView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(160, 160);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void TensorView::set_tensor(const HostTensor& t) {
  has_tensor_ = has_image_view(t);
  tensor_ = has_tensor_ ? t : HostTensor{};
  render();
}

void TensorView::set_channel(int channel) {
  channel_ = channel;
  render();
}

void TensorView::set_batch(int batch) {
  batch_ = batch;
  render();
}

void TensorView::render() {
  img_ = has_tensor_ ? render_channel(tensor_, batch_, channel_) : ChannelImage{};
  update();
}

QRect TensorView::image_rect() const {
  if (img_.image.isNull()) return {};
  const QRect area = rect().adjusted(4, 4, -4, -24);  // the legend below
  // A matrix fills the area (a 384 x 16 one would be a thin stripe with square cells); an
  // image keeps its aspect.
  QSize s = img_.image.size().scaled(area.size(), has_tensor_ && image_is_matrix(tensor_)
                                                      ? Qt::IgnoreAspectRatio
                                                      : Qt::KeepAspectRatio);
  return QRect(area.x() + (area.width() - s.width()) / 2,
               area.y() + (area.height() - s.height()) / 2, s.width(), s.height());
}

void TensorView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().window());
  if (img_.image.isNull()) {
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("No image view for this tensor"));
    return;
  }
  p.drawImage(image_rect(), img_.image);  // nearest: each element stays a crisp square
  QString legend = tr("%1 .. %2").arg(img_.lo, 0, 'g', 4).arg(img_.hi, 0, 'g', 4);
  if (img_.nan) legend += tr("   NaN %1 (magenta)").arg(img_.nan);
  if (img_.inf) legend += tr("   inf %1 (red)").arg(img_.inf);
  if (img_.over_fp16) legend += tr("   |x|>65504 %1 (orange)").arg(img_.over_fp16);
  p.drawText(rect().adjusted(4, 0, -4, -4), Qt::AlignBottom | Qt::AlignLeft, legend);
}

void TensorView::mouseMoveEvent(QMouseEvent* e) {
  const QRect r = image_rect();
  if (!has_tensor_ || !r.contains(e->position().toPoint())) {
    QToolTip::hideText();
    return;
  }
  const int x = (e->position().toPoint().x() - r.x()) * img_.image.width() / r.width();
  const int y = (e->position().toPoint().y() - r.y()) * img_.image.height() / r.height();
  const int c = image_channels(tensor_);
  const int b = std::clamp(batch_, 0, image_batches(tensor_) - 1);
  const std::int64_t h = img_.image.height(), w = img_.image.width();
  const std::int64_t at = ((b * h + y) * w + x) * c + std::clamp(channel_, 0, c - 1);
  QToolTip::showText(e->globalPosition().toPoint(),
                     tr("y %1, x %2: %3").arg(y).arg(x).arg(element(tensor_, at), 0, 'g', 7), this);
}

}  // namespace tfjsi::ui
