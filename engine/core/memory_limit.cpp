#include "core/memory_limit.h"

#include <sys/resource.h>
#include <sys/sysinfo.h>

#include <algorithm>

namespace tfjsi {

std::uint64_t memory_limit() {
  static const std::uint64_t limit = [] {
    std::uint64_t bytes = UINT64_MAX;
    struct sysinfo si {};
    if (::sysinfo(&si) == 0)
      bytes = (static_cast<std::uint64_t>(si.totalram) + si.totalswap) * si.mem_unit;
    struct rlimit rl {};
    if (::getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
      bytes = std::min<std::uint64_t>(bytes, rl.rlim_cur);
    return bytes;
  }();
  return limit;
}

void check_allocation(std::uint64_t bytes, const std::string& what) {
  const std::uint64_t limit = memory_limit();
  if (bytes <= limit) return;
  throw TooLarge("out of memory: " + what + " needs " +
                 (bytes == UINT64_MAX ? std::string("more than 2^64") : std::to_string(bytes)) +
                 " bytes, more than this machine's memory (" + std::to_string(limit) + " bytes)");
}

std::uint64_t saturating_bytes(std::uint64_t a, std::uint64_t b) {
  return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

}  // namespace tfjsi
