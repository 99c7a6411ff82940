// What a backend (cpu, xnnpack, gl) is to the engine: it says whether it can start and which
// nodes it runs, holds tensor data in its own form, moves host data in and out, and runs a node.
// It knows nothing of other backends: moving data between them is the Engine's job.
//
// Fallbacks: the executor decides them. A node whose supports() is false is planned on cpu; a
// run() that throws BackendLimit (or fails for a reason of the backend itself) makes the executor
// run that node on cpu from then on. The one exception is a backend whose tensors live in host
// memory (xnnpack): it may run a node on the cpu reference kernels itself, through
// backends/cpu/reference.h and nothing else of backends/cpu/, so that no copy is made each way.
// No backend includes another backend's headers otherwise.
#pragma once

#include <pthreadpool.h>

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/host_tensor.h"
#include "graph/ir.h"
#include "model/bundle.h"
#include "runtime/flags.h"

namespace tfjsi::runtime {

class Engine;

// Attributes of a node that Backend::fuse made from an op without a fused form (AddV2):
// the activation op its kernel applies last ("Relu", "Relu6", ...), and that op's alpha
// (LeakyRelu). Every backend that runs such a node must honour them.
inline constexpr std::string_view kFusedActivation = "_tfjsi_activation";
inline constexpr std::string_view kFusedActivationAlpha = "_tfjsi_activation_alpha";
// A bool attribute of a node that Backend::fuse gave the bias add after it (an op without a fused
// form: Conv2DBackpropInput): its last input, a float vector per output channel (or a scalar), is
// added to its output, before a fused activation. Every backend that runs such a node must
// honour it.
inline constexpr std::string_view kFusedBias = "_tfjsi_bias";

// One tensor's data as one backend holds it (a host buffer, a GL texture, ...). The Engine counts
// each live BackendData once, however many tensors share it.
class BackendData {
 public:
  virtual ~BackendData() = default;
  // Memory it holds on its backend, for memory().
  virtual std::size_t bytes() const = 0;
};

// A tensor as a backend sees it: its data on that backend plus the tensor's dtype and shape (a
// reshape shares data under another shape).
struct TensorView {
  std::shared_ptr<BackendData> data;
  DType dtype = DType::Float32;
  Shape shape;
};

struct Availability {
  bool available = false;
  std::string reason;  // why not, when not available ("no OpenGL 4.3 context: ...")
};

// What the executor passes to every kernel call.
// Hands every worker of `pool` an empty command with the flag that lets it sleep afterwards:
// workers that spin take it at once, and then stop spinning.
inline void park_workers(pthreadpool_t pool) {
  pthreadpool_parallelize_1d(
      pool, [](void*, std::size_t) {}, nullptr, pthreadpool_get_threads_count(pool),
      PTHREADPOOL_FLAG_YIELD_WORKERS);
}

struct RunContext {
  pthreadpool_t pool = nullptr;  // the Engine's thread pool
  const Flags& flags;
  Engine* engine = nullptr;  // for Engine::report_progress; null outside an Engine's run
};

// Memory a backend holds beyond tensor data (compiled programs, packed weights, caches).
struct BackendMemory {
  std::size_t bytes = 0;
  std::string details;
};

// A kernel built from source in a run (gl: a program): which one, and what its build took. The
// answer to "where did a cold first run's compile time go".
struct KernelBuild {
  std::string kernel;    // its source file (gl: conv_direct.comp)
  std::string variant;   // what specialises it (gl: its #defines, NAME=VALUE)
  std::string op, node;  // the node whose run first needed it, and its op (empty if none)
  double ms = 0;         // link and build, wall time on the thread that did them
  bool ahead = false;    // built by a worker thread while the run went on (else at its use)
};

// What a backend counted since its last reset_stats(), in terms any backend can fill (zero where it
// has no such thing), so that the benchmark, the memory check and the GUI read them without knowing
// the backend's type.
struct BackendStats {
  // Compiled kernels (gl programs) met for the first time: built from source, or loaded from the
  // disk cache; and the time the engine's thread spent on them (build, load, first dispatch).
  std::int64_t new_kernels = 0, kernels_built = 0, kernels_loaded = 0;
  double compile_ms = 0;
  // New kernels whose code worker threads built while the run went on, and their time, summed.
  std::int64_t built_ahead = 0;
  // New kernels handed to the workers for a later run at the other precision, not this one (gl:
  // GlBackend::prebuild).
  std::int64_t prebuilt = 0;
  double ahead_ms = 0;
  // The kernels built from source, in the order their builds ended (none loaded from disk).
  std::vector<KernelBuild> builds;
  // Copies between host and device memory, waiting included.
  std::int64_t uploads = 0, upload_bytes = 0, downloads = 0;
  double upload_ms = 0, download_ms = 0;
  std::int64_t dispatches = 0;
  // Kernels whose grid passed the device's work-group count limit and ran as several dispatches.
  std::int64_t split_dispatches = 0;
  // Device time per op, summed, where the backend measures it (gl timer queries).
  std::map<std::string, double> device_ms_by_op;
  // Subgraph runtimes (xnnpack): made, made on the thread pool or on the calling thread alone,
  // refused by the library; partitions run through one, and runs left to the node-by-node path.
  std::int64_t runtimes_created = 0, runtimes_pooled = 0, runtimes_single_thread = 0,
               runtimes_refused = 0, partition_runs = 0, partition_runs_declined = 0;
  // Nodes outside partitions (xnnpack): timed both ways in their first run, and runs of them on
  // the thread pool.
  std::int64_t node_trials = 0, pooled_node_runs = 0;
  // Times the pool's workers were sent to sleep (xnnpack: at a run's end, or after every pooled
  // piece while the machine is busy).
  std::int64_t worker_parks = 0;

  // Every new kernel came from the disk cache (none from source); false when none was new.
  bool cache_hit() const { return kernels_loaded > 0 && kernels_built == 0; }
};

// Objects a device API holds for this process now, per kind (gl: what glGen*/glCreate* made and
// nothing deleted yet). The memory check watches them for growth.
struct DeviceObjectCounts {
  std::int64_t textures = 0, buffers = 0, shaders = 0, programs = 0, queries = 0, fences = 0;
  std::int64_t total() const { return textures + buffers + shaders + programs + queries + fences; }
  DeviceObjectCounts& operator+=(const DeviceObjectCounts& o) {
    textures += o.textures, buffers += o.buffers, shaders += o.shaders, programs += o.programs;
    queries += o.queries, fences += o.fences;
    return *this;
  }
};

// The device a backend drives, for the Environment view and the benchmark.
struct DeviceInfo {
  std::string vendor, renderer, version;
  std::string surface;  // how its context was made (EGL surfaceless, GLX, ...)
  std::int64_t max_texture_size = 0;
  bool timer_queries = false;  // device time per op can be measured
};

// How a backend stores tensor elements: fp32, or fp16 where it has the choice (gl's RGBA16F
// textures). Part of a plan's key.
enum class Precision { Fp32, Fp16 };
std::string_view to_string(Precision p);  // "fp32", "fp16"

class Backend {
 public:
  virtual ~Backend() = default;

  virtual std::string_view name() const = 0;
  // Higher is preferred by auto-selection (gl 300 > xnnpack 200 > cpu 100).
  virtual int priority() const = 0;
  // Whether the backend can run here; may start it on first call (create a context).
  virtual Availability availability() = 0;
  // Adds the backend's flags (and sets its detected, read-only ones). Called once at registration.
  virtual void declare_flags(Flags& /*flags*/) {}
  // Storage precision. A backend with a choice keeps it in one of its flags (gl:
  // gl.float32_enabled), the only place it is held: set_precision writes that flag, precision
  // reads it back. Backends without a choice store fp32 whatever is asked.
  virtual void set_precision(Flags& /*flags*/, Precision /*p*/) {}
  virtual Precision precision(const Flags& /*flags*/) const { return Precision::Fp32; }

  // Whether this backend has a kernel for the node (op, attributes, dtypes as far as known).
  virtual bool supports(const graph::Node& node) const = 0;
  // The ops this backend runs with kernels of its own, read from its registration lists (some
  // only for some attributes, dtypes or shapes: supports() decides per node). Ops it takes
  // through another backend's kernels are not among them. For `tfjsi env --ops` and the
  // Environment panel; independent of whether the backend can start here. Default: none.
  virtual std::vector<std::string_view> native_ops() const { return {}; }
  // supports() told what shape inference knows of the node's data inputs too (one entry per input,
  // in order; null when the producer is unknown). A backend whose kernels take only some input
  // shapes (gl: a per-channel fused bias) overrides it; plans ask this one. Default: supports().
  virtual bool supports_inputs(const graph::Node& node,
                               std::span<const graph::TensorInfo* const> /*inputs*/) const {
    return supports(node);
  }
  // A node that computes `producer` and then `next` in one kernel, when this backend has such a
  // kernel: one dispatch instead of two, as TFLite's GPU delegate merges them. `next` reads the
  // producer's only output (read by nothing else) as its input `through`; `next_inputs` is what
  // shape inference knows of next's inputs. Inputs of the returned node past the producer's own
  // must be Const nodes (a bias): the executor passes their weights. cpu must run the node it
  // returns as well (a kernel that fails falls back to cpu). Default: none.
  virtual std::optional<graph::Node> fuse(
      const graph::Node& /*producer*/, const graph::Node& /*next*/, int /*through*/,
      std::span<const graph::TensorInfo* const> /*next_inputs*/) const {
    return std::nullopt;
  }
  // One node of a chain after a producer, as the plan offers it to fuse(): the node (a hard
  // swish's stand-in for its four), which of its inputs reads the chain's value, and what shape
  // inference knows of its inputs.
  struct ChainLink {
    graph::Node node;
    int through = 0;
    std::vector<const graph::TensorInfo*> inputs;
  };
  // Where fuse() declined `declined[0]` (the node after `producer`; the links after it are the
  // chain as it goes on, each the one reader of the one before, as far as the plan can see): a
  // form of `producer` that computes what it computes, to run on its own, when the backend would
  // rather build it as the kernel of a fusion it takes at other settings (gl: fp16 following
  // webgl runs a convolution without the bias and sigmoid after it, in the program fp32 built
  // for all three). nullopt keeps the producer. Default: none.
  virtual std::optional<graph::Node> unfused_form(const graph::Node& /*producer*/,
                                                  std::span<const ChainLink> /*declined*/) const {
    return std::nullopt;
  }

  // Host data in and out. upload() may share the host buffer instead of copying (cpu does).
  virtual std::shared_ptr<BackendData> upload(const HostTensor& host) = 0;
  virtual HostTensor download(const TensorView& tensor) = 0;

  // Runs one node. Inputs are on this backend. Returns one view per node output; an output may
  // reuse an input's `data` pointer when it only changes the view (the Engine then shares it).
  // Throws ModelError naming the node for inputs the op cannot take.
  virtual std::vector<TensorView> run(const graph::Node& node, std::span<const TensorView> inputs,
                                      const RunContext& ctx) = 0;

  virtual BackendMemory memory() const { return {}; }

  // The model about to run. A backend that keeps compiled work on disk keys it by this model here
  // (gl's program cache), and only here. Engine::open_model calls it on every backend.
  virtual void model_opened(const model::Bundle& /*bundle*/) {}
  // Counters since the last reset_stats() (see BackendStats).
  virtual BackendStats stats() { return {}; }
  virtual void reset_stats() {}
  // Device objects alive now; none for host backends.
  virtual DeviceObjectCounts live_objects() const { return {}; }
  // The device, once availability() said yes; none for host backends.
  virtual std::optional<DeviceInfo> device() { return std::nullopt; }

  // Waits until the work run() queued is done. Backends that compute before run() returns have
  // nothing to wait for.
  virtual void finish() {}

  // A run on this backend ended (done or failed): caches of what runs make may free what this
  // run did not use.
  virtual void end_run() {}
  // Waits for work the backend does in the background after runs (gl: kernels built ahead for a
  // later run at the other precision), so that what follows is timed alone.
  virtual void settle() {}
  // Frees every cache that is rebuilt on demand (Engine::reset_memory()).
  virtual void trim_caches() {}
};

}  // namespace tfjsi::runtime
