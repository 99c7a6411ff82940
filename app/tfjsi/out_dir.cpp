#include "out_dir.h"

#include "core/error.h"

namespace tfjsi::cli {

namespace fs = std::filesystem;

void prepare_out_dir(const fs::path& out, const model::Bundle& bundle) {
  std::error_code ec;
  const auto st = fs::symlink_status(out, ec);
  if (fs::exists(st)) {
    if (fs::is_directory(fs::status(out, ec)) && fs::equivalent(out, bundle.dir, ec))
      throw UsageError("--out " + out.string() +
                       " is the model's own folder; give a new folder for the bundle");
    if (!fs::is_directory(st))
      throw UsageError("--out " + out.string() + " exists and is not a folder");
    if (!fs::is_empty(out, ec) || ec)
      throw UsageError("--out " + out.string() +
                       " exists and is not empty; give a new or empty folder");
  }
  fs::create_directories(out, ec);
  if (ec) throw ModelError(out.string() + ": cannot create the output folder: " + ec.message());
}

}  // namespace tfjsi::cli
