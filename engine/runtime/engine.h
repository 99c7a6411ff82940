// The Engine (TF.js's "environment" and engine in one): the registered backends and the active
// one, the flags, every live tensor and data buffer (memory(), scopes, leaks), the thread pool and
// the observers. No global state: everything the runtime shares lives in one Engine object, driven
// by one thread at a time.
#pragma once

#include <pthreadpool.h>

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/buffer_pool.h"
#include "runtime/backend.h"
#include "runtime/flags.h"
#include "runtime/observer.h"
#include "runtime/tensor.h"

namespace tfjsi::runtime {

struct MemoryUse {
  std::size_t num_tensors = 0;       // live tensor handles (with data on this backend)
  std::size_t num_data_buffers = 0;  // distinct data buffers
  std::size_t num_bytes = 0;         // their bytes
};

struct BackendMemoryUse {
  std::string backend;
  MemoryUse use;
  BackendMemory extra;  // what the backend holds beyond tensor data
};

struct MemoryInfo {
  // All backends together. A tensor with copies on two backends counts once in num_tensors and
  // num_data_buffers, and both copies count in num_bytes.
  MemoryUse total;
  // Freed tensor storage the buffer pool keeps for the next run (not in total: no tensor owns it).
  std::size_t cached_bytes = 0;
  std::vector<BackendMemoryUse> backends;  // every registered backend, in registration order
};

// One live tensor, for leak reports.
struct LiveTensor {
  TensorId id = 0;
  DType dtype = DType::Float32;
  Shape shape;
  std::string creator;  // the node (or API) that made it
  std::vector<std::string> backends;
};

struct BackendInfo {
  std::string name;
  int priority = 0;
  Availability availability;
};

class Engine {
 public:
  // Registers the reference backend (cpu, which the registration list makes:
  // backends/all_backends.h); flags: prod, debug, threads (0 = one per hardware thread).
  Engine();
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // ---- backends ----
  void add_backend(std::unique_ptr<Backend> backend);
  std::vector<BackendInfo> backends();
  // nullptr when no backend has that name.
  Backend* find_backend(std::string_view name);
  // The backend every node can fall back to (cpu): the one the plan gives what the active
  // backend does not support, and the one host data lives on.
  Backend& reference_backend() { return *reference_; }
  // Tells every backend which model runs next (Backend::model_opened). Call it after loading.
  void open_model(const model::Bundle& bundle);
  // Device objects alive now, over every backend.
  DeviceObjectCounts live_device_objects() const;
  // "auto" picks the available backend of highest priority. Throws UsageError for an unknown
  // name and BackendUnavailable (with the reason) for one that cannot run here.
  void set_backend(std::string_view name);
  // The active backend; auto-selects on first use.
  Backend& backend();

  // How the active backend stores tensors, as it keeps it (auto-selects like backend()).
  Precision precision();
  // Asks every backend that has a choice to store tensors at `p` (gl: gl.float32_enabled). A
  // backend whose precision changes loses its copies of tensors that have another copy (weights):
  // they are made again at the new precision where a kernel reads them.
  void set_precision(Precision p);

  // ---- flags, threads, log ----
  Flags& flags() { return flags_; }
  const Flags& flags() const { return flags_; }
  // The pool kernels share; rebuilt when the `threads` flag changes.
  pthreadpool_t pool();
  std::size_t threads();
  void set_threads(std::size_t n) { flags_.set_value("threads", static_cast<std::int64_t>(n)); }
  // Warnings and the debug log go here; stderr unless a sink is set (the GUI sets one).
  void log(std::string_view line);
  void set_log_sink(std::function<void(std::string_view)> sink) { log_sink_ = std::move(sink); }

  // ---- tensors ----
  // A tensor on the cpu backend over `host`'s storage (no copy).
  Tensor make_tensor(const HostTensor& host, std::string creator = "make_tensor");
  // A tensor over data a backend produced; shares the data record when `view.data` is already
  // known (an output that reuses an input's buffer).
  Tensor adopt(Backend& backend, const TensorView& view, std::string creator);
  // A new handle on the same data (what Identity and control-flow forwarding do).
  Tensor clone(const Tensor& t, std::string creator = "clone");
  // The tensor's data on `backend`, copied there the first time (both copies are kept and
  // counted until the tensor's data dies).
  TensorView view_on(const Tensor& t, Backend& backend);
  HostTensor read(const Tensor& t);
  void dispose(const Tensor& t);
  bool alive(const Tensor& t) const;
  const Shape& shape(const Tensor& t) const;
  DType dtype(const Tensor& t) const;
  // Bytes of the tensor's largest copy (what a kernel "made").
  std::size_t bytes(const Tensor& t) const;

  // ---- scopes (TF.js tidy) ----
  // Tensors made between start_scope() and end_scope() are disposed at end_scope(), except those
  // passed in `keep` (they move to the enclosing scope) and those marked with keep().
  void start_scope();
  void end_scope(std::span<const Tensor> keep = {});
  // Exempts a tensor from every scope (weights).
  void keep(const Tensor& t);
  // Runs f in a scope; a returned Tensor or std::vector<Tensor> survives it.
  template <class F>
  auto tidy(F&& f);

  // ---- accounting ----
  // Host storage for tensors made during Executor::run (see core/buffer_pool.h).
  BufferPool& buffer_pool() { return *buffer_pool_; }
  MemoryInfo memory();
  std::vector<LiveTensor> live_tensors() const;
  // Bytes of all live data now, and the most since reset_peak().
  std::size_t live_bytes() const { return live_bytes_; }
  std::size_t peak_bytes() const { return peak_bytes_; }
  void reset_peak() { peak_bytes_ = live_bytes_; }
  // Disposes every live tensor not exempted with keep() (what runs and scopes left behind; the
  // weights stay), frees the buffer pool's cached storage and the backends' rebuildable caches
  // (Backend::trim_caches) and restarts the peak. Returns how many tensors it disposed. The GUI's
  // memory Reset calls it between runs.
  std::size_t reset_memory();

  // ---- observers (not owned; remove before destroying them) ----
  void add_observer(Observer* o);
  void remove_observer(Observer* o);
  const std::vector<Observer*>& observers() const { return observers_; }
  // An observer reads every node's own output (compare, the fp16 check, kept intermediates): runs
  // then take neither fusion nor the graph with its Transposes moved.
  bool every_output_observed() const;
  // Tells every observer (Observer::on_progress); backends call it through RunContext::engine.
  void report_progress(std::string_view stage, std::int64_t done, std::int64_t total);

 private:
  struct Copy {
    Backend* backend;
    std::shared_ptr<BackendData> data;
    std::size_t bytes;
  };
  struct DataRecord {
    std::size_t refs = 0;
    std::vector<Copy> copies;
  };
  struct TensorRecord {
    DType dtype;
    Shape shape;
    std::uint64_t data;
    std::string creator;
    bool kept = false;
  };

  const TensorRecord& record(const Tensor& t) const;
  Tensor new_tensor(DType dtype, Shape shape, std::uint64_t data, std::string creator);
  std::uint64_t new_data(Backend& backend, std::shared_ptr<BackendData> data);
  void add_copy(DataRecord& d, Backend& backend, std::shared_ptr<BackendData> data);
  void release_data(std::uint64_t id);
  void drop_copies_on(const Backend& backend);

  Flags flags_;
  std::vector<std::unique_ptr<Backend>> backends_;
  Backend* reference_ = nullptr;
  Backend* active_ = nullptr;

  std::unordered_map<TensorId, TensorRecord> tensors_;
  std::unordered_map<std::uint64_t, DataRecord> data_;
  std::unordered_map<const BackendData*, std::uint64_t> data_by_ptr_;
  TensorId next_tensor_ = 1;
  std::uint64_t next_data_ = 1;
  std::vector<std::vector<TensorId>> scopes_;
  std::size_t live_bytes_ = 0, peak_bytes_ = 0;

  pthreadpool_t pool_ = nullptr;
  std::size_t pool_threads_ = 0;
  std::shared_ptr<BufferPool> buffer_pool_ = std::make_shared<BufferPool>();
  std::vector<Observer*> observers_;
  std::function<void(std::string_view)> log_sink_;
};

template <class F>
auto Engine::tidy(F&& f) {
  using R = decltype(f());
  start_scope();
  try {
    if constexpr (std::is_void_v<R>) {
      f();
      end_scope();
    } else {
      R result = f();
      if constexpr (std::is_same_v<R, Tensor>) {
        end_scope(std::span<const Tensor>(&result, 1));
      } else if constexpr (std::is_same_v<R, std::vector<Tensor>>) {
        end_scope(result);
      } else {
        end_scope();
      }
      return result;
    }
  } catch (...) {
    end_scope();
    throw;
  }
}

}  // namespace tfjsi::runtime
