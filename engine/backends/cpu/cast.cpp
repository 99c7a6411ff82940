// Cast between float32, int32 and bool with TF.js's rules (see convert() in tensor_util.h), and
// to and from complex64 as TF.js's cpu Cast does: a real value becomes (x, 0); a complex one
// keeps its real part, then casts that.
#include <vector>

#include "backends/cpu/tensor_util.h"
#include "ops/attr.h"

namespace tfjsi::cpu::tensor_ops {

std::vector<HostTensor> Real(const KernelContext& ctx);  // spectral.cpp

std::vector<HostTensor> Cast(const KernelContext& ctx) {
  require_inputs(ctx, 1, 1);
  if (ctx.inputs[0].dtype == DType::String) fail(ctx, "input 0 is a string tensor");
  const HostTensor& x = ctx.inputs[0];
  if (!x.buffer) fail(ctx, "input 0 has no data");
  const DType to = ops::attr<DType>(ctx.node, "DstT", x.dtype);
  if (to == DType::String) fail(ctx, "cannot cast to string");
  // Same type: share the buffer (TF.js also returns the same data).
  if (to == x.dtype) return {x};
  if (x.dtype == DType::Complex64) return {convert(Real(ctx)[0], to)};
  return {convert(x, to)};
}

}  // namespace tfjsi::cpu::tensor_ops
