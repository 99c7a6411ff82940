// Seeded random ops drawn as TF.js draws them: RandomUniformInt, RandomStandardNormal,
// TruncatedNormal and Multinomial; and RandomUniform, which TF.js always draws unseeded. TF.js
// seeds seedrandom's alea generator with the seed's decimal string, so with a seed our numbers are
// TF.js's; without one (TF.js then seeds from Math.random) we seed from the system and only the
// distribution is the same. Alea is plain double arithmetic (no transcendental functions), which
// IEEE doubles reproduce exactly.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "backends/cpu/tensor_util.h"
#include "ops/attr.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

constexpr double kTwoTo32 = 4294967296.0;
constexpr double kTwoToMinus32 = 2.3283064365386963e-10;

// JS's `x >>> 0` for the non-negative values Mash produces: truncate, wrap modulo 2^32.
double to_uint32(double x) {
  return std::fmod(std::trunc(x), kTwoTo32);
}

// Baagoe's Mash, which alea hashes its seed with: folds the string's code units into a 32-bit
// state held in a double. Seeds here are decimal numbers, so each byte is one UTF-16 code unit.
class Mash {
 public:
  double operator()(std::string_view data) {
    for (const char ch : data) {
      n_ += static_cast<unsigned char>(ch);
      double h = 0.02519603282416938 * n_;
      n_ = to_uint32(h);
      h -= n_;
      h *= n_;
      n_ = to_uint32(h);
      h -= n_;
      n_ += h * kTwoTo32;
    }
    return to_uint32(n_) * kTwoToMinus32;
  }

 private:
  double n_ = 4022871197.0;  // 0xefc8249d
};

// Baagoe's Alea as seedrandom 3 implements it: uniform doubles in [0, 1).
class Alea {
 public:
  explicit Alea(std::string_view seed) {
    Mash mash;
    s0_ = mash(" ");
    s1_ = mash(" ");
    s2_ = mash(" ");
    for (double* s : {&s0_, &s1_, &s2_}) {
      *s -= mash(seed);
      if (*s < 0) *s += 1;
    }
  }
  double operator()() {
    const double t = 2091639.0 * s0_ + c_ * kTwoToMinus32;
    s0_ = s1_;
    s1_ = s2_;
    c_ = std::trunc(t);  // t | 0: t is positive and below 2^31
    return s2_ = t - c_;
  }

 private:
  double c_ = 1, s0_ = 0, s1_ = 0, s2_ = 0;
};

// The seed string TF.js hands alea: the seed's decimal digits, or (no seed) a fresh one.
std::string seed_string(std::optional<std::int64_t> seed) {
  if (seed) return std::to_string(*seed);
  return std::to_string(std::random_device{}());
}

// TF.js's MPRandGauss: Marsaglia's polar method, two values per accepted pair (the second kept
// for the next call); truncated draws outside mean +- 2 stddev again.
class Gauss {
 public:
  Gauss(double mean, double stddev, bool truncated, std::string_view seed)
      : mean_(mean), stddev_(stddev), truncated_(truncated), random_(seed) {}
  double operator()() {
    if (!std::isnan(next_)) {
      const double v = next_;
      next_ = std::numeric_limits<double>::quiet_NaN();
      return v;
    }
    double x = 0, y = 0;
    for (bool valid = false; !valid;) {
      double v1 = 0, v2 = 0, s = 0;
      do {
        v1 = 2 * random_() - 1;
        v2 = 2 * random_() - 1;
        s = v1 * v1 + v2 * v2;
      } while (s >= 1 || s == 0);
      const double mul = std::sqrt(-2.0 * std::log(s) / s);
      x = mean_ + stddev_ * v1 * mul;
      y = mean_ + stddev_ * v2 * mul;
      valid = in_range(x);
    }
    if (in_range(y)) next_ = y;
    return x;
  }

 private:
  bool in_range(double v) const {
    return !truncated_ || (v <= mean_ + 2 * stddev_ && v >= mean_ - 2 * stddev_);
  }
  double mean_, stddev_;
  bool truncated_;
  Alea random_;
  double next_ = std::numeric_limits<double>::quiet_NaN();
};

Shape read_shape(const KernelContext& ctx) {
  const auto dims = read_ints(ctx, 0, "shape");
  for (auto d : dims)
    if (d < 0) fail(ctx, "shape " + shape_to_string(dims) + " has a negative dim");
  if (!checked_num_elements(dims)) fail(ctx, "shape " + shape_to_string(dims) + " is too large");
  return Shape(dims.begin(), dims.end());
}

// Normal draws into a tensor of attribute dtype's type (int32: rounded, as TF.js rounds).
std::vector<HostTensor> normal(const KernelContext& ctx, double mean, double stddev, bool truncated,
                               std::optional<std::int64_t> seed) {
  require_inputs(ctx, 1, 1);
  const DType t = ops::attr<DType>(ctx.node, "dtype", DType::Float32);
  if (t != DType::Float32 && t != DType::Int32)
    fail(ctx, "dtype " + std::string(to_string(t)) + " is not supported");
  HostTensor out = HostTensor::zeros(t, read_shape(ctx));
  Gauss gauss(mean, stddev, truncated, seed_string(seed));
  if (t == DType::Float32)
    for (float& v : out.mutable_values<float>()) v = static_cast<float>(gauss());
  else
    for (std::int32_t& v : out.mutable_values<std::int32_t>())
      v = js_to_int32(std::floor(gauss() + 0.5));  // Math.round
  return {out};
}

// TF.js's seed attribute as it reads it: 0 (the mapper's default) counts as no seed for the
// normal draws (`seed ? seed : Math.random()`).
std::optional<std::int64_t> nonzero_seed(const KernelContext& ctx) {
  const auto seed = ops::optional_attr<std::int64_t>(ctx.node, "seed");
  return seed && *seed != 0 ? seed : std::nullopt;
}

}  // namespace

std::vector<HostTensor> RandomStandardNormal(const KernelContext& ctx) {
  return normal(ctx, 0.0, 1.0, false, nonzero_seed(ctx));
}

// TF.js reads mean and stddev from attributes `means` and `stddev` (TF's op has neither: 0 and 1).
std::vector<HostTensor> TruncatedNormal(const KernelContext& ctx) {
  return normal(ctx, ops::attr<float>(ctx.node, "means", 0.0f),
                ops::attr<float>(ctx.node, "stddev", 1.0f), true, nonzero_seed(ctx));
}

// minval + (maxval - minval) * u in attribute dtype's type (float32 rounds, int32 truncates as
// an Int32Array stores it). TF.js's executor calls randomUniform without the seed, so TF.js draws
// afresh on every run whatever the seed attribute says; so do we, from a fresh seed. minval and
// maxval are attributes only TF.js reads (TF's op draws in [0, 1)).
std::vector<HostTensor> RandomUniform(const KernelContext& ctx) {
  require_inputs(ctx, 1, 1);
  const DType t = ops::attr<DType>(ctx.node, "dtype", DType::Float32);
  if (t != DType::Float32 && t != DType::Int32)
    fail(ctx, "dtype " + std::string(to_string(t)) + " is not supported");
  const double lo = ops::attr<float>(ctx.node, "minval", 0.0f);
  const double hi = ops::attr<float>(ctx.node, "maxval", 1.0f);
  HostTensor out = HostTensor::zeros(t, read_shape(ctx));
  Alea random(seed_string(std::nullopt));
  if (t == DType::Float32)
    for (float& v : out.mutable_values<float>()) v = static_cast<float>(lo + (hi - lo) * random());
  else
    for (std::int32_t& v : out.mutable_values<std::int32_t>())
      v = js_to_int32(lo + (hi - lo) * random());
  return {out};
}

// int32 values trunc(minval + (maxval - minval) * u): TF.js draws a float and stores it in an
// Int32Array. It reads minval and maxval from attributes; TF's inputs 1 and 2 when they are
// absent. Its seed attribute defaults to 0, which seeds alea with "0".
std::vector<HostTensor> RandomUniformInt(const KernelContext& ctx) {
  require_inputs(ctx, 1, 3);
  const auto bound = [&](const char* key, std::size_t i) {
    if (auto v = ops::optional_attr<float>(ctx.node, key)) return double(*v);
    if (ctx.inputs.size() > i) return read_scalar(ctx, i, key);
    fail(ctx, std::string("has neither attribute nor input ") + key);
  };
  const double lo = bound("minval", 1), hi = bound("maxval", 2);
  HostTensor out = HostTensor::zeros(DType::Int32, read_shape(ctx));
  Alea random(seed_string(ops::attr<std::int64_t>(ctx.node, "seed", 0)));
  for (std::int32_t& v : out.mutable_values<std::int32_t>())
    v = js_to_int32(lo + (hi - lo) * random());
  return {out};
}

// Inputs: logits [batch, classes] (or [classes]), num_samples. Each row draws from the softmax of
// its logits, computed step by step in float32 as TF.js's cpu kernels do; every row restarts the
// generator from the same seed, as TF.js does. The result is int32 whatever output_dtype says.
std::vector<HostTensor> Multinomial(const KernelContext& ctx) {
  require_inputs(ctx, 2, 2);
  const HostTensor logits = convert(input(ctx, 0), DType::Float32);
  if (logits.rank() < 1 || logits.rank() > 2)
    fail(ctx, "logits must have rank 1 or 2, got shape " + shape_to_string(logits.shape));
  const std::int64_t n = read_int(ctx, 1, "num_samples");
  if (n < 0) fail(ctx, "num_samples must not be negative, got " + std::to_string(n));
  const std::int64_t classes = logits.shape.back();
  const std::int64_t batch = logits.rank() == 2 ? logits.shape[0] : 1;
  if (logits.num_elements() < 2)
    fail(ctx, "needs at least 2 outcomes, got " + std::to_string(logits.num_elements()));
  const auto seed = ops::optional_attr<std::int64_t>(ctx.node, "seed");
  const std::string seed_text = seed_string(seed && *seed != 0 ? seed : std::nullopt);
  HostTensor out = HostTensor::zeros(DType::Int32, logits.rank() == 2 ? Shape{batch, n} : Shape{n});
  auto o = out.mutable_values<std::int32_t>();
  const auto x = logits.values<float>();
  std::vector<float> p(static_cast<std::size_t>(classes)), cdf;
  for (std::int64_t b = 0; b < batch; ++b) {
    const float* row = x.data() + b * classes;
    float m = -std::numeric_limits<float>::infinity();
    for (std::int64_t k = 0; k < classes; ++k) m = std::max(m, row[k]);
    double sum = 0;
    for (std::int64_t k = 0; k < classes; ++k) {
      p[k] = static_cast<float>(std::exp(static_cast<double>(static_cast<float>(row[k] - m))));
      sum += p[k];
    }
    const auto total = static_cast<float>(sum);
    for (auto& v : p) v = static_cast<float>(static_cast<double>(v) / total);
    // The last class is what no earlier cdf step takes.
    cdf.assign(static_cast<std::size_t>(classes - 1), 0.0f);
    if (!cdf.empty()) cdf[0] = p[0];
    for (std::size_t k = 1; k < cdf.size(); ++k) cdf[k] = cdf[k - 1] + p[k];
    Alea random(seed_text);
    for (std::int64_t s = 0; s < n; ++s) {
      const double r = random();
      std::int32_t pick = static_cast<std::int32_t>(cdf.size());
      for (std::size_t k = 0; k < cdf.size(); ++k)
        if (r < cdf[k]) {
          pick = static_cast<std::int32_t>(k);
          break;
        }
      o[b * n + s] = pick;
    }
  }
  return {out};
}

}  // namespace tfjsi::cpu::tensor_ops
