#include "io/safe_write.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>

namespace tfjsi::io {
namespace {

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what, int err) {
  throw std::runtime_error(file.string() + ": " + what + ": " + std::strerror(err));
}

}  // namespace

void write_file_replacing(const std::filesystem::path& file, std::string_view bytes) {
  const std::filesystem::path dir = file.has_parent_path() ? file.parent_path() : ".";
  // O_EXCL with O_NOFOLLOW: the temporary is a new file of ours, never an existing one or a link.
  std::random_device rd;
  std::filesystem::path tmp;
  int fd = -1;
  for (int attempt = 0; fd < 0; ++attempt) {
    tmp = dir / ("." + file.filename().string() + ".tmp" + std::to_string(rd()));
    fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0 && (errno != EEXIST || attempt > 16))
      fail(file, "cannot create a file there", errno);
  }
  const char* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      ::close(fd);
      ::unlink(tmp.c_str());
      fail(file, "write failed", err);
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(file, "write failed", err);
  }
  // rename() replaces the name itself: a symlink there is replaced, its target left alone.
  if (std::rename(tmp.c_str(), file.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(file, "cannot replace it", err);
  }
}

}  // namespace tfjsi::io
