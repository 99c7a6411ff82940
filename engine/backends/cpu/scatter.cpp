// ScatterNd and TensorScatterUpdate: slices of `updates` written where `indices` point, as TF.js's
// scatterImpl does. ScatterNd starts from zeros and sums duplicate indices; TensorScatterUpdate
// starts from a copy of its tensor and a later duplicate replaces an earlier one.
#include <string>
#include <vector>

#include "backends/cpu/tensor_util.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

// TF.js's scatter_nd_util: indices [..., slice_rank] address slices of `shape`; updates are
// indices.shape[:-1] + shape[slice_rank:] (a 1-D indices tensor addresses dim 0).
struct Geometry {
  std::int64_t slice_rank = 1;
  std::int64_t num_updates = 0;
  std::int64_t slice_size = 1;
  std::int64_t num_slices = 0;        // of the output: its size over slice_size
  std::vector<std::int64_t> strides;  // of the first slice_rank dims, in slices
};

Geometry geometry(const KernelContext& ctx, const HostTensor& indices, const HostTensor& updates,
                  const Shape& shape) {
  if (indices.dtype != DType::Int32)
    fail(ctx, "indices must be int32, got " + std::string(to_string(indices.dtype)));
  if (indices.rank() < 1 || updates.rank() < 1 || shape.empty())
    fail(ctx, "indices, updates and the output must have rank 1 or higher, got indices " +
                  shape_to_string(indices.shape) + ", updates " + shape_to_string(updates.shape) +
                  ", output " + shape_to_string(shape));
  const int out_rank = static_cast<int>(shape.size());
  const std::int64_t slice_dim = indices.rank() > 1 ? indices.shape.back() : 1;
  const int batch_dim = indices.rank() > 1 ? indices.rank() - 1 : 1;
  bool ok = slice_dim <= out_rank && updates.rank() == batch_dim + out_rank - slice_dim;
  for (int d = 0; ok && d < batch_dim; ++d) ok = updates.shape[d] == indices.shape[d];
  for (int d = 0; ok && d < updates.rank() - batch_dim; ++d)
    ok = updates.shape[d + batch_dim] == shape[static_cast<std::size_t>(d + slice_dim)];
  if (!ok)
    fail(ctx, "updates " + shape_to_string(updates.shape) +
                  " must be indices.shape[:-1] + shape[slice_rank:] for indices " +
                  shape_to_string(indices.shape) + " into " + shape_to_string(shape));
  Geometry g;
  g.slice_rank = slice_dim;
  for (auto d = static_cast<std::size_t>(slice_dim); d < shape.size(); ++d)
    g.slice_size *= shape[d];
  g.num_updates = slice_dim < 1 ? indices.num_elements() : indices.num_elements() / slice_dim;
  g.num_slices = g.slice_size == 0 ? 0 : num_elements(shape) / g.slice_size;
  g.strides.assign(static_cast<std::size_t>(slice_dim), 1);
  for (auto d = static_cast<std::int64_t>(slice_dim) - 2; d >= 0; --d)
    g.strides[static_cast<std::size_t>(d)] =
        g.strides[static_cast<std::size_t>(d + 1)] * shape[static_cast<std::size_t>(d + 1)];
  return g;
}

std::vector<HostTensor> scatter(const KernelContext& ctx, bool update) {
  require_inputs(ctx, 3, 3);
  const HostTensor& indices = input(ctx, update ? 1 : 0);
  const HostTensor& updates = input(ctx, update ? 2 : 1);
  HostTensor out;
  if (update) {
    const HostTensor& tensor = input(ctx, 0);
    if (tensor.dtype != updates.dtype)
      fail(ctx, "tensor and updates must have the same dtype, got " +
                    std::string(to_string(tensor.dtype)) + " and " +
                    std::string(to_string(updates.dtype)));
    out = HostTensor::uninitialized(tensor.dtype, tensor.shape);
    copy_elems(out.buffer->mutable_data(), tensor.buffer->data(), tensor.num_elements(),
               element_size(tensor.dtype));
  } else {
    const auto dims = read_ints(ctx, 2, "shape");
    for (auto d : dims)
      if (d < 0) fail(ctx, "shape " + shape_to_string(dims) + " has a negative dim");
    out = HostTensor::zeros(updates.dtype, Shape(dims.begin(), dims.end()));
  }
  const Geometry g = geometry(ctx, indices, updates, out.shape);
  if (out.num_elements() == 0) return {out};
  const auto iv = indices.values<std::int32_t>();
  // Every index is checked before anything is written. Like TF.js, only the flat slice position
  // must lie in the output; a dim's own range is not checked.
  std::vector<std::int64_t> at(static_cast<std::size_t>(g.num_updates));
  for (std::int64_t i = 0; i < g.num_updates; ++i) {
    std::int64_t flat = 0;
    for (std::int64_t j = 0; j < g.slice_rank; ++j)
      flat += iv[static_cast<std::size_t>(i * g.slice_rank + j)] *
              g.strides[static_cast<std::size_t>(j)];
    if (flat < 0 || flat >= g.num_slices) {
      std::string index;
      for (std::int64_t j = 0; j < g.slice_rank; ++j)
        index +=
            (j ? "," : "") + std::to_string(iv[static_cast<std::size_t>(i * g.slice_rank + j)]);
      fail(ctx, "index [" + index + "] does not address a slice of " + shape_to_string(out.shape));
    }
    at[static_cast<std::size_t>(i)] = flat * g.slice_size;
  }
  dispatch_numeric(ctx, out.dtype, [&](auto tag) {
    using T = decltype(tag);
    const T* u = updates.values<T>().data();
    T* o = out.mutable_values<T>().data();
    for (std::int64_t i = 0; i < g.num_updates; ++i) {
      T* dst = o + at[static_cast<std::size_t>(i)];
      const T* src = u + i * g.slice_size;
      for (std::int64_t k = 0; k < g.slice_size; ++k) {
        if (update)
          dst[k] = src[k];
        else if constexpr (std::is_same_v<T, std::int32_t>)  // wraps like Int32Array
          dst[k] = static_cast<std::int32_t>(static_cast<std::uint32_t>(dst[k]) +
                                             static_cast<std::uint32_t>(src[k]));
        else
          dst[k] = static_cast<T>(dst[k] + src[k]);
      }
    }
  });
  return {out};
}

}  // namespace

std::vector<HostTensor> ScatterNd(const KernelContext& ctx) {
  return scatter(ctx, false);
}

std::vector<HostTensor> TensorScatterUpdate(const KernelContext& ctx) {
  return scatter(ctx, true);
}

}  // namespace tfjsi::cpu::tensor_ops
