#include "byte_size.h"

#include <iomanip>
#include <sstream>

namespace tfjsi::cli {

std::string human_bytes(std::uint64_t b) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1);
  if (b >= (1u << 20))
    s << static_cast<double>(b) / (1 << 20) << " MiB";
  else if (b >= (1u << 10))
    s << static_cast<double>(b) / (1 << 10) << " KiB";
  else
    s << b << " B";
  return s.str();
}

}  // namespace tfjsi::cli
