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
// KH, KW, SH, SW, DH, DW, PAD_T, PAD_L as #defines.
std::string window_defines(const Window& w);
// KH, KW, SH, SW, DH, DW as #defines (the window loops, which llvmpipe unrolls when their sizes
// are constants, and the strides of the address arithmetic) and the paddings PAD_T, PAD_L as
// uniforms of `call`: nodes whose windows differ only in padding (SAME on other input sizes) share
// a program.
void set_window(KernelCall& call, const Window& w);
// All eight as uniforms.
void set_window_uniforms(KernelCall& call, const Window& w);

}  // namespace tfjsi::gl
