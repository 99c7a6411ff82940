// The cancel flag a long analysis (reduce, quantize advice) honours: while one is alive, the flag
// is checked before every kernel the engine runs and at every progress report (gl building its
// programs), and the analysis checks it between its own steps (which may build or copy a model
// for a while without running a kernel). A set flag throws Cancelled; the executor frees what the
// run made on the way out.
#pragma once

#include <atomic>

#include "core/error.h"
#include "runtime/engine.h"
#include "runtime/observer.h"

namespace tfjsi::analysis {

class CancelWatch final : public runtime::Observer {
 public:
  // A null flag: nothing to watch, check() never throws.
  CancelWatch(runtime::Engine& engine, const std::atomic<bool>* flag)
      : engine_(engine), flag_(flag) {
    if (flag_) engine_.add_observer(this);
  }
  ~CancelWatch() override {
    if (flag_) engine_.remove_observer(this);
  }
  CancelWatch(const CancelWatch&) = delete;
  CancelWatch& operator=(const CancelWatch&) = delete;

  void check() const {
    if (flag_ && flag_->load(std::memory_order_relaxed)) throw Cancelled();
  }
  bool needs_every_output() const override { return false; }
  void before_kernel(const runtime::KernelEvent&) override { check(); }
  void on_progress(std::string_view, std::int64_t, std::int64_t) override { check(); }

 private:
  runtime::Engine& engine_;
  const std::atomic<bool>* flag_;
};

}  // namespace tfjsi::analysis
