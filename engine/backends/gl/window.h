// The sliding window of convolutions and pooling: TF's output size and leading padding.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/gl/gl_op.h"

namespace tfjsi::gl {

struct Window {
  std::int64_t kh, kw, sh, sw, dh, dw, pad_t, pad_l, out_h, out_w;
};

// For the node's `padding` (SAME, VALID, EXPLICIT with explicit_paddings); strides and dilations
// in NHWC order (4 values).
Window window(const OpContext& c, std::int64_t in_h, std::int64_t in_w, std::int64_t kh,
              std::int64_t kw, const std::vector<std::int64_t>& strides,
              const std::vector<std::int64_t>& dilations);
// KH, KW, SH, SW, DH, DW, PAD_T, PAD_L.
std::string window_defines(const Window& w);

}  // namespace tfjsi::gl
