#include "backends/cpu/tensor_util.h"

#include <cmath>
#include <complex>
#include <limits>

#include "backends/cpu/parallel.h"

namespace tfjsi::cpu::tensor_ops {

void fail(const KernelContext& ctx, const std::string& what) {
  throw ModelError("node '" + ctx.node.name + "' (" + ctx.node.op + "): " + what);
}

void require_inputs(const KernelContext& ctx, std::size_t min, int max) {
  const auto n = ctx.inputs.size();
  if (n < min || (max >= 0 && n > static_cast<std::size_t>(max))) {
    std::string expected = std::to_string(min);
    if (max < 0)
      expected = "at least " + expected;
    else if (static_cast<std::size_t>(max) != min)
      expected += ".." + std::to_string(max);
    fail(ctx, "expected " + expected + " inputs, got " + std::to_string(n));
  }
}

const HostTensor& input_or_complex(const KernelContext& ctx, std::size_t i) {
  if (i >= ctx.inputs.size()) fail(ctx, "input " + std::to_string(i) + " is missing");
  const HostTensor& t = ctx.inputs[i];
  if (t.dtype == DType::String) fail(ctx, "input " + std::to_string(i) + " is a string tensor");
  if (!t.buffer) fail(ctx, "input " + std::to_string(i) + " has no data");
  return t;
}

const HostTensor& input(const KernelContext& ctx, std::size_t i) {
  const HostTensor& t = input_or_complex(ctx, i);
  if (t.dtype == DType::Complex64)
    fail(ctx, "input " + std::to_string(i) + " is complex64, which this op does not take");
  return t;
}

std::vector<std::int64_t> read_ints(const KernelContext& ctx, std::size_t i,
                                    std::string_view what) {
  const HostTensor& t = input(ctx, i);
  if (t.rank() > 1)
    fail(ctx, std::string(what) + " must be a scalar or a vector, got shape " +
                  shape_to_string(t.shape));
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(t.num_elements()));
  switch (t.dtype) {
    case DType::Int32:
      for (auto v : t.values<std::int32_t>()) out.push_back(v);
      break;
    case DType::Float32:
      for (auto v : t.values<float>()) out.push_back(js_to_int32(v));
      break;
    case DType::Bool:
      for (auto v : t.values<std::uint8_t>()) out.push_back(v);
      break;
    case DType::String:
    case DType::Complex64:  // input() refused both
      break;
  }
  return out;
}

double read_scalar(const KernelContext& ctx, std::size_t i, std::string_view what) {
  const HostTensor& t = input(ctx, i);
  if (t.num_elements() != 1)
    fail(ctx, std::string(what) + " must hold one value, got shape " + shape_to_string(t.shape));
  switch (t.dtype) {
    case DType::Int32:
      return t.values<std::int32_t>()[0];
    case DType::Float32:
      return t.values<float>()[0];
    case DType::Bool:
      return t.values<std::uint8_t>()[0];
    case DType::String:
    case DType::Complex64:  // input() refused both
      break;
  }
  return 0;
}

std::int64_t read_int(const KernelContext& ctx, std::size_t i, std::string_view what) {
  const double v = read_scalar(ctx, i, what);
  return js_to_int32(v);
}

int normalize_axis(const KernelContext& ctx, std::int64_t axis, int rank) {
  if (axis < -rank || axis >= rank)
    fail(ctx, "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return static_cast<int>(axis < 0 ? axis + rank : axis);
}

DType upcast(DType a, DType b) {
  if (a == DType::Complex64 || b == DType::Complex64) return DType::Complex64;
  if (a == DType::Float32 || b == DType::Float32) return DType::Float32;
  if (a == DType::Int32 || b == DType::Int32) return DType::Int32;
  return a;
}

std::int32_t js_to_int32(double v) {
  if (!std::isfinite(v)) return 0;
  double t = std::trunc(v);
  if (t >= -2147483648.0 && t <= 2147483647.0) return static_cast<std::int32_t>(t);
  // Wrap modulo 2^32 as ECMAScript ToInt32 does.
  double m = std::fmod(t, 4294967296.0);
  if (m < 0) m += 4294967296.0;
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(m));
}

HostTensor convert(const HostTensor& t, DType to) {
  if (t.dtype == to) return t;
  if (t.dtype == DType::String || to == DType::String)
    throw ModelError("cannot convert between string and numeric tensors");
  // A real number becomes (x, 0), as TF.js casts to complex64. The other way is Cast's alone
  // (it takes the real part, cast.cpp).
  if (to == DType::Complex64) {
    const HostTensor re = convert(t, DType::Float32);
    HostTensor out = HostTensor::uninitialized(DType::Complex64, t.shape);
    const auto r = re.values<float>();
    auto o = out.mutable_values<std::complex<float>>();
    for (std::size_t k = 0; k < o.size(); ++k) o[k] = {r[k], 0.0f};
    return out;
  }
  if (t.dtype == DType::Complex64)
    throw ModelError("cannot convert complex64 to " + std::string(to_string(to)) + " tensors here");
  HostTensor out = HostTensor::zeros(to, t.shape);
  const auto n = static_cast<std::size_t>(t.num_elements());
  auto write = [&](auto src) {
    if (to == DType::Float32) {
      float* o = out.mutable_values<float>().data();
      for (std::size_t i = 0; i < n; ++i) o[i] = static_cast<float>(src[i]);
    } else if (to == DType::Int32) {
      std::int32_t* o = out.mutable_values<std::int32_t>().data();
      for (std::size_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<std::decay_t<decltype(src[0])>, float>)
          o[i] = js_to_int32(src[i]);
        else
          o[i] = static_cast<std::int32_t>(src[i]);
      }
    } else {
      // NaN != 0, so NaN casts to true as in TF.js.
      std::uint8_t* o = out.mutable_values<std::uint8_t>().data();
      for (std::size_t i = 0; i < n; ++i) o[i] = src[i] != 0 ? 1 : 0;
    }
  };
  switch (t.dtype) {
    case DType::Float32:
      write(t.values<float>().data());
      break;
    case DType::Int32:
      write(t.values<std::int32_t>().data());
      break;
    case DType::Bool:
      write(t.values<std::uint8_t>().data());
      break;
    case DType::String:
    case DType::Complex64:  // refused above
      break;
  }
  return out;
}

void parallel_for_impl(pthreadpool_t pool, std::int64_t n, std::int64_t grain, void* fn_ctx,
                       void (*fn)(void*, std::int64_t, std::int64_t)) {
  struct Job {
    void* ctx;
    void (*fn)(void*, std::int64_t, std::int64_t);
    std::int64_t n;
  } job{fn_ctx, fn, n};
  const std::size_t threads = pthreadpool_get_threads_count(pool);
  // A few chunks per thread balance the load without making chunks tiny.
  std::int64_t tile = std::max<std::int64_t>(
      grain, (n + std::int64_t(threads) * 4 - 1) / (std::int64_t(threads) * 4));
  auto task = [](void* c, std::size_t start, std::size_t len) {
    auto* j = static_cast<Job*>(c);
    j->fn(j->ctx, static_cast<std::int64_t>(start), static_cast<std::int64_t>(start + len));
  };
  pthreadpool_parallelize_1d_tile_1d(pool, task, &job, static_cast<std::size_t>(n),
                                     static_cast<std::size_t>(tile), kPoolFlags);
}

std::vector<std::int64_t> strides_of(const Shape& shape) {
  std::vector<std::int64_t> s(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i) s[i] = s[i + 1] * shape[i + 1];
  return s;
}

HostTensor view_as(const HostTensor& t, Shape shape) {
  HostTensor out = t;
  out.shape = std::move(shape);
  return out;
}

}  // namespace tfjsi::cpu::tensor_ops
