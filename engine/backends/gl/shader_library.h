// The compute shader sources of backends/gl/shaders, embedded at build time (embed_shaders.cmake).
#pragma once

#include <span>
#include <string_view>

namespace tfjsi::gl {

struct ShaderSource {
  std::string_view name;  // file name, "binary.comp"
  std::string_view text;
};

std::span<const ShaderSource> shader_sources();

// The source of `name`; throws std::logic_error when there is no such shader (a build error).
std::string_view shader_source(std::string_view name);
// The value of `#define MACRO <integer>` in shader `name`, for codes a kernel takes as a uniform
// (binary.comp's OP_ADD): the shader stays their one home. Throws std::logic_error when missing.
int shader_constant(std::string_view name, std::string_view macro);

}  // namespace tfjsi::gl
