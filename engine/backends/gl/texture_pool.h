// Textures made during runs, recycled by size and format (the gl counterpart of core/buffer_pool.h,
// and of TF.js's WebGL texture manager). A run makes and frees the same textures every time; a
// driver that backs textures with heap memory (Mesa's llvmpipe) would otherwise allocate and free
// megabytes per node, which costs page faults on every run and leaves the process's resident
// memory to the allocator's fragmentation. Contents of a recycled texture are undefined, as those
// of a new one are: every kernel writes each texel it reads back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include "backends/gl/gl_objects.h"

namespace tfjsi::gl {

struct TexLayout;

class TexturePool {
 public:
  // One size and format: the texture's width and height in texels, and RGBA16F or RGBA32F.
  struct Key {
    std::int64_t width = 0, height = 0;
    bool rgba16f = false;
    auto operator<=>(const Key&) const = default;
    std::size_t bytes() const {
      return static_cast<std::size_t>(width * height) * (rgba16f ? 8 : 16);
    }
  };
  // The key of the texture that holds `layout` (fp32 and emulated fp16 tensors share RGBA32F's).
  static Key key_of(const TexLayout& layout, bool rgba16f);

  // A texture for `layout`, recycled when one is free, else made (make_texture's errors propagate).
  GlObject take(const std::shared_ptr<GlContext>& ctx, const TexLayout& layout, bool rgba16f);
  // The same, also taking a free texture of another size that holds `layout` (wider, taller, its
  // sides powers of two where layout's are, at most kMaxWaste times its texels) when none of its
  // own size is free; `layout`'s pads then grow to the texture's size. For tensors made during
  // runs: a run's tensors of many sizes live and die in turn, and reusing across sizes keeps the
  // first run's new textures near the run's peak. Fresh textures cost llvmpipe a zero fill
  // through page faults (measured: movenet-lightning's first run with a warm program cache made
  // 291 textures, 40 MB, in 233 ms). A waste of up to 8x made that first run's new textures
  // 22.1 MB against 25.9 MB with 2x (bench/results/gl-warm-2026-11-26.md).
  GlObject take_fitting(const std::shared_ptr<GlContext>& ctx, TexLayout& layout, bool rgba16f);
  static constexpr std::int64_t kMaxWaste = 8;
  // A texture that take() gave out comes back. Any thread may call this.
  void give(GlObject texture, Key key) noexcept;
  // Frees free textures of sizes that no take() asked for since the last call: what the model no
  // longer uses (another model, other input shapes) does not stay cached.
  void end_round();
  // Frees every free texture.
  void trim();

  std::size_t cached_bytes() const;
  std::size_t cached_textures() const;
  // What take() made because nothing free fitted: textures, their bytes, the time it took.
  struct Created {
    std::int64_t textures = 0, bytes = 0;
    double ms = 0;
  };
  Created created_totals() const;
  // How many take() calls found nothing free and made a texture.
  std::size_t created() const { return static_cast<std::size_t>(created_totals().textures); }

 private:
  struct Bucket {
    std::vector<GlObject> free;
    bool used = false;  // take() asked for this key since the last end_round()
  };
  mutable std::mutex mutex_;
  std::map<Key, Bucket> buckets_;
  std::size_t cached_bytes_ = 0, cached_textures_ = 0;
  Created created_;
};

}  // namespace tfjsi::gl
