#include <sstream>
#include <string>

#include "core/error.h"
#include "fuzz_targets.h"
#include "io/npy.h"

namespace tfjsi::fuzz {

int npy(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const auto t = io::read_npy(in, "fuzz.npy");
    // The tensor must hold exactly what its shape says.
    if (t.buffer && t.buffer->size() < t.byte_size()) __builtin_trap();
  } catch (const ModelError&) {
  }
  return 0;
}

}  // namespace tfjsi::fuzz
