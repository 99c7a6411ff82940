#include "run_controller.h"

#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <functional>
#include <set>
#include <unordered_map>

#include "analysis/fp16_gl_probe.h"
#include "backends/all_backends.h"
#include "core/error.h"
#include "core/terminal_text.h"
#include "job_watch.h"
#include "ops/converter_ops.h"
#include "runtime/benchmark.h"
#include "runtime/executor.h"
#include "runtime/profiler.h"

namespace tfjsi::ui {
namespace {

// The cancellation hook: an observer, so the runtime needs no change. It is asked before every
// kernel, nested function bodies and loop iterations included, and at every progress report (gl
// building its programs ahead, which can take seconds before the next kernel).
class CancelCheck final : public runtime::Observer {
 public:
  explicit CancelCheck(std::shared_ptr<std::atomic<bool>> flag) : flag_(std::move(flag)) {}
  bool needs_every_output() const override { return false; }
  void before_kernel(const runtime::KernelEvent&) override { check(); }
  void on_progress(std::string_view, std::int64_t, std::int64_t) override { check(); }
  void check() const {
    if (flag_->load(std::memory_order_relaxed))
      throw Cancelled();  // the executor frees what the run made on the way out
  }

 private:
  std::shared_ptr<std::atomic<bool>> flag_;
};

// Passes the engine's progress reports (gl compiling its programs) on as a signal, at most ~20 a
// second and always the last of a run, so that a model of many small programs does not flood the
// UI's event queue.
class ProgressRelay final : public runtime::Observer {
 public:
  using Emit = std::function<void(const QString&, int, int)>;
  explicit ProgressRelay(Emit send) : emit_(std::move(send)) {}
  bool needs_every_output() const override { return false; }
  void on_progress(std::string_view stage, std::int64_t done, std::int64_t total) override {
    const auto now = std::chrono::steady_clock::now();
    pending_ = {QString::fromUtf8(stage.data(), static_cast<int>(stage.size())),
                static_cast<int>(done), static_cast<int>(total)};
    if (done == total || now - last_ > std::chrono::milliseconds(50)) flush(now);
  }
  void run_finished() override {
    if (pending_.done > 0) flush(std::chrono::steady_clock::now());
    pending_ = {};
  }

 private:
  struct Pending {
    QString stage;
    int done = 0, total = 0;
  };
  void flush(std::chrono::steady_clock::time_point now) {
    last_ = now;
    emit_(pending_.stage, pending_.done, pending_.total);
    pending_.done = 0;
  }
  Emit emit_;
  Pending pending_;
  std::chrono::steady_clock::time_point last_{};
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

// Whether the backend runs use now compiles kernels (gl), whose counters a run reports.
bool compiles_kernels(runtime::Engine& e) {
  return e.backend().name() == "gl";
}

// Reads the active backend's counters around one run (for gl: programs, uploads, dispatches).
class GlRunWatch {
 public:
  explicit GlRunWatch(runtime::Engine& e) : backend_(compiles_kernels(e) ? &e.backend() : nullptr) {
    if (backend_) backend_->reset_stats();
  }
  GlRunStats finish() const {
    GlRunStats r;
    if (!backend_) return r;
    const runtime::BackendStats s = backend_->stats();
    r.present = true;
    r.compile_ms = s.compile_ms;
    r.upload_ms = s.upload_ms;
    r.download_ms = s.download_ms;
    r.new_programs = s.new_kernels;
    r.uploads = s.uploads;
    r.dispatches = s.dispatches;
    r.compiled = s.kernels_built;
    r.disk_loaded = s.kernels_loaded;
    r.cache_hit = s.cache_hit();
    r.builds = s.builds;
    return r;
  }

 private:
  runtime::Backend* backend_;
};

}  // namespace

RunController::RunController(std::shared_ptr<std::atomic<bool>> cancel, QObject* parent)
    : QObject(parent), cancel_(std::move(cancel)) {
  clock_.start();
}

RunController::~RunController() {
  // The weights die before the engine, and observers leave before they die.
  executor_.reset();
  if (engine_) {
    engine_->remove_observer(profiler_.get());
    engine_->remove_observer(cancel_observer_.get());
    engine_->remove_observer(progress_observer_.get());
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
  progress_observer_ =
      std::make_unique<ProgressRelay>([this](const QString& stage, int done, int total) {
        emit compileProgress(stage, done, total);
      });
  engine_->add_observer(progress_observer_.get());
}

void RunController::start() {
  ensure_engine();
  BackendList list;
  for (const auto& b : engine_->backends())
    list.push_back({QString::fromStdString(b.name), b.priority, b.availability.available,
                    QString::fromStdString(b.availability.reason)});
  emit backendsReady(list);
  // Made here so that it lives on the worker: it fires only while no run holds the thread.
  auto* idle = new QTimer(this);
  idle->setObjectName("memoryIdleTimer");
  connect(idle, &QTimer::timeout, this, &RunController::sampleMemory);
  idle->start(1000);
  emit memorySampled(memory_sample(true));
}

void RunController::setModel(LoadedModelPtr model) {
  executor_.reset();
  warm_.clear();
  model_ = std::move(model);
  if (engine_) emit memorySampled(memory_sample(true));
}

MemorySample RunController::memory_sample(bool with_live) {
  ensure_engine();
  MemorySample s;
  s.t_s = static_cast<double>(clock_.elapsed()) / 1000.0;
  s.info = engine_->memory();
  if (with_live) s.live = engine_->live_tensors();
  return s;
}

void RunController::sampleMemory() {
  emit memorySampled(memory_sample(false));
}

void RunController::resetMemory() {
  ensure_engine();
  const std::size_t disposed = engine_->reset_memory();
  MemorySample s = memory_sample(true);
  s.reset = true;
  s.disposed = disposed;
  emit memorySampled(std::move(s));
}

EnvInfo RunController::environment() {
  ensure_engine();
  EnvInfo env;
  for (const auto& b : engine_->backends())
    env.backends.push_back({QString::fromStdString(b.name), b.priority, b.availability.available,
                            QString::fromStdString(b.availability.reason)});
  try {
    env.active = std::string(engine_->backend().name());
  } catch (const std::exception& e) {
    env.active = std::string("none: ") + e.what();
  }
  if (runtime::Backend* g = engine_->find_backend("gl"))
    if (const auto d = g->device()) {
      env.gl = true;
      env.gl_vendor = d->vendor;
      env.gl_renderer = d->renderer;
      env.gl_version = d->version;
      env.gl_surface = d->surface;
      env.gl_max_texture_size = static_cast<int>(d->max_texture_size);
      env.gl_timer_queries = d->timer_queries;
    }
  // The probe writes textures through the engine once; its answer does not change after.
  if (!probe_) {
    EnvInfo p;
    try {
      const analysis::GlHalfProbe probe = analysis::probe_gl_half(*engine_);
      p.probe_done = probe.available;
      p.probe_reason = probe.reason;
      if (probe.available) {
        p.upload_rounding = analysis::to_string(probe.upload.rule.rounding);
        p.upload_overflow = analysis::to_string(probe.upload.rule.overflow);
        p.upload_exact = probe.upload.exact;
        p.store_rounding = analysis::to_string(probe.store.rule.rounding);
        p.store_overflow = analysis::to_string(probe.store.rule.overflow);
        p.store_exact = probe.store.exact;
        p.store_samples = probe.store.samples;
      }
    } catch (const std::exception& e) {
      p.probe_reason = e.what();
    }
    probe_ = std::move(p);
  }
  env.probe_done = probe_->probe_done;
  env.probe_reason = probe_->probe_reason;
  env.upload_rounding = probe_->upload_rounding;
  env.upload_overflow = probe_->upload_overflow;
  env.upload_exact = probe_->upload_exact;
  env.store_rounding = probe_->store_rounding;
  env.store_overflow = probe_->store_overflow;
  env.store_exact = probe_->store_exact;
  env.store_samples = probe_->store_samples;
  // Read after the probe, which puts back the flags it changed.
  env.flags = engine_->flags().list();
  env.ops = runtime::op_support(*engine_);
  env.converter_version = std::string(ops::converter_version());
  return env;
}

void RunController::requestEnvironment() {
  emit environmentReady(environment());
}

void RunController::setFlag(const QString& name, const QString& value) {
  ensure_engine();
  try {
    engine_->flags().set(name.toStdString(), value.toStdString());
  } catch (const std::exception& e) {
    emit flagRejected(name, QString::fromStdString(terminal_safe(e.what())));
  }
  emit environmentReady(environment());
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
    RunResultPtr result = execute(request);
    emit runFinished(result);
    MemorySample s = memory_sample(true);
    s.run_id = result->id;
    s.backend = result->backend;
    emit memorySampled(std::move(s));
    // The run set threads and gl.float32_enabled from its request: the panel shows them.
    emit environmentReady(environment());
    // Kernels the backend builds after a run for the other precision (gl's prebuilds) finish
    // before this thread takes the next request: a precision switch then builds nothing.
    try {
      engine_->backend().settle();
    } catch (const std::exception&) {
      // Only a head start: the run that needs them builds them.
    }
    return;
  } catch (const Cancelled&) {
    emit runFailed(tr("Cancelled"), true);
  } catch (const BackendUnavailable& e) {
    emit runFailed(tr("Backend %1 is not available: %2")
                       .arg(QString::fromStdString(request.backend),
                            QString::fromStdString(terminal_safe(e.what()))),
                   false);
  } catch (const std::exception& e) {
    emit runFailed(QString::fromStdString(terminal_safe(e.what())), false);
  }
}

void RunController::open_model(const LoadedModelPtr& model) {
  if (opened_.lock() == model) return;
  engine_->open_model(model->bundle);  // gl programs cached on disk for this model
  opened_ = model;
}

void RunController::prepare_own_executors(const LoadedModelPtr& model) {
  ensure_engine();
  // The fp16 check and the comparison make executors of their own: the run's resident weights go
  // first, so the model's weights are held once; the next run makes them again (a cold run).
  executor_.reset();
  warm_.clear();
  open_model(model);
}

void RunController::checkFp16(Fp16CheckRequest request) {
  if (!request.model) {
    emit checkFailed(tr("Open a model first."), false);
    return;
  }
  try {
    prepare_own_executors(request.model);
    emit checkFinished(run_fp16_check(*engine_, request,
                                      [this](int pass, const QString& stage, int done, int total) {
                                        emit checkProgress(pass, stage, done, total);
                                      }));
  } catch (const Cancelled&) {
    emit checkFailed(tr("Cancelled"), true);
  } catch (const std::exception& e) {
    emit checkFailed(QString::fromStdString(terminal_safe(e.what())), false);
  }
  emit memorySampled(memory_sample(true));
  emit environmentReady(environment());  // the check set flags and put them back
}

void RunController::compare(CompareRequest request) {
  if (!request.model) {
    emit compareFailed(tr("Open a model first."), false);
    return;
  }
  try {
    prepare_own_executors(request.model);
    const auto& cancel = static_cast<const CancelCheck&>(*cancel_observer_);
    emit compareFinished(run_compare(
        *engine_, request,
        [this](int pass, const QString& stage, int done, int total) {
          emit compareProgress(pass, stage, done, total);
        },
        [&cancel] { cancel.check(); }));
  } catch (const Cancelled&) {
    emit compareFailed(tr("Cancelled"), true);
  } catch (const BackendUnavailable& e) {
    emit compareFailed(
        tr("%1 cannot run here: %2")
            .arg(request.reference.label(), QString::fromStdString(terminal_safe(e.what()))),
        false);
  } catch (const std::exception& e) {
    emit compareFailed(QString::fromStdString(terminal_safe(e.what())), false);
  }
  emit memorySampled(memory_sample(true));
  emit environmentReady(environment());  // the comparison set flags and put them back
}

void RunController::reduce(ReduceRequest request) {
  if (!request.model) {
    emit reduceFailed(tr("Open a model first."), false);
    return;
  }
  try {
    prepare_own_executors(request.model);
    auto last = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    emit reduceFinished(
        run_reduce(*engine_, request, cancel_.get(), [&](const analysis::ReduceStep& s) {
          // At most ~20 a second: a tiny model's candidates take microseconds each.
          const auto now = std::chrono::steady_clock::now();
          if (now - last < std::chrono::milliseconds(50)) return;
          last = now;
          emit reduceProgress(s.step, QString::fromStdString(s.phase), s.nodes, s.holds,
                              s.smallest);
        }));
  } catch (const Cancelled&) {
    emit reduceFailed(tr("Cancelled"), true);
  } catch (const std::exception& e) {
    emit reduceFailed(QString::fromStdString(terminal_safe(e.what())), false);
  }
  emit memorySampled(memory_sample(true));
  emit environmentReady(environment());  // the reduction switched backends and put them back
}

void RunController::quantize(QuantizeRequest request) {
  if (!request.model) {
    emit quantizeFailed(tr("Open a model first."), false);
    return;
  }
  try {
    prepare_own_executors(request.model);
    emit quantizeFinished(
        run_quantize(*engine_, request, cancel_.get(),
                     [this](const QString& line) { emit quantizeProgress(line); }));
  } catch (const Cancelled&) {
    emit quantizeFailed(tr("Cancelled"), true);
  } catch (const std::exception& e) {
    emit quantizeFailed(QString::fromStdString(terminal_safe(e.what())), false);
  }
  emit memorySampled(memory_sample(true));
  emit environmentReady(environment());
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
  // Weights stay resident between runs; a precision change makes them anew so that gl uploads
  // them at the new precision instead of keeping fp32 textures.
  if (executor_ && executor_fp16_ != r.fp16) executor_.reset();
  if (!executor_) {
    warm_.clear();
    open_model(model_);
    executor_ = std::make_unique<runtime::Executor>(*engine_, graph);
    executor_fp16_ = r.fp16;
  }

  engine_->reset_peak();
  std::vector<HostTensor> outputs;
  KeepIntermediates keep;
  const std::pair<std::string, bool> pair{std::string(engine_->backend().name()), r.fp16};
  result->cold = warm_.insert(pair).second;
  // A cold run that fails or is cancelled leaves the next one cold (programs still to build).
  struct StayCold {
    std::set<std::pair<std::string, bool>>& warm;
    const std::pair<std::string, bool>& pair;
    bool cold;
    int exceptions = std::uncaught_exceptions();
    ~StayCold() {
      if (cold && std::uncaught_exceptions() > exceptions) warm.erase(pair);
    }
  } stay_cold{warm_, pair, result->cold};
  bool first_run = true;
  // A profiled run waits for each node's work (so on a GPU its total is not the pipelined one);
  // `last` keeps that run's intermediates when asked.
  auto timed_run = [&](bool profiled, bool last) {
    profiler_->reset();
    Watching profiling(*engine_, profiled ? profiler_.get() : nullptr);
    Watching keeping(*engine_, last && r.keep_intermediates ? &keep : nullptr);
    GlRunWatch gl_watch(*engine_);
    const auto t0 = std::chrono::steady_clock::now();
    outputs = executor_->run(inputs);
    const double ms = ms_since(t0);
    result->gl_last = gl_watch.finish();
    if (first_run) result->gl_first = result->gl_last;
    first_run = false;
    return ms;
  };
  // A fused node is shown on the backend of the kernel it ran in (its producer, profiled before
  // it).
  auto profile = [&] {
    std::vector<NodeRun> nodes;
    std::unordered_map<std::string, std::string> backend_of;
    for (const auto& k : profiler_->kernels()) {
      NodeRun n{k.node, k.op, k.backend, false, k.ms, k.fused_into};
      if (!n.fused_into.empty()) {
        auto it = backend_of.find(n.fused_into);
        if (it != backend_of.end()) n.backend = it->second;
      }
      backend_of[n.node] = n.backend;
      nodes.push_back(std::move(n));
    }
    return nodes;
  };

  // A plain run's first run on gl builds its programs. It goes unprofiled and keeps nothing, so
  // that the backend can keep dispatches and meet every program before building (a profiled run
  // waits for each node's work; kept intermediates read each one back): its time and compile
  // counts are the first run's, and the profile comes from the run after it. A benchmark keeps
  // its profiled first run (the Profile panel's per-node first-run column).
  double built_ms = -1;
  if (!r.benchmark && result->cold && compiles_kernels(*engine_))
    built_ms = timed_run(false, false);

  if (!r.benchmark) {
    result->run_ms = timed_run(true, true);
    if (built_ms >= 0) result->first_ms = built_ms;
  } else {
    // The timed runs go unprofiled, as in TF.js's benchmarks; the first (cold) run and one more
    // after the timed ones are profiled, for the cold and warm columns of the profile.
    const int runs = std::max(1, r.runs), warmup = std::max(0, r.warmup);
    const int total = 1 + warmup + runs + 1;
    // At most ~20 progress signals a second: a tiny model must not flood the UI's event queue.
    auto last_progress = std::chrono::steady_clock::now();
    auto progress = [&](int done) {
      if (done == total || ms_since(last_progress) > 50) {
        last_progress = std::chrono::steady_clock::now();
        emit runProgress(done, total);
      }
    };
    result->first_ms = timed_run(true, false);
    result->first_nodes = profile();
    progress(1);
    cancel.check();
    const runtime::RunTimes timed = runtime::time_runs(
        warmup, runs, [&] { return timed_run(false, false); },
        [&](int done) {
          progress(1 + done);
          cancel.check();
        });
    timed_run(true, true);
    progress(total);
    result->median_ms = timed.median_ms;
    result->min_ms = timed.min_ms;
    result->max_ms = timed.max_ms;
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
  result->nodes = profile();
  for (auto* list : {&result->nodes, &result->first_nodes})
    for (NodeRun& n : *list)
      n.fallback = fallback_nodes.count(n.node) > 0 ||
                   (n.backend != result->backend && n.backend != "executor");
  result->intermediates = std::move(keep.kept);
  if (keep.skipped)
    result->intermediates_note =
        std::to_string(keep.skipped) + " nodes' outputs were not kept: the 1 GiB cap was reached";
  result->memory = engine_->memory();
  result->peak_bytes = engine_->peak_bytes();
  return result;
}

}  // namespace tfjsi::ui
