// Recycles freed tensor storage by exact size. A model allocates the same sizes on every run, so
// from the second run on its intermediates come from here and malloc is not called. Without it,
// glibc's heap fragments and grows run after run: selfie on cpu gained ~40 KiB of resident memory
// per run with a flat live heap, and fixing the mmap threshold instead cost 35% in speed.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tfjsi {

// Must be owned by a std::shared_ptr: every buffer it gives out holds one, so that storage can come
// back after the pool's owner has gone.
class BufferPool : public std::enable_shared_from_this<BufferPool> {
 public:
  BufferPool() = default;
  ~BufferPool();
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  // Makes `pool` the one Buffer::allocate draws from on this thread while the Scope lives.
  // Kernels allocate through HostTensor's factories in many places; the Engine opens a Scope
  // around a run on its own thread instead of threading a pool through every one of them.
  class Scope {
   public:
    explicit Scope(BufferPool& pool);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    BufferPool* previous_;
  };
  // The pool of the innermost Scope on this thread, or nullptr.
  static BufferPool* current();

  // Storage of exactly `capacity` bytes (kAlignment-aligned), recycled or new.
  std::byte* take(std::size_t capacity);
  // Storage that take() gave out comes back; it is kept for reuse. Any thread may call this.
  void give(std::byte* data, std::size_t capacity) noexcept;
  // Frees what is cached in sizes that no take() asked for since the last call: what a model
  // no longer uses (after a switch of model or input shape) does not stay cached.
  void end_round();
  // Frees everything cached.
  void trim();

  std::size_t cached_bytes() const;
  // How many take() calls found nothing cached and went to the heap.
  std::size_t heap_allocations() const;

 private:
  struct Bucket {
    std::vector<std::byte*> free;
    bool used = false;  // take() asked for this size since the last end_round()
  };
  static void release(std::byte* data) noexcept;

  mutable std::mutex mutex_;
  std::unordered_map<std::size_t, Bucket> buckets_;
  std::size_t cached_ = 0;
  std::size_t heap_allocations_ = 0;
};

}  // namespace tfjsi
