#include "process_memory.h"

#include <fstream>
#include <string>

namespace tfjsi::cli {

ProcessMemory process_memory() {
  ProcessMemory m;
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmRSS:")
      status >> m.rss_kb;
    else if (key == "VmHWM:")
      status >> m.peak_rss_kb;
    status.ignore(1 << 12, '\n');
  }
  return m;
}

}  // namespace tfjsi::cli
