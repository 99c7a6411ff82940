#include "model/shard_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <string>

#include "core/error.h"

namespace tfjsi::model {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw ModelError(path.string() + ": " + what);
}

struct FdGuard {
  int fd;
  ~FdGuard() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

ShardFile::ShardFile(std::filesystem::path path, std::unique_ptr<std::byte[]> data,
                     std::size_t size, std::uint64_t size_on_disk)
    : path_(std::move(path)), data_(std::move(data)), size_(size), size_on_disk_(size_on_disk) {}

std::shared_ptr<const ShardFile> ShardFile::read(const std::filesystem::path& path,
                                                 std::uint64_t max_bytes) {
  // O_NONBLOCK so that a FIFO planted in place of a shard cannot block the open.
  FdGuard fd{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (fd.fd < 0) fail(path, std::string("cannot open weight file: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.fd, &st) != 0)
    fail(path, std::string("cannot stat weight file: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) fail(path, "expected a regular weight file");
  if (st.st_size < 0) fail(path, "weight file reports a negative size");
  const auto on_disk = static_cast<std::uint64_t>(st.st_size);
  const std::uint64_t want = std::min(on_disk, max_bytes);
  if (want > std::numeric_limits<std::size_t>::max() / 2)
    fail(path, "weight file too large to read");
  const auto size = static_cast<std::size_t>(want);
  std::unique_ptr<std::byte[]> data(size ? new std::byte[size] : nullptr);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd.fd, data.get() + done, size - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path, std::string("cannot read weight file: ") + std::strerror(errno));
    if (n == 0)
      fail(path, "weight file shrank while being read: it had " + std::to_string(on_disk) +
                     " bytes, reading stopped at " + std::to_string(done));
    done += static_cast<std::size_t>(n);
  }
  return std::shared_ptr<const ShardFile>(new ShardFile(path, std::move(data), size, on_disk));
}

}  // namespace tfjsi::model
