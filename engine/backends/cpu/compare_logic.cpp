// Comparisons (Less, Equal, ...) and logical ops on broadcast operands, all producing bool, and
// BitwiseAnd (TF.js's logical category too).
#include <cstdint>
#include <vector>

#include "backends/cpu/elementwise.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

using B = std::uint8_t;

template <class Op>
std::vector<HostTensor> compare(const KernelContext& ctx, Op op) {
  require_inputs(ctx, 2, 2);
  const HostTensor& a0 = input(ctx, 0);
  const HostTensor& b0 = input(ctx, 1);
  const DType t = upcast(a0.dtype, b0.dtype);
  const HostTensor a = convert(a0, t);
  const HostTensor b = convert(b0, t);
  const Shape shape = broadcast_shapes(ctx, a.shape, b.shape);
  HostTensor out = HostTensor::zeros(DType::Bool, shape);
  const auto plan = plan_broadcast<2>(shape, {&a.shape, &b.shape});
  dispatch_numeric(ctx, t, [&](auto tag) {
    using T = decltype(tag);
    map_binary(ctx.pool, plan, a.values<T>().data(), b.values<T>().data(),
               out.mutable_values<B>().data(), [&](T x, T y) -> B { return op(x, y) ? 1 : 0; });
  });
  return {out};
}

template <class Op>
std::vector<HostTensor> logical(const KernelContext& ctx, Op op) {
  require_inputs(ctx, 2, 2);
  const HostTensor a = convert(input(ctx, 0), DType::Bool);
  const HostTensor b = convert(input(ctx, 1), DType::Bool);
  const Shape shape = broadcast_shapes(ctx, a.shape, b.shape);
  HostTensor out = HostTensor::zeros(DType::Bool, shape);
  const auto plan = plan_broadcast<2>(shape, {&a.shape, &b.shape});
  map_binary(ctx.pool, plan, a.values<B>().data(), b.values<B>().data(),
             out.mutable_values<B>().data(), op);
  return {out};
}

}  // namespace

std::vector<HostTensor> Less(const KernelContext& ctx) {
  return compare(ctx, [](auto x, auto y) { return x < y; });
}
std::vector<HostTensor> LessEqual(const KernelContext& ctx) {
  return compare(ctx, [](auto x, auto y) { return x <= y; });
}
std::vector<HostTensor> Greater(const KernelContext& ctx) {
  return compare(ctx, [](auto x, auto y) { return x > y; });
}
std::vector<HostTensor> GreaterEqual(const KernelContext& ctx) {
  return compare(ctx, [](auto x, auto y) { return x >= y; });
}
std::vector<HostTensor> Equal(const KernelContext& ctx) {
  return compare(ctx, [](auto x, auto y) { return x == y; });
}
std::vector<HostTensor> NotEqual(const KernelContext& ctx) {
  return compare(ctx, [](auto x, auto y) { return x != y; });
}
std::vector<HostTensor> LogicalAnd(const KernelContext& ctx) {
  return logical(ctx, [](B x, B y) -> B { return x & y; });
}
std::vector<HostTensor> LogicalOr(const KernelContext& ctx) {
  return logical(ctx, [](B x, B y) -> B { return x | y; });
}
// int32 only, as TF.js's bitwiseAnd; operands broadcast as TF's BitwiseAnd does (TF.js's op
// wants one shape; its kernel broadcasts).
std::vector<HostTensor> BitwiseAnd(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const HostTensor& a = input(ctx, 0);
  const HostTensor& b = input(ctx, 1);
  if (a.dtype != DType::Int32 || b.dtype != DType::Int32)
    fail(ctx, "only int32 tensors are supported, got " + std::string(to_string(a.dtype)) + " and " +
                  std::string(to_string(b.dtype)));
  const Shape shape = broadcast_shapes(ctx, a.shape, b.shape);
  HostTensor out = HostTensor::uninitialized(DType::Int32, shape);
  const auto plan = plan_broadcast<2>(shape, {&a.shape, &b.shape});
  using I = std::int32_t;
  map_binary(ctx.pool, plan, a.values<I>().data(), b.values<I>().data(),
             out.mutable_values<I>().data(), [](I x, I y) -> I { return x & y; });
  return {out};
}

std::vector<HostTensor> LogicalNot(const KernelContext& ctx) {
  require_inputs(ctx, 1, 1);
  const HostTensor x = convert(input(ctx, 0), DType::Bool);
  HostTensor out = HostTensor::zeros(DType::Bool, x.shape);
  map_unary(ctx.pool, x.values<B>().data(), out.mutable_values<B>().data(), x.num_elements(),
            [](B v) -> B { return v ^ 1; });
  return {out};
}

}  // namespace tfjsi::cpu::tensor_ops
