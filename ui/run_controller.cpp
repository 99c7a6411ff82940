#include "run_controller.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <set>

#include "backends/all_backends.h"
#include "backends/gl/gl_backend.h"
#include "core/error.h"
#include "runtime/executor.h"
#include "runtime/profiler.h"

namespace tfjsi::ui {
namespace {

// Thrown out of the executor by CancelCheck; the executor frees what the run made on the way out.
struct RunCancelled : std::runtime_error {
  RunCancelled() : std::runtime_error("cancelled") {}
};

// The cancellation hook: an observer, so the runtime needs no change. It is asked before every
// kernel, nested function bodies and loop iterations included.
class CancelCheck final : public runtime::Observer {
 public:
  explicit CancelCheck(std::shared_ptr<std::atomic<bool>> flag) : flag_(std::move(flag)) {}
  void before_kernel(const runtime::KernelEvent&) override { check(); }
  void check() const {
    if (flag_->load(std::memory_order_relaxed)) throw RunCancelled();
  }

 private:
  std::shared_ptr<std::atomic<bool>> flag_;
};

HostTensor deep_copy(const HostTensor& t) {
  HostTensor c = HostTensor::zeros(t.dtype, t.shape);
  if (t.dtype == DType::String)
    *c.strings = *t.strings;
  else if (t.byte_size())
    std::memcpy(c.buffer->mutable_data(), t.buffer->data(), t.byte_size());
  return c;
}

// Keeps a copy of every node output of one run, up to a byte cap (a big model's intermediates
// would not fit in memory otherwise).
class KeepIntermediates final : public runtime::Observer {
 public:
  static constexpr std::size_t kCapBytes = std::size_t{1} << 30;
  std::map<std::string, std::vector<HostTensor>> kept;
  std::size_t bytes = 0;
  int skipped = 0;

  void after_kernel(runtime::KernelEvent& ev) override {
    std::vector<HostTensor> outs;
    std::size_t more = 0;
    for (const auto& t : ev.outputs) more += t.alive() ? ev.engine.bytes(t) : 0;
    if (bytes + more > kCapBytes) {
      ++skipped;
      return;
    }
    for (const auto& t : ev.outputs)
      outs.push_back(t.alive() ? deep_copy(ev.engine.read(t)) : HostTensor{});
    bytes += more;
    kept[ev.node.name] = std::move(outs);
  }
};

// Adds and removes an observer around one scope, whatever happens in it.
class Watching {
 public:
  Watching(runtime::Engine& e, runtime::Observer* o) : e_(e), o_(o) {
    if (o_) e_.add_observer(o_);
  }
  ~Watching() {
    if (o_) e_.remove_observer(o_);
  }
  Watching(const Watching&) = delete;
  Watching& operator=(const Watching&) = delete;

 private:
  runtime::Engine& e_;
  runtime::Observer* o_;
};

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

RunController::RunController(std::shared_ptr<std::atomic<bool>> cancel, QObject* parent)
    : QObject(parent), cancel_(std::move(cancel)) {}

RunController::~RunController() {
  // The weights die before the engine, and observers leave before they die.
  executor_.reset();
  if (engine_) {
    engine_->remove_observer(profiler_.get());
    engine_->remove_observer(cancel_observer_.get());
  }
  engine_.reset();
}

void RunController::ensure_engine() {
  if (engine_) return;
  engine_ = std::make_unique<runtime::Engine>();
  backends::add_all_backends(*engine_);
  engine_->set_log_sink([](std::string_view) {});  // fallbacks are reported in the result
  profiler_ = std::make_unique<runtime::Profiler>(*engine_);
  cancel_observer_ = std::make_unique<CancelCheck>(cancel_);
  engine_->add_observer(cancel_observer_.get());
}

void RunController::start() {
  ensure_engine();
  BackendList list;
  for (const auto& b : engine_->backends())
    list.push_back({QString::fromStdString(b.name), b.priority, b.availability.available,
                    QString::fromStdString(b.availability.reason)});
  emit backendsReady(list);
}

void RunController::setModel(LoadedModelPtr model) {
  executor_.reset();
  model_ = std::move(model);
}

void RunController::run(RunRequest request) {
  if (!model_) {
    emit runFailed(tr("Open a model first."), false);
    return;
  }
  emit runStarted(request.benchmark
                      ? tr("Benchmarking on %1").arg(QString::fromStdString(request.backend))
                      : tr("Running on %1").arg(QString::fromStdString(request.backend)));
  try {
    emit runFinished(execute(request));
  } catch (const RunCancelled&) {
    emit runFailed(tr("Cancelled"), true);
  } catch (const BackendUnavailable& e) {
    emit runFailed(tr("Backend %1 is not available: %2")
                       .arg(QString::fromStdString(request.backend), QString::fromUtf8(e.what())),
                   false);
  } catch (const std::exception& e) {
    emit runFailed(QString::fromUtf8(e.what()), false);
  }
}

RunResultPtr RunController::execute(const RunRequest& r) {
  ensure_engine();
  const graph::Graph& graph = *model_->graph;
  const auto& cancel = static_cast<const CancelCheck&>(*cancel_observer_);

  // Inputs first: a bad file is the user's most likely mistake, and needs no engine work.
  runtime::NamedTensors inputs;
  auto result = std::make_shared<RunResult>();
  for (const auto& e : graph.inputs) {
    InputSpec spec;
    spec.input = e.name;
    for (const auto& s : r.inputs)
      if (s.input == e.name) spec = s;
    HostTensor t = make_input(e, spec);
    result->inputs.push_back({e.name, deep_copy(t)});
    inputs[e.name] = std::move(t);
  }

  engine_->set_threads(static_cast<std::size_t>(std::max(0, r.threads)));
  engine_->set_backend(r.backend);
  engine_->set_precision(r.fp16 ? runtime::Precision::Fp16 : runtime::Precision::Fp32);
  if (engine_->flags().has("gl.float32_enabled"))
    engine_->flags().set_value("gl.float32_enabled", !r.fp16);
  // Weights stay resident between runs; a precision change makes them anew so that gl uploads
  // them at the new precision instead of keeping fp32 textures.
  if (executor_ && executor_fp16_ != r.fp16) executor_.reset();
  if (!executor_) {
    if (auto* gl = dynamic_cast<gl::GlBackend*>(engine_->find_backend("gl")))
      if (gl->availability().available) gl->set_model(model_->bundle);
    executor_ = std::make_unique<runtime::Executor>(*engine_, graph);
    executor_fp16_ = r.fp16;
  }

  engine_->reset_peak();
  std::vector<HostTensor> outputs;
  KeepIntermediates keep;
  Watching profiling(*engine_, profiler_.get());
  auto timed_run = [&](bool last) {
    profiler_->reset();
    Watching keeping(*engine_, last && r.keep_intermediates ? &keep : nullptr);
    const auto t0 = std::chrono::steady_clock::now();
    outputs = executor_->run(inputs);
    return ms_since(t0);
  };

  if (!r.benchmark) {
    result->run_ms = timed_run(true);
  } else {
    const int runs = std::max(1, r.runs), warmup = std::max(0, r.warmup);
    const int total = 1 + warmup + runs;
    // At most ~20 progress signals a second: a tiny model must not flood the UI's event queue.
    auto last_progress = std::chrono::steady_clock::now();
    auto progress = [&](int done) {
      if (done == total || ms_since(last_progress) > 50) {
        last_progress = std::chrono::steady_clock::now();
        emit runProgress(done, total);
      }
    };
    result->first_ms = timed_run(false);
    progress(1);
    for (int i = 0; i < warmup; ++i) {
      cancel.check();
      timed_run(false);
      progress(2 + i);
    }
    std::vector<double> times;
    times.reserve(static_cast<std::size_t>(runs));
    for (int i = 0; i < runs; ++i) {
      cancel.check();
      times.push_back(timed_run(i + 1 == runs));
      progress(2 + warmup + i);
    }
    std::sort(times.begin(), times.end());
    const std::size_t n = times.size();
    result->median_ms = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
    result->min_ms = times.front();
    result->max_ms = times.back();
    result->run_ms = result->median_ms;
    result->benchmark = true;
    result->warmup = warmup;
    result->runs = runs;
  }

  result->id = ++runs_;
  result->backend = std::string(engine_->backend().name());
  result->fp16 = r.fp16;
  result->threads = engine_->threads();
  for (std::size_t k = 0; k < outputs.size(); ++k)
    result->outputs.push_back(
        {k < graph.outputs.size() ? graph.outputs[k].name : "output " + std::to_string(k),
         deep_copy(outputs[k])});

  const runtime::Plan& plan = executor_->plan();
  std::set<std::string> fallback_nodes;
  for (const auto& f : plan.fallbacks) {
    fallback_nodes.insert(f.node);
    result->fallbacks.push_back(f.message);
  }
  // A fallback is planned (the backend has no kernel) or decided at run time (a shader that did
  // not compile): either way the node ran on another backend than the one asked for.
  for (const auto& k : profiler_->kernels())
    result->nodes.push_back({k.node, k.op, k.backend,
                             fallback_nodes.count(k.node) > 0 ||
                                 (k.backend != result->backend && k.backend != "executor"),
                             k.ms});
  result->intermediates = std::move(keep.kept);
  if (keep.skipped)
    result->intermediates_note =
        std::to_string(keep.skipped) + " nodes' outputs were not kept: the 1 GiB cap was reached";
  result->memory = engine_->memory();
  result->peak_bytes = engine_->peak_bytes();
  return result;
}

}  // namespace tfjsi::ui
