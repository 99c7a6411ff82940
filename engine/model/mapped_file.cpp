#include "model/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

// Closes the descriptor on every path out of open(); the mapping outlives it.
struct FdGuard {
  int fd;
  ~FdGuard() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

MappedFile::MappedFile(std::filesystem::path path, const std::byte* data, std::size_t size)
    : path_(std::move(path)), data_(data), size_(size) {}

MappedFile::~MappedFile() {
  if (size_ > 0) ::munmap(const_cast<std::byte*>(data_), size_);
}

std::shared_ptr<const MappedFile> MappedFile::open(const std::filesystem::path& path) {
  // O_NONBLOCK so that a FIFO planted in place of a shard cannot block the open.
  FdGuard fd{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (fd.fd < 0) fail(path, std::string("cannot open weight file: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.fd, &st) != 0)
    fail(path, std::string("cannot stat weight file: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) fail(path, "expected a regular weight file");
  if (st.st_size < 0 ||
      static_cast<std::uint64_t>(st.st_size) > std::numeric_limits<std::size_t>::max())
    fail(path, "weight file too large to map");
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size == 0) return std::shared_ptr<const MappedFile>(new MappedFile(path, nullptr, 0));
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd.fd, 0);
  if (p == MAP_FAILED) fail(path, std::string("cannot map weight file: ") + std::strerror(errno));
  return std::shared_ptr<const MappedFile>(
      new MappedFile(path, static_cast<const std::byte*>(p), size));
}

}  // namespace tfjsi::model
