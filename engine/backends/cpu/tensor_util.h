// Helpers shared by the cpu tensor-op kernels (elementwise, reductions, shape, gather, selection):
// error messages that name the node, reading small int/float inputs, axes, dtype dispatch and a
// parallel loop over pthreadpool.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "backends/cpu/kernel.h"
#include "core/error.h"

namespace tfjsi::cpu::tensor_ops {

// Throws ModelError "node 'NAME' (Op): WHAT".
[[noreturn]] void fail(const KernelContext& ctx, const std::string& what);

// Checks the input count is within [min, max] (max < 0: no upper bound).
void require_inputs(const KernelContext& ctx, std::size_t min, int max = -1);
// Input `i`, which must be a float32, int32 or bool tensor (not string, not complex64).
const HostTensor& input(const KernelContext& ctx, std::size_t i);
// Input `i` as input() checks it, complex64 allowed: for the ops TF.js also computes on complex
// tensors (Add, Sub, Mul, Concat, ZerosLike, OnesLike).
const HostTensor& input_or_complex(const KernelContext& ctx, std::size_t i);

// The values of a small int32 (or float32, truncated) tensor input: shapes, axes, sizes.
std::vector<std::int64_t> read_ints(const KernelContext& ctx, std::size_t i, std::string_view what);
// A scalar (or one-element) numeric input as double.
double read_scalar(const KernelContext& ctx, std::size_t i, std::string_view what);
// A scalar (or one-element) int input.
std::int64_t read_int(const KernelContext& ctx, std::size_t i, std::string_view what);

// `axis` in [-rank, rank) mapped to [0, rank); anything else fails naming the node.
int normalize_axis(const KernelContext& ctx, std::int64_t axis, int rank);

// TF.js's type promotion for mixed-dtype arithmetic: bool < int32 < float32.
DType upcast(DType a, DType b);
// A copy of `t` converted to `to` with TF.js Cast rules (float->int truncates toward zero and
// wraps like Int32Array; NaN/inf give 0; ->bool is "!= 0"). Returns `t` itself when already `to`.
HostTensor convert(const HostTensor& t, DType to);
// Float -> int32 the way a JS Int32Array stores a number: truncate, wrap modulo 2^32, NaN/inf -> 0.
std::int32_t js_to_int32(double v);

// Runs fn(begin, end) over [0, n) in chunks of at least `grain` items, on `pool` when the work is
// large enough (pthreadpool runs inline when the pool is null).
void parallel_for_impl(pthreadpool_t pool, std::int64_t n, std::int64_t grain, void* fn_ctx,
                       void (*fn)(void*, std::int64_t, std::int64_t));
template <class F>
void parallel_for(pthreadpool_t pool, std::int64_t n, std::int64_t grain, F&& fn) {
  if (n <= 0) return;
  if (!pool || n <= grain) {
    fn(std::int64_t{0}, n);
    return;
  }
  auto tramp = [](void* c, std::int64_t b, std::int64_t e) { (*static_cast<F*>(c))(b, e); };
  parallel_for_impl(pool, n, grain, &fn, tramp);
}
// Elements per parallel chunk for cheap elementwise work.
inline constexpr std::int64_t kElementwiseGrain = 1 << 15;

// Calls f(T{}) with T = float, int32_t or uint8_t (bool) for the tensor's dtype.
template <class F>
decltype(auto) dispatch_numeric(const KernelContext& ctx, DType dtype, F&& f) {
  switch (dtype) {
    case DType::Float32:
      return f(float{});
    case DType::Int32:
      return f(std::int32_t{});
    case DType::Bool:
      return f(std::uint8_t{});
    case DType::String:
      fail(ctx, "string tensors are not supported by this op");
    case DType::Complex64:
      fail(ctx, "complex64 tensors are not supported by this op");
  }
  fail(ctx, "unknown dtype");
}

// Row-major strides (in elements) of `shape`.
std::vector<std::int64_t> strides_of(const Shape& shape);

// A new tensor that shares `t`'s storage under another shape (same element count).
HostTensor view_as(const HostTensor& t, Shape shape);

// Copies `count` elements of `elem` bytes each.
inline void copy_elems(std::byte* dst, const std::byte* src, std::int64_t count, std::size_t elem) {
  if (count > 0) std::memcpy(dst, src, static_cast<std::size_t>(count) * elem);
}

}  // namespace tfjsi::cpu::tensor_ops
