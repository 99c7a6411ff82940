// Softmax and LogSoftmax over the last axis (TF.js supports no other), max-subtracted for
// stability like TF.js.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "backends/cpu/nn_util.h"
#include "backends/cpu/parallel.h"

namespace tfjsi::cpu {

namespace {

std::vector<HostTensor> softmax(const KernelContext& ctx, bool log) {
  nn::expect_inputs(ctx, 1, 1);
  const HostTensor& x = nn::float_input(ctx, 0, -1, "logits");
  if (x.rank() < 1) nn::fail(ctx.node, "logits must have rank >= 1");
  HostTensor out = nn::new_output_uninitialized(ctx.node, x.shape);
  const std::int64_t depth = x.shape.back();
  const std::int64_t rows = depth ? x.num_elements() / depth : 0;
  const float* xp = x.values<float>().data();
  float* op = out.mutable_values<float>().data();
  const std::size_t min_rows =
      static_cast<std::size_t>(std::max<std::int64_t>(1, 8192 / std::max<std::int64_t>(depth, 1)));
  parallel_ranges(ctx.pool, static_cast<std::size_t>(rows), min_rows,
                  [&](std::size_t b, std::size_t e) {
                    for (std::size_t r = b; r < e; ++r) {
                      const float* xr = xp + static_cast<std::int64_t>(r) * depth;
                      float* o = op + static_cast<std::int64_t>(r) * depth;
                      float mx = -std::numeric_limits<float>::infinity();
                      for (std::int64_t i = 0; i < depth; ++i) mx = std::max(mx, xr[i]);
                      float sum = 0.f;
                      for (std::int64_t i = 0; i < depth; ++i) {
                        o[i] = std::exp(xr[i] - mx);
                        sum += o[i];
                      }
                      if (log) {
                        const float ls = std::log(sum);
                        for (std::int64_t i = 0; i < depth; ++i) o[i] = xr[i] - mx - ls;
                      } else {
                        for (std::int64_t i = 0; i < depth; ++i) o[i] /= sum;
                      }
                    }
                  });
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

}  // namespace

std::vector<HostTensor> kernel_softmax(const KernelContext& ctx) {
  return softmax(ctx, false);
}
std::vector<HostTensor> kernel_log_softmax(const KernelContext& ctx) {
  return softmax(ctx, true);
}

}  // namespace tfjsi::cpu
