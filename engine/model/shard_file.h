// One weight shard read whole into memory at load. Shards are read, not memory-mapped: a mapped
// file that shrinks on disk while the model is open makes every later access to the lost pages
// raise SIGBUS, and a file rewritten in place changes the weights under a running model. A copy
// taken at load is immune to both. Plain float32/int32 weights borrow it (weight_decoder.h) as
// they borrowed the mapping before; a shard no weight borrows is freed once the bundle is loaded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

namespace tfjsi::model {

class ShardFile {
 public:
  // Reads the first min(size on disk, `max_bytes`) bytes of `path` (a group's weights never use
  // more than their manifest says, so trailing bytes need not be read). Throws ModelError naming
  // the file when it cannot be opened, is not a regular file, or changes size while being read.
  static std::shared_ptr<const ShardFile> read(const std::filesystem::path& path,
                                               std::uint64_t max_bytes = UINT64_MAX);

  ShardFile(const ShardFile&) = delete;
  ShardFile& operator=(const ShardFile&) = delete;

  std::span<const std::byte> bytes() const { return {data_.get(), size_}; }
  std::size_t size() const { return size_; }  // bytes read
  std::uint64_t size_on_disk() const { return size_on_disk_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  ShardFile(std::filesystem::path path, std::unique_ptr<std::byte[]> data, std::size_t size,
            std::uint64_t size_on_disk);

  std::filesystem::path path_;
  std::unique_ptr<std::byte[]> data_;
  std::size_t size_;
  std::uint64_t size_on_disk_;
};

}  // namespace tfjsi::model
