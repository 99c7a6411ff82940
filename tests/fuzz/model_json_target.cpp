#include <string_view>

#include "core/error.h"
#include "fuzz_targets.h"
#include "memory_bundle.h"

namespace tfjsi::fuzz {

int model_json(const std::uint8_t* data, std::size_t size) {
  try {
    const auto b = memory_bundle({reinterpret_cast<const char*>(data), size});
    (void)b.bytes_decoded();
  } catch (const ModelError&) {
  }
  return 0;
}

}  // namespace tfjsi::fuzz
