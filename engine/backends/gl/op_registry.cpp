// The one list of gl kernels: each op family's table, searched by op name.
#include <span>
#include <vector>

#include "backends/gl/gl_op.h"

namespace tfjsi::gl {

extern const GlOpEntry kElementwiseOps[];
extern const std::size_t kNumElementwiseOps;
extern const GlOpEntry kConvOps[];
extern const std::size_t kNumConvOps;
extern const GlOpEntry kSpatialOps[];
extern const std::size_t kNumSpatialOps;
extern const GlOpEntry kShapeOps[];
extern const std::size_t kNumShapeOps;

std::span<const GlOpEntry> gl_op_registry() {
  static const std::vector<GlOpEntry> all = [] {
    std::vector<GlOpEntry> v;
    for (auto family : {std::span<const GlOpEntry>(kElementwiseOps, kNumElementwiseOps),
                        std::span<const GlOpEntry>(kConvOps, kNumConvOps),
                        std::span<const GlOpEntry>(kSpatialOps, kNumSpatialOps),
                        std::span<const GlOpEntry>(kShapeOps, kNumShapeOps)})
      v.insert(v.end(), family.begin(), family.end());
    return v;
  }();
  return all;
}

const GlOpEntry* find_gl_op(std::string_view op) {
  for (const GlOpEntry& e : gl_op_registry())
    if (e.op == op) return &e;
  return nullptr;
}

}  // namespace tfjsi::gl
