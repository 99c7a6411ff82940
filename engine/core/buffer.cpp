#include "core/buffer.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

#include "core/buffer_pool.h"

namespace tfjsi {

Buffer::Buffer(std::byte* data, std::size_t size, bool owned, std::shared_ptr<const void> owner)
    : data_(data), size_(size), owned_(owned), owner_(std::move(owner)) {}

Buffer::~Buffer() {
  if (!owned_) return;
  if (pool_)
    pool_->give(data_, size_ + kSlack);
  else
    ::operator delete (data_, std::align_val_t{kAlignment});
}

std::shared_ptr<Buffer> Buffer::allocate_owned(std::size_t bytes) {
  if (bytes > SIZE_MAX - kSlack) throw std::bad_alloc();
  const std::size_t n = bytes + kSlack;
  BufferPool* pool = BufferPool::current();
  std::shared_ptr<BufferPool> keep = pool ? pool->shared_from_this() : nullptr;
  auto* p = pool ? pool->take(n)
                 : static_cast<std::byte*>(::operator new (n, std::align_val_t{kAlignment}));
  // The Buffer takes ownership of the bytes only once the shared_ptr (and its control block)
  // exists: if making either throws, the Buffer owns nothing, so destroying it frees nothing and
  // the bytes go back exactly once, here. (Owning them from the start freed them twice when the
  // control block could not be allocated: once in ~Buffer, once in this catch.)
  std::shared_ptr<Buffer> b;
  try {
    std::unique_ptr<Buffer> unowned(new Buffer(p, bytes, false, nullptr));
    // On failure, this constructor leaves `unowned` holding the Buffer.
    b = std::shared_ptr<Buffer>(std::move(unowned));
  } catch (...) {
    if (pool)
      pool->give(p, n);
    else
      ::operator delete (p, std::align_val_t{kAlignment});
    throw;
  }
  b->owned_ = true;
  b->pool_ = std::move(keep);
  return b;
}

std::shared_ptr<Buffer> Buffer::allocate(std::size_t bytes) {
  // The slack also means 0 bytes is never allocated: every buffer has a distinct, dereferenceable
  // address.
  auto b = allocate_owned(bytes);
  std::memset(b->data_, 0, bytes + kSlack);
  return b;
}

std::shared_ptr<Buffer> Buffer::allocate_uninitialized(std::size_t bytes) {
  auto b = allocate_owned(bytes);
  std::memset(b->data_ + bytes, 0, kSlack);
  return b;
}

std::shared_ptr<Buffer> Buffer::borrow(std::shared_ptr<const void> owner, const std::byte* data,
                                       std::size_t size) {
  return std::shared_ptr<Buffer>(
      new Buffer(const_cast<std::byte*>(data), size, false, std::move(owner)));
}

std::byte* Buffer::mutable_data() {
  if (!owned_) throw std::logic_error("tfjsi::Buffer: borrowed storage is read-only");
  return data_;
}

}  // namespace tfjsi
