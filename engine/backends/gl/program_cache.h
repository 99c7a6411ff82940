// Compiled compute programs: an in-memory cache keyed by the full shader source (which holds the
// op, its code paths and whatever else is a #define; values passed as uniforms are not in it),
// backed by an on-disk cache of program binaries (glGetProgramBinary) keyed by a model token and
// the driver's vendor, renderer and version. A disk entry is never trusted: its checksums and the
// driver's LINK_STATUS decide, and anything wrong is deleted and rebuilt from source.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "backends/gl/gl_objects.h"
#include "backends/gl/program_warmer.h"

namespace tfjsi::gl {

struct ProgramCacheStats {
  std::int64_t compiled = 0;       // programs built from source
  std::int64_t disk_loaded = 0;    // programs loaded from a saved binary
  std::int64_t disk_rejected = 0;  // saved binaries found corrupt or stale (then rebuilt)
  std::int64_t disk_saved = 0;
  std::int64_t memory_hits = 0;  // lookups answered by a program already in memory
};

struct CachedProgram {
  GlObject program;
  bool from_disk = false;
  bool saved = false;       // its binary is on disk (or it came from there)
  bool dispatched = false;  // has run once (llvmpipe compiles for real at the first dispatch)
  bool for_later = false;   // linked for a later run, its build not started (GlBackend::prebuild)
  // Its warm-up on a worker (program_warmer.h) while that is not awaited yet; null otherwise.
  std::shared_ptr<WarmTicket> warm;
  // Which kernel it is, and its link time, for the run's list of builds (BackendStats::builds);
  // `build_noted` once it is on that list.
  std::string kernel, variant, op, node;
  double link_ms = 0;
  bool build_noted = false;
  std::size_t binary_bytes = 0;
  std::string disk_key;            // file name stem on disk
  GLint group_base_location = -2;  // uniform tfjsi_group_base (-1: unused; -2: not looked up)
  // Locations of the call's uniforms (KernelCall::uniforms after the layouts), in their order:
  // the same source declares the same names in the same order.
  std::vector<GLint> uniform_locations;
};

class ProgramCache {
 public:
  explicit ProgramCache(std::shared_ptr<GlContext> ctx);

  // The default folder: ($XDG_CACHE_HOME or ~/.cache)/tfjs-inspector/gl-programs; empty when
  // neither variable is set.
  static std::filesystem::path default_dir();

  // Where binaries go; an empty path turns the disk cache off.
  void set_disk_dir(std::filesystem::path dir) { dir_ = std::move(dir); }
  const std::filesystem::path& disk_dir() const { return dir_; }
  void set_model_token(std::string token) { token_ = std::move(token); }
  const std::string& model_token() const { return token_; }
  // False when the driver offers no binary formats (MESA_SHADER_CACHE_DISABLE=true) or no folder.
  bool disk_enabled() const;

  // The program for `source`; `fresh` tells whether it was built or loaded by this call. Throws
  // std::runtime_error with the compiler log when the source does not compile (a backend bug).
  CachedProgram& get(const std::string& source, bool& fresh);
  // Saves the program's binary when the disk cache is on and it is not there yet. Call it after
  // the first dispatch so the binary holds the driver's finished code.
  void save(CachedProgram& p);

  const ProgramCacheStats& stats() const { return stats_; }
  std::size_t size() const { return programs_.size(); }
  std::size_t binary_bytes() const;
  // The file a program's binary lives in (tests corrupt it).
  std::filesystem::path file_for(const CachedProgram& p) const;
  // Forgets every program in memory (the disk stays): the next get() loads or compiles again.
  void clear_memory() {
    programs_.clear();
    variants_.clear();
  }
  // Kernels that have a program of their own per window and one shared by small layers
  // (depthwise and convolution: ops_conv.cpp) note each specialised variant they dispatch (shader
  // and #defines): a small layer takes the specialised program where one is already made, else the
  // shared one.
  void note_variant(std::string key) { variants_.insert(std::move(key)); }
  bool has_variant(const std::string& key) const { return variants_.count(key) > 0; }

 private:
  GlObject compile(const std::string& source);
  bool load(CachedProgram& p);

  std::shared_ptr<GlContext> ctx_;
  std::filesystem::path dir_;
  std::string token_;
  std::unordered_map<std::string, std::unique_ptr<CachedProgram>> programs_;
  std::unordered_set<std::string> variants_;
  ProgramCacheStats stats_;
};

// A model token: xxHash (XXH3, 64 bits) of the given files' contents, as 16 hex digits.
std::string model_token_of_files(std::span<const std::filesystem::path> files);

}  // namespace tfjsi::gl
