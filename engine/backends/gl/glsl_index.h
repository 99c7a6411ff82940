// GLSL snippets for generated `source_lane(ivec4 o)` functions (gather_lanes.comp): the flat
// row-major index of an output lane and its split over a 4-d shape.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace tfjsi::gl {

// `int f`: the flat row-major index of padded output index o.
inline std::string glsl_out_flat() {
  return "  int f = ((o.x * OUT_H + o.y) * OUT_W + o.z) * OUT_C + o.w;\n";
}

// Splits f over the dims d[0]..d[3] (GLSL expressions: numbers or uniforms' names) into
// `int i0`..`i3` (f is consumed; d[0] is not needed).
inline std::string glsl_split_flat(const std::array<std::string, 4>& d) {
  return "  int i3 = f % " + d[3] + "; f /= " + d[3] + ";\n  int i2 = f % " + d[2] +
         "; f /= " + d[2] + ";\n  int i1 = f % " + d[1] + "; int i0 = f / " + d[1] + ";\n";
}
inline std::string glsl_split_flat(const std::array<std::int64_t, 4>& d) {
  return glsl_split_flat(
      {std::to_string(d[0]), std::to_string(d[1]), std::to_string(d[2]), std::to_string(d[3])});
}

}  // namespace tfjsi::gl
