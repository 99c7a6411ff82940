#include "backends/gl/shader_library.h"

#include <stdexcept>
#include <string>

namespace tfjsi::gl {

std::string_view shader_source(std::string_view name) {
  for (const ShaderSource& s : shader_sources())
    if (s.name == name) return s.text;
  throw std::logic_error("gl backend: no embedded shader named " + std::string(name));
}

}  // namespace tfjsi::gl
