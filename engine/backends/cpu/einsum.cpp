// Einsum, the subset TF.js 4.22 runs (ops/einsum.h: one or two operands, an explicit output, no
// ellipsis, no label twice in an operand), as one general contraction: the labels only one operand
// has and the output lacks are summed away first; the operands are then laid out as batched
// matrices [batch, free_a, contracted] x [batch, contracted, free_b] and multiplied (gemm; int32
// with plain loops that wrap like TF.js's Int32Array), and the product is permuted to the
// output's label order.
#include <map>
#include <string>
#include <vector>

#include "backends/cpu/gemm.h"
#include "backends/cpu/parallel.h"
#include "backends/cpu/tensor_util.h"
#include "backends/cpu/transpose.h"
#include "ops/attr.h"
#include "ops/einsum.h"

namespace tfjsi::cpu {
namespace {

using tensor_ops::fail;

bool has(const std::string& labels, char c) {
  return labels.find(c) != std::string::npos;
}

// Where each label of `order` is in `labels`.
std::vector<int> perm_of(const std::string& labels, const std::string& order) {
  std::vector<int> p;
  for (char c : order) p.push_back(static_cast<int>(labels.find(c)));
  return p;
}

bool identity(const std::vector<int>& perm) {
  for (std::size_t i = 0; i < perm.size(); ++i)
    if (perm[i] != static_cast<int>(i)) return false;
  return true;
}

// x permuted by `perm`, then its innermost `summed` dims summed away.
HostTensor arrange(const KernelContext& ctx, const HostTensor& x, const std::vector<int>& perm,
                   std::size_t summed) {
  HostTensor p = identity(perm) ? x : tensor_ops::permute(x, perm, ctx.pool);
  if (summed == 0) return p;
  const Shape shape(p.shape.begin(), p.shape.end() - static_cast<std::ptrdiff_t>(summed));
  std::int64_t inner = 1;
  for (std::size_t d = shape.size(); d < p.shape.size(); ++d) inner *= p.shape[d];
  HostTensor out = HostTensor::zeros(p.dtype, shape);
  const std::int64_t rows = out.num_elements();
  if (p.dtype == DType::Float32) {
    const float* src = p.values<float>().data();
    auto o = out.mutable_values<float>();
    for (std::int64_t r = 0; r < rows; ++r) {
      double sum = 0;  // TF.js's Sum adds in doubles
      for (std::int64_t i = 0; i < inner; ++i) sum += src[r * inner + i];
      o[static_cast<std::size_t>(r)] = static_cast<float>(sum);
    }
  } else {
    const std::int32_t* src = p.values<std::int32_t>().data();
    auto o = out.mutable_values<std::int32_t>();
    for (std::int64_t r = 0; r < rows; ++r) {
      std::uint32_t sum = 0;
      for (std::int64_t i = 0; i < inner; ++i)
        sum += static_cast<std::uint32_t>(src[r * inner + i]);
      o[static_cast<std::size_t>(r)] = static_cast<std::int32_t>(sum);
    }
  }
  return out;
}

// c[nb, m, n] = a[nb, m, k] x b[nb, k, n].
void batched_product(const KernelContext& ctx, const HostTensor& a, const HostTensor& b,
                     HostTensor& c, std::int64_t nb, std::int64_t m, std::int64_t k,
                     std::int64_t n) {
  if (nb * m * n == 0 || k == 0) return;  // c stays zero
  if (c.dtype == DType::Int32) {
    const std::int32_t* ap = a.values<std::int32_t>().data();
    const std::int32_t* bp = b.values<std::int32_t>().data();
    std::int32_t* cp = c.mutable_values<std::int32_t>().data();
    for (std::int64_t i = 0; i < nb; ++i)
      for (std::int64_t r = 0; r < m; ++r)
        for (std::int64_t col = 0; col < n; ++col) {
          std::uint32_t sum = 0;
          for (std::int64_t p = 0; p < k; ++p)
            sum += static_cast<std::uint32_t>(ap[(i * m + r) * k + p]) *
                   static_cast<std::uint32_t>(bp[(i * k + p) * n + col]);
          cp[(i * m + r) * n + col] = static_cast<std::int32_t>(sum);
        }
    return;
  }
  const float* ap = a.values<float>().data();
  const float* bp = b.values<float>().data();
  float* cp = c.mutable_values<float>().data();
  auto one = [&](std::int64_t i, pthreadpool_t pool) {
    gemm(m, n, k, GemmA{ap + i * m * k, k, false, {}}, GemmB{bp + i * k * n, n, false},
         cp + i * m * n, n, Epilogue{}, pool);
  };
  // Many small products: one per task; few large ones: each spread over the pool.
  if (nb > 1 && m * n * k < 32768) {
    const double work = static_cast<double>(nb) * static_cast<double>(m * n * k);
    parallel_for(pool_for_work(ctx.pool, work), static_cast<std::size_t>(nb),
                 [&](std::size_t i) { one(static_cast<std::int64_t>(i), nullptr); });
  } else {
    for (std::int64_t i = 0; i < nb; ++i) one(i, ctx.pool);
  }
}

}  // namespace

std::vector<HostTensor> kernel_einsum(const KernelContext& ctx) {
  const ops::EinsumEquation eq = ops::einsum_equation(ctx.node, ctx.inputs.size());
  const std::string where = " (equation '" + ops::attr<std::string>(ctx.node, "equation") + "')";
  // Each label's size, which every operand that has it must agree on (TF.js does not broadcast).
  std::map<char, std::int64_t> size;
  for (std::size_t i = 0; i < eq.inputs.size(); ++i) {
    const HostTensor& t = tensor_ops::input(ctx, i);
    if (t.dtype != DType::Float32 && t.dtype != DType::Int32)
      fail(ctx, "operands must be float32 or int32, got " + std::string(to_string(t.dtype)));
    if (t.dtype != ctx.inputs[0].dtype)
      fail(ctx, "operands must have one dtype, got " + std::string(to_string(ctx.inputs[0].dtype)) +
                    " and " + std::string(to_string(t.dtype)));
    const std::string& labels = eq.inputs[i];
    if (t.rank() != static_cast<int>(labels.size()))
      fail(ctx, "operand " + std::to_string(i) + " of shape " + shape_to_string(t.shape) +
                    " does not have the " + std::to_string(labels.size()) + " axes '" + labels +
                    "' names" + where);
    for (std::size_t j = 0; j < labels.size(); ++j) {
      const auto [it, fresh] = size.try_emplace(labels[j], t.shape[j]);
      if (!fresh && it->second != t.shape[j])
        fail(ctx, "expected dimension " + std::to_string(it->second) + " at axis " +
                      std::to_string(j) + " of input shaped " + shape_to_string(t.shape) +
                      ", but got dimension " + std::to_string(t.shape[j]) + where);
    }
  }
  const std::string& out = eq.output;
  const auto not_out = [&](const std::string& labels) {
    std::string r;
    for (char c : labels)
      if (!has(out, c)) r += c;
    return r;
  };
  const HostTensor& x = ctx.inputs[0];
  if (eq.inputs.size() == 1) {
    const std::string summed = not_out(eq.inputs[0]);
    return {arrange(ctx, x, perm_of(eq.inputs[0], out + summed), summed.size())};
  }
  const std::string &a = eq.inputs[0], &b = eq.inputs[1];
  std::string batch, free_a, free_b, contracted, only_a, only_b;
  for (char c : out) (has(a, c) && has(b, c) ? batch : has(a, c) ? free_a : free_b) += c;
  for (char c : not_out(a)) (has(b, c) ? contracted : only_a) += c;
  for (char c : not_out(b))
    if (!has(a, c)) only_b += c;
  const HostTensor a2 =
      arrange(ctx, x, perm_of(a, batch + free_a + contracted + only_a), only_a.size());
  const HostTensor b2 =
      arrange(ctx, ctx.inputs[1], perm_of(b, batch + contracted + free_b + only_b), only_b.size());
  const auto volume = [&](const std::string& labels) {
    std::int64_t v = 1;
    for (char c : labels) v *= size[c];
    return v;
  };
  const std::string mid = batch + free_a + free_b;
  Shape mid_shape;
  for (char c : mid) mid_shape.push_back(size[c]);
  HostTensor c = HostTensor::zeros(x.dtype, mid_shape);
  batched_product(ctx, a2, b2, c, volume(batch), volume(free_a), volume(contracted),
                  volume(free_b));
  const std::vector<int> perm = perm_of(mid, out);
  return {identity(perm) ? c : tensor_ops::permute(c, perm, ctx.pool)};
}

}  // namespace tfjsi::cpu
