// libFuzzer's entry point for one target, chosen at compile time by TFJSI_FUZZ_TARGET.
#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return tfjsi::fuzz::TFJSI_FUZZ_TARGET(data, size);
}
