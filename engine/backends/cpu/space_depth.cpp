// Rearrangements between space, depth and batch: DepthToSpace and SpaceToDepth (NHWC), and
// SpaceToBatchND and BatchToSpaceND (any number of block dims). Pure data movement, so any
// numeric dtype is copied element by element as raw bytes.
#include <algorithm>
#include <cstring>
#include <vector>

#include "backends/cpu/nn_util.h"
#include "backends/cpu/parallel.h"
#include "ops/attr.h"

namespace tfjsi::cpu {

namespace {

const HostTensor& data_input(const KernelContext& ctx) {
  const HostTensor& t = ctx.inputs[0];
  if (t.dtype == DType::String) nn::fail(ctx.node, "string tensors are not supported");
  if (!t.buffer || t.buffer->size() < t.byte_size()) nn::fail(ctx.node, "input has no data");
  return t;
}

std::int64_t block_size(const KernelContext& ctx, const HostTensor& x) {
  if (x.rank() != 4) nn::fail(ctx.node, "input must have rank 4, got " + shape_to_string(x.shape));
  nn::expect_nhwc(ctx.node);
  const std::int64_t bs = ops::attr<std::int64_t>(ctx.node, "block_size", 0);
  if (bs < 2 || bs > (1 << 16)) nn::fail(ctx.node, "block_size must be >= 2");
  return bs;
}

}  // namespace

// out[n, h*bs + i, w*bs + j, c] = in[n, h, w, (i*bs + j)*C_out + c]
std::vector<HostTensor> kernel_depth_to_space(const KernelContext& ctx) {
  nn::expect_inputs(ctx, 1, 1);
  const HostTensor& x = data_input(ctx);
  const std::int64_t bs = block_size(ctx, x);
  const std::int64_t N = x.shape[0], H = x.shape[1], W = x.shape[2], C = x.shape[3];
  if (C % (bs * bs))
    nn::fail(ctx.node, "depth " + std::to_string(C) + " is not divisible by block_size^2");
  const std::int64_t oc = C / (bs * bs);
  HostTensor out = nn::new_output(ctx.node, {N, H * bs, W * bs, oc}, x.dtype);
  const std::size_t es = element_size(x.dtype), run = static_cast<std::size_t>(oc) * es;
  const std::byte* src = x.buffer->data();
  std::byte* dst = out.buffer->mutable_data();
  parallel_for(pool_for_work(ctx.pool, static_cast<double>(out.num_elements())),
               static_cast<std::size_t>(N * H), [&](std::size_t row) {
                 const auto nh = static_cast<std::int64_t>(row);
                 const std::int64_t n = nh / H, h = nh % H;
                 for (std::int64_t w = 0; w < W; ++w)
                   for (std::int64_t i = 0; i < bs; ++i)
                     for (std::int64_t j = 0; j < bs; ++j) {
                       const std::int64_t o =
                           ((n * H * bs + h * bs + i) * W * bs + w * bs + j) * oc;
                       const std::int64_t s = ((n * H + h) * W + w) * C + (i * bs + j) * oc;
                       std::memcpy(dst + static_cast<std::size_t>(o) * es,
                                   src + static_cast<std::size_t>(s) * es, run);
                     }
               });
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

// The inverse: out[n, h, w, (i*bs + j)*C + c] = in[n, h*bs + i, w*bs + j, c]
std::vector<HostTensor> kernel_space_to_depth(const KernelContext& ctx) {
  nn::expect_inputs(ctx, 1, 1);
  const HostTensor& x = data_input(ctx);
  const std::int64_t bs = block_size(ctx, x);
  const std::int64_t N = x.shape[0], H = x.shape[1], W = x.shape[2], C = x.shape[3];
  if (H % bs || W % bs)
    nn::fail(ctx.node, "height and width of " + shape_to_string(x.shape) +
                           " must be divisible by block_size " + std::to_string(bs));
  const std::int64_t oh = H / bs, ow = W / bs;
  HostTensor out = nn::new_output(ctx.node, {N, oh, ow, C * bs * bs}, x.dtype);
  const std::size_t es = element_size(x.dtype), run = static_cast<std::size_t>(C) * es;
  const std::byte* src = x.buffer->data();
  std::byte* dst = out.buffer->mutable_data();
  parallel_for(pool_for_work(ctx.pool, static_cast<double>(out.num_elements())),
               static_cast<std::size_t>(N * oh), [&](std::size_t row) {
                 const auto nh = static_cast<std::int64_t>(row);
                 const std::int64_t n = nh / oh, h = nh % oh;
                 for (std::int64_t w = 0; w < ow; ++w)
                   for (std::int64_t i = 0; i < bs; ++i)
                     for (std::int64_t j = 0; j < bs; ++j) {
                       const std::int64_t o =
                           ((n * oh + h) * ow + w) * C * bs * bs + (i * bs + j) * C;
                       const std::int64_t s = ((n * H + h * bs + i) * W + w * bs + j) * C;
                       std::memcpy(dst + static_cast<std::size_t>(o) * es,
                                   src + static_cast<std::size_t>(s) * es, run);
                     }
               });
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

namespace {

// Shared by SpaceToBatchND and BatchToSpaceND: `block` has M entries for dims 1..M, `pads` (or
// crops) 2M entries. Both map a "batch-major" tensor [prod(block) * B, s_1, ..., s_M, rest...] to
// a "space" tensor [B, s_1 * b_1 - pads, ..., rest...] element by element.
struct BlockLayout {
  std::vector<std::int64_t> block, before;  // per block dim
  std::int64_t batch = 0;                   // B, the batch of the space tensor
  Shape space, batched;                     // the padded/cropped space shape, the batch shape
};

// For every element of `batched` (row-major), the flat index of its space element, or -1 when it
// falls into padding (or a cropped region). Rows of `inner` trailing elements move together.
template <class Visit>
void for_each_block_row(const BlockLayout& L, std::int64_t inner, const Visit& visit) {
  const std::size_t M = L.block.size();
  const std::int64_t rows = num_elements(L.batched) / std::max<std::int64_t>(inner, 1);
  std::vector<std::int64_t> idx(M + 1, 0);  // [batch, y_1..y_M] of the batched tensor
  std::vector<std::int64_t> off(M);
  for (std::int64_t r = 0; r < rows; ++r) {
    // Decompose the batched batch index into block offsets and space batch.
    std::int64_t s = idx[0] % L.batch, offset = idx[0] / L.batch;
    bool inside = true;
    // Block offsets are row-major over the block dims: the last dim varies fastest.
    for (std::size_t d = M; d-- > 0;) {
      off[d] = offset % L.block[d];
      offset /= L.block[d];
    }
    for (std::size_t d = 0; d < M; ++d) {
      const std::int64_t pos = idx[d + 1] * L.block[d] + off[d] - L.before[d];
      if (pos < 0 || pos >= L.space[d + 1]) inside = false;
      s = s * L.space[d + 1] + pos;
    }
    visit(r, inside ? s : -1);
    for (std::size_t d = M + 1; d-- > 0;) {
      if (++idx[d] < L.batched[d]) break;
      idx[d] = 0;
    }
  }
}

BlockLayout block_layout(const KernelContext& ctx, const HostTensor& x, bool to_batch) {
  const graph::Node& node = ctx.node;
  const std::vector<std::int64_t> block = nn::int_input_values(ctx, 1, "block_shape");
  const std::vector<std::int64_t> pads =
      nn::int_input_values(ctx, 2, to_batch ? "paddings" : "crops");
  const std::size_t M = block.size();
  if (M < 1 || static_cast<int>(M) + 1 > x.rank())
    nn::fail(node,
             "block_shape must have 1 to rank-1 entries for input " + shape_to_string(x.shape));
  if (pads.size() != 2 * M) nn::fail(node, "paddings/crops must have shape [M, 2]");
  BlockLayout L;
  L.block = block;
  std::int64_t prod = 1;
  for (std::size_t d = 0; d < M; ++d) {
    if (block[d] < 1 || block[d] > (1 << 16)) nn::fail(node, "block_shape must hold values >= 1");
    if (pads[2 * d] < 0 || pads[2 * d + 1] < 0 || pads[2 * d] > (1 << 24) ||
        pads[2 * d + 1] > (1 << 24))
      nn::fail(node, "paddings/crops must hold values >= 0");
    prod *= block[d];
    L.before.push_back(pads[2 * d]);
  }
  if (to_batch) {
    // x is the space tensor.
    L.batch = x.shape[0];
    L.space = x.shape;
    L.batched = x.shape;
    L.batched[0] = x.shape[0] * prod;
    for (std::size_t d = 0; d < M; ++d) {
      const std::int64_t padded = x.shape[d + 1] + pads[2 * d] + pads[2 * d + 1];
      if (padded % block[d])
        nn::fail(node, "padded dim " + std::to_string(d + 1) + " (" + std::to_string(padded) +
                           ") is not divisible by block " + std::to_string(block[d]));
      L.batched[d + 1] = padded / block[d];
    }
  } else {
    // x is the batched tensor.
    if (x.shape[0] % prod)
      nn::fail(node, "batch " + std::to_string(x.shape[0]) +
                         " is not divisible by the block size " + std::to_string(prod));
    L.batch = x.shape[0] / prod;
    L.batched = x.shape;
    L.space = x.shape;
    L.space[0] = L.batch;
    for (std::size_t d = 0; d < M; ++d) {
      const std::int64_t full = x.shape[d + 1] * block[d];
      const std::int64_t kept = full - pads[2 * d] - pads[2 * d + 1];
      if (kept < 0) nn::fail(node, "crops are larger than the dim they crop");
      L.space[d + 1] = kept;
    }
  }
  return L;
}

std::vector<HostTensor> space_batch(const KernelContext& ctx, bool to_batch) {
  nn::expect_inputs(ctx, 3, 3);
  const HostTensor& x = data_input(ctx);
  const BlockLayout L = block_layout(ctx, x, to_batch);
  HostTensor out = nn::new_output(ctx.node, to_batch ? L.batched : L.space, x.dtype);
  std::int64_t inner = 1;
  for (std::size_t d = L.block.size() + 1; d < L.space.size(); ++d) inner *= L.space[d];
  const std::size_t es = element_size(x.dtype), run = static_cast<std::size_t>(inner) * es;
  const std::byte* src = x.buffer->data();
  std::byte* dst = out.buffer->mutable_data();
  // Output starts zeroed, so padding needs no writes.
  for_each_block_row(L, inner, [&](std::int64_t r, std::int64_t s) {
    if (s < 0) return;
    if (to_batch)
      std::memcpy(dst + static_cast<std::size_t>(r) * run, src + static_cast<std::size_t>(s) * run,
                  run);
    else
      std::memcpy(dst + static_cast<std::size_t>(s) * run, src + static_cast<std::size_t>(r) * run,
                  run);
  });
  std::vector<HostTensor> result;
  result.push_back(std::move(out));
  return result;
}

}  // namespace

std::vector<HostTensor> kernel_space_to_batch_nd(const KernelContext& ctx) {
  return space_batch(ctx, true);
}
std::vector<HostTensor> kernel_batch_to_space_nd(const KernelContext& ctx) {
  return space_batch(ctx, false);
}

}  // namespace tfjsi::cpu
