#include "backends/gl/window.h"

#include <algorithm>

namespace tfjsi::gl {

// TF's output size and leading padding for SAME, VALID and EXPLICIT.
void require_loops_fit(OpContext& c, std::int64_t iterations, const std::string& what) {
  if (iterations > kMaxLoopIterations)
    c.unsupported(what + " takes more than " + std::to_string(kMaxLoopIterations) +
                  " loop iterations in one shader invocation, which gl does not run to the end");
}

Window window(const OpContext& c, std::int64_t in_h, std::int64_t in_w, std::int64_t kh,
              std::int64_t kw, const std::vector<std::int64_t>& strides,
              const std::vector<std::int64_t>& dilations) {
  if (strides.size() != 4 || dilations.size() != 4) c.fail("strides and dilations need 4 values");
  Window w{kh, kw, strides[1], strides[2], dilations[1], dilations[2], 0, 0, 0, 0};
  if (w.sh < 1 || w.sw < 1 || w.dh < 1 || w.dw < 1 || kh < 1 || kw < 1)
    c.fail("strides, dilations and window must be >= 1");
  const std::int64_t ekh = (kh - 1) * w.dh + 1, ekw = (kw - 1) * w.dw + 1;
  const std::string pad = node_string(c.node(), "padding", "VALID");
  if (pad == "SAME") {
    w.out_h = (in_h + w.sh - 1) / w.sh, w.out_w = (in_w + w.sw - 1) / w.sw;
    w.pad_t = std::max<std::int64_t>((w.out_h - 1) * w.sh + ekh - in_h, 0) / 2;
    w.pad_l = std::max<std::int64_t>((w.out_w - 1) * w.sw + ekw - in_w, 0) / 2;
  } else if (pad == "VALID") {
    w.out_h = in_h >= ekh ? (in_h - ekh) / w.sh + 1 : 0;
    w.out_w = in_w >= ekw ? (in_w - ekw) / w.sw + 1 : 0;
  } else if (pad == "EXPLICIT") {
    const auto e = c.int_list("explicit_paddings", {});
    if (e.size() != 8) c.fail("explicit_paddings needs 8 values");
    w.pad_t = e[2], w.pad_l = e[4];
    const std::int64_t ph = in_h + e[2] + e[3], pw = in_w + e[4] + e[5];
    w.out_h = ph >= ekh ? (ph - ekh) / w.sh + 1 : 0;
    w.out_w = pw >= ekw ? (pw - ekw) / w.sw + 1 : 0;
  } else {
    c.fail("padding '" + pad + "' is not supported");
  }
  return w;
}

std::string window_defines(const Window& w) {
  return def("KH", w.kh) + def("KW", w.kw) + def("SH", w.sh) + def("SW", w.sw) + def("DH", w.dh) +
         def("DW", w.dw) + def("PAD_T", w.pad_t) + def("PAD_L", w.pad_l);
}

void set_window(KernelCall& call, const Window& w) {
  call.defines += def("KH", w.kh) + def("KW", w.kw) + def("SH", w.sh) + def("SW", w.sw) +
                  def("DH", w.dh) + def("DW", w.dw);
  call.set_int("PAD_T", w.pad_t);
  call.set_int("PAD_L", w.pad_l);
}

void set_window_uniforms(KernelCall& call, const Window& w) {
  for (const auto& [name, v] : {std::pair<const char*, std::int64_t>{"KH", w.kh},
                                {"KW", w.kw},
                                {"SH", w.sh},
                                {"SW", w.sw},
                                {"DH", w.dh},
                                {"DW", w.dw},
                                {"PAD_T", w.pad_t},
                                {"PAD_L", w.pad_l}})
    call.set_int(name, v);
}

}  // namespace tfjsi::gl
