#include "analysis/output_folder.h"

#include <unistd.h>

#include <system_error>

#include "core/error.h"

namespace tfjsi::analysis {

namespace fs = std::filesystem;

OutputFolder::OutputFolder(fs::path out, const fs::path& model_dir, const std::string& label)
    : out_(std::move(out)) {
  if (!out_.has_filename()) out_ = out_.parent_path();  // "dir/" names "dir"
  std::error_code ec;
  const auto st = fs::symlink_status(out_, ec);
  if (fs::exists(st)) {
    if (fs::is_directory(fs::status(out_, ec)) && fs::equivalent(out_, model_dir, ec))
      throw UsageError(label + " " + out_.string() +
                       " is the model's own folder; give a new folder for the bundle");
    if (!fs::is_directory(st))
      throw UsageError(label + " " + out_.string() + " exists and is not a folder");
    if (!fs::is_empty(out_, ec) || ec)
      throw UsageError(label + " " + out_.string() +
                       " exists and is not empty; give a new or empty folder");
  }
  // Beside `out`, so that commit() is a rename within one file system.
  const fs::path parent = out_.has_parent_path() ? out_.parent_path() : fs::path(".");
  fs::create_directories(parent, ec);
  if (!ec)
    for (int k = 0; k < 100; ++k) {
      fs::path candidate = parent / ("." + out_.filename().string() + ".partial-" +
                                     std::to_string(::getpid()) + "-" + std::to_string(k));
      if (fs::create_directory(candidate, ec)) {
        staging_ = std::move(candidate);
        return;
      }
      if (ec) break;
    }
  throw ModelError(out_.string() + ": cannot create the output folder: " +
                   (ec ? ec.message() : std::string("no free staging name beside it")));
}

OutputFolder::~OutputFolder() {
  if (committed_ || staging_.empty()) return;
  std::error_code ec;
  fs::remove_all(staging_, ec);
}

void OutputFolder::commit() {
  if (committed_) return;
  // rename(2) replaces an empty folder and refuses a non-empty one: something made `out` since
  // it was checked is never overwritten.
  std::error_code ec;
  fs::rename(staging_, out_, ec);
  if (ec) {
    const std::string why = ec.message();
    fs::remove_all(staging_, ec);
    throw ModelError(out_.string() + ": cannot put the bundle in place: " + why);
  }
  committed_ = true;
}

}  // namespace tfjsi::analysis
