// Buffer::allocate when the allocation after the bytes fails (the Buffer object, or the
// shared_ptr's control block): it throws std::bad_alloc and gives the bytes back exactly once,
// to the heap or to the pool. Issue #25 item 1: a failed control block freed them twice.
//
// This executable replaces the global operator new/delete (every form, so that the sanitizer
// builds see one allocator throughout): plain `new` can be told to fail the Nth call, and
// aligned storage (only Buffer uses it here) is tracked so that freeing a pointer that is not
// live is counted instead of reaching free() a second time.
#include <QtTest>
#include <cstdlib>
#include <new>

#include "core/buffer.h"
#include "core/buffer_pool.h"

namespace {

int fail_countdown = 0;  // > 0: the countdown-th plain operator new from now throws
int double_frees = 0;
constexpr int kTracked = 4096;
void* live_aligned[kTracked];
int live_aligned_count = 0;

bool is_live(const void* p) {
  for (int k = 0; k < live_aligned_count; ++k)
    if (live_aligned[k] == p) return true;
  return false;
}

void* plain_new(std::size_t n) {
  if (fail_countdown > 0 && --fail_countdown == 0) throw std::bad_alloc();
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}

void* aligned_new(std::size_t n, std::align_val_t a) {
  const std::size_t al = static_cast<std::size_t>(a);
  void* p = std::aligned_alloc(al, (n + al - 1) / al * al);
  if (!p) throw std::bad_alloc();
  if (live_aligned_count < kTracked) live_aligned[live_aligned_count++] = p;
  return p;
}

void aligned_delete(void* p) noexcept {
  if (!p) return;
  for (int k = 0; k < live_aligned_count; ++k)
    if (live_aligned[k] == p) {
      live_aligned[k] = live_aligned[--live_aligned_count];
      std::free(p);
      return;
    }
  ++double_frees;  // not live: freeing it would be a double free
}

}  // namespace

void* operator new(std::size_t n) {
  return plain_new(n);
}
void* operator new[](std::size_t n) {
  return plain_new(n);
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return plain_new(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept {
  return operator new(n, t);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void* operator new(std::size_t n, std::align_val_t a) {
  return aligned_new(n, a);
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return aligned_new(n, a);
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  try {
    return aligned_new(n, a);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t& t) noexcept {
  return operator new(n, a, t);
}
void operator delete(void* p, std::align_val_t) noexcept {
  aligned_delete(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  aligned_delete(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  aligned_delete(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  aligned_delete(p);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  aligned_delete(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  aligned_delete(p);
}

using namespace tfjsi;

class BufferAllocFailureTest : public QObject {
  Q_OBJECT

  // Allocates with the nth plain operator new after the bytes failing; true if it threw
  // std::bad_alloc, false if it succeeded.
  static bool allocate_failing(int nth) {
    bool threw = false;
    fail_countdown = nth;
    try {
      auto b = Buffer::allocate(100);
      fail_countdown = 0;
    } catch (const std::bad_alloc&) {
      threw = true;
    }
    fail_countdown = 0;
    return threw;
  }

 private slots:
  // First the Buffer object, then the control block (the double free of the issue), then none.
  void failedAllocationsFromTheHeapFreeTheBytesOnce() {
    const int live_before = live_aligned_count;
    QVERIFY(allocate_failing(1));
    QVERIFY(allocate_failing(2));
    QVERIFY(!allocate_failing(3));
    QCOMPARE(double_frees, 0);
    QCOMPARE(live_aligned_count, live_before);
  }

  void failedAllocationsFromAPoolGiveTheBytesBackOnce() {
    {
      auto pool = std::make_shared<BufferPool>();
      BufferPool::Scope scope(*pool);
      // Warm the pool so that taking 100 bytes again allocates nothing: the next plain `new`
      // is the Buffer, the one after it the control block.
      const std::byte* bytes = Buffer::allocate(100)->data();
      QVERIFY(allocate_failing(2));
      // The bytes are cached once, and were not freed behind the pool's back.
      QCOMPARE(pool->cached_bytes(), 100 + Buffer::kSlack);
      QVERIFY(is_live(bytes));
      QCOMPARE(double_frees, 0);
      // They are handed out again, whole.
      auto b = Buffer::allocate(100);
      QCOMPARE(pool->cached_bytes(), std::size_t{0});
    }
    // The pool's cache is freed when it dies: still nothing freed twice.
    QCOMPARE(double_frees, 0);
  }
};

QTEST_GUILESS_MAIN(BufferAllocFailureTest)
#include "buffer_alloc_failure_test.moc"
