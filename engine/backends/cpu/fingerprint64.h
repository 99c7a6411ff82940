// TensorFlow's Fingerprint64 (FarmHash's farmhashna::Hash64 on a string's bytes), which
// StringToHashBucketFast buckets by; TF.js computes the same (tfjs-core hash_util fingerPrint64).
#pragma once

#include <cstdint>
#include <string_view>

namespace tfjsi::cpu {

std::uint64_t fingerprint64(std::string_view bytes);

}  // namespace tfjsi::cpu
