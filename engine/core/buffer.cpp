#include "core/buffer.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

namespace tfjsi {

Buffer::Buffer(std::byte* data, std::size_t size, bool owned, std::shared_ptr<const void> owner)
    : data_(data), size_(size), owned_(owned), owner_(std::move(owner)) {}

Buffer::~Buffer() {
  if (owned_) ::operator delete(data_, std::align_val_t{kAlignment});
}

std::shared_ptr<Buffer> Buffer::allocate(std::size_t bytes) {
  // The slack also means 0 bytes is never allocated: every buffer has a distinct, dereferenceable
  // address.
  if (bytes > SIZE_MAX - kSlack) throw std::bad_alloc();
  const std::size_t n = bytes + kSlack;
  auto* p = static_cast<std::byte*>(::operator new(n, std::align_val_t{kAlignment}));
  std::memset(p, 0, n);
  return std::shared_ptr<Buffer>(new Buffer(p, bytes, true, nullptr));
}

std::shared_ptr<Buffer> Buffer::allocate_uninitialized(std::size_t bytes) {
  if (bytes > SIZE_MAX - kSlack) throw std::bad_alloc();
  auto* p = static_cast<std::byte*>(::operator new(bytes + kSlack, std::align_val_t{kAlignment}));
  std::memset(p + bytes, 0, kSlack);
  return std::shared_ptr<Buffer>(new Buffer(p, bytes, true, nullptr));
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
