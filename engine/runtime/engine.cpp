#include "runtime/engine.h"

#include "core/terminal_text.h"
#include "runtime/fp16_follow.h"

#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <thread>

#include "backends/all_backends.h"
#include "core/error.h"

namespace tfjsi::runtime {

std::string_view to_string(Precision p) {
  return p == Precision::Fp16 ? "fp16" : "fp32";
}

Precision Engine::precision() {
  return backend().precision(flags_);
}

void Engine::set_precision(Precision p) {
  for (auto& b : backends_) {
    const Precision before = b->precision(flags_);
    b->set_precision(flags_, p);
    if (b->precision(flags_) != before) drop_copies_on(*b);
  }
}

void Engine::drop_copies_on(const Backend& backend) {
  // A copy a backend made at one precision (gl: weights rounded to half, or not) is not the
  // tensor at the other: copies that have another to be made again from go, and view_on makes
  // them again at the new precision on first use. A tensor whose only copy is there stays.
  for (auto& [id, d] : data_) {
    if (d.copies.size() < 2) continue;
    std::erase_if(d.copies, [&](const Copy& c) {
      if (c.backend != &backend) return false;
      live_bytes_ -= c.bytes;
      data_by_ptr_.erase(c.data.get());
      return true;
    });
  }
}

// ---- Tensor handle: forwards to its engine ----
bool Tensor::alive() const {
  return engine_ && engine_->alive(*this);
}
const Shape& Tensor::shape() const {
  return engine_->shape(*this);
}
DType Tensor::dtype() const {
  return engine_->dtype(*this);
}
HostTensor Tensor::read() const {
  return engine_->read(*this);
}
void Tensor::dispose() const {
  if (engine_) engine_->dispose(*this);
}

Engine::Engine() {
  flags_.define("prod", false,
                "skip the NaN scans of inputs and weights (names, dtypes and shapes are still "
                "checked)");
  flags_.define("debug", false, "log every kernel (op, node, shapes, time, bytes) to stderr");
  flags_.define("sink_transposes", true,
                "move Transposes past elementwise ops, pads and concats so that pairs undoing each "
                "other cancel (models converted from NCHW frameworks); off, or with an observer "
                "that reads every node's output, the graph runs as the model has it");
  flags_.define("fuse", true,
                "let a backend run a bias add or an activation inside the kernel before it (one "
                "kernel for Conv2D + AddV2 + Relu6); off, or with an observer that reads every "
                "node's output (compare, the fp16 check, kept intermediates), every node runs its "
                "own kernel");
  flags_.define(std::string(kFp16FollowFlag), std::string("webgl"),
                "where fp16 storage rounds to half: webgl (where TF.js 4.22's webgl backend "
                "stores half floats, so fp16 errors predict TF.js's) or accuracy (only where this "
                "engine's kernels store; the smallest error)");
  flags_.define("threads", std::int64_t{0}, "threads of the kernel thread pool; 0 = one per core");
  flags_.define("loop_iteration_limit", std::int64_t{10'000'000},
                "iterations after which a while loop (TF1 or TF2) that has not ended is refused "
                "as a bad model");
  auto reference = backends::make_reference_backend();
  reference_ = reference.get();
  add_backend(std::move(reference));
}

Engine::~Engine() {
  if (pool_) pthreadpool_destroy(pool_);
}

// ---- backends ----

void Engine::add_backend(std::unique_ptr<Backend> backend) {
  if (find_backend(backend->name()))
    throw std::logic_error("backend '" + std::string(backend->name()) + "' registered twice");
  backend->declare_flags(flags_);
  backends_.push_back(std::move(backend));
}

std::vector<BackendInfo> Engine::backends() {
  std::vector<BackendInfo> out;
  for (auto& b : backends_)
    out.push_back({std::string(b->name()), b->priority(), b->availability()});
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.priority > b.priority; });
  return out;
}

Backend* Engine::find_backend(std::string_view name) {
  for (auto& b : backends_)
    if (b->name() == name) return b.get();
  return nullptr;
}

void Engine::open_model(const model::Bundle& bundle) {
  for (auto& b : backends_) b->model_opened(bundle);
}

DeviceObjectCounts Engine::live_device_objects() const {
  DeviceObjectCounts n;
  for (const auto& b : backends_) n += b->live_objects();
  return n;
}

void Engine::set_backend(std::string_view name) {
  if (name == "auto") {
    Backend* best = nullptr;
    for (auto& b : backends_)
      if ((!best || b->priority() > best->priority()) && b->availability().available)
        best = b.get();
    active_ = best ? best : reference_;
    return;
  }
  Backend* b = find_backend(name);
  if (!b) {
    std::string known;
    for (auto& k : backends_) known += (known.empty() ? "" : ", ") + std::string(k->name());
    throw UsageError("unknown backend '" + std::string(name) + "' (backends: auto, " + known + ")");
  }
  const Availability a = b->availability();
  if (!a.available)
    throw BackendUnavailable("backend '" + std::string(name) + "' is not available: " + a.reason);
  active_ = b;
}

Backend& Engine::backend() {
  if (!active_) set_backend("auto");
  return *active_;
}

// ---- flags, threads, log ----

namespace {

// Asked once: std::thread::hardware_concurrency asks the system every time (glibc opens, reads
// and closes /sys/devices/system/cpu/online), and pool() is asked per node. Per node, those three
// system calls made the default threads 3-4x slower than --threads 2 on small models.
std::size_t cores() {
  static const std::size_t n = std::max(1u, std::thread::hardware_concurrency());
  return n;
}

}  // namespace

std::size_t Engine::threads() {
  const std::int64_t want = flags_.get_int("threads");
  return want > 0 ? static_cast<std::size_t>(want) : cores();
}

pthreadpool_t Engine::pool() {
  const std::size_t n = threads();
  if (!pool_ || pool_threads_ != n) {
    if (pool_) pthreadpool_destroy(pool_);
    pool_ = pthreadpool_create(n);
    pool_threads_ = n;
    // New workers spin for their first command (about 25 ms of a core each), and a model that
    // never shares its work would pay for that spin on a busy machine: one empty command that
    // lets them sleep ends it at once.
    if (pool_ && n > 1) park_workers(pool_);
  }
  return pool_;
}

void Engine::log(std::string_view line) {
  if (log_sink_)
    log_sink_(line);
  else
    std::cerr << terminal_safe(line) << '\n';  // lines name nodes and ops of the model
}

// ---- tensors ----

const Engine::TensorRecord& Engine::record(const Tensor& t) const {
  if (t.engine_ != this) throw std::logic_error("tensor handle of another engine");
  auto it = tensors_.find(t.id_);
  if (it == tensors_.end())
    throw std::logic_error("tensor " + std::to_string(t.id_) + " is disposed");
  return it->second;
}

Tensor Engine::new_tensor(DType dtype, Shape shape, std::uint64_t data, std::string creator) {
  const TensorId id = next_tensor_++;
  tensors_.emplace(id, TensorRecord{dtype, std::move(shape), data, std::move(creator)});
  ++data_.at(data).refs;
  if (!scopes_.empty()) scopes_.back().push_back(id);
  return Tensor(this, id);
}

void Engine::add_copy(DataRecord& d, Backend& backend, std::shared_ptr<BackendData> data) {
  const std::size_t bytes = data->bytes();
  d.copies.push_back({&backend, std::move(data), bytes});
  live_bytes_ += bytes;
  peak_bytes_ = std::max(peak_bytes_, live_bytes_);
}

std::uint64_t Engine::new_data(Backend& backend, std::shared_ptr<BackendData> data) {
  const std::uint64_t id = next_data_++;
  data_by_ptr_[data.get()] = id;
  add_copy(data_[id], backend, std::move(data));
  return id;
}

void Engine::release_data(std::uint64_t id) {
  auto it = data_.find(id);
  if (--it->second.refs > 0) return;
  for (auto& c : it->second.copies) {
    live_bytes_ -= c.bytes;
    data_by_ptr_.erase(c.data.get());
  }
  data_.erase(it);
}

Tensor Engine::make_tensor(const HostTensor& host, std::string creator) {
  return adopt(*reference_, TensorView{reference_->upload(host), host.dtype, host.shape},
               std::move(creator));
}

Tensor Engine::adopt(Backend& backend, const TensorView& view, std::string creator) {
  if (!view.data)
    throw std::logic_error("backend " + std::string(backend.name()) + " gave no data");
  std::uint64_t data;
  if (auto it = data_by_ptr_.find(view.data.get()); it != data_by_ptr_.end())
    data = it->second;
  else
    data = new_data(backend, view.data);
  return new_tensor(view.dtype, view.shape, data, std::move(creator));
}

Tensor Engine::clone(const Tensor& t, std::string creator) {
  const TensorRecord& r = record(t);
  return new_tensor(r.dtype, r.shape, r.data, std::move(creator));
}

TensorView Engine::view_on(const Tensor& t, Backend& backend) {
  const TensorRecord& r = record(t);
  DataRecord& d = data_.at(r.data);
  for (const auto& c : d.copies)
    if (c.backend == &backend) return {c.data, r.dtype, r.shape};
  // Not there yet: go through the host, from the first copy (usually the only one).
  const Copy& from = d.copies.front();
  HostTensor host = from.backend->download({from.data, r.dtype, r.shape});
  auto data = backend.upload(host);
  data_by_ptr_[data.get()] = r.data;
  add_copy(d, backend, data);
  return {std::move(data), r.dtype, r.shape};
}

HostTensor Engine::read(const Tensor& t) {
  const TensorRecord& r = record(t);
  const DataRecord& d = data_.at(r.data);
  const Copy* from = &d.copies.front();
  for (const auto& c : d.copies)
    if (c.backend == reference_) from = &c;
  return from->backend->download({from->data, r.dtype, r.shape});
}

void Engine::dispose(const Tensor& t) {
  if (t.engine_ != this) return;
  auto it = tensors_.find(t.id_);
  if (it == tensors_.end()) return;
  const std::uint64_t data = it->second.data;
  tensors_.erase(it);
  release_data(data);
}

bool Engine::alive(const Tensor& t) const {
  return t.engine_ == this && tensors_.count(t.id_);
}
const Shape& Engine::shape(const Tensor& t) const {
  return record(t).shape;
}
DType Engine::dtype(const Tensor& t) const {
  return record(t).dtype;
}

std::size_t Engine::bytes(const Tensor& t) const {
  std::size_t n = 0;
  for (const auto& c : data_.at(record(t).data).copies) n = std::max(n, c.bytes);
  return n;
}

// ---- scopes ----

void Engine::start_scope() {
  scopes_.emplace_back();
}

void Engine::end_scope(std::span<const Tensor> keep) {
  if (scopes_.empty()) throw std::logic_error("end_scope() without start_scope()");
  std::vector<TensorId> made = std::move(scopes_.back());
  scopes_.pop_back();
  for (TensorId id : made) {
    auto it = tensors_.find(id);
    if (it == tensors_.end() || it->second.kept) continue;
    const bool returned =
        std::any_of(keep.begin(), keep.end(), [&](const Tensor& k) { return k.id_ == id; });
    if (returned) {
      if (!scopes_.empty()) scopes_.back().push_back(id);
      continue;
    }
    dispose(Tensor(this, id));
  }
}

void Engine::keep(const Tensor& t) {
  auto it = tensors_.find(t.id_);
  if (t.engine_ == this && it != tensors_.end()) it->second.kept = true;
}

// ---- accounting ----

MemoryInfo Engine::memory() {
  MemoryInfo info;
  info.total.num_tensors = tensors_.size();
  info.total.num_data_buffers = data_.size();
  info.total.num_bytes = live_bytes_;
  info.cached_bytes = buffer_pool_->cached_bytes();
  std::map<const Backend*, std::size_t> slot;
  for (auto& b : backends_) {
    slot[b.get()] = info.backends.size();
    info.backends.push_back({std::string(b->name()), {}, b->memory()});
  }
  std::unordered_map<std::uint64_t, std::size_t> refs_by_data;
  for (const auto& [id, r] : tensors_) ++refs_by_data[r.data];
  for (const auto& [id, d] : data_) {
    for (const auto& c : d.copies) {
      MemoryUse& u = info.backends[slot.at(c.backend)].use;
      ++u.num_data_buffers;
      u.num_bytes += c.bytes;
      u.num_tensors += refs_by_data[id];
    }
  }
  return info;
}

std::size_t Engine::reset_memory() {
  std::vector<TensorId> unkept;
  for (const auto& [id, r] : tensors_)
    if (!r.kept) unkept.push_back(id);
  for (TensorId id : unkept) dispose(Tensor(this, id));
  // A disposed tensor may still be listed in an open scope; end_scope() skips ids it cannot find.
  buffer_pool_->trim();
  for (auto& b : backends_) b->trim_caches();
  reset_peak();
  return unkept.size();
}

std::vector<LiveTensor> Engine::live_tensors() const {
  std::vector<LiveTensor> out;
  out.reserve(tensors_.size());
  for (const auto& [id, r] : tensors_) {
    LiveTensor l{id, r.dtype, r.shape, r.creator, {}};
    for (const auto& c : data_.at(r.data).copies) l.backends.emplace_back(c.backend->name());
    out.push_back(std::move(l));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return out;
}

// ---- observers ----

void Engine::add_observer(Observer* o) {
  if (std::find(observers_.begin(), observers_.end(), o) == observers_.end())
    observers_.push_back(o);
}

bool Engine::every_output_observed() const {
  return std::any_of(observers_.begin(), observers_.end(),
                     [](const Observer* o) { return o->needs_every_output(); });
}

void Engine::remove_observer(Observer* o) {
  std::erase(observers_, o);
}

void Engine::report_progress(std::string_view stage, std::int64_t done, std::int64_t total) {
  for (Observer* o : observers_) o->on_progress(stage, done, total);
}

}  // namespace tfjsi::runtime
