#include "model/shard_sequence.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace tfjsi::model {

ShardSequence::ShardSequence(std::vector<std::shared_ptr<const ShardFile>> shards)
    : shards_(std::move(shards)) {
  for (const auto& s : shards_) {
    starts_.push_back(total_);
    total_ += s->size();
  }
}

std::size_t ShardSequence::shard_at(std::uint64_t offset) const {
  // The last shard starting at or before `offset` that is not empty there.
  const auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  std::size_t i = static_cast<std::size_t>(it - starts_.begin());
  i = i ? i - 1 : 0;
  while (i + 1 < shards_.size() && offset >= starts_[i] + shards_[i]->size()) ++i;
  return i;
}

std::optional<ShardSequence::View> ShardSequence::contiguous(std::uint64_t offset,
                                                             std::size_t n) const {
  if (offset > total_ || n > total_ - offset) throw std::out_of_range("ShardSequence: past end");
  if (shards_.empty() || n == 0) return std::nullopt;
  const std::size_t i = shard_at(offset);
  const std::uint64_t local = offset - starts_[i];
  if (local + n > shards_[i]->size()) return std::nullopt;
  return View{shards_[i]->bytes().subspan(static_cast<std::size_t>(local), n), shards_[i]};
}

void ShardSequence::copy(std::uint64_t offset, std::span<std::byte> out) const {
  if (offset > total_ || out.size() > total_ - offset)
    throw std::out_of_range("ShardSequence: past end");
  std::size_t done = 0;
  while (done < out.size()) {
    const std::uint64_t at = offset + done;
    const std::size_t i = shard_at(at);
    const auto local = static_cast<std::size_t>(at - starts_[i]);
    const auto bytes = shards_[i]->bytes();
    const std::size_t take = std::min(out.size() - done, bytes.size() - local);
    std::memcpy(out.data() + done, bytes.data() + local, take);
    done += take;
  }
}

}  // namespace tfjsi::model
