// The geometry of a sliding window over NHWC data (convolutions and pooling): strides, dilations,
// padding (SAME, VALID, EXPLICIT) and the output size, computed the way TF.js's conv_util does.
#pragma once

#include <cstdint>

#include "graph/ir.h"

namespace tfjsi::cpu {

struct Window {
  std::int64_t batch = 0, in_h = 0, in_w = 0;
  std::int64_t k_h = 1, k_w = 1;  // filter size, before dilation
  std::int64_t stride_h = 1, stride_w = 1;
  std::int64_t dil_h = 1, dil_w = 1;
  std::int64_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  std::int64_t out_h = 0, out_w = 0;

  std::int64_t eff_k_h() const { return (k_h - 1) * dil_h + 1; }
  std::int64_t eff_k_w() const { return (k_w - 1) * dil_w + 1; }
};

// Reads strides (and, when `dilations_key` is non-null, dilations), padding and explicit_paddings
// from `node`, and computes padding and output size for an input of batch x in_h x in_w and a
// k_h x k_w filter. Throws ModelError naming the node for bad attributes or an empty window.
Window make_window(const graph::Node& node, std::int64_t batch, std::int64_t in_h,
                   std::int64_t in_w, std::int64_t k_h, std::int64_t k_w,
                   const char* dilations_key = "dilations");

}  // namespace tfjsi::cpu
