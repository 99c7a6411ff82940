// Compiling ahead on worker threads. Mesa's llvmpipe builds a program's machine code (LLVM) at its
// first dispatch, not at glLinkProgram, and per pattern of bound texture formats and power-of-two
// sides; the code lands in Mesa's shader cache on disk, where any context finds it again. So a
// worker with its own context (sharing the engine's objects) dispatches each new program once on
// a 1x1 or 3x3 domain with textures of the same formats and side pattern bound: the engine's
// own first dispatch then finds the code in the cache instead of building it. Measured on
// llvmpipe (Mesa 22.3): such a warm-up takes the build (0.5-1 s for a large kernel) off the
// engine's thread, whose first dispatch then costs 3-10 ms; with Mesa's cache off
// (MESA_SHADER_CACHE_DISABLE, which also leaves no program binary formats) it would only double
// the work, so the backend uses a warmer only where the driver offers binary formats.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backends/gl/gl_context.h"

namespace tfjsi::gl {

// The texture state a program is dispatched with, which the driver's code depends on.
struct WarmTexture {
  bool fp16 = false;                         // RGBA16F (emulated fp16 is RGBA32F)
  bool pot_width = true, pot_height = true;  // sides that are powers of two
};

// One program to warm up. The program object belongs to the engine's context; it must stay alive
// until the job is done or taken back (ProgramWarmer::take_back, wait).
struct WarmJob {
  GLuint program = 0;
  // The dispatch's uniform values (name, int or float): the warm-up runs one work group of the
  // real kernel, whose loops then end as they do in the run. The engine sets every uniform again
  // before its own dispatches, so the program's uniform state may be written here.
  struct Uniform {
    std::string name;
    bool is_float = false;
    std::int64_t i = 0;
    float f = 0;
  };
  std::vector<Uniform> uniforms;
  bool images = true;  // inputs read as images (units 1..n) or samplers (units 0..n-1)
  std::vector<WarmTexture> inputs;
  WarmTexture output;
  // Built after a run for a later one (GlBackend::prebuild): not counted as any run's build.
  bool for_later = false;
};

// A submitted job's state, shared between the engine's thread and the workers.
struct WarmTicket {
  enum class State { Queued, Running, Done, TakenBack };
  std::atomic<State> state{State::Queued};  // written under the warmer's lock
  WarmJob job;
  double ms = 0;      // the warm-up's wall time on its worker
  std::string error;  // what went wrong, when it did (the engine's dispatch then builds it)
  int nice = 0;       // the nice value of the worker that ran it (Linux's, per thread; else 0)
};

// Jobs for a later run (WarmJob::for_later: the other precision's kernels, built after a first
// run) go to a worker of their own at the lowest CPU priority (nice 19), so that they take no core
// from the runs that follow: on the run's workers they made those runs up to half slower while
// they lasted (movenet-lightning on llvmpipe, cold process: 85-93 ms a run for the first four to
// six runs, then 55; 57-62 ms throughout with the background worker). A run that needs one of
// them takes it back while still queued, or waits for it (the worker then has the cores).
class ProgramWarmer {
 public:
  // Starts `threads` workers and the background one, each with a context sharing `engine_ctx`;
  // fewer (maybe none) when the driver refuses more contexts. Call on the engine's thread.
  ProgramWarmer(const GlContext& engine_ctx, int threads);
  // Drops queued jobs, waits for running ones and joins the workers.
  ~ProgramWarmer();
  ProgramWarmer(const ProgramWarmer&) = delete;
  ProgramWarmer& operator=(const ProgramWarmer&) = delete;

  // The workers of this run's jobs (the background worker not counted).
  int workers() const { return static_cast<int>(threads_.size()); }
  std::shared_ptr<WarmTicket> submit(WarmJob job);
  // Takes a job back while it is still queued (true): the caller then builds it itself.
  bool take_back(WarmTicket& t);
  // Waits up to `timeout_ms` for a running or queued job; true when it is done.
  bool wait_for(const WarmTicket& t, int timeout_ms);
  // Drops every queued job (they become TakenBack) and waits for the running ones: the engine
  // may delete the programs after this.
  void cancel_all();

 private:
  void work(std::shared_ptr<GlContext> ctx, bool background);
  // Marks every queued job TakenBack and empties both queues; call with mutex_ held.
  void drop_queued();

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::deque<std::shared_ptr<WarmTicket>> queue_;
  // Jobs for later runs, when the background worker exists (else they join queue_).
  std::deque<std::shared_ptr<WarmTicket>> later_queue_;
  bool has_background_ = false;
  int running_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
  std::thread background_;
};

}  // namespace tfjsi::gl
