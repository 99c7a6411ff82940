// Tensors as textures, four channels to a texel (PHWC4).
//
// Mapping. A float tensor of rank 0-4 is first padded on the left with 1s to NHWC (rank 0 ->
// [1,1,1,1], [C] -> [1,1,1,C], [W,C] -> [1,1,W,C], [H,W,C] -> [1,H,W,C]); numpy broadcasting aligns
// shapes from the right too, so broadcasting works on the padded shapes directly. Channels are
// grouped in slices of four (C4 = ceil(C/4)); lanes past C in the last slice are always 0 (uploads
// write 0 there and every kernel's store masks them). The slices are stacked vertically in one 2D
// texture:
//     element (n, h, w, c) -> texel (x = w, y = (n * C4 + c / 4) * H + h), lane c % 4,
//     width = W, height = N * C4 * H.
// Rank 5 and more is not handled (those nodes stay on cpu). The texture is RGBA32F or RGBA16F
// (flag gl.float32_enabled). int32 and bool tensors never become textures: the backend keeps their
// host copy (they only feed shape-like parameters: sizes, axes, paddings), and nodes with int32 or
// bool outputs are not supported (they run on cpu).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>

#include "backends/gl/gl_objects.h"
#include "core/host_tensor.h"
#include "runtime/backend.h"

namespace tfjsi::gl {

struct TexLayout {
  std::int64_t n = 1, h = 1, w = 1, c = 1;
  std::int64_t c4() const { return (c + 3) / 4; }
  std::int64_t width() const { return w; }
  std::int64_t height() const { return n * c4() * h; }
  // The texture's size: an empty tensor still gets one texel (GL has no zero-sized textures).
  std::int64_t tex_width() const { return std::max<std::int64_t>(1, width()); }
  std::int64_t tex_height() const { return std::max<std::int64_t>(1, height()); }
  std::array<std::int64_t, 4> dims() const { return {n, h, w, c}; }
  bool operator==(const TexLayout&) const = default;
};

// The padded NHWC of `shape`; nullopt for rank > 4.
std::optional<TexLayout> layout_of(const Shape& shape);
// Whether a texture for `shape` fits the driver's limits (rank <= 4, sides <= max_texture_size).
bool fits(const Shape& shape, const GlLimits& limits);

// One tensor's data on the gl backend: a texture (float tensors) or a host copy (int32, bool).
class GlTensorData : public runtime::BackendData {
 public:
  GlTensorData(GlObject texture, TexLayout layout, bool fp16)
      : texture_(std::move(texture)), layout_(layout), fp16_(fp16) {}
  explicit GlTensorData(HostTensor host) : host_(std::move(host)) {}

  std::size_t bytes() const override;
  bool on_host() const { return !texture_; }
  GLuint texture() const { return texture_.id(); }
  const TexLayout& layout() const { return layout_; }
  bool fp16() const { return fp16_; }
  // Host copy: the data itself for int32/bool, or a small float constant kept at upload so that
  // kernels can read scalar parameters (PadV2's value) without a GPU round trip.
  const std::optional<HostTensor>& host() const { return host_; }
  void set_host(HostTensor h) { host_ = std::move(h); }

 private:
  GlObject texture_;
  TexLayout layout_;
  bool fp16_ = false;
  std::optional<HostTensor> host_;
};

// A new, uninitialised texture for `layout`.
GlObject make_texture(const std::shared_ptr<GlContext>& ctx, const TexLayout& layout, bool fp16);
// Texels of a float tensor in PHWC4 order (padding lanes 0), ready for glTexSubImage2D.
std::vector<float> pack_phwc4(const HostTensor& t, const TexLayout& layout);
// The inverse: PHWC4 texels to a row-major float32 tensor of `shape`.
HostTensor unpack_phwc4(std::span<const float> texels, const TexLayout& layout, const Shape& shape);

}  // namespace tfjsi::gl
