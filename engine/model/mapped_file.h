// A read-only memory mapping of one whole file (a weight shard), unmapped when the last owner goes.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <span>

namespace tfjsi::model {

class MappedFile {
 public:
  // Maps `path` read-only. Throws ModelError naming the file when it cannot be opened, is not a
  // regular file or cannot be mapped. An empty file maps to an empty span.
  static std::shared_ptr<const MappedFile> open(const std::filesystem::path& path);

  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::span<const std::byte> bytes() const { return {data_, size_}; }
  std::size_t size() const { return size_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  MappedFile(std::filesystem::path path, const std::byte* data, std::size_t size);

  std::filesystem::path path_;
  const std::byte* data_;
  std::size_t size_;
};

}  // namespace tfjsi::model
