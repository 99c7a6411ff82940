// Bounds that keep a hostile model bounded in stack, memory and time. Each is far above what real
// TF.js bundles use (the 41 corpus models stay orders of magnitude below every one), and each is
// enforced where the value is first read, with a ModelError naming the file, the item and the
// limit.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tfjsi::model {

// model.json: its size on disk, and how deep arrays and objects may nest. The parser itself is
// iterative; the depth bound protects the recursive walks that come after it.
inline constexpr std::uintmax_t kMaxJsonBytes = std::uintmax_t{1} << 30;
inline constexpr int kMaxJsonDepth = 256;
// Any one JSON string or object key: names, op and class names, inline base64 tensor content.
inline constexpr std::size_t kMaxStringBytes = std::size_t{4} << 20;
// Keras models used as layers of other models, counted from the top-level model.
inline constexpr int kMaxModelNesting = 32;
// Dims of one shape: weights, GraphDef shape and tensor attributes, .npy files.
inline constexpr std::size_t kMaxRank = 32;
// Elements of one weight of the manifest.
inline constexpr std::uint64_t kMaxWeightElements = std::uint64_t{1} << 30;
// Elements of one tensor written inside the GraphDef (a Const value or an attribute): TF's rule
// repeats the last value to fill the shape, so a few bytes of JSON can ask for this many.
inline constexpr std::int64_t kMaxAttrTensorElements = std::int64_t{1} << 28;
// Decoded bytes of all weights together (float16 and uint8 weights grow when decoded).
inline constexpr std::uint64_t kMaxWeightBytes = std::uint64_t{4} << 30;
// Nodes of a graph: GraphDef nodes (plus those of library functions), or the nodes that Keras
// lowering makes.
inline constexpr std::size_t kMaxNodes = std::size_t{1} << 18;

}  // namespace tfjsi::model
