#include "core/buffer_pool.h"

#include <new>

#include "core/buffer.h"

namespace tfjsi {
namespace {
thread_local BufferPool* current_pool = nullptr;
}  // namespace

BufferPool::~BufferPool() {
  trim();
}

BufferPool::Scope::Scope(BufferPool& pool) : previous_(current_pool) {
  current_pool = &pool;
}
BufferPool::Scope::~Scope() {
  current_pool = previous_;
}

BufferPool* BufferPool::current() {
  return current_pool;
}

void BufferPool::release(std::byte* data) noexcept {
  ::operator delete (data, std::align_val_t{Buffer::kAlignment});
}

std::byte* BufferPool::take(std::size_t capacity) {
  {
    std::lock_guard lock(mutex_);
    Bucket& b = buckets_[capacity];
    b.used = true;
    if (!b.free.empty()) {
      std::byte* p = b.free.back();
      b.free.pop_back();
      cached_ -= capacity;
      return p;
    }
    ++heap_allocations_;
  }
  return static_cast<std::byte*>(::operator new (capacity, std::align_val_t{Buffer::kAlignment}));
}

void BufferPool::give(std::byte* data, std::size_t capacity) noexcept {
  try {
    std::lock_guard lock(mutex_);
    buckets_[capacity].free.push_back(data);
    cached_ += capacity;
  } catch (...) {
    release(data);  // no room to remember it (out of memory): give it back to the system
  }
}

void BufferPool::end_round() {
  std::lock_guard lock(mutex_);
  for (auto it = buckets_.begin(); it != buckets_.end();) {
    Bucket& b = it->second;
    if (!b.used) {
      for (std::byte* p : b.free) release(p);
      cached_ -= b.free.size() * it->first;
      it = buckets_.erase(it);
    } else {
      b.used = false;
      ++it;
    }
  }
}

void BufferPool::trim() {
  std::lock_guard lock(mutex_);
  for (auto& [capacity, b] : buckets_)
    for (std::byte* p : b.free) release(p);
  buckets_.clear();
  cached_ = 0;
}

std::size_t BufferPool::cached_bytes() const {
  std::lock_guard lock(mutex_);
  return cached_;
}

std::size_t BufferPool::heap_allocations() const {
  std::lock_guard lock(mutex_);
  return heap_allocations_;
}

}  // namespace tfjsi
