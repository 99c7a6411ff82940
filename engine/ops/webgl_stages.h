// How TF.js 4.22's webgl backend runs the ops it splits into several programs, each storing its
// result in a texture (half floats in its fp16 mode): what fp16 storage that follows webgl
// (runtime/fp16_follow.h) must round where TF.js does. Read from tfjs-backend-webgl's kernels:
// - Mean and Sum move the reduced axes last (a transpose), see the input as [batch, N] and reduce
//   it in stages: each stage sums windows of `window` values (computeOptimalWindowSize: N itself
//   up to 30, else the first divisor of N from floor(sqrt(N)) up) into ceil(N / window) partial
//   results, until one is left. Mean's first stage multiplies each value by 1/N before it adds.
// - Softmax over the last axis is max, x - max, exp, a staged Sum of the exps, then a division.
// The host versions below are the fp16 check's emulation of the same (each stored value rounded
// by `rule`); the gl backend computes the same stages in one program (webgl_stages.comp).
#pragma once

#include <cstdint>
#include <vector>

#include "core/half_float.h"
#include "core/host_tensor.h"

namespace tfjsi::ops {

struct ReduceStage {
  std::int64_t in_size = 0, window = 0, out_size = 0;
};

// The stages of a reduction over n values (n >= 1).
std::vector<ReduceStage> webgl_reduce_stages(std::int64_t n);

// Mean (`mean`) or Sum of float32 `x` over `axes` (each in [0, rank), no repeats), each stage's
// partial results rounded to half under `rule`; the output shape keeps reduced dims as 1 when
// `keep_dims`. x holds at least one value per output (an empty reduction is not staged).
HostTensor webgl_staged_reduce(const HostTensor& x, std::vector<int> axes, bool mean,
                               bool keep_dims, const HalfRule& rule);

// Softmax over the last axis of float32 `x` as TF.js webgl composes it, each stored step rounded.
HostTensor webgl_softmax(const HostTensor& x, const HalfRule& rule);

}  // namespace tfjsi::ops
