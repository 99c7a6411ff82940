// The folder `reduce` and `quantize` write a whole bundle into, all or nothing: the files go into
// a staging folder beside it, which takes the folder's name only once every file is written (and
// checked). A run that fails or is cancelled leaves no half-written bundle behind.
#pragma once

#include <filesystem>
#include <string>

namespace tfjsi::analysis {

class OutputFolder {
 public:
  // `out` must be a new or empty folder, and not the model's own (`model_dir`): a bundle written
  // over its input would lose the weights it was made from. `label` names it in messages
  // ("--out", "The folder"). Throws UsageError for a folder that will not do, ModelError when the
  // staging folder cannot be made beside it (its parent is made when missing).
  OutputFolder(std::filesystem::path out, const std::filesystem::path& model_dir,
               const std::string& label);
  // Removes the staging folder and what is in it, unless committed.
  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  const std::filesystem::path& out() const { return out_; }
  // Where the files go until commit().
  const std::filesystem::path& staging() const { return staging_; }
  // The staging folder takes the name `out` (replacing it when it is an empty folder). Throws
  // ModelError when it cannot; the staging folder is then removed.
  void commit();
  bool committed() const { return committed_; }

 private:
  std::filesystem::path out_, staging_;
  bool committed_ = false;
};

}  // namespace tfjsi::analysis
