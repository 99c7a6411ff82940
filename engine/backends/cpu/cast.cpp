// Cast between float32, int32 and bool with TF.js's rules (see convert() in tensor_util.h).
#include <vector>

#include "backends/cpu/tensor_util.h"
#include "ops/attr.h"

namespace tfjsi::cpu::tensor_ops {

std::vector<HostTensor> Cast(const KernelContext& ctx) {
  require_inputs(ctx, 1, 1);
  const HostTensor& x = input(ctx, 0);
  const DType to = ops::attr<DType>(ctx.node, "DstT", x.dtype);
  if (to == DType::String) fail(ctx, "cannot cast to string");
  // Same type: share the buffer (TF.js also returns the same data).
  if (to == x.dtype) return {x};
  return {convert(x, to)};
}

}  // namespace tfjsi::cpu::tensor_ops
