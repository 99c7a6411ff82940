// Inference-time normalization: FusedBatchNorm / FusedBatchNormV3 (with the given mean and
// variance, as TF.js does whatever is_training says) and LRN across channels.
#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/cpu/nn_util.h"
#include "backends/cpu/parallel.h"
#include "ops/attr.h"

namespace tfjsi::cpu {

std::vector<HostTensor> kernel_fused_batch_norm(const KernelContext& ctx) {
  const graph::Node& node = ctx.node;
  nn::expect_inputs(ctx, 5, 5);
  const HostTensor& x = nn::float_input(ctx, 0, -1, "x");
  nn::expect_nhwc(node);
  const char* names[] = {"scale", "offset", "mean", "variance"};
  std::vector<float> p[4];
  for (std::size_t i = 0; i < 4; ++i)
    p[i] = nn::broadcast_period(node, nn::float_input(ctx, i + 1, -1, names[i]), x.shape, names[i]);
  // TF.js's converter defaults epsilon to 0.001 when the attribute is absent.
  const float eps = ops::attr<float>(node, "epsilon", 0.001f);
  // Fold into y = x * a + b with a period common to all four parameters.
  std::size_t period = 1;
  for (const auto& v : p) period = std::max(period, v.size());
  for (const auto& v : p)
    if (period % v.size()) nn::fail(node, "scale, offset, mean and variance do not line up");
  std::vector<float> a(period), b(period);
  for (std::size_t i = 0; i < period; ++i) {
    const float scale = p[0][i % p[0].size()], offset = p[1][i % p[1].size()];
    const float mean = p[2][i % p[2].size()], var = p[3][i % p[3].size()];
    a[i] = scale / std::sqrt(var + eps);
    b[i] = offset - mean * a[i];
  }
  HostTensor out = nn::new_output(node, x.shape);
  const float* xp = x.values<float>().data();
  float* op = out.mutable_values<float>().data();
  parallel_ranges(ctx.pool, static_cast<std::size_t>(x.num_elements()), 16384,
                  [&](std::size_t begin, std::size_t end) {
                    std::size_t j = begin % period;
                    for (std::size_t i = begin; i < end; ++i) {
                      op[i] = xp[i] * a[j] + b[j];
                      if (++j == period) j = 0;
                    }
                  });
  // TF's other outputs (batch mean and variance, reserve spaces) are, at inference, the given
  // mean and variance; the V3 op has one more, empty.
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  for (int i = 0; i < 2; ++i) {
    result.push_back(ctx.inputs[3]);
    result.push_back(ctx.inputs[4]);
  }
  if (node.op == "FusedBatchNormV3") result.push_back(HostTensor::zeros(DType::Float32, {0}));
  return result;
}

std::vector<HostTensor> kernel_lrn(const KernelContext& ctx) {
  const graph::Node& node = ctx.node;
  nn::expect_inputs(ctx, 1, 1);
  const HostTensor& x = nn::float_input(ctx, 0, 4, "input");
  const std::int64_t radius = ops::attr<std::int64_t>(node, "depth_radius", 5);
  const float bias = ops::attr<float>(node, "bias", 1.f);
  const float alpha = ops::attr<float>(node, "alpha", 1.f);
  const float beta = ops::attr<float>(node, "beta", 0.5f);
  if (radius < 0) nn::fail(node, "depth_radius " + std::to_string(radius) + " must be >= 0");
  // Wider than any channel count a tensor can have here; also keeps 2 * radius + 1 from
  // overflowing.
  if (radius > (1 << 20))
    nn::fail(node, "depth_radius " + std::to_string(radius) + " is too large (at most 1048576)");
  HostTensor out = nn::new_output(node, x.shape);
  const std::int64_t C = x.shape[3];
  const std::int64_t pixels = C ? x.num_elements() / C : 0;
  const float* xp = x.values<float>().data();
  float* op = out.mutable_values<float>().data();
  parallel_ranges(ctx.pool, static_cast<std::size_t>(pixels), 64,
                  [&](std::size_t b, std::size_t e) {
                    for (std::size_t px = b; px < e; ++px) {
                      const float* xr = xp + static_cast<std::int64_t>(px) * C;
                      float* o = op + static_cast<std::int64_t>(px) * C;
                      for (std::int64_t c = 0; c < C; ++c) {
                        const std::int64_t lo = std::max<std::int64_t>(0, c - radius);
                        const std::int64_t hi = std::min(C - 1, c + radius);
                        float sum = 0.f;
                        for (std::int64_t i = lo; i <= hi; ++i) sum += xr[i] * xr[i];
                        o[c] = xr[c] * std::pow(bias + alpha * sum, -beta);
                      }
                    }
                  });
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

}  // namespace tfjsi::cpu
