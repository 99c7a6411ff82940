// This process's resident memory, as the kernel reports it (/proc/self/status).
#pragma once

#include <cstdint>

namespace tfjsi::cli {

struct ProcessMemory {
  std::int64_t rss_kb = 0;       // VmRSS: resident now
  std::int64_t peak_rss_kb = 0;  // VmHWM: the most resident so far
};

ProcessMemory process_memory();

}  // namespace tfjsi::cli
