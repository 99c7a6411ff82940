// What a static shape rule sees and sets (InferContext), and the shape arithmetic the rules share.
// Each op's rule lives in its family's file (ops/*.cpp, listed by op_def.h); graph/'s
// infer_shapes and the Keras lowering run them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graph/ir.h"
#include "ops/attr.h"

namespace tfjsi::ops {

// A small tensor whose value inference knows: constants, shapes of fully known tensors and what
// little integer arithmetic models do on them before a Reshape. Doubles hold int32 and float32
// values exactly.
struct KnownValue {
  DType dtype = DType::Int32;
  std::vector<std::int64_t> shape;
  std::vector<double> v;
};
// Values with more elements than this are not tracked.
inline constexpr std::size_t kMaxKnownElements = 4096;
// More outputs than this (Split/Unpack counts from a hostile file) are not made.
inline constexpr std::int64_t kMaxOutputs = 1 << 16;

// Dim arithmetic that stays defined on hostile sizes: -1 (unknown) when an operand is unknown or
// negative, or when the result would leave [0, 2^62].
inline std::int64_t dim_mul(std::int64_t a, std::int64_t b) {
  constexpr std::int64_t kMax = std::int64_t{1} << 62;
  if (a < 0 || b < 0) return -1;
  if (a != 0 && b > kMax / a) return -1;
  return a * b;
}
inline std::int64_t dim_add(std::int64_t a, std::int64_t b) {
  constexpr std::int64_t kMax = std::int64_t{1} << 62;
  if (a < 0 || a > kMax || b > kMax || b < -kMax) return -1;
  const std::int64_t r = a + b;
  return r < 0 ? -1 : r;
}

class InferContext {
 public:
  InferContext(const graph::Node& node, std::vector<graph::TensorInfo> in,
               std::vector<const KnownValue*> values, std::vector<bool> inferred)
      : node(node),
        in_(std::move(in)),
        values_(std::move(values)),
        inferred_(std::move(inferred)) {}

  const graph::Node& node;
  std::vector<graph::TensorInfo> out;
  std::vector<std::optional<KnownValue>> out_values;

  std::size_t num_inputs() const { return in_.size(); }
  // Input i's info; unknown for a missing input or one not inferred yet (a loop back edge).
  const graph::TensorInfo& in(std::size_t i) const;
  const PartialShape& shape(std::size_t i) const { return in(i).shape; }
  const KnownValue* value(std::size_t i) const { return i < values_.size() ? values_[i] : nullptr; }
  // False for an input whose producer has not been inferred yet (a loop back edge, first pass).
  bool inferred(std::size_t i) const { return i < inferred_.size() && inferred_[i]; }
  // Input i's known value as integers (flattened); nullopt when unknown or not integral.
  std::optional<std::vector<std::int64_t>> ints(std::size_t i) const;
  std::optional<std::int64_t> scalar(std::size_t i) const;

  // Attribute `key` read with ops::try_attr, `fallback` when missing or of another form: static
  // inference never rejects a model (the kernel does, with the error ops::attr gives).
  template <class T>
  T attr(std::string_view key, std::type_identity_t<T> fallback) const {
    return ops::try_attr<T>(node, key).value_or(std::move(fallback));
  }
  // The usual element type: attribute T, else input 0's dtype.
  std::optional<DType> t() const;

  void set(std::size_t k, std::optional<DType> dtype, PartialShape shape);
  void set_value(std::size_t k, KnownValue v);

 private:
  std::vector<graph::TensorInfo> in_;
  std::vector<const KnownValue*> values_;
  std::vector<bool> inferred_;
};

// Where height, width and channels are in a rank-4 tensor of the node's data_format.
struct Layout {
  bool nchw = false;
  int h() const { return nchw ? 2 : 1; }
  int w() const { return nchw ? 3 : 2; }
  int ch() const { return nchw ? 1 : 3; }
};
Layout layout_of(const InferContext& c);

// NumPy broadcasting of two partial shapes; an impossible pair gives -1 there (only recorded).
PartialShape broadcast_shapes(const PartialShape& a, const PartialShape& b);
// The most specific shape both fit: equal dims stay, others become -1; rank mismatch: unknown.
PartialShape generalize(const PartialShape& a, const PartialShape& b);
// Unknown rank -> every dim -1 at `rank`, when the rank is known from elsewhere.
PartialShape with_rank(const PartialShape& s, int rank);
// A fully known shape's value as an int32 KnownValue, or nullopt.
std::optional<KnownValue> known_from_tensor(const HostTensor& t);

}  // namespace tfjsi::ops
