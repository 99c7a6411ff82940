// Matrix products: MatMul, _FusedMatMul, BatchMatMul(V2), Einsum.
#include "ops/attr.h"
#include "ops/einsum.h"
#include "ops/op_def.h"
#include "ops/shape_context.h"

namespace tfjsi::ops {
namespace {

void matmul(InferContext& c) {
  const bool ta = c.attr<bool>("transpose_a", false);
  const bool tb = c.attr<bool>("transpose_b", false);
  const PartialShape a = with_rank(c.shape(0), 2), b = with_rank(c.shape(1), 2);
  std::int64_t m = -1, n = -1;
  if (a.rank_known && a.dims.size() == 2) m = a.dims[ta ? 1 : 0];
  if (b.rank_known && b.dims.size() == 2) n = b.dims[tb ? 0 : 1];
  c.set(0, c.t(), PartialShape::of({m, n}));
}

void batch_matmul(InferContext& c) {
  const bool ax = c.attr<bool>("adj_x", false);
  const bool ay = c.attr<bool>("adj_y", false);
  const PartialShape a = c.shape(0), b = c.shape(1);
  if (!a.rank_known || !b.rank_known || a.dims.size() < 2 || b.dims.size() < 2) {
    c.set(0, c.t(), PartialShape::unknown());
    return;
  }
  const auto batch = broadcast_shapes(PartialShape::of({a.dims.begin(), a.dims.end() - 2}),
                                      PartialShape::of({b.dims.begin(), b.dims.end() - 2}));
  std::vector<std::int64_t> out = batch.dims;
  const std::size_t ra = a.dims.size(), rb = b.dims.size();
  out.push_back(ax ? a.dims[ra - 1] : a.dims[ra - 2]);
  out.push_back(ay ? b.dims[rb - 2] : b.dims[rb - 1]);
  c.set(0, c.t(), PartialShape::of(std::move(out)));
}

// Each output label takes its size from an operand that has it (the kernel checks they agree).
void einsum(InferContext& c) {
  const auto eq = parse_einsum(c.attr<std::string>("equation", ""), c.num_inputs());
  if (!eq) {
    c.set(0, c.t(), PartialShape::unknown());
    return;
  }
  std::vector<std::int64_t> out;
  for (const char label : eq->output) {
    std::int64_t size = -1;
    for (std::size_t i = 0; i < eq->inputs.size(); ++i) {
      const PartialShape& s = c.shape(i);
      const auto pos = eq->inputs[i].find(label);
      if (pos != std::string::npos && s.rank_known && s.dims.size() == eq->inputs[i].size() &&
          s.dims[pos] >= 0)
        size = s.dims[pos];
    }
    out.push_back(size);
  }
  c.set(0, c.t(), PartialShape::of(std::move(out)));
}

constexpr OpDef kOps[] = {
    {"BatchMatMul", batch_matmul, Family::MatMul},
    {"BatchMatMulV2", batch_matmul, Family::MatMul},
    {"Einsum", einsum, Family::MatMul},
    {"MatMul", matmul, Family::MatMul},
    {"_FusedMatMul", matmul, Family::MatMul},
};

}  // namespace

std::span<const OpDef> matmul_ops() {
  return kOps;
}

}  // namespace tfjsi::ops
