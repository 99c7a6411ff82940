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
// Panels. When N * C4 * H passes the driver's maximum texture size, the texel rows are cut into P
// panels of R = ceil(rows / P) rows placed side by side: logical texel (x, y) is stored at
// (x + (y / R) * W, y % R), so the texture is P * W wide and R high. Kernels never see it: the
// load and store helpers of every kernel's prelude do the mapping.
// Padding. On llvmpipe a side that is a power of two gets one more texel (a side of 1 three),
// never addressed: see without_pow2_sides.
// Rank 5 and more is not handled (those nodes stay on cpu). The texture is RGBA32F or, for fp16
// (flag gl.float32_enabled off), RGBA16F or RGBA32F holding half values (Storage below). int32 and
// bool tensors never become textures: the backend keeps their host copy (they only feed
// shape-like parameters: sizes, axes, paddings), and nodes with int32 or bool outputs are not
// supported (they run on cpu).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/gl/gl_objects.h"
#include "backends/gl/texture_pool.h"
#include "core/host_tensor.h"
#include "runtime/backend.h"

namespace tfjsi::gl {

struct TexLayout {
  std::int64_t n = 1, h = 1, w = 1, c = 1;
  std::int64_t panel_rows = 0;  // rows per panel; 0: one panel (the usual case)
  // Texels the texture has right of and below the grid, never addressed by kernels (see
  // without_pow2_sides).
  std::int64_t pad_w = 0, pad_h = 0;
  std::int64_t c4() const { return (c + 3) / 4; }
  // The logical texel grid, before panels.
  std::int64_t width() const { return w; }
  std::int64_t height() const { return n * c4() * h; }
  std::int64_t panels() const {
    return panel_rows > 0 ? (height() + panel_rows - 1) / panel_rows : 1;
  }
  // The texture's size: an empty tensor still gets one texel (GL has no zero-sized textures).
  std::int64_t tex_width() const { return std::max<std::int64_t>(1, width() * panels()) + pad_w; }
  std::int64_t tex_height() const {
    return std::max<std::int64_t>(1, panel_rows > 0 ? panel_rows : height()) + pad_h;
  }
  // Storage index (texel) of logical texel (x, y).
  std::int64_t texel_index(std::int64_t x, std::int64_t y) const {
    if (panel_rows <= 0) return y * tex_width() + x;
    return (y % panel_rows) * tex_width() + (y / panel_rows) * w + x;
  }
  std::array<std::int64_t, 4> dims() const { return {n, h, w, c}; }
  // Same tensor layout; panels follow from the dims and the driver's limit.
  bool operator==(const TexLayout& o) const { return dims() == o.dims(); }
};

// The padded NHWC of `shape`; nullopt for rank > 4.
std::optional<TexLayout> layout_of(const Shape& shape);
// `l` cut into panels when it is taller than `max_size`; nullopt when even panels do not fit.
std::optional<TexLayout> with_panels(TexLayout l, std::int64_t max_size);
// `l` in a texture no side of which is a power of two (one texel more, or 3 for a side of 1),
// where that stays within `max_size`. Mesa's llvmpipe builds a program's code at its first
// dispatch for each pattern of power-of-two sides among the bound textures (GlLimits::
// variant_per_pow2_sides); with every side off the powers of two, one build serves every dispatch.
// Measured (2026-11-26, one program, three bound RGBA32F images): first dispatch 421 ms, then
// 0.1 ms on textures of other sizes of the same pattern, 196-212 ms again on another pattern.
TexLayout without_pow2_sides(TexLayout l, std::int64_t max_size);
// Whether a texture for `shape` fits the driver's limits (rank <= 4, sides <= max_texture_size).
bool fits(const Shape& shape, const GlLimits& limits);

// Float tensors up to this many elements keep their host copy once their texture is made (for
// kernels that read scalar parameters on the host).
inline constexpr std::int64_t kKeepHostElements = 16;

// How a float tensor's values are kept.
enum class Storage {
  Fp32,  // RGBA32F
  Fp16,  // RGBA16F: the driver rounds every value stored
  // RGBA32F holding only values RGBA16F could hold once read: uploads, a rounding pass before
  // a kernel that reads what another left unrounded, or the reader itself round as the driver's
  // RGBA16F would (fp16_storage.h), so that fp16 binds the formats fp32 binds and runs fp32's
  // programs. Twice the bytes.
  Fp16Emulated,
};

// One tensor's data on the gl backend: a texture (float tensors) or a host copy (int32, bool).
// Shared (std::enable_shared_from_this): a dispatch kept for later holds its tensors alive.
// Uploads are deferred: upload() keeps the host values and the layout, and the texture is made
// and filled at the tensor's first use as a texture (GlBackend::realize). A convolution filter
// that its kernel reads only repacked (packed() below) is packed on the host and never gets a
// texture of its own: the first run allocates, uploads and dispatches that much less.
class GlTensorData : public runtime::BackendData,
                     public std::enable_shared_from_this<GlTensorData> {
 public:
  // A texture from `pool` goes back to it when the data dies (if the pool is still there).
  GlTensorData(GlObject texture, TexLayout layout, Storage storage,
               std::weak_ptr<TexturePool> pool = {})
      : texture_(std::move(texture)), layout_(layout), storage_(storage), pool_(std::move(pool)) {}
  explicit GlTensorData(HostTensor host) : host_(std::move(host)) {}
  // Float data whose texture (from `pool`, of `layout` and `storage`) is made later.
  GlTensorData(HostTensor host, TexLayout layout, Storage storage, std::weak_ptr<TexturePool> pool)
      : layout_(layout),
        storage_(storage),
        pool_(std::move(pool)),
        host_(std::move(host)),
        deferred_(true) {}
  ~GlTensorData() override;
  GlTensorData(const GlTensorData&) = delete;
  GlTensorData& operator=(const GlTensorData&) = delete;

  // A deferred tensor counts the texture it will have, so that the engine's accounting does not
  // depend on when it is made.
  std::size_t bytes() const override;
  bool on_host() const { return !texture_ && !deferred_; }
  // Float data uploaded but without its texture yet (host() holds the values).
  bool deferred() const { return deferred_; }
  // The texture of a deferred tensor, filled by the caller (GlBackend::realize).
  void set_texture(GlObject texture) const {
    texture_ = std::move(texture);
    deferred_ = false;
  }
  void drop_host() const { host_.reset(); }
  GLuint texture() const { return texture_.id(); }
  const TexLayout& layout() const { return layout_; }
  // Half precision values (whatever the texture's format).
  bool fp16() const { return storage_ != Storage::Fp32; }
  Storage storage() const { return storage_; }
  // The texture is RGBA16F (else RGBA32F): what images are declared and bound as.
  bool rgba16f() const { return storage_ == Storage::Fp16; }
  // Emulated fp16 whose texels a kernel stored unrounded: readers round them first (lazy
  // rounding, GlBackend::dispatch).
  bool unrounded() const { return unrounded_; }
  void set_unrounded(bool u) const { unrounded_ = u; }
  // Host copy: the data itself for int32/bool, or a small float constant kept at upload so that
  // kernels can read scalar parameters (PadV2's value) without a GPU round trip.
  const std::optional<HostTensor>& host() const { return host_; }
  void set_host(HostTensor h) { host_ = std::move(h); }
  // A copy of this tensor in another texture, in the layout a kernel prefers (convolution weights
  // ordered so that a kernel reads them one texel per output slice at addresses its whole work
  // group shares), made by the first kernel that needs it and kept as long as the data: weights
  // are repacked once, not every run. `key` names the layout and its parameters.
  const GlTensorData* packed(std::string_view key) const {
    for (const auto& [k, d] : packed_)
      if (k == key) return d.get();
    return nullptr;
  }
  const GlTensorData& set_packed(std::string key, std::shared_ptr<GlTensorData> d) const {
    packed_.emplace_back(std::move(key), std::move(d));
    return *packed_.back().second;
  }

 private:
  // Mutable: a deferred tensor gets them at its first use, through const references.
  mutable GlObject texture_;
  TexLayout layout_;
  Storage storage_ = Storage::Fp32;
  std::weak_ptr<TexturePool> pool_;
  mutable std::optional<HostTensor> host_;
  mutable bool deferred_ = false;
  mutable bool unrounded_ = false;
  mutable std::vector<std::pair<std::string, std::shared_ptr<GlTensorData>>> packed_;
};

// A new, uninitialised RGBA16F (else RGBA32F) texture for `layout`.
GlObject make_texture(const std::shared_ptr<GlContext>& ctx, const TexLayout& layout, bool rgba16f);
// Texels of a float tensor in PHWC4 order (padding lanes 0), ready for glTexSubImage2D.
std::vector<float> pack_phwc4(const HostTensor& t, const TexLayout& layout);
// The same into `out`, whose memory is reused (no allocation, no page faults once it is large).
void pack_phwc4(const HostTensor& t, const TexLayout& layout, std::vector<float>& out);
// The inverse: PHWC4 texels to a row-major float32 tensor of `shape`.
HostTensor unpack_phwc4(std::span<const float> texels, const TexLayout& layout, const Shape& shape);

}  // namespace tfjsi::gl
