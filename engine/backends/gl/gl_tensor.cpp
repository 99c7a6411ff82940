#include "backends/gl/gl_tensor.h"

#include <bit>
#include <cstring>
#include <stdexcept>

namespace tfjsi::gl {

std::optional<TexLayout> layout_of(const Shape& shape) {
  if (shape.size() > 4) return std::nullopt;
  std::array<std::int64_t, 4> d{1, 1, 1, 1};
  const std::size_t off = 4 - shape.size();
  for (std::size_t i = 0; i < shape.size(); ++i) d[off + i] = shape[i];
  return TexLayout{d[0], d[1], d[2], d[3]};
}

std::optional<TexLayout> with_panels(TexLayout l, std::int64_t max_size) {
  l.panel_rows = 0;
  if (l.width() > max_size) return std::nullopt;
  if (l.height() <= max_size) return l;
  const std::int64_t p = (l.height() + max_size - 1) / max_size;
  l.panel_rows = (l.height() + p - 1) / p;
  if (l.panels() * l.width() > max_size) return std::nullopt;
  return l;
}

TexLayout without_pow2_sides(TexLayout l, std::int64_t max_size) {
  auto pad = [&](std::int64_t side) -> std::int64_t {
    if (!std::has_single_bit(static_cast<std::uint64_t>(side))) return 0;
    const std::int64_t to = side == 1 ? 3 : side + 1;
    return to <= max_size ? to - side : 0;
  };
  l.pad_w = l.pad_h = 0;
  l.pad_w = pad(l.tex_width());
  l.pad_h = pad(l.tex_height());
  return l;
}

bool fits(const Shape& shape, const GlLimits& limits) {
  const auto l = layout_of(shape);
  if (!l) return false;
  for (auto v : shape)
    if (v < 0) return false;
  return with_panels(*l, limits.max_texture_size).has_value();
}

GlTensorData::~GlTensorData() {
  if (auto pool = pool_.lock(); pool && texture_)
    pool->give(std::move(texture_), TexturePool::key_of(layout_, rgba16f()));
}

std::size_t GlTensorData::bytes() const {
  if (!texture_ && !deferred_) return host_ ? host_->byte_size() : 0;
  const auto texels = static_cast<std::size_t>(layout_.tex_width() * layout_.tex_height());
  std::size_t packed = 0;
  for (const auto& p : packed_) packed += p.second->bytes();
  return texels * (rgba16f() ? 8 : 16) + packed;  // emulated fp16: RGBA32F's 16
}

GlObject make_texture(const std::shared_ptr<GlContext>& ctx, const TexLayout& layout,
                      bool rgba16f) {
  GlObject tex(ctx, GlKind::Texture);
  while (glGetError() != GL_NO_ERROR) {
    // Errors left by earlier calls are not this allocation's.
  }
  glBindTexture(GL_TEXTURE_2D, tex.id());
  const auto w = static_cast<GLsizei>(layout.tex_width());
  const auto h = static_cast<GLsizei>(layout.tex_height());
  glTexStorage2D(GL_TEXTURE_2D, 1, rgba16f ? GL_RGBA16F : GL_RGBA32F, w, h);
  const GLenum err = glGetError();
  // Nearest and one level: texelFetch needs a complete texture.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
  if (err != GL_NO_ERROR) {
    const std::string what = err == GL_OUT_OF_MEMORY ? "GL_OUT_OF_MEMORY"
                             : err == GL_INVALID_VALUE
                                 ? "GL_INVALID_VALUE: past GL_MAX_TEXTURE_SIZE"
                             : err == GL_CONTEXT_LOST ? "GL_CONTEXT_LOST"
                                                      : "GL error " + std::to_string(err);
    if (err == GL_CONTEXT_LOST) ctx->mark_lost("GL_CONTEXT_LOST");
    throw std::runtime_error("gl backend: cannot allocate a " + std::to_string(w) + "x" +
                             std::to_string(h) + (rgba16f ? " RGBA16F" : " RGBA32F") +
                             " texture (" + what + ")");
  }
  return tex;
}

void pack_phwc4(const HostTensor& t, const TexLayout& l, std::vector<float>& out) {
  const std::int64_t C4 = l.c4();
  // Zeros first: lanes past C and texels off the grid. `out` keeps its memory from call to call.
  out.assign(static_cast<std::size_t>(l.tex_width() * l.tex_height() * 4), 0.f);
  const float* src = t.values<float>().data();
  // In texture order (a texel row is one (n, slice, h) and is contiguous in w), so that writes go
  // forward through memory: a filter [KH][KW][IC][OC] written element by element in its own order
  // jumped a whole texture row per 4 channels.
  for (std::int64_t n = 0; n < l.n; ++n)
    for (std::int64_t s = 0; s < C4; ++s) {
      const std::int64_t lanes = std::min<std::int64_t>(4, l.c - 4 * s);
      for (std::int64_t h = 0; h < l.h; ++h) {
        float* row = out.data() + l.texel_index(0, (n * C4 + s) * l.h + h) * 4;
        const float* px = src + ((n * l.h + h) * l.w) * l.c + 4 * s;
        for (std::int64_t w = 0; w < l.w; ++w, px += l.c)
          for (std::int64_t k = 0; k < lanes; ++k) row[w * 4 + k] = px[k];
      }
    }
}

std::vector<float> pack_phwc4(const HostTensor& t, const TexLayout& l) {
  std::vector<float> out;
  pack_phwc4(t, l, out);
  return out;
}

HostTensor unpack_phwc4(std::span<const float> texels, const TexLayout& l, const Shape& shape) {
  HostTensor t = HostTensor::zeros(DType::Float32, shape);
  auto dst = t.mutable_values<float>();
  const std::int64_t C4 = l.c4();
  for (std::int64_t n = 0; n < l.n; ++n)
    for (std::int64_t h = 0; h < l.h; ++h)
      for (std::int64_t w = 0; w < l.w; ++w) {
        float* px = dst.data() + ((n * l.h + h) * l.w + w) * l.c;
        for (std::int64_t c = 0; c < l.c; ++c) {
          const std::int64_t y = (n * C4 + c / 4) * l.h + h;
          px[c] = texels[static_cast<std::size_t>(l.texel_index(w, y) * 4 + c % 4)];
        }
      }
  return t;
}

}  // namespace tfjsi::gl
