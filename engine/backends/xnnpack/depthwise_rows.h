// The backend's own depthwise convolution (channel multiplier 1, NHWC, filter [kh, kw, C]) with
// TF.js's summation order; see depthwise_rows.cpp for why XNNPACK's is not used.
#pragma once

#include <pthreadpool.h>

#include <cstdint>

namespace tfjsi::xnnpack {

struct DepthwiseRows {
  const float* x = nullptr;       // [batch, in_h, in_w, channels]
  const float* filter = nullptr;  // [k_h, k_w, channels]
  const float* bias = nullptr;    // [channels], or nullptr
  float* out = nullptr;           // [batch, out_h, out_w, channels]
  std::int64_t batch = 1, in_h = 1, in_w = 1, channels = 1;
  std::int64_t k_h = 1, k_w = 1, s_h = 1, s_w = 1, d_h = 1, d_w = 1;
  std::int64_t pad_top = 0, pad_left = 0, out_h = 1, out_w = 1;
  float min, max;  // output bounds (Relu, Relu6), infinite when none
};

// Output rows are spread over `pool` (nullptr: all on the calling thread).
void run_depthwise_rows(const DepthwiseRows& args, pthreadpool_t pool);

}  // namespace tfjsi::xnnpack
