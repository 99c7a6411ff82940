// A line on stderr that says what the backend is busy with before a result can come (gl building
// its programs: "compiling gl kernels: 12 done"), redrawn in place and cleared when the run ends.
// Only on a terminal: piped or redirected stderr, and --json, get nothing.
#pragma once

#include "runtime/engine.h"
#include "runtime/observer.h"

namespace tfjsi::cli {

class ProgressLine final : public runtime::Observer {
 public:
  // Watches `engine` when `wanted` and stderr is a terminal; does nothing otherwise.
  ProgressLine(runtime::Engine& engine, bool wanted);
  ~ProgressLine() override;
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // It only counts: nodes may still run inside the kernel before them.
  bool needs_every_output() const override { return false; }
  void on_progress(std::string_view stage, std::int64_t done, std::int64_t total) override;
  void run_finished() override { clear(); }

 private:
  void clear();
  runtime::Engine& engine_;
  bool attached_ = false;
  bool shown_ = false;
};

}  // namespace tfjsi::cli
