// Sparse kernels with TF.js's cpu semantics: SparseToDense (a dense tensor of default_value with
// the listed entries set), SparseFillEmptyRows, SparseReshape, SparseSegmentSum and
// SparseSegmentMean (tfjs-backend-cpu's *_impl.js).
#include <algorithm>
#include <cstring>
#include <vector>

#include "backends/cpu/tensor_util.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

// A [rows, cols] int32 input (sparse indices), checked.
HostTensor index_matrix(const KernelContext& ctx, std::size_t i, std::string_view what) {
  const HostTensor t = convert(input(ctx, i), DType::Int32);
  if (t.rank() != 2)
    fail(ctx, std::string(what) + " must be a matrix, got shape " + shape_to_string(t.shape));
  return t;
}

// out[k] = src[from[k]], or `fill` (element 0 of it) where from[k] < 0; any dtype.
HostTensor pick(const HostTensor& src, const std::vector<std::int64_t>& from,
                const HostTensor& fill) {
  HostTensor out = HostTensor::uninitialized(src.dtype, {static_cast<std::int64_t>(from.size())});
  if (src.dtype == DType::String) {
    for (std::size_t k = 0; k < from.size(); ++k)
      (*out.strings)[k] =
          from[k] < 0 ? (*fill.strings)[0] : (*src.strings)[static_cast<std::size_t>(from[k])];
    return out;
  }
  const std::size_t es = element_size(src.dtype);
  for (std::size_t k = 0; k < from.size(); ++k)
    std::memcpy(out.buffer->mutable_data() + k * es,
                from[k] < 0 ? fill.buffer->data() : src.buffer->data() + from[k] * es, es);
  return out;
}

HostTensor int_tensor(Shape shape, const std::vector<std::int64_t>& v) {
  HostTensor t = HostTensor::zeros(DType::Int32, std::move(shape));
  auto o = t.mutable_values<std::int32_t>();
  for (std::size_t i = 0; i < v.size(); ++i) o[i] = static_cast<std::int32_t>(v[i]);
  return t;
}

}  // namespace

// Inputs: sparse_indices (scalar, [N] or [N, R]), output_shape [R], sparse_values (scalar or
// [N]), default_value (scalar). Later duplicates overwrite earlier ones, as in TF.js.
std::vector<HostTensor> SparseToDense(const KernelContext& ctx) {
  require_inputs(ctx, 4, 4);
  const HostTensor idx = convert(input(ctx, 0), DType::Int32);
  const auto dims = read_ints(ctx, 1, "output_shape");
  for (auto d : dims)
    if (d < 0) fail(ctx, "output_shape " + shape_to_string(dims) + " has a negative dim");
  const HostTensor& values0 = input(ctx, 2);
  const DType t = values0.dtype;
  const HostTensor values = values0;
  const HostTensor def = convert(input(ctx, 3), t);
  if (def.num_elements() != 1) fail(ctx, "default_value must be a scalar");
  const Shape shape(dims.begin(), dims.end());
  const auto rank = static_cast<std::int64_t>(shape.size());
  if (idx.rank() > 2)
    fail(ctx, "sparse_indices must have rank <= 2, got " + shape_to_string(idx.shape));
  const std::int64_t n = idx.rank() == 0 ? 1 : idx.shape[0];
  const std::int64_t depth = idx.rank() == 2 ? idx.shape[1] : 1;
  if (depth != rank)
    fail(ctx, "sparse_indices " + shape_to_string(idx.shape) + " do not address output shape " +
                  shape_to_string(shape));
  if (values.num_elements() != 1 && values.num_elements() != n)
    fail(ctx, "sparse_values of shape " + shape_to_string(values.shape) + " do not match " +
                  std::to_string(n) + " indices");
  HostTensor out = HostTensor::zeros(t, shape);
  const auto strides = strides_of(shape);
  const auto iv = idx.values<std::int32_t>();
  dispatch_numeric(ctx, t, [&](auto tag) {
    using T = decltype(tag);
    auto o = out.mutable_values<T>();
    std::ranges::fill(o, def.values<T>()[0]);
    const auto v = values.values<T>();
    for (std::int64_t i = 0; i < n; ++i) {
      std::int64_t off = 0;
      for (std::int64_t d = 0; d < depth; ++d) {
        const std::int64_t k = iv[i * depth + d];
        if (k < 0 || k >= shape[d])
          fail(ctx, "index " + std::to_string(k) + " is out of range for output shape " +
                        shape_to_string(shape));
        off += k * strides[d];
      }
      o[off] = v[v.size() == 1 ? 0 : i];
    }
  });
  return {out};
}

// SparseFillEmptyRows(indices [n, rank], values [n], dense_shape [rank], default_value): every
// row of the dense shape that has no entry gets one, [row, 0, ...] = default_value. Entries keep
// their order within a row; rows come in order. Outputs: indices, values, which rows were empty
// (bool) and where each input entry went.
std::vector<HostTensor> SparseFillEmptyRows(const KernelContext& ctx) {
  require_inputs(ctx, 4, 4);
  const HostTensor idx = index_matrix(ctx, 0, "indices");
  const HostTensor& values = ctx.inputs[1];
  const auto dense = read_ints(ctx, 2, "dense_shape");
  const HostTensor& def = ctx.inputs[3];
  if (values.rank() != 1)
    fail(ctx, "values must be a vector, got shape " + shape_to_string(values.shape));
  if (ctx.inputs[2].rank() != 1 || dense.empty())
    fail(ctx, "dense_shape must be a non-empty vector, got shape " +
                  shape_to_string(ctx.inputs[2].shape));
  if (def.rank() != 0)
    fail(ctx, "default_value must be a scalar, got shape " + shape_to_string(def.shape));
  if (def.dtype != values.dtype)
    fail(ctx, "default_value is " + std::string(to_string(def.dtype)) + ", values are " +
                  std::string(to_string(values.dtype)));
  const std::int64_t n = idx.shape[0], rank = idx.shape[1], rows = dense[0];
  if (rank < 1) fail(ctx, "indices " + shape_to_string(idx.shape) + " have no row column");
  if (values.shape[0] != n)
    fail(ctx, std::to_string(n) + " indices but " + std::to_string(values.shape[0]) + " values");
  const auto iv = idx.values<std::int32_t>();
  if (rows <= 0) {
    if (n != 0)
      fail(ctx, "dense_shape has no rows but there are " + std::to_string(n) + " indices");
    return {HostTensor::zeros(DType::Int32, {0, rank}), pick(values, {}, def),
            HostTensor::zeros(DType::Bool, {0}), HostTensor::zeros(DType::Int32, {0})};
  }
  // Entries per row, then (with one for each empty row) where each row starts.
  std::vector<std::int64_t> start(static_cast<std::size_t>(rows) + 1, 0);
  bool ordered = true;
  for (std::int64_t i = 0, last = 0; i < n; ++i) {
    const std::int64_t row = iv[i * rank];
    if (row < 0 || row >= rows)
      fail(ctx, "indices(" + std::to_string(i) + ", 0) is " + std::to_string(row) +
                    ", out of the " + std::to_string(rows) + " rows");
    ++start[static_cast<std::size_t>(row) + 1];
    ordered = ordered && row >= last;
    last = row;
  }
  HostTensor empty = HostTensor::zeros(DType::Bool, {rows});
  auto ev = empty.mutable_values<std::uint8_t>();
  bool full = true;
  for (std::int64_t r = 0; r < rows; ++r) {
    auto& next = start[static_cast<std::size_t>(r) + 1];
    ev[r] = next == 0;
    full = full && next > 0;
    next = std::max<std::int64_t>(next, 1) + start[static_cast<std::size_t>(r)];
  }
  std::vector<std::int64_t> reverse(static_cast<std::size_t>(n));
  if (full && ordered) {
    for (std::int64_t i = 0; i < n; ++i) reverse[static_cast<std::size_t>(i)] = i;
    return {idx, values, empty, int_tensor({n}, reverse)};
  }
  const std::int64_t total = start.back();
  std::vector<std::int64_t> out_idx(static_cast<std::size_t>(total * rank), 0);
  std::vector<std::int64_t> from(static_cast<std::size_t>(total), -1);
  std::vector<std::int64_t> filled(static_cast<std::size_t>(rows), 0);
  for (std::int64_t i = 0; i < n; ++i) {
    const auto row = static_cast<std::size_t>(iv[i * rank]);
    const std::int64_t at = start[row] + filled[row]++;
    for (std::int64_t j = 0; j < rank; ++j)
      out_idx[static_cast<std::size_t>(at * rank + j)] = iv[i * rank + j];
    from[static_cast<std::size_t>(at)] = i;
    reverse[static_cast<std::size_t>(i)] = at;
  }
  for (std::int64_t r = 0; r < rows; ++r)
    if (filled[static_cast<std::size_t>(r)] == 0)
      out_idx[static_cast<std::size_t>(start[static_cast<std::size_t>(r)] * rank)] = r;
  return {int_tensor({total, rank}, out_idx), pick(values, from, def), empty,
          int_tensor({n}, reverse)};
}

// SparseReshape(indices [n, in rank], shape [in rank], new_shape [out rank]): the same entries'
// indices in the new shape (one -1 dim is worked out), and the new shape.
std::vector<HostTensor> SparseReshape(const KernelContext& ctx) {
  require_inputs(ctx, 3, 3);
  const HostTensor idx = index_matrix(ctx, 0, "input_indices");
  const auto in_shape = read_ints(ctx, 1, "input_shape");
  auto out_shape = read_ints(ctx, 2, "new_shape");
  if (ctx.inputs[1].rank() != 1 || ctx.inputs[2].rank() != 1)
    fail(ctx, "input_shape and new_shape must be vectors");
  const auto in_rank = static_cast<std::int64_t>(in_shape.size());
  const auto out_rank = static_cast<std::int64_t>(out_shape.size());
  if (idx.shape[1] != in_rank)
    fail(ctx, "input_indices " + shape_to_string(idx.shape) + " do not address input_shape " +
                  shape_to_string(in_shape));
  std::int64_t dense = 1, product = 1, unknown = -1;
  for (auto d : in_shape) dense *= d;
  for (std::int64_t d = 0; d < out_rank; ++d) {
    const std::int64_t size = out_shape[static_cast<std::size_t>(d)];
    if (size == -1) {
      if (unknown != -1)
        fail(ctx, "only one output dimension may be -1, not both " + std::to_string(unknown) +
                      " and " + std::to_string(d));
      unknown = d;
    } else if (size < 0) {
      fail(ctx, "size " + std::to_string(d) + " must be non-negative, not " + std::to_string(size));
    } else {
      product *= size;
    }
  }
  if (unknown != -1) {
    if (product <= 0)
      fail(ctx,
           "reshape cannot infer the missing input size for an empty tensor unless all "
           "specified input sizes are non-zero");
    const std::int64_t missing = dense / product;
    if (product * missing != dense)
      fail(ctx, "input to reshape is a SparseTensor with " + std::to_string(dense) +
                    " dense values, but the requested shape requires a multiple of " +
                    std::to_string(product));
    out_shape[static_cast<std::size_t>(unknown)] = missing;
  }
  std::int64_t out_size = 1;
  for (auto d : out_shape) out_size *= d;
  if (out_size != dense)
    fail(ctx, "input to reshape is a tensor with " + std::to_string(dense) +
                  " dense values, but the requested shape " + shape_to_string(out_shape) + " has " +
                  std::to_string(out_size));
  const auto in_strides = strides_of(Shape(in_shape.begin(), in_shape.end()));
  const auto out_strides = strides_of(Shape(out_shape.begin(), out_shape.end()));
  const std::int64_t n = idx.shape[0];
  const auto iv = idx.values<std::int32_t>();
  std::vector<std::int64_t> out(static_cast<std::size_t>(n * out_rank));
  for (std::int64_t i = 0; i < n; ++i) {
    std::int64_t id = 0;
    for (std::int64_t j = 0; j < in_rank; ++j)
      id += iv[i * in_rank + j] * in_strides[static_cast<std::size_t>(j)];
    for (std::int64_t j = 0; j < out_rank; ++j) {
      const std::int64_t stride = out_strides[static_cast<std::size_t>(j)];
      out[static_cast<std::size_t>(i * out_rank + j)] = stride ? id / stride : 0;
      if (stride) id %= stride;
    }
  }
  return {int_tensor({n, out_rank}, out), int_tensor({out_rank}, out_shape)};
}

namespace {

// SparseSegmentSum/Mean(data [rows, ...], indices [k], segment_ids [k], sorted): output row s is
// the sum (mean) of data rows indices[i] for the i with segment_ids[i] == s; rows no id names are
// 0. As TF.js: float32 sums round at each step, int32 ones wrap, an int32 mean truncates.
std::vector<HostTensor> segment_reduction(const KernelContext& ctx, bool mean) {
  require_inputs(ctx, 3, 3);
  const HostTensor& data = input(ctx, 0);
  if (data.rank() < 1) fail(ctx, "data must have at least one dimension, got a scalar");
  if (data.dtype != DType::Float32 && data.dtype != DType::Int32)
    fail(ctx, "data must be float32 or int32, got " + std::string(to_string(data.dtype)));
  if (ctx.inputs[1].rank() != 1 || ctx.inputs[2].rank() != 1)
    fail(ctx, "indices and segment_ids must be vectors");
  const auto idx = read_ints(ctx, 1, "indices");
  const auto seg = read_ints(ctx, 2, "segment_ids");
  if (idx.size() != seg.size())
    fail(ctx, std::to_string(idx.size()) + " indices but " + std::to_string(seg.size()) +
                  " segment ids");
  const std::int64_t k = static_cast<std::int64_t>(idx.size()), in_rows = data.shape[0];
  const std::int64_t cols = in_rows ? data.num_elements() / in_rows : 0;
  const std::int64_t rows = k > 0 ? seg.back() + 1 : 0;
  if (rows < 0) fail(ctx, "segment ids must be >= 0");
  Shape shape = data.shape;
  shape[0] = rows;
  HostTensor out = HostTensor::zeros(data.dtype, shape);
  for (std::int64_t i = 0; i < k; ++i) {
    const std::int64_t s = seg[static_cast<std::size_t>(i)];
    if (i > 0 && s < seg[static_cast<std::size_t>(i) - 1])
      fail(ctx, "segment ids are not increasing");
    if (s < 0 || s >= rows)
      fail(ctx,
           "segment id " + std::to_string(s) + " out of range [0, " + std::to_string(rows) + ")");
    const std::int64_t r = idx[static_cast<std::size_t>(i)];
    if (r < 0 || r >= in_rows)
      fail(ctx, "index " + std::to_string(i) + " is " + std::to_string(r) + ", out of range [0, " +
                    std::to_string(in_rows) + ")");
  }
  dispatch_numeric(ctx, data.dtype, [&](auto tag) {
    using T = decltype(tag);
    const auto in = data.values<T>();
    auto o = out.mutable_values<T>();
    for (std::int64_t begin = 0; begin < k;) {
      std::int64_t end = begin + 1;
      const std::int64_t s = seg[static_cast<std::size_t>(begin)];
      while (end < k && seg[static_cast<std::size_t>(end)] == s) ++end;
      T* row = o.data() + s * cols;
      for (std::int64_t i = begin; i < end; ++i) {
        const T* src = in.data() + idx[static_cast<std::size_t>(i)] * cols;
        for (std::int64_t j = 0; j < cols; ++j) {
          if constexpr (std::is_same_v<T, float>)
            row[j] += src[j];
          else  // wraps like Int32Array
            row[j] = static_cast<T>(static_cast<std::uint32_t>(row[j]) +
                                    static_cast<std::uint32_t>(src[j]));
        }
      }
      if (mean)
        for (std::int64_t j = 0; j < cols; ++j) {
          if constexpr (std::is_same_v<T, float>)
            row[j] = static_cast<float>(static_cast<double>(row[j]) / double(end - begin));
          else
            row[j] = static_cast<T>(js_to_int32(static_cast<double>(row[j]) / double(end - begin)));
        }
      begin = end;
    }
  });
  return {out};
}

}  // namespace

std::vector<HostTensor> SparseSegmentMean(const KernelContext& ctx) {
  return segment_reduction(ctx, true);
}

std::vector<HostTensor> SparseSegmentSum(const KernelContext& ctx) {
  return segment_reduction(ctx, false);
}

}  // namespace tfjsi::cpu::tensor_ops
