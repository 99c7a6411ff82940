// The sliding window of convolutions and pooling (ops/window.h) as shader parameters, and the
// bound on the loops one shader invocation may run.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "backends/gl/gl_op.h"
#include "ops/window.h"

namespace tfjsi::gl {

// The loops of one shader invocation, all together, stay under this many iterations: Mesa's
// llvmpipe stops a shader's loops after 65535 of them, silently (issue #25: 16384 x 16384 pools,
// a mean over 300 x 300, a sum or softmax over 100000 values all came out wrong with exit code
// 0), and loops that long in one invocation trip GPU watchdogs elsewhere. Half of llvmpipe's
// bound, as a margin: global pools up to 181 x 181 stay on gl. A node past it runs on cpu.
inline constexpr std::int64_t kMaxLoopIterations = 32768;
// Iterations of `outer` loop turns each running `inner` iterations of nested loops (the outer's
// own turns counted too); saturates past kMaxLoopIterations.
inline std::int64_t nested_iterations(std::int64_t outer, std::int64_t inner) {
  if (outer <= 0) return 0;
  if (outer > kMaxLoopIterations || inner > kMaxLoopIterations) return kMaxLoopIterations + 1;
  return outer + outer * std::max<std::int64_t>(inner, 0);
}
// The run-time side of the bound, for what supports() cannot see (reduced axes come from a
// tensor; shapes may be unknown): BackendLimit, so the node runs on cpu with the reason.
void require_loops_fit(OpContext& c, std::int64_t iterations, const std::string& what);

// KH, KW, SH, SW, DH, DW, PAD_T, PAD_L as #defines.
std::string window_defines(const ops::Window& w);
// KH, KW, SH, SW, DH, DW as #defines (the window loops, which llvmpipe unrolls when their sizes
// are constants, and the strides of the address arithmetic) and the paddings PAD_T, PAD_L as
// uniforms of `call`: nodes whose windows differ only in padding (SAME on other input sizes) share
// a program.
void set_window(KernelCall& call, const ops::Window& w);
// All eight as uniforms.
void set_window_uniforms(KernelCall& call, const ops::Window& w);
// KH, KW as #defines (the unrolled taps) and the other six as uniforms: a stride or dilation only
// scales an address, so windows of one size share a program.
void set_window_taps(KernelCall& call, const ops::Window& w);

}  // namespace tfjsi::gl
