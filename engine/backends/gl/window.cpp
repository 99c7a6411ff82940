#include "backends/gl/window.h"

namespace tfjsi::gl {

void require_loops_fit(OpContext& c, std::int64_t iterations, const std::string& what) {
  if (iterations > kMaxLoopIterations)
    c.unsupported(what + " takes more than " + std::to_string(kMaxLoopIterations) +
                  " loop iterations in one shader invocation, which gl does not run to the end");
}

namespace {

// Kernel size, strides and dilations: what the shaders unroll over.
std::string loop_defines(const ops::Window& w) {
  return def("KH", w.k_h) + def("KW", w.k_w) + def("SH", w.stride_h) + def("SW", w.stride_w) +
         def("DH", w.dil_h) + def("DW", w.dil_w);
}

// Strides, dilations and paddings: where the taps land.
void set_placement_uniforms(KernelCall& call, const ops::Window& w) {
  for (const auto& [name, v] : {std::pair<const char*, std::int64_t>{"SH", w.stride_h},
                                {"SW", w.stride_w},
                                {"DH", w.dil_h},
                                {"DW", w.dil_w},
                                {"PAD_T", w.pad_top},
                                {"PAD_L", w.pad_left}})
    call.set_int(name, v);
}

}  // namespace

std::string window_defines(const ops::Window& w) {
  return loop_defines(w) + def("PAD_T", w.pad_top) + def("PAD_L", w.pad_left);
}

void set_window(KernelCall& call, const ops::Window& w) {
  call.defines += loop_defines(w);
  call.set_int("PAD_T", w.pad_top);
  call.set_int("PAD_L", w.pad_left);
}

void set_window_taps(KernelCall& call, const ops::Window& w) {
  call.defines += def("KH", w.k_h) + def("KW", w.k_w);
  set_placement_uniforms(call, w);
}

void set_window_uniforms(KernelCall& call, const ops::Window& w) {
  call.set_int("KH", w.k_h);
  call.set_int("KW", w.k_w);
  set_placement_uniforms(call, w);
}

}  // namespace tfjsi::gl
