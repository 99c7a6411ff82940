// TopKV2: the k largest entries of the last axis and their indices. Ties keep the lower index
// first, as TF.js's comparator does.
#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

#include "backends/cpu/tensor_util.h"

namespace tfjsi::cpu::tensor_ops {

namespace {

// Entry a comes before entry b: larger, or as large and earlier.
template <class T>
bool before(const std::pair<T, std::int32_t>& a, const std::pair<T, std::int32_t>& b) {
  return a.first > b.first || (a.first == b.first && a.second < b.second);
}

// The k first entries of row[begin, end) by `before`, in no particular order: a heap of the k
// best so far whose root is the worst of them, so that most entries cost one comparison (entries
// come in index order, so one only as large as the root is never before it). Sets `nan` and stops
// at a NaN, which orders against nothing.
template <class T>
std::vector<std::pair<T, std::int32_t>> best_of(const T* row, std::int64_t begin, std::int64_t end,
                                                std::int64_t k, bool& nan) {
  using Entry = std::pair<T, std::int32_t>;
  std::vector<Entry> heap;
  heap.reserve(static_cast<std::size_t>(std::min(k, end - begin)));
  std::int64_t i = begin;
  for (; i < end && static_cast<std::int64_t>(heap.size()) < k; ++i) {
    if (row[i] != row[i]) {
      nan = true;
      return heap;
    }
    heap.emplace_back(row[i], static_cast<std::int32_t>(i));
    std::push_heap(heap.begin(), heap.end(), before<T>);
  }
  for (; i < end; ++i) {
    const T v = row[i];
    if (v > heap.front().first) {
      std::pop_heap(heap.begin(), heap.end(), before<T>);
      heap.back() = {v, static_cast<std::int32_t>(i)};
      std::push_heap(heap.begin(), heap.end(), before<T>);
    } else if (v != v) {
      nan = true;
      return heap;
    }
  }
  return heap;
}

// One row's k largest, in order. A long row is cut in pieces taken on the pool (the k best of the
// row are among the pieces' k best); a row holding NaN is sorted as a whole, as before, since NaN
// orders against nothing.
template <class T>
void top_k_row(const T* row, std::int64_t n, std::int64_t k, T* values, std::int32_t* indices,
               pthreadpool_t pool) {
  using Entry = std::pair<T, std::int32_t>;
  if (k == 0) return;
  // Pieces long enough that their k best are a small share of them.
  const std::int64_t piece = std::max<std::int64_t>(k * 16, 1 << 16);
  const std::int64_t pieces = pool ? std::max<std::int64_t>(1, n / piece) : 1;
  std::vector<std::vector<Entry>> found(static_cast<std::size_t>(pieces));
  std::vector<char> nan(static_cast<std::size_t>(pieces), 0);
  parallel_for(pool, pieces, 1, [&](std::int64_t pb, std::int64_t pe) {
    for (std::int64_t p = pb; p < pe; ++p) {
      bool seen = false;
      found[static_cast<std::size_t>(p)] =
          best_of(row, n * p / pieces, n * (p + 1) / pieces, k, seen);
      nan[static_cast<std::size_t>(p)] = seen;
    }
  });
  std::vector<Entry> best;
  if (std::find(nan.begin(), nan.end(), 1) == nan.end()) {
    for (auto& f : found) best.insert(best.end(), f.begin(), f.end());
    std::partial_sort(best.begin(), best.begin() + k, best.end(), before<T>);
  } else {
    std::vector<std::int32_t> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::partial_sort(order.begin(), order.begin() + k, order.end(),
                      [row](std::int32_t a, std::int32_t b) {
                        return row[a] > row[b] || (row[a] == row[b] && a < b);
                      });
    for (std::int64_t i = 0; i < k; ++i) best.emplace_back(row[order[i]], order[i]);
  }
  for (std::int64_t i = 0; i < k; ++i) {
    values[i] = best[static_cast<std::size_t>(i)].first;
    indices[i] = best[static_cast<std::size_t>(i)].second;
  }
}

}  // namespace

// Inputs: x, k; attribute sorted. The result is always sorted: with sorted=false TF.js leaves its
// quickselect order, which TF does not define either.
std::vector<HostTensor> TopKV2(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const HostTensor& x0 = input(ctx, 0);
  if (x0.rank() == 0) fail(ctx, "input must have rank >= 1");
  const std::int64_t k = read_int(ctx, 1, "k");
  const std::int64_t n = x0.shape.back();
  if (k < 0 || k > n)
    fail(ctx, "k = " + std::to_string(k) + " is out of range for input of shape " +
                  shape_to_string(x0.shape));
  const DType t = x0.dtype == DType::Float32 ? DType::Float32 : DType::Int32;
  const HostTensor x = convert(x0, t);
  Shape shape = x.shape;
  shape.back() = k;
  HostTensor values = HostTensor::zeros(t, shape);
  HostTensor indices = HostTensor::zeros(DType::Int32, shape);
  const std::int64_t rows = n == 0 ? 0 : x.num_elements() / n;
  dispatch_numeric(ctx, t, [&](auto tag) {
    using T = decltype(tag);
    const T* px = x.values<T>().data();
    T* pv = values.mutable_values<T>().data();
    std::int32_t* pi = indices.mutable_values<std::int32_t>().data();
    // Rows go to the pool; a single row is cut in pieces for it instead.
    parallel_for(rows == 1 ? nullptr : ctx.pool, rows, 1, [&](std::int64_t rb, std::int64_t re) {
      for (std::int64_t r = rb; r < re; ++r)
        top_k_row(px + r * n, n, k, pv + r * k, pi + r * k, rows == 1 ? ctx.pool : nullptr);
    });
  });
  return {values, indices};
}

}  // namespace tfjsi::cpu::tensor_ops
