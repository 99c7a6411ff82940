// The shards of one manifest group seen as one run of bytes, concatenated in manifest order.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "model/shard_file.h"

namespace tfjsi::model {

class ShardSequence {
 public:
  explicit ShardSequence(std::vector<std::shared_ptr<const ShardFile>> shards);

  std::uint64_t size() const { return total_; }
  std::size_t shard_count() const { return shards_.size(); }
  const ShardFile& shard(std::size_t i) const { return *shards_[i]; }
  // Index of the shard holding byte `offset` (< size()).
  std::size_t shard_at(std::uint64_t offset) const;

  struct View {
    std::span<const std::byte> bytes;
    std::shared_ptr<const ShardFile> owner;
  };
  // The bytes [offset, offset + n) when they lie whole in one shard; nullopt when they straddle
  // shards. Precondition: offset + n <= size().
  std::optional<View> contiguous(std::uint64_t offset, std::size_t n) const;
  // Copies [offset, offset + out.size()) across shard boundaries. Same precondition.
  void copy(std::uint64_t offset, std::span<std::byte> out) const;

 private:
  std::vector<std::shared_ptr<const ShardFile>> shards_;
  std::vector<std::uint64_t> starts_;  // offset of each shard's first byte
  std::uint64_t total_ = 0;
};

}  // namespace tfjsi::model
