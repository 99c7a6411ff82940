#include "backends/gl/texture_pool.h"

#include <bit>
#include <chrono>

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
  }
  const auto t0 = std::chrono::steady_clock::now();
  GlObject t = make_texture(ctx, layout, rgba16f);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::lock_guard lock(mutex_);
  ++created_.textures;
  created_.bytes += static_cast<std::int64_t>(key.bytes());
  created_.ms += ms;
  return t;
}

GlObject TexturePool::take_fitting(const std::shared_ptr<GlContext>& ctx, TexLayout& layout,
                                   bool rgba16f) {
  const Key key = key_of(layout, rgba16f);
  {
    std::lock_guard lock(mutex_);
    auto pot = [](std::int64_t v) { return std::has_single_bit(static_cast<std::uint64_t>(v)); };
    // Its own size first, found by key; on a miss, the larger sizes that may fit. Keys order by
    // width first, and a fitting one is no wider than kMaxWaste times the asked width.
    auto best = buckets_.find(key);
    if (best == buckets_.end() || best->second.free.empty()) {
      best = buckets_.end();
      for (auto it = buckets_.lower_bound(key);
           it != buckets_.end() && it->first.width <= kMaxWaste * key.width; ++it) {
        const Key& k = it->first;
        if (it->second.free.empty() || k.rgba16f != rgba16f || k.width < key.width ||
            k.height < key.height || pot(k.width) != pot(key.width) ||
            pot(k.height) != pot(key.height) ||
            k.width * k.height > kMaxWaste * key.width * key.height)
          continue;
        if (best == buckets_.end() || k.width * k.height < best->first.width * best->first.height)
          best = it;
      }
    }
    if (best != buckets_.end()) {
      const Key& k = best->first;
      if (k != key) buckets_[key].used = true;  // asked for: end_round keeps what runs ask
      Bucket& b = best->second;
      b.used = true;
      GlObject t = std::move(b.free.back());
      b.free.pop_back();
      cached_bytes_ -= k.bytes();
      --cached_textures_;
      layout.pad_w += k.width - key.width;
      layout.pad_h += k.height - key.height;
      return t;
    }
  }
  return take(ctx, layout, rgba16f);
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

TexturePool::Created TexturePool::created_totals() const {
  std::lock_guard lock(mutex_);
  return created_;
}

}  // namespace tfjsi::gl
