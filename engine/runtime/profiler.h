// Per-kernel wall time, bytes made and the live-bytes high-water mark of runs, as an observer.
// Attach with engine.add_observer(&profiler); it records every run until reset().
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "runtime/observer.h"

namespace tfjsi::runtime {

struct KernelRecord {
  std::string node, op, backend;
  double ms = 0;
  std::size_t bytes_made = 0;  // bytes of the node's output tensors
  std::size_t live_bytes =
      0;                   // the engine's live bytes right after the node (inputs not yet freed)
  std::string fused_into;  // backend "fused": the node whose kernel computed this one
};

struct OpTotal {
  std::string op;
  int calls = 0;
  int fused = 0;  // of the calls, those that ran inside the kernel before them
  double ms = 0;
};

class Profiler final : public Observer {
 public:
  explicit Profiler(Engine& engine) : engine_(engine) {}
  bool needs_every_output() const override { return false; }
  bool times_kernels() const override { return true; }

  void run_started() override;
  void after_kernel(KernelEvent& event) override;
  void run_finished() override;

  const std::vector<KernelRecord>& kernels() const { return kernels_; }
  // Per op, slowest first.
  std::vector<OpTotal> by_op() const;
  double total_ms() const;
  std::size_t total_bytes_made() const;
  // The most bytes live at once since reset(), and the live bytes when the first run started.
  std::size_t peak_bytes() const { return peak_; }
  std::size_t start_bytes() const { return start_; }
  int runs() const { return runs_; }
  void reset();

 private:
  Engine& engine_;
  std::vector<KernelRecord> kernels_;
  std::size_t peak_ = 0, start_ = 0;
  int runs_ = 0;
};

}  // namespace tfjsi::runtime
