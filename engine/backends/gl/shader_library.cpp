#include "backends/gl/shader_library.h"

#include <charconv>
#include <stdexcept>
#include <string>

namespace tfjsi::gl {

std::string_view shader_source(std::string_view name) {
  for (const ShaderSource& s : shader_sources())
    if (s.name == name) return s.text;
  throw std::logic_error("gl backend: no embedded shader named " + std::string(name));
}

int shader_constant(std::string_view name, std::string_view macro) {
  const std::string_view text = shader_source(name);
  const std::string key = "#define " + std::string(macro) + " ";
  for (std::size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
    if (at > 0 && text[at - 1] != '\n') continue;
    int value = 0;
    const char* first = text.data() + at + key.size();
    const auto [end, ec] = std::from_chars(first, text.data() + text.size(), value);
    if (ec == std::errc() && (end == text.data() + text.size() || *end == '\n')) return value;
  }
  throw std::logic_error("gl backend: shader " + std::string(name) + " defines no integer " +
                         std::string(macro));
}

}  // namespace tfjsi::gl
