// Random ops: draws into a tensor of the shape input 0 holds (Multinomial: [batch, num_samples]).
#include "ops/attr.h"
#include "ops/op_def.h"
#include "ops/shape_context.h"

namespace tfjsi::ops {
namespace {

// RandomUniform, RandomStandardNormal, TruncatedNormal (attribute dtype), RandomUniformInt
// (int32: TF.js stores its draws in an Int32Array whatever Tout says).
void draws(InferContext& c) {
  const DType dtype =
      c.node.op == "RandomUniformInt" ? DType::Int32 : c.attr<DType>("dtype", DType::Float32);
  if (const auto dims = c.ints(0)) {
    c.set(0, dtype, PartialShape::of(*dims));
    return;
  }
  const PartialShape s = c.shape(0);
  c.set(0, dtype,
        with_rank(PartialShape::unknown(),
                  s.rank_known && s.dims.size() == 1 ? static_cast<int>(s.dims[0]) : -1));
}

// Multinomial(logits [batch, classes] or [classes], num_samples): int32.
void multinomial(InferContext& c) {
  const PartialShape logits = c.shape(0);
  const auto n = c.scalar(1);
  const std::int64_t samples = n && *n >= 0 ? *n : -1;
  if (logits.rank_known && logits.dims.size() == 1)
    c.set(0, DType::Int32, PartialShape::of({samples}));
  else if (logits.rank_known && logits.dims.size() == 2)
    c.set(0, DType::Int32, PartialShape::of({logits.dims[0], samples}));
  else
    c.set(0, DType::Int32, PartialShape::unknown());
}

constexpr OpDef kOps[] = {
    {"Multinomial", multinomial, Family::Other}, {"RandomStandardNormal", draws, Family::Other},
    {"RandomUniform", draws, Family::Other},     {"RandomUniformInt", draws, Family::Other},
    {"TruncatedNormal", draws, Family::Other},
};

}  // namespace

std::span<const OpDef> random_ops() {
  return kOps;
}

}  // namespace tfjsi::ops
