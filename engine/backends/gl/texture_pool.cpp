#include "backends/gl/texture_pool.h"

#include "backends/gl/gl_tensor.h"

namespace tfjsi::gl {

TexturePool::Key TexturePool::key_of(const TexLayout& layout, bool rgba16f) {
  return {layout.tex_width(), layout.tex_height(), rgba16f};
}

GlObject TexturePool::take(const std::shared_ptr<GlContext>& ctx, const TexLayout& layout,
                           bool rgba16f) {
  const Key key = key_of(layout, rgba16f);
  {
    std::lock_guard lock(mutex_);
    Bucket& b = buckets_[key];
    b.used = true;
    if (!b.free.empty()) {
      GlObject t = std::move(b.free.back());
      b.free.pop_back();
      cached_bytes_ -= key.bytes();
      --cached_textures_;
      return t;
    }
    ++created_;
  }
  return make_texture(ctx, layout, rgba16f);
}

void TexturePool::give(GlObject texture, Key key) noexcept {
  if (!texture) return;
  try {
    std::lock_guard lock(mutex_);
    buckets_[key].free.push_back(std::move(texture));
    cached_bytes_ += key.bytes();
    ++cached_textures_;
  } catch (...) {
    // No room to remember it (out of memory): `texture` is deleted on the way out.
  }
}

void TexturePool::end_round() {
  std::vector<GlObject> dropped;  // deleted after the lock is released
  {
    std::lock_guard lock(mutex_);
    for (auto it = buckets_.begin(); it != buckets_.end();) {
      Bucket& b = it->second;
      if (b.used) {
        b.used = false;
        ++it;
        continue;
      }
      cached_bytes_ -= b.free.size() * it->first.bytes();
      cached_textures_ -= b.free.size();
      for (GlObject& t : b.free) dropped.push_back(std::move(t));
      it = buckets_.erase(it);
    }
  }
}

void TexturePool::trim() {
  std::map<Key, Bucket> dropped;
  {
    std::lock_guard lock(mutex_);
    dropped.swap(buckets_);
    cached_bytes_ = 0;
    cached_textures_ = 0;
  }
}

std::size_t TexturePool::cached_bytes() const {
  std::lock_guard lock(mutex_);
  return cached_bytes_;
}

std::size_t TexturePool::cached_textures() const {
  std::lock_guard lock(mutex_);
  return cached_textures_;
}

std::size_t TexturePool::created() const {
  std::lock_guard lock(mutex_);
  return created_;
}

}  // namespace tfjsi::gl
