// Resizing, sampling and the space/depth/batch shuffles: ResizeBilinear, ResizeNearestNeighbor,
// CropAndResize, ImageProjectiveTransformV3, DepthToSpace, SpaceToDepth, SpaceToBatchND,
// BatchToSpaceND.
#include "ops/attr.h"
#include "ops/op_def.h"
#include "ops/shape_context.h"

namespace tfjsi::ops {
namespace {

void resize(InferContext& c) {
  const PartialShape x = with_rank(c.shape(0), 4);
  std::vector<std::int64_t> out(4, -1);
  if (x.rank_known && x.dims.size() == 4) {
    out[0] = x.dims[0];
    out[3] = x.dims[3];
  }
  if (auto size = c.ints(1); size && size->size() == 2) {
    out[1] = (*size)[0];
    out[2] = (*size)[1];
  }
  c.set(0, c.t(), PartialShape::of(std::move(out)));
}

// CropAndResize(image, boxes, box_ind, crop_size): [num_boxes, crop_h, crop_w, channels], float32
// whatever the image's type (as TF.js).
void crop_and_resize(InferContext& c) {
  const PartialShape x = with_rank(c.shape(0), 4);
  const PartialShape boxes = with_rank(c.shape(1), 2);
  std::vector<std::int64_t> out(4, -1);
  if (boxes.rank_known && boxes.dims.size() == 2) out[0] = boxes.dims[0];
  if (x.rank_known && x.dims.size() == 4) out[3] = x.dims[3];
  if (auto size = c.ints(3); size && size->size() == 2) out[1] = (*size)[0], out[2] = (*size)[1];
  c.set(0, DType::Float32, PartialShape::of(std::move(out)));
}

// ImageProjectiveTransformV3(images, transforms, output_shape, fill_value): [batch, out_h, out_w,
// channels] of attribute dtype.
void projective_transform(InferContext& c) {
  const PartialShape x = with_rank(c.shape(0), 4);
  std::vector<std::int64_t> out(4, -1);
  if (x.rank_known && x.dims.size() == 4) out[0] = x.dims[0], out[3] = x.dims[3];
  if (auto size = c.ints(2); size && size->size() == 2) out[1] = (*size)[0], out[2] = (*size)[1];
  const std::optional<DType> t = try_attr<DType>(c.node, "dtype");
  c.set(0, t ? t : c.t(), PartialShape::of(std::move(out)));
}

void depth_to_space(InferContext& c) {
  const Layout l = layout_of(c);
  const std::int64_t bs = c.attr<std::int64_t>("block_size", -1);
  const bool to_space = c.node.op == "DepthToSpace";
  const PartialShape x = with_rank(c.shape(0), 4);
  std::vector<std::int64_t> out(4, -1);
  if (x.rank_known && x.dims.size() == 4 && bs > 0 && bs < (1 << 20)) {
    out = x.dims;
    auto scale = [&](int i, bool up) {
      auto& d = out[static_cast<std::size_t>(i)];
      d = up ? dim_mul(d, bs) : (d >= 0 ? d / bs : -1);
    };
    scale(l.h(), to_space);
    scale(l.w(), to_space);
    auto& ch = out[static_cast<std::size_t>(l.ch())];
    ch = to_space ? (ch >= 0 ? ch / (bs * bs) : -1) : dim_mul(ch, bs * bs);
  }
  c.set(0, c.t(), PartialShape::of(std::move(out)));
}

// SpaceToBatchND(input, block_shape, paddings) and BatchToSpaceND(input, block_shape, crops).
void space_batch(InferContext& c) {
  const bool to_batch = c.node.op == "SpaceToBatchND";
  const PartialShape x = c.shape(0);
  const auto block = c.ints(1);
  const auto pads = c.ints(2);
  if (!x.rank_known || !block) {
    c.set(0, c.t(), with_rank(PartialShape::unknown(), x.rank()));
    return;
  }
  const std::size_t m = block->size();
  std::vector<std::int64_t> out = x.dims;
  if (out.size() < m + 1 || (pads && pads->size() != 2 * m)) {
    c.set(0, c.t(), PartialShape::unknown());
    return;
  }
  std::int64_t prod = 1;
  for (auto b : *block) prod = dim_mul(prod, b);
  if (prod <= 0) {
    c.set(0, c.t(), PartialShape::unknown());
    return;
  }
  out[0] = to_batch ? dim_mul(out[0], prod) : (out[0] >= 0 ? out[0] / prod : -1);
  for (std::size_t i = 0; i < m; ++i) {
    auto& d = out[i + 1];
    if (d < 0 || !pads) {
      d = -1;
      continue;
    }
    const std::int64_t extra = dim_add((*pads)[2 * i], (*pads)[2 * i + 1]);
    if (extra < 0) {
      d = -1;
      continue;
    }
    const std::int64_t spread = to_batch ? dim_add(d, extra) : dim_mul(d, (*block)[i]);
    d = spread < 0 ? -1 : to_batch ? spread / (*block)[i] : dim_add(spread, -extra);
  }
  c.set(0, c.t(), PartialShape::of(std::move(out)));
}

constexpr OpDef kOps[] = {
    {"BatchToSpaceND", space_batch, Family::Shape},
    {"CropAndResize", crop_and_resize, Family::Shape},
    {"DepthToSpace", depth_to_space, Family::Shape},
    {"ImageProjectiveTransformV3", projective_transform, Family::Shape},
    {"ResizeBilinear", resize, Family::Shape},
    {"ResizeNearestNeighbor", resize, Family::Shape},
    {"SpaceToBatchND", space_batch, Family::Shape},
    {"SpaceToDepth", depth_to_space, Family::Shape},
};

}  // namespace

std::span<const OpDef> spatial_ops() {
  return kOps;
}

}  // namespace tfjsi::ops
