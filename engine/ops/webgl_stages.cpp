#include "ops/webgl_stages.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace tfjsi::ops {

std::vector<ReduceStage> webgl_reduce_stages(std::int64_t n) {
  std::vector<ReduceStage> stages;
  std::int64_t in = std::max<std::int64_t>(n, 1);
  do {
    std::int64_t window = in;
    if (in > 30) {
      window = in;
      for (auto i = static_cast<std::int64_t>(std::floor(std::sqrt(static_cast<double>(in))));
           i < in; ++i)
        if (in % i == 0) {
          window = i;
          break;
        }
    }
    const std::int64_t out = (in + window - 1) / window;
    stages.push_back({in, window, out});
    in = out;
  } while (stages.back().out_size != 1);
  return stages;
}

namespace {

// Rows of `in_size` values reduced stage by stage; each stored partial result rounded.
std::vector<float> reduce_rows(std::vector<float> rows, std::int64_t batch, std::int64_t n,
                               bool mean, const HalfRule& rule) {
  const float scale = static_cast<float>(1.0 / static_cast<double>(n));
  bool first = true;
  for (const ReduceStage& s : webgl_reduce_stages(n)) {
    std::vector<float> out(static_cast<std::size_t>(batch * s.out_size));
    for (std::int64_t b = 0; b < batch; ++b)
      for (std::int64_t j = 0; j < s.out_size; ++j) {
        float acc = 0.0f;
        for (std::int64_t t = 0; t < s.window; ++t) {
          const std::int64_t r = j * s.window + t;
          if (r >= s.in_size) break;
          const float v = rows[static_cast<std::size_t>(b * s.in_size + r)];
          acc += mean && first ? v * scale : v;
        }
        out[static_cast<std::size_t>(b * s.out_size + j)] = round_to_half(acc, rule);
      }
    rows = std::move(out);
    first = false;
  }
  return rows;
}

}  // namespace

HostTensor webgl_staged_reduce(const HostTensor& x, std::vector<int> axes, bool mean,
                               bool keep_dims, const HalfRule& rule) {
  const int rank = static_cast<int>(x.shape.size());
  std::sort(axes.begin(), axes.end());
  std::vector<bool> reduced(static_cast<std::size_t>(rank), false);
  for (int a : axes) {
    if (a < 0 || a >= rank) throw std::invalid_argument("webgl_staged_reduce: axis out of range");
    reduced[static_cast<std::size_t>(a)] = true;
  }
  // The kept axes first, then the reduced ones, each in their order (TF.js's transpose).
  std::vector<int> order;
  for (int i = 0; i < rank; ++i)
    if (!reduced[static_cast<std::size_t>(i)]) order.push_back(i);
  for (int a : axes) order.push_back(a);
  std::int64_t n = 1, batch = 1;
  for (int i = 0; i < rank; ++i)
    (reduced[static_cast<std::size_t>(i)] ? n : batch) *= x.shape[static_cast<std::size_t>(i)];
  std::vector<std::int64_t> strides(static_cast<std::size_t>(rank), 1);
  for (int i = rank - 2; i >= 0; --i)
    strides[static_cast<std::size_t>(i)] =
        strides[static_cast<std::size_t>(i) + 1] * x.shape[static_cast<std::size_t>(i) + 1];
  const auto src = x.values<float>();
  std::vector<float> rows(static_cast<std::size_t>(batch * n));
  std::vector<std::int64_t> idx(static_cast<std::size_t>(rank), 0);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    std::int64_t off = 0;
    for (int i = 0; i < rank; ++i)
      off += idx[static_cast<std::size_t>(i)] * strides[static_cast<std::size_t>(order[i])];
    rows[k] = src[static_cast<std::size_t>(off)];
    for (int i = rank - 1; i >= 0; --i) {
      if (++idx[static_cast<std::size_t>(i)] < x.shape[static_cast<std::size_t>(order[i])]) break;
      idx[static_cast<std::size_t>(i)] = 0;
    }
  }
  const std::vector<float> out = reduce_rows(std::move(rows), batch, n, mean, rule);
  Shape out_shape;
  for (int i = 0; i < rank; ++i)
    if (!reduced[static_cast<std::size_t>(i)])
      out_shape.push_back(x.shape[static_cast<std::size_t>(i)]);
    else if (keep_dims)
      out_shape.push_back(1);
  HostTensor t = HostTensor::zeros(DType::Float32, out_shape);
  std::copy(out.begin(), out.end(), t.mutable_values<float>().begin());
  return t;
}

HostTensor webgl_softmax(const HostTensor& x, const HalfRule& rule) {
  if (x.shape.empty()) throw std::invalid_argument("webgl_softmax: rank 0");
  const std::int64_t c = x.shape.back();
  const std::int64_t rows = c == 0 ? 0 : x.num_elements() / c;
  const auto src = x.values<float>();
  HostTensor out = HostTensor::zeros(DType::Float32, x.shape);
  auto dst = out.mutable_values<float>();
  std::vector<float> e(static_cast<std::size_t>(c));
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* row = src.data() + r * c;
    float m = -std::numeric_limits<float>::infinity();
    for (std::int64_t i = 0; i < c; ++i) m = std::max(m, row[i]);
    for (std::int64_t i = 0; i < c; ++i)
      e[static_cast<std::size_t>(i)] =
          round_to_half(std::exp(round_to_half(row[i] - m, rule)), rule);
    const float sum = reduce_rows(e, 1, c, false, rule)[0];
    for (std::int64_t i = 0; i < c; ++i)
      dst[static_cast<std::size_t>(r * c + i)] =
          round_to_half(e[static_cast<std::size_t>(i)] / sum, rule);
  }
  return out;
}

}  // namespace tfjsi::ops
