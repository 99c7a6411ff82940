// Laying a group's weights out over its shards and decoding each into a HostTensor.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "model/bundle.h"
#include "model/manifest.h"
#include "model/shard_sequence.h"

namespace tfjsi::model {

// Decodes the weights of `group` (manifest group number `group_index`), laid out back to back
// from byte 0 of `data`, and appends them to `out`. Unquantized float32/int32 weights may borrow
// their shard's bytes (read into memory at load; they keep it alive); everything else is copied or
// dequantized into owned storage. `shard_names` are the group's manifest paths (for messages).
// Returns the number of bytes the weights use. Throws ModelError naming `model_json`, the weight
// and the shard it runs off.
std::uint64_t decode_group(const std::filesystem::path& model_json, const ManifestGroup& group,
                           std::size_t group_index, const ShardSequence& data,
                           std::vector<Weight>& out);

}  // namespace tfjsi::model
