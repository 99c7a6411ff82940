// A heatmap (or, for three channels, an image) of one channel of a 4-D [N,H,W,C] or 3-D [H,W,C]
// tensor, with overlays that mark NaN (magenta), inf (red) and finite values past the fp16 range
// (orange, |x| > 65504). Hovering shows the value under the cursor.
#pragma once

#include <QImage>
#include <QWidget>

#include "core/host_tensor.h"

namespace tfjsi::ui {

struct ChannelImage {
  QImage image;           // W x H, one pixel per element
  double lo = 0, hi = 0;  // the finite range the colours span
  int nan = 0, inf = 0, over_fp16 = 0;
};

// Whether the tensor has an image view: rank 4 or 3 (an image), or 2-D at heart (a matrix),
// numeric, with a non-empty H and W.
bool has_image_view(const HostTensor& t);
// Whether it is drawn as a matrix (one value per cell, one channel): a 3-D tensor whose last dim
// is more than an image's 4 channels ([1, 384, 16]: 384 rows of 16), or a 2-D [R, C].
bool image_is_matrix(const HostTensor& t);
// Channel count of such a tensor (its last dim; 1 for a matrix).
int image_channels(const HostTensor& t);
// Batch count (1 for 3-D images).
int image_batches(const HostTensor& t);
// Renders `channel` of batch `batch`; channel -1 shows channels 0..2 as RGB (C >= 3), scaled
// together over their finite range. Overlay colours win over the heatmap's.
ChannelImage render_channel(const HostTensor& t, int batch, int channel);

inline constexpr QRgb kNanColour = 0xffff00ff;
inline constexpr QRgb kInfColour = 0xffff0000;
inline constexpr QRgb kOverFp16Colour = 0xffff8c00;

class TensorView : public QWidget {
  Q_OBJECT
 public:
  explicit TensorView(QWidget* parent = nullptr);

  // Shows `t` (shares its buffer, which is immutable); an empty or non-image tensor clears it.
  void set_tensor(const HostTensor& t);
  void set_channel(int channel);  // -1: RGB
  void set_batch(int batch);
  const ChannelImage& rendered() const { return img_; }
  // Where the image is drawn on the widget (empty without one).
  QRect image_rect() const;
  QSize sizeHint() const override { return {280, 280}; }

 protected:
  void paintEvent(QPaintEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;

 private:
  void render();

  HostTensor tensor_;
  bool has_tensor_ = false;
  int channel_ = 0, batch_ = 0;
  ChannelImage img_;
};

}  // namespace tfjsi::ui
