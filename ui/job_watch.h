// The progress of a job that runs a model several times (the backend comparison, the fp16
// check): the executor's runs and kernels, counted into (pass, stage, done, total) for the dock's
// progress bar. The analyses have no hook of their own; the engine's observers see their runs.
#pragma once

#include <QString>
#include <chrono>
#include <functional>

#include "graph/ir.h"
#include "runtime/observer.h"

namespace tfjsi::ui {

// `pass`: the job's step, 1 up; `stage` says what it is; `done` of `total` nodes of it have run.
// Called at most ~20 times a second, on the engine's thread.
using JobProgress = std::function<void(int pass, const QString& stage, int done, int total)>;

// Nodes the executor runs as kernels (what before_kernel counts), at least one.
int kernel_nodes(const graph::Graph& g);

double ms_since(std::chrono::steady_clock::time_point t0);

class JobWatch : public runtime::Observer {
 public:
  JobWatch(int nodes, const JobProgress& report) : nodes_(nodes), report_(report) {}
  bool needs_every_output() const override { return false; }
  void run_started() final;
  void before_kernel(const runtime::KernelEvent&) final;

 protected:
  // What the `pass`-th run the executor starts is, in the dock's words.
  virtual QString stage_of(int pass) const = 0;
  // A step the executor does not run (the comparison's re-runs of single nodes): `done` of
  // `total` of it, reported now when it starts.
  void step(int pass, const QString& stage, int done, int total);

 private:
  // At most ~20 a second: a tiny model must not flood the UI's event queue.
  void report(bool force);

  int nodes_;
  const JobProgress& report_;
  int pass_ = 0, done_ = 0;
  QString stage_;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace tfjsi::ui
