#include "backends/gl/program_cache.h"

#include <xxhash.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include "io/safe_write.h"

namespace tfjsi::gl {
namespace {

constexpr char kMagic[8] = {'T', 'F', 'J', 'S', 'I', 'G', 'L', 'P'};
constexpr std::uint32_t kFormatVersion = 1;

// The header before the binary bytes of a cache file.
struct FileHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t binary_format;
  std::uint64_t binary_length;
  std::uint64_t binary_hash;  // XXH3 of the binary
  std::uint64_t key_hash;     // XXH3 of token + driver + source: a renamed file is stale
};

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

ProgramCache::ProgramCache(std::shared_ptr<GlContext> ctx) : ctx_(std::move(ctx)) {}

std::filesystem::path ProgramCache::default_dir() {
  std::filesystem::path base;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    base = x;
  else if (const char* h = std::getenv("HOME"); h && *h)
    base = std::filesystem::path(h) / ".cache";
  else
    return {};
  return base / "tfjs-inspector" / "gl-programs";
}

bool ProgramCache::disk_enabled() const {
  return !dir_.empty() && ctx_->limits().num_binary_formats > 0;
}

std::size_t ProgramCache::binary_bytes() const {
  std::size_t n = 0;
  for (const auto& [k, p] : programs_) n += p->binary_bytes;
  return n;
}

std::filesystem::path ProgramCache::file_for(const CachedProgram& p) const {
  return dir_ / (p.disk_key + ".bin");
}

GlObject ProgramCache::compile(const std::string& source) {
  GlObject shader(ctx_, GlKind::Shader, GL_COMPUTE_SHADER);
  const char* text = source.c_str();
  glShaderSource(shader.id(), 1, &text, nullptr);
  glCompileShader(shader.id());
  GLint ok = 0;
  glGetShaderiv(shader.id(), GL_COMPILE_STATUS, &ok);
  auto log_of = [](GLuint id, bool is_program) {
    GLint len = 0;
    is_program ? glGetProgramiv(id, GL_INFO_LOG_LENGTH, &len)
               : glGetShaderiv(id, GL_INFO_LOG_LENGTH, &len);
    std::string log(static_cast<std::size_t>(std::max(len, 1)), '\0');
    is_program ? glGetProgramInfoLog(id, len, nullptr, log.data())
               : glGetShaderInfoLog(id, len, nullptr, log.data());
    return log;
  };
  if (!ok) {
    // The first line of the log leads the message: warnings show only that line.
    const std::string log = log_of(shader.id(), false);
    const std::string first = log.substr(0, log.find_first_of(std::string("\n\0", 2)));
    throw std::runtime_error("gl backend: compute shader does not compile: " + first + "\n" + log +
                             "\n--- source ---\n" + source);
  }
  GlObject program(ctx_, GlKind::Program);
  glAttachShader(program.id(), shader.id());
  if (disk_enabled())
    glProgramParameteri(program.id(), GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
  glLinkProgram(program.id());
  glGetProgramiv(program.id(), GL_LINK_STATUS, &ok);
  if (!ok)
    throw std::runtime_error("gl backend: compute program does not link:\n" +
                             log_of(program.id(), true));
  glDetachShader(program.id(), shader.id());
  ++stats_.compiled;
  return program;
}

bool ProgramCache::load(CachedProgram& p) {
  const std::filesystem::path path = file_for(p);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return false;
  auto reject = [&] {
    ++stats_.disk_rejected;
    std::filesystem::remove(path, ec);
    return false;
  };
  std::ifstream in(path, std::ios::binary);
  FileHeader h{};
  if (!in.read(reinterpret_cast<char*>(&h), sizeof h)) return reject();
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.version != kFormatVersion ||
      h.binary_length == 0 || h.binary_length != size - sizeof h ||
      h.key_hash != std::strtoull(p.disk_key.c_str(), nullptr, 16))
    return reject();
  std::vector<char> bin(static_cast<std::size_t>(h.binary_length));
  if (!in.read(bin.data(), static_cast<std::streamsize>(bin.size()))) return reject();
  if (XXH3_64bits(bin.data(), bin.size()) != h.binary_hash) return reject();
  GlObject program(ctx_, GlKind::Program);
  glProgramBinary(program.id(), h.binary_format, bin.data(), static_cast<GLsizei>(bin.size()));
  GLint ok = 0;
  glGetProgramiv(program.id(), GL_LINK_STATUS, &ok);
  while (glGetError() != GL_NO_ERROR) {
  }
  if (!ok) return reject();  // a driver update or another GPU: the binary is stale
  p.program = std::move(program);
  p.from_disk = p.saved = true;
  p.binary_bytes = bin.size();
  ++stats_.disk_loaded;
  return true;
}

CachedProgram& ProgramCache::get(const std::string& source, bool& fresh) {
  if (auto it = programs_.find(source); it != programs_.end()) {
    ++stats_.memory_hits;
    fresh = false;
    return *it->second;
  }
  fresh = true;
  auto p = std::make_unique<CachedProgram>();
  const std::string key = token_ + '\n' + ctx_->vendor() + '\n' + ctx_->renderer() + '\n' +
                          ctx_->version() + '\n' + source;
  p->disk_key = hex64(XXH3_64bits(key.data(), key.size()));
  if (!disk_enabled() || !load(*p)) p->program = compile(source);
  return *programs_.emplace(source, std::move(p)).first->second;
}

void ProgramCache::save(CachedProgram& p) {
  if (p.saved || !disk_enabled()) return;
  p.saved = true;  // one attempt: a failure to write is not worth retrying every dispatch
  GLint len = 0;
  glGetProgramiv(p.program.id(), GL_PROGRAM_BINARY_LENGTH, &len);
  if (len <= 0) return;
  std::vector<char> bin(static_cast<std::size_t>(len));
  GLenum format = 0;
  GLsizei got = 0;
  glGetProgramBinary(p.program.id(), len, &got, &format, bin.data());
  if (got <= 0) return;
  bin.resize(static_cast<std::size_t>(got));
  FileHeader h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kFormatVersion;
  h.binary_format = format;
  h.binary_length = bin.size();
  h.binary_hash = XXH3_64bits(bin.data(), bin.size());
  h.key_hash = std::strtoull(p.disk_key.c_str(), nullptr, 16);
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  const std::filesystem::path path = file_for(p);
  // Write then rename (io::write_file_replacing), so a reader in another process never sees half
  // a file; a cache that cannot be written is only a slower next start.
  std::string bytes(reinterpret_cast<const char*>(&h), sizeof h);
  bytes.append(bin.data(), bin.size());
  try {
    io::write_file_replacing(path, bytes);
  } catch (const std::runtime_error&) {
    return;
  }
  p.binary_bytes = bin.size();
  ++stats_.disk_saved;
}

std::string model_token_of_files(std::span<const std::filesystem::path> files) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  std::vector<char> buf(1 << 16);
  for (const auto& f : files) {
    const std::string name = f.filename().string();
    XXH3_64bits_update(state, name.data(), name.size());
    std::ifstream in(f, std::ios::binary);
    while (in) {
      in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
      XXH3_64bits_update(state, buf.data(), static_cast<std::size_t>(in.gcount()));
    }
  }
  const std::uint64_t h = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return hex64(h);
}

}  // namespace tfjsi::gl
