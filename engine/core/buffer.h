// Byte storage shared between tensors: either owned (aligned heap memory) or borrowed from an
// owner that keeps it alive (a memory-mapped weight shard).
#pragma once

#include <cstddef>
#include <memory>

namespace tfjsi {

class BufferPool;

class Buffer {
 public:
  // Alignment of owned storage: enough for any SIMD load the kernels use.
  static constexpr std::size_t kAlignment = 64;
  // Owned storage is followed by this many readable, zeroed bytes that size() does not count:
  // XNNPACK's vector loops may read up to XNN_EXTRA_BYTES (16) past the end of their inputs.
  static constexpr std::size_t kSlack = 64;

  // Zero-filled, kAlignment-aligned storage of `bytes` bytes; from the thread's BufferPool when
  // one is in scope (BufferPool::Scope), and back to it when the buffer dies.
  static std::shared_ptr<Buffer> allocate(std::size_t bytes);
  // Like allocate(), but the `bytes` are left unwritten (the slack is still zeroed): for a
  // caller that overwrites every byte, which saves a pass over the memory.
  static std::shared_ptr<Buffer> allocate_uninitialized(std::size_t bytes);
  // Read-only bytes that belong to `owner`; `owner` stays alive as long as the buffer does.
  static std::shared_ptr<Buffer> borrow(std::shared_ptr<const void> owner, const std::byte* data,
                                        std::size_t size);

  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  const std::byte* data() const { return data_; }
  // Writable bytes; throws std::logic_error for borrowed (read-only) storage.
  std::byte* mutable_data();
  std::size_t size() const { return size_; }
  bool owned() const { return owned_; }

 private:
  Buffer(std::byte* data, std::size_t size, bool owned, std::shared_ptr<const void> owner);
  static std::shared_ptr<Buffer> allocate_owned(std::size_t bytes);

  std::byte* data_;
  std::size_t size_;
  bool owned_;
  std::shared_ptr<const void> owner_;
  std::shared_ptr<BufferPool> pool_;  // where owned storage returns; none: the heap
};

}  // namespace tfjsi
