#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "core/error.h"
#include "fuzz_targets.h"
#include "model/bundle.h"

namespace tfjsi::fuzz {
namespace {

namespace fs = std::filesystem;

// One folder per process, emptied before each input; in /dev/shm when there is one, so that
// the disk is not worn by millions of small writes.
fs::path scratch_dir() {
  static const fs::path dir = [] {
    std::error_code ec;
    fs::path base =
        fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
    return base / ("tfjsi-fuzz-bundle-" + std::to_string(::getpid()));
  }();
  return dir;
}

void write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) __builtin_trap();  // the harness itself failed, not the engine
}

bool inside(const fs::path& dir, const fs::path& file) {
  const auto rel = file.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != "..";
}

}  // namespace

int bundle(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto dir = scratch_dir();
  fs::remove_all(dir);
  fs::create_directories(dir);

  const auto nul = input.find('\0');
  write_file(dir / "model.json", input.substr(0, nul));
  if (nul != std::string_view::npos) {
    std::string_view rest = input.substr(nul + 1);
    for (int k = 0;; ++k) {
      const auto sep = rest.find(kShardSeparator);
      write_file(dir / (std::to_string(k) + ".bin"), rest.substr(0, sep));
      if (sep == std::string_view::npos) break;
      rest.remove_prefix(sep + kShardSeparator.size());
    }
  }
  try {
    const auto b = model::load_bundle(dir);
    // Whatever the manifest says, no shard may be read from outside the bundle's folder.
    for (const auto& s : b.shards)
      if (!inside(fs::canonical(dir), fs::weakly_canonical(s.path))) __builtin_trap();
    for (const auto& w : b.weights)
      if (w.value.buffer && w.value.buffer->size() < w.value.byte_size()) __builtin_trap();
  } catch (const ModelError&) {
  }
  return 0;
}

}  // namespace tfjsi::fuzz
