// A whole bundle's weights quantized as tensorflowjs_converter would quantize them: every float32
// weight to one dtype except those kept float32; weights of other dtypes (int32, bool, string)
// stay exactly as they are stored. Written to disk, or read back in memory for a run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/weight_quantization.h"
#include "model/bundle.h"

namespace tfjsi::analysis {

// --keep-float patterns are globs matched against whole weight names with Python's fnmatch rules,
// as the converter's --quantize_uint8 / --quantize_float16 patterns are: `*` (any run, '/'
// included), `?`, `[seq]`, `[!seq]`; no backslash escapes; case-sensitive.
bool glob_matches(std::string_view pattern, const std::string& name);
// A glob matching exactly `name` (`*`, `?` and `[` wrapped in brackets).
std::string glob_escape(std::string_view name);

struct QuantizedBundle {
  model::Quantization dtype = model::Quantization::None;
  // Aligned with bundle.weights: the quantized form of each weight that is quantized; null for a
  // float32 weight kept float32 and for every weight of another dtype.
  std::vector<std::shared_ptr<const QuantizedWeight>> weights;
  // float32 weights that hold a NaN or an infinity, left float32 under uint8/uint16: an affine
  // range cannot hold them (the converter would write a NaN scale). Float16 keeps them.
  std::vector<std::string> not_quantizable;
  std::uint64_t bytes = 0;        // the shards' size once written
  std::uint64_t float_bytes = 0;  // the same with every float32 weight stored as float32
};

// Quantizes every float32 weight of `bundle` to `dtype` (Uint8, Uint16 or Float16) unless
// `keep_float` says it stays float32. Throws ModelError naming a weight that cannot be quantized.
QuantizedBundle quantize_bundle(const model::Bundle& bundle, model::Quantization dtype,
                                const std::function<bool(const model::Weight&)>& keep_float);

// Recomputes `q.bytes` after entries of `q.weights` were changed (set to null: kept float32).
void recount_bytes(const model::Bundle& bundle, QuantizedBundle& q);

// A copy of `bundle` whose weight values are what the quantized bundle reads back as: runs on it
// show what the quantized bundle computes, without files.
model::Bundle dequantized_copy(const model::Bundle& bundle, const QuantizedBundle& q);

// Writes the quantized bundle into `dir` (which exists): model.json as it was but for the weights
// manifest, whose groups keep their weights in order, and the converter's shards. Returns the
// shard bytes written. Throws ModelError naming what could not be read or written.
std::uint64_t write_quantized_bundle(const model::Bundle& bundle, const QuantizedBundle& q,
                                     const std::filesystem::path& dir);

}  // namespace tfjsi::analysis
