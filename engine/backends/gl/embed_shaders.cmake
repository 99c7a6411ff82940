# Turns every shaders/*.comp and *.glsl into one C++ table of (name, source) so the binary needs no
# shader files at run time. Run as: cmake -DSHADER_DIR=... -DOUT=... -P embed_shaders.cmake
file(GLOB shaders ${SHADER_DIR}/*.comp ${SHADER_DIR}/*.glsl)
list(SORT shaders)
set(entries "")
foreach(path ${shaders})
  get_filename_component(name ${path} NAME)
  file(READ ${path} text)
  string(APPEND entries "    {\"${name}\", R\"tfjsi_glsl(${text})tfjsi_glsl\"},\n")
endforeach()
set(content "// Generated from engine/backends/gl/shaders by embed_shaders.cmake; do not edit.
#include \"backends/gl/shader_library.h\"

namespace tfjsi::gl {

std::span<const ShaderSource> shader_sources() {
  static const ShaderSource sources[] = {
${entries}  };
  return sources;
}

}  // namespace tfjsi::gl
")
# Only touch the output when it changed, so an unrelated reconfigure rebuilds nothing.
file(WRITE ${OUT}.tmp "${content}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
