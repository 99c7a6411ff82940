// String ops (TF.js's string category): StaticRegexReplace, StringNGrams, StringSplit,
// StringToHashBucketFast. How many ngrams and tokens come out depends on the data.
#include "ops/attr.h"
#include "ops/op_def.h"
#include "ops/shape_context.h"

namespace tfjsi::ops {
namespace {

void regex_replace(InferContext& c) {
  c.set(0, DType::String, c.shape(0));
}

void ngrams(InferContext& c) {
  // StringNGrams(data, data_splits): the ngrams, and splits of the same shape as the input's.
  c.set(0, DType::String, PartialShape::of({-1}));
  c.set(1, DType::Int32, c.shape(1));
}

void split(InferContext& c) {
  // StringSplit(input [batch], delimiter): a sparse [batch, max tokens] matrix of tokens.
  c.set(0, DType::Int32, PartialShape::of({-1, 2}));
  c.set(1, DType::String, PartialShape::of({-1}));
  c.set(2, DType::Int32, PartialShape::of({2}));
}

void hash_bucket(InferContext& c) {
  c.set(0, DType::Int32, c.shape(0));
}

constexpr OpDef kOps[] = {
    {"StaticRegexReplace", regex_replace, Family::Other},
    {"StringNGrams", ngrams, Family::Other},
    {"StringSplit", split, Family::Other},
    {"StringToHashBucketFast", hash_bucket, Family::Other},
};

}  // namespace

std::span<const OpDef> string_ops() {
  return kOps;
}

}  // namespace tfjsi::ops
