// Ragged tensors (TF.js's ragged category): RaggedGather, RaggedRange and RaggedTensorToTensor as
// TF defines them and TF.js's cpu kernels (ported from TF's) compute them, with their checks and
// messages. Values may be of any dtype, strings included (tokenizers hand out ragged strings).
// Where TF.js's port strays from TF we follow TF (tests/ops/README.md lists where).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/cpu/tensor_util.h"
#include "ops/attr.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

using Ints = std::vector<std::int64_t>;

// The values of an int32 input of rank <= 1 (splits, row ids, indices flattened).
Ints int_values(const KernelContext& ctx, std::size_t i, std::string_view what) {
  const HostTensor& t = input(ctx, i);
  if (t.dtype != DType::Int32)
    fail(ctx, std::string(what) + " must be int32, got " + std::string(to_string(t.dtype)));
  const auto v = t.values<std::int32_t>();
  return Ints(v.begin(), v.end());
}

// Copies `n` elements of `src` from `from` to `out` at `to` (same dtype, strings too).
void copy_elements(const HostTensor& src, std::int64_t from, HostTensor& out, std::int64_t to,
                   std::int64_t n) {
  if (n <= 0) return;
  if (src.dtype == DType::String) {
    std::copy_n(src.strings->begin() + from, n, out.strings->begin() + to);
    return;
  }
  const std::size_t e = element_size(src.dtype);
  copy_elems(out.buffer->mutable_data() + static_cast<std::size_t>(to) * e,
             src.buffer->data() + static_cast<std::size_t>(from) * e, n, e);
}

Shape checked_shape(const KernelContext& ctx, const Shape& s) {
  for (auto d : s)
    if (d < 0) fail(ctx, "output dimension " + std::to_string(d) + " must be >= 0");
  if (!checked_num_elements(s)) fail(ctx, "output shape " + shape_to_string(s) + " is too large");
  return s;
}

}  // namespace

// Inputs: params_nested_splits (one or more), params_dense_values, indices. Outputs: the gathered
// rows' nested splits (indices.rank - 1 uniform ones first), then their values.
std::vector<HostTensor> RaggedGather(const KernelContext& ctx) {
  require_inputs(ctx, 3);
  const std::size_t n = ctx.inputs.size(), num_splits = n - 2;
  const HostTensor& values = ctx.inputs[n - 2];
  const HostTensor& indices_t = input(ctx, n - 1);
  const auto params_rank = ops::optional_attr<std::int64_t>(ctx.node, "PARAMS_RAGGED_RANK");
  if (params_rank && *params_rank != static_cast<std::int64_t>(num_splits))
    fail(ctx, "PARAMS_RAGGED_RANK is " + std::to_string(*params_rank) + " but " +
                  std::to_string(num_splits) + " splits tensors are given");
  std::vector<Ints> splits;
  for (std::size_t d = 0; d < num_splits; ++d) {
    if (input(ctx, d).rank() == 0) fail(ctx, "Split tensors must not be scalars");
    splits.push_back(int_values(ctx, d, "params_nested_splits"));
  }
  const Ints indices = int_values(ctx, n - 1, "indices");
  const std::int64_t num_params = static_cast<std::int64_t>(splits[0].size()) - 1;
  for (std::size_t i = 0; i < indices.size(); ++i)
    if (indices[i] < 0 || indices[i] >= num_params)
      fail(ctx, "indices[" + std::to_string(i) + "] = " + std::to_string(indices[i]) +
                    " is not in [0, " + std::to_string(num_params) + ")");
  if (values.rank() == 0) fail(ctx, "params.rank must be nonzero");
  const std::int64_t num_values = values.shape[0];
  for (std::size_t d = 0; d < num_splits; ++d) {
    const Ints& s = splits[d];
    // TF.js compares with the next splits' length, one past its last row, and then reads past
    // their end; its rows are what the splits may point to.
    const std::int64_t last =
        d + 1 == num_splits ? num_values : static_cast<std::int64_t>(splits[d + 1].size()) - 1;
    if (s.empty()) fail(ctx, "Ragged splits may not be empty");
    if (s[0] < 0) fail(ctx, "Ragged splits must be non-negative");
    if (s.back() > last) fail(ctx, "Ragged splits must not point past values");
    for (std::size_t i = 1; i < s.size(); ++i)
      if (s[i - 1] > s[i]) fail(ctx, "Ragged splits must be sorted in ascending order");
  }

  // Splits from indices' own dims ([2, 3] indices: [0, 3, 6]), then the gathered rows' lengths
  // dim by dim, while finding the value slices to copy.
  const Shape& ishape = indices_t.shape;
  const std::int64_t out_splits =
      static_cast<std::int64_t>(ishape.size()) - 1 + static_cast<std::int64_t>(num_splits);
  const auto out_rank = ops::optional_attr<std::int64_t>(ctx.node, "OUTPUT_RAGGED_RANK");
  if (out_rank && *out_rank != out_splits)
    fail(ctx, "OUTPUT_RAGGED_RANK is " + std::to_string(*out_rank) + " but indices of rank " +
                  std::to_string(ishape.size()) + " and " + std::to_string(num_splits) +
                  " params splits make " + std::to_string(out_splits));
  std::vector<Ints> out(static_cast<std::size_t>(std::max<std::int64_t>(out_splits, 0)), Ints{0});
  std::int64_t rows = 1;
  for (std::size_t d = 0; d + 1 < ishape.size(); ++d) {
    rows *= ishape[d];
    for (std::int64_t i = 1; i <= rows; ++i) out[d].push_back(i * ishape[d + 1]);
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> slices;
  std::int64_t total = 0;
  for (const std::int64_t index : indices) {
    std::int64_t start = index, limit = index + 1;
    for (std::size_t d = 0; d < num_splits; ++d) {
      const Ints& s = splits[d];
      const std::int64_t od = static_cast<std::int64_t>(d + ishape.size()) - 1;
      if (od >= 0) {
        Ints& o = out[static_cast<std::size_t>(od)];
        const std::int64_t delta = o.back() - s[start];
        for (std::int64_t j = start; j < limit; ++j) o.push_back(s[j + 1] + delta);
      }
      start = s[start];
      limit = s[limit];
    }
    if (limit != start) {
      slices.emplace_back(start, limit);
      total += limit - start;
    }
  }

  std::vector<HostTensor> result;
  for (const Ints& s : out) {
    HostTensor t = HostTensor::zeros(DType::Int32, {static_cast<std::int64_t>(s.size())});
    auto o = t.mutable_values<std::int32_t>();
    for (std::size_t i = 0; i < s.size(); ++i) o[i] = static_cast<std::int32_t>(s[i]);
    result.push_back(std::move(t));
  }
  Shape vshape = values.shape;
  vshape[0] = total;
  HostTensor v = HostTensor::zeros(values.dtype, checked_shape(ctx, vshape));
  const std::int64_t row = num_elements(std::span(values.shape).subspan(1));
  std::int64_t at = 0;
  for (const auto& [b, e] : slices) {
    copy_elements(values, b * row, v, at * row, (e - b) * row);
    at += e - b;
  }
  result.push_back(std::move(v));
  return result;
}

// Inputs: starts, limits, deltas (scalars or vectors of one length; scalars repeat). Outputs:
// row splits [rows + 1] and the rows' values, each row range(start, limit, delta). Sizes and
// values are worked out in doubles, as TF.js does.
std::vector<HostTensor> RaggedRange(const KernelContext& ctx) {
  require_inputs(ctx, 3, 3);
  static constexpr const char* kNames[] = {"starts", "limits", "deltas"};
  std::vector<double> in[3];
  std::vector<std::int64_t> sizes;
  for (std::size_t i = 0; i < 3; ++i) {
    const HostTensor& t = input(ctx, i);
    if (t.rank() > 1) fail(ctx, std::string(kNames[i]) + " must be a scalar or vector");
    if (t.dtype == DType::Int32)
      for (auto v : t.values<std::int32_t>()) in[i].push_back(v);
    else
      for (auto v : convert(t, DType::Float32).values<float>()) in[i].push_back(v);
    if (t.rank() == 1) sizes.push_back(t.shape[0]);
  }
  for (std::size_t i = 1; i < sizes.size(); ++i)
    if (sizes[i] != sizes[i - 1]) fail(ctx, "starts, limits, and deltas must have the same shape");
  const std::int64_t rows = sizes.empty() ? 1 : sizes[0];
  const auto at = [&](int i, std::int64_t r) {
    return ctx.inputs[static_cast<std::size_t>(i)].rank() == 0 ? in[i][0]
                                                               : in[i][static_cast<std::size_t>(r)];
  };
  constexpr double kInt32Max = 2147483647.0;
  HostTensor splits = HostTensor::zeros(DType::Int32, {rows + 1});
  auto s = splits.mutable_values<std::int32_t>();
  std::int64_t total = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    const double start = at(0, r), limit = at(1, r), delta = at(2, r);
    if (delta == 0) fail(ctx, "Requires delta != 0");
    double size = 0;
    if (!((delta > 0 && limit < start) || (delta < 0 && limit > start))) {
      size = std::ceil(std::abs((limit - start) / delta));
      if (!(size <= kInt32Max))
        fail(ctx, "Requires ((limit - start) / delta) <= " + std::to_string(2147483647));
    }
    total += static_cast<std::int64_t>(size);
    if (total > 2147483647) fail(ctx, "makes more than 2^31 - 1 values");
    s[static_cast<std::size_t>(r + 1)] = static_cast<std::int32_t>(total);
  }
  const DType t = ctx.inputs[0].dtype == DType::Int32 ? DType::Int32 : DType::Float32;
  HostTensor values = HostTensor::zeros(t, checked_shape(ctx, {total}));
  std::int64_t k = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    double v = at(0, r);
    const double delta = at(2, r);
    for (std::int64_t i = s[static_cast<std::size_t>(r)]; i < s[static_cast<std::size_t>(r + 1)];
         ++i, ++k, v += delta) {
      if (t == DType::Int32)
        values.mutable_values<std::int32_t>()[static_cast<std::size_t>(k)] = js_to_int32(v);
      else
        values.mutable_values<float>()[static_cast<std::size_t>(k)] = static_cast<float>(v);
    }
  }
  return {splits, values};
}

namespace {

enum class Partition { FirstDimSize, ValueRowIds, RowSplits };

// RaggedTensorToTensor's state: the row partitions, read once, and the steps of TF's kernel
// (ragged_tensor_to_tensor_op.cc, which TF.js ports).
class RaggedToDense {
 public:
  explicit RaggedToDense(const KernelContext& ctx) : ctx_(ctx) {
    const auto names = ops::attr<std::vector<std::string>>(ctx.node, "row_partition_types");
    for (const auto& n : names) {
      if (n == "FIRST_DIM_SIZE")
        types_.push_back(Partition::FirstDimSize);
      else if (n == "VALUE_ROWIDS")
        types_.push_back(Partition::ValueRowIds);
      else if (n == "ROW_SPLITS")
        types_.push_back(Partition::RowSplits);
      else
        fail(ctx, "row partition type '" + n +
                      "' is not supported (FIRST_DIM_SIZE, "
                      "VALUE_ROWIDS and ROW_SPLITS are)");
    }
    if (types_.empty()) fail(ctx, "No row_partition_types given.");
    if (ctx.inputs.size() != 3 + types_.size())
      fail(ctx, std::to_string(types_.size()) + " row_partition_types but " +
                    std::to_string(ctx.inputs.size() - 3) + " row partition tensors");
    for (std::size_t i = 0; i < types_.size(); ++i) {
      parts_.push_back(int_values(ctx, 3 + i, "row partition tensor"));
      part_rows_.push_back(ctx.inputs[3 + i].rank() == 0 ? 1 : ctx.inputs[3 + i].shape[0]);
    }
    first_dim_size_ = types_[0] == Partition::FirstDimSize;
    ragged_rank_ = static_cast<int>(types_.size()) - (first_dim_size_ ? 1 : 0);
  }

  HostTensor run() {
    const HostTensor& values = ctx_.inputs[1];
    if (values.rank() == 0) fail(ctx_, "values must have rank >= 1");
    if (parts_[0].empty())
      fail(ctx_, "Invalid first partition input. Tensor requires at least one element.");
    const std::int64_t first = first_dimension();
    const Shape out_shape = checked_shape(ctx_, output_shape(first));
    std::vector<std::int64_t> mult(static_cast<std::size_t>(ragged_rank_) + 1, 1);
    for (int i = ragged_rank_ - 1; i >= 0; --i) mult[i] = mult[i + 1] * out_shape[i + 1];

    HostTensor out = HostTensor::uninitialized(values.dtype, out_shape);
    const Shape element(out_shape.begin() + ragged_rank_ + 1, out_shape.end());
    const std::int64_t ves = num_elements(element);
    if (out.num_elements() == 0 || ves == 0) return out;
    const HostTensor fill = default_element(element);
    for (std::int64_t r = 0, rows = out.num_elements() / ves; r < rows; ++r)
      copy_elements(fill, 0, out, r * ves, ves);

    std::vector<std::int64_t> index;  // where each value row goes in `out` (-1: cut off)
    for (std::int64_t i = 0; i < first; ++i) index.push_back(i < out_shape[0] ? i * mult[0] : -1);
    for (int d = 0; d < ragged_rank_; ++d)
      index = type_of(d) == Partition::RowSplits
                  ? index_row_splits(tensor_of(d), index, mult[d + 1], out_shape[d + 1])
                  : index_row_ids(tensor_of(d), index, mult[d + 1], out_shape[d + 1]);
    if (static_cast<std::int64_t>(index.size()) > values.shape[0])
      fail(ctx_, "the row partitions hold " + std::to_string(index.size()) +
                     " values but values has " + std::to_string(values.shape[0]));
    for (std::size_t i = 0; i < index.size(); ++i)
      if (index[i] >= 0)
        copy_elements(values, static_cast<std::int64_t>(i) * ves, out, index[i] * ves, ves);
    return out;
  }

 private:
  // The partition between dimension d and d + 1.
  Partition type_of(int d) const { return types_[static_cast<std::size_t>(d + first_dim_size_)]; }
  const Ints& tensor_of(int d) const {
    return parts_[static_cast<std::size_t>(d + first_dim_size_)];
  }

  std::int64_t first_dimension() const {
    switch (types_[0]) {
      case Partition::FirstDimSize:
        if (parts_[0][0] < 0 || parts_[0][0] > 2147483647)
          fail(ctx_, "FIRST_DIM_SIZE " + std::to_string(parts_[0][0]) + " is not in [0, 2^31)");
        return parts_[0][0];
      case Partition::ValueRowIds:
        fail(ctx_, "Cannot handle VALUE_ROWIDS in first dimension.");
      case Partition::RowSplits:
        break;
    }
    return part_rows_[0] - 1;
  }

  // The widest row of dimension `dim` (its partition with dim - 1).
  std::int64_t max_width(int dim) const {
    const Ints& p = tensor_of(dim - 1);
    std::int64_t widest = 0;
    if (type_of(dim - 1) == Partition::RowSplits) {
      for (std::size_t i = 0; i + 1 < p.size(); ++i) widest = std::max(widest, p[i + 1] - p[i]);
      return widest;
    }
    for (std::size_t i = 0, run = 0; i < p.size(); ++i) {  // the longest run of one row id
      run = i > 0 && p[i] == p[i - 1] ? run + 1 : 1;
      widest = std::max(widest, static_cast<std::int64_t>(run));
    }
    return widest;
  }

  // `shape` (a vector, or the scalar -1 for "any") combined with the values' inner dims; the
  // dims still unknown are the natural ones (rows, the widest row of each ragged dimension).
  Shape output_shape(std::int64_t first) const {
    const HostTensor& values = ctx_.inputs[1];
    const Shape& dflt = ctx_.inputs[2].shape;
    if (dflt.size() >= values.shape.size())
      fail(ctx_, "default_value.shape=" + shape_to_string(dflt) +
                     " and values.shape=" + shape_to_string(values.shape) +
                     " are incompatible: default_value.rank = " + std::to_string(dflt.size()) +
                     " must be less than values.rank = " + std::to_string(values.shape.size()));
    for (std::size_t i = 0; i < std::min(dflt.size(), values.shape.size() - 1); ++i)
      if (dflt[i] != 1 && dflt[i] != values.shape[i + 1])
        fail(ctx_, "default_value.shape=" + shape_to_string(dflt) +
                       " and values.shape=" + shape_to_string(values.shape) + " are incompatible");
    const std::size_t rank = static_cast<std::size_t>(ragged_rank_) + values.shape.size();
    Ints out(rank, -1);
    const HostTensor& shape_t = input(ctx_, 0);
    const Ints given = int_values(ctx_, 0, "shape");
    if (shape_t.rank() == 0) {
      if (given[0] != -1)
        fail(ctx_,
             "The only valid scalar shape tensor is the fully unknown shape specified as -1.");
    } else {
      if (given.size() != rank)
        fail(ctx_, "rt input.shape and shape=" + shape_to_string(given) +
                       " are incompatible: rt input.rank = " + std::to_string(rank) +
                       ", but shape.rank = " + std::to_string(given.size()));
      for (std::size_t k = 0; k < rank; ++k) {
        if (given[k] < -1) fail(ctx_, "Dimension " + std::to_string(given[k]) + " must be >= -1");
        out[k] = given[k];
      }
    }
    for (std::size_t i = 1; i < values.shape.size(); ++i) {
      std::int64_t& d = out[rank - values.shape.size() + i];
      if (d >= 0 && d != values.shape[i])
        fail(ctx_, "rt input.shape and shape=" + shape_to_string(given) +
                       " are incompatible: rt input.shape[" + std::to_string(i + ragged_rank_) +
                       "] = " + std::to_string(values.shape[i]) + " but shape[" +
                       std::to_string(i + ragged_rank_) + "] = " + std::to_string(d));
      d = values.shape[i];
    }
    if (out[0] < 0) out[0] = first;
    for (int i = 1; i <= ragged_rank_; ++i)
      if (out[static_cast<std::size_t>(i)] < 0) out[static_cast<std::size_t>(i)] = max_width(i);
    return out;
  }

  // default_value broadcast to one value row (`element`), in the values' dtype.
  HostTensor default_element(const Shape& element) const {
    const HostTensor& values = ctx_.inputs[1];
    const HostTensor& d0 = ctx_.inputs[2];
    if ((d0.dtype == DType::String) != (values.dtype == DType::String))
      fail(ctx_, "default_value is " + std::string(to_string(d0.dtype)) + " but values are " +
                     std::string(to_string(values.dtype)));
    const HostTensor d = values.dtype == DType::String ? d0 : convert(d0, values.dtype);
    if (d.num_elements() == 0) fail(ctx_, "default_value is empty");
    if (d.shape.size() > element.size())
      fail(ctx_, "default_value of shape " + shape_to_string(d.shape) +
                     " does not broadcast to a value row of shape " + shape_to_string(element));
    const std::size_t lead = element.size() - d.shape.size();
    for (std::size_t a = 0; a < d.shape.size(); ++a)
      if (d.shape[a] != 1 && d.shape[a] != element[lead + a])
        fail(ctx_, "default_value of shape " + shape_to_string(d.shape) +
                       " does not broadcast to a value row of shape " + shape_to_string(element));
    HostTensor e = HostTensor::uninitialized(values.dtype, element);
    const auto e_strides = strides_of(element), d_strides = strides_of(d.shape);
    for (std::int64_t k = 0; k < e.num_elements(); ++k) {
      std::int64_t from = 0;
      for (std::size_t a = 0; a < d.shape.size(); ++a) {
        const std::int64_t at = (k / e_strides[lead + a]) % element[lead + a];
        if (d.shape[a] != 1) from += at * d_strides[a];
      }
      copy_elements(d, from, e, k, 1);
    }
    return e;
  }

  std::vector<std::int64_t> index_row_splits(const Ints& splits,
                                             const std::vector<std::int64_t>& parent,
                                             std::int64_t mult, std::int64_t size) const {
    if (splits.size() > parent.size() + 1)
      fail(ctx_, "Row partition size is greater than output size: " +
                     std::to_string(splits.size() - 1) + " > " + std::to_string(parent.size()));
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i + 1 < splits.size(); ++i) {
      const std::int64_t len = splits[i + 1] - splits[i];
      if (len < 0) fail(ctx_, "row splits must be sorted in ascending order");
      const std::int64_t kept = parent[i] < 0 ? 0 : std::min(size, len);
      for (std::int64_t j = 0; j < kept; ++j) out.push_back(parent[i] + j * mult);
      out.insert(out.end(), static_cast<std::size_t>(len - kept), -1);
    }
    if (!splits.empty() && static_cast<std::int64_t>(out.size()) != splits.back())
      fail(ctx_, "Invalid row split size.");
    return out;
  }

  std::vector<std::int64_t> index_row_ids(const Ints& ids, const std::vector<std::int64_t>& parent,
                                          std::int64_t mult, std::int64_t size) const {
    std::vector<std::int64_t> out;
    std::int64_t column = 0, at = -1;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (ids[i] < 0 || ids[i] >= static_cast<std::int64_t>(parent.size()))
        fail(ctx_, "Got value_rowid=" + std::to_string(ids[i]) + ", which is not in [0, " +
                       std::to_string(parent.size()) + ")");
      if (i > 0 && ids[i] < ids[i - 1]) fail(ctx_, "value_rowids must be sorted");
      if (i > 0 && ids[i] == ids[i - 1]) {
        if (at >= 0) at = ++column < size ? at + mult : -1;
      } else {
        column = 0;
        at = parent[static_cast<std::size_t>(ids[i])];
        if (size == 0) at = -1;
      }
      out.push_back(at);
    }
    return out;
  }

  const KernelContext& ctx_;
  std::vector<Partition> types_;
  std::vector<Ints> parts_;
  std::vector<std::int64_t> part_rows_;
  bool first_dim_size_ = false;
  int ragged_rank_ = 0;
};

}  // namespace

// Inputs: shape, values, default_value, row_partition_tensors (as row_partition_types names
// them). The dense tensor: values where the ragged rows have them, default_value elsewhere;
// rows and columns past `shape` are cut off.
std::vector<HostTensor> RaggedTensorToTensor(const KernelContext& ctx) {
  require_inputs(ctx, 4);
  return {RaggedToDense(ctx).run()};
}

}  // namespace tfjsi::cpu::tensor_ops
