#include "progress_line.h"

#include <unistd.h>

#include <cstdio>
#include <string>

namespace tfjsi::cli {

ProgressLine::ProgressLine(runtime::Engine& engine, bool wanted) : engine_(engine) {
  if (!wanted || !::isatty(STDERR_FILENO)) return;
  engine_.add_observer(this);
  attached_ = true;
}

ProgressLine::~ProgressLine() {
  if (!attached_) return;
  clear();
  engine_.remove_observer(this);
}

void ProgressLine::on_progress(std::string_view stage, std::int64_t done, std::int64_t total) {
  const std::string what = std::string(stage) + " " + std::string(engine_.backend().name()) +
                           " kernels: " + std::to_string(done) +
                           (total > 0 ? " of " + std::to_string(total) : " done");
  // \r and erase-to-end-of-line: the line is redrawn in place.
  std::fprintf(stderr, "\r%s\x1b[K", what.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void ProgressLine::clear() {
  if (!shown_) return;
  std::fprintf(stderr, "\r\x1b[K");
  std::fflush(stderr);
  shown_ = false;
}

}  // namespace tfjsi::cli
