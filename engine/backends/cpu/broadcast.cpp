#include "backends/cpu/broadcast.h"

namespace tfjsi::cpu::tensor_ops {

Shape broadcast_shapes(const KernelContext& ctx, const Shape& a, const Shape& b) {
  const std::size_t rank = std::max(a.size(), b.size());
  Shape out(rank, 1);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const std::int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      fail(ctx, "shapes " + shape_to_string(a) + " and " + shape_to_string(b) +
                    " cannot be broadcast together");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

}  // namespace tfjsi::cpu::tensor_ops
