// Sliding-window geometry for convolution and pooling nodes (NHWC): strides, dilations, SAME /
// VALID / EXPLICIT padding and the output size, the way TF.js computes them.
#pragma once

#include <cstdint>
#include <optional>

#include "graph/ir.h"

namespace tfjsi::xnnpack {

struct Geometry {
  std::int64_t k_h = 1, k_w = 1;
  std::int64_t s_h = 1, s_w = 1;
  std::int64_t d_h = 1, d_w = 1;
  bool same = false;  // SAME: the pads below are TF's, and XNNPACK can work them out itself
  std::int64_t top = 0, bottom = 0, left = 0, right = 0;
  std::int64_t out_h = 0, out_w = 0;
};

// nullopt for attributes in an unexpected form, EXPLICIT padding when !allow_explicit, or an
// empty output (the cpu kernel then decides what that means).
std::optional<Geometry> window_geometry(const graph::Node& node, std::int64_t in_h,
                                        std::int64_t in_w, std::int64_t k_h, std::int64_t k_w,
                                        const char* dilations_key, bool allow_explicit);

// A [1, h, w, 1] (or [h, w]) attribute as h and w, each in [1, 2^20].
std::optional<std::pair<std::int64_t, std::int64_t>> hw_attr(const graph::Node& node,
                                                             const char* key);

}  // namespace tfjsi::xnnpack
