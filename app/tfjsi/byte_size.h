// Byte counts as people read them, for the commands' text output.
#pragma once

#include <cstdint>
#include <string>

namespace tfjsi::cli {

// "820.5 KiB", "3.0 MiB", "512 B" (binary units, one decimal).
std::string human_bytes(std::uint64_t bytes);

}  // namespace tfjsi::cli
