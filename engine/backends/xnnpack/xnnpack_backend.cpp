#include "backends/xnnpack/xnnpack_backend.h"

#include <xnnpack.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "backends/cpu/reference.h"
#include "backends/xnnpack/native_op.h"
#include "backends/xnnpack/pool_choice.h"
#include "backends/xnnpack/subgraph.h"
#include "core/error.h"
#include "graph/build.h"

namespace tfjsi::xnnpack {

const std::shared_ptr<Buffer>& XnnData::padded() {
  if (buffer_ && !buffer_->owned()) {
    auto copy = Buffer::allocate(buffer_->size());
    if (buffer_->size()) std::memcpy(copy->mutable_data(), buffer_->data(), buffer_->size());
    buffer_ = std::move(copy);
  }
  return buffer_;
}

namespace {

// The work of a node outside partitions, as pool_choice.h counts it, from its inputs:
// multiply-adds for convolutions and matrix products, elements (times kElementWork) for the rest.
double node_work(const graph::Node& node, const std::vector<HostTensor>& host) {
  const std::string_view op = node.op;
  const bool conv = op == "Conv2D" || op == "_FusedConv2D" || op == "DepthwiseConv2dNative" ||
                    op == "DepthwiseConv2d" || op == "FusedDepthwiseConv2dNative" || op == "Conv1D";
  const bool matmul =
      op == "MatMul" || op == "_FusedMatMul" || op == "BatchMatMul" || op == "BatchMatMulV2";
  if ((conv || matmul) && host.size() >= 2 && host[1].rank() >= 2) {
    const HostTensor& w = host[1];
    const double x = static_cast<double>(host[0].num_elements());
    // Filter [kh, kw, C, M or out_c]: per input element, kh*kw*(M or out_c) multiply-adds;
    // Conv1D's [kw, C, out_c]: kw*out_c. Matrix [K, N]: per element of the left matrix, N.
    if (conv && w.rank() == 4) return x * static_cast<double>(w.shape[0] * w.shape[1] * w.shape[3]);
    if (conv && w.rank() == 3) return x * static_cast<double>(w.shape[0] * w.shape[2]);
    return x * static_cast<double>(w.shape.back());
  }
  double elements = 0;
  for (const HostTensor& t : host)
    elements = std::max(elements, static_cast<double>(t.num_elements()));
  return elements * kElementWork;
}

}  // namespace

std::string_view to_string(Path p) {
  switch (p) {
    case Path::NotRun:
      return "not_run";
    case Path::Xnnpack:
      return "xnnpack";
    case Path::View:
      return "view";
    case Path::CpuKernel:
      return "cpu_kernel";
    case Path::Subgraph:
      return "subgraph";
  }
  return "not_run";
}

XnnpackBackend::~XnnpackBackend() {
  // Operators and runtimes go before the library they belong to.
  cache_.clear();
  runtimes_.clear();
  if (initialized_) xnn_deinitialize();
}

void XnnpackBackend::start() {
  if (started_) return;
  started_ = true;
  const xnn_status s = xnn_initialize(nullptr);
  if (s == xnn_status_success) {
    initialized_ = true;
    availability_ = {true, {}};
  } else {
    availability_ = {
        false,
        std::string("xnn_initialize failed: ") + status_name(s) +
            (s == xnn_status_unsupported_hardware ? " (this CPU lacks what XNNPACK needs)" : "")};
  }
}

void XnnpackBackend::declare_flags(runtime::Flags& flags) {
  flags.define("xnnpack.subgraph", true,
               "run runs of xnnpack nodes as XNNPACK subgraph runtimes (false: operator by "
               "operator)");
}

std::vector<std::vector<int>> XnnpackBackend::partition(const graph::Graph& graph,
                                                        const runtime::Plan& plan) const {
  // Inputs with unknown dims (a batch of -1) are planned as fed by default (1); other shapes
  // make run_partition decline, and the nodes run one by one.
  auto copy = graph::with_static_inputs(graph);
  auto parts = partition_plan(graph, copy ? *copy : graph, plan, *this);
  if (shaped_.size() > 16) shaped_.clear();  // graphs of models long closed
  if (copy)
    shaped_[&graph] = std::move(copy);
  else
    shaped_.erase(&graph);
  return parts;
}

const graph::Graph& XnnpackBackend::partition_shapes(const graph::Graph& graph) const {
  const auto it = shaped_.find(&graph);
  return it != shaped_.end() && it->second->nodes.size() == graph.nodes.size() ? *it->second
                                                                               : graph;
}

std::optional<std::vector<runtime::TensorView>> XnnpackBackend::run_partition(
    const graph::Graph& graph, const runtime::Partition& partition,
    std::span<const runtime::TensorView> inputs, const runtime::RunContext& ctx) {
  start();
  if (!initialized_) return std::nullopt;
  if (!ctx.flags.get_bool("xnnpack.subgraph")) {
    runtimes_.note_declined();
    return std::nullopt;
  }
  const int first = partition.nodes.front();
  const graph::Graph* shapes = &partition_shapes(graph);
  if (shapes->nodes[first].name != graph.nodes[first].name) shapes = &graph;
  spin_.enter(ctx.pool);
  auto out = runtimes_.run(graph, *shapes, partition, inputs, ctx.pool);
  if (runtimes_.last_pooled()) spin_.ran_on_pool();
  if (out)
    for (int i : partition.nodes) paths_[&graph.nodes[i]] = Path::Subgraph;
  return out;
}

void XnnpackBackend::end_run() {
  spin_.end_run();
  if (runtimes_.size() > 256) runtimes_.prune();
}

runtime::Availability XnnpackBackend::availability() {
  start();
  return availability_;
}

std::vector<std::string_view> XnnpackBackend::native_ops() const {
  std::vector<std::string_view> ops = native_op_names();
  for (std::string_view op : subgraph_op_names()) ops.push_back(op);
  for (std::string_view op : {"Reshape", "Squeeze", "ExpandDims"})
    if (is_view_op(op)) ops.push_back(op);
  // Not std::ranges::unique: clang 14 cannot take libstdc++ 12's ranges::subrange.
  std::sort(ops.begin(), ops.end());
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  return ops;
}

bool XnnpackBackend::supports(const graph::Node& node) const {
  return cpu::has_reference_kernel(node.op) || find_native(node.op) != nullptr;
}

bool XnnpackBackend::native(const graph::Node& node) const {
  if (node.op == "Reshape" || node.op == "Squeeze" || node.op == "ExpandDims") return true;
  const NativeOp* op = find_native(node.op);
  return op && op->fits(node);
}

Path XnnpackBackend::last_path(const graph::Node& node) const {
  const auto it = paths_.find(&node);
  return it == paths_.end() ? Path::NotRun : it->second;
}

std::shared_ptr<runtime::BackendData> XnnpackBackend::upload(const HostTensor& host) {
  // Shared, not copied: borrowed storage gets its slack lazily (XnnData::padded), only if an
  // XNNPACK operator reads it as an activation.
  return std::make_shared<XnnData>(host.buffer, host.strings);
}

HostTensor XnnpackBackend::download(const runtime::TensorView& tensor) {
  const auto* d = dynamic_cast<const XnnData*>(tensor.data.get());
  if (!d) throw std::logic_error("xnnpack backend: data of another backend");
  return d->as_host(tensor);
}

std::vector<runtime::TensorView> XnnpackBackend::run(const graph::Node& node,
                                                     std::span<const runtime::TensorView> inputs,
                                                     const runtime::RunContext& ctx) {
  start();
  if (!initialized_)
    throw BackendUnavailable("xnnpack backend cannot run node '" + node.name +
                             "': " + availability_.reason);
  spin_.enter(ctx.pool);
  std::vector<HostTensor> host;
  host.reserve(inputs.size());
  for (const auto& in : inputs) host.push_back(download(in));

  // Bounded bookkeeping: a long GUI session opens many models.
  if (paths_.size() > (1u << 20)) paths_.clear();
  if (cache_.size() > 4096) cache_.prune();

  // XNNPACK has no complex operators: complex64 inputs go to the reference kernels, which take
  // them where TF.js does and refuse them by name elsewhere.
  const bool complex_in = std::any_of(
      host.begin(), host.end(), [](const HostTensor& t) { return t.dtype == DType::Complex64; });
  std::vector<HostTensor> out;
  Path path = Path::CpuKernel;
  // The node on the calling thread or on the pool (pool_choice.h); cpu kernels too, whose own
  // thresholds are for the cpu backend.
  // XNNPACK operators and the depthwise kernel leave the workers spinning; cpu kernels let them
  // sleep after each of their loops (cpu/parallel.h).
  bool spun = false;
  auto compute = [&](pthreadpool_t pool) {
    // A trial runs the node eight times: the last run's outputs go back to the buffer pool before
    // the next run takes its own, which then gets them again instead of new memory (blazepose-
    // heavy's trials held 12 MiB of extra outputs at the first run's peak).
    out.clear();
    path = Path::CpuKernel;
    if (const NativeOp* op = complex_in ? nullptr : find_native(node.op)) {
      NativeCall call(node, inputs, host, pool, cache_, stats_);
      if (auto r = op->run(call)) {
        out = std::move(*r);
        path = Path::Xnnpack;
        spun |= pool != nullptr;
        return;
      }
    }
    if (!cpu::has_reference_kernel(node.op))
      throw BackendLimit("node '" + node.name + "' (" + node.op +
                         "): no xnnpack operator or cpu kernel for this op");
    out = cpu::run_reference(node, host, pool);
  };
  const double work = node_work(node, host);
  const std::size_t threads = ctx.pool ? pthreadpool_get_threads_count(ctx.pool) : 1;
  pthreadpool_t pool = nullptr;
  if (pool_use(work, threads) == PoolUse::CallingThread) {
    compute(nullptr);
  } else if (auto it = node_pools_.find(&node);
             it != node_pools_.end() && it->second.work == work) {
    // Decided in the run that first met this node with this work.
    NodePool& np = it->second;
    if (np.pool) {
      const double t0 = now_ms();
      compute(pool = ctx.pool);
      np.pool = !np.guard.give_up(now_ms() - t0);  // the other core got busy: not any more
    } else {
      compute(nullptr);
    }
  } else {
    // The outputs kept are those of the trial's last run, on the pool: the same values.
    if (node_pools_.size() > (1u << 16)) node_pools_.clear();
    const TrialResult r = run_pool_trial(ctx.pool, compute);
    node_pools_[&node] = {work, r.pool, PoolGuard{r.calling_ms}};
    ++stats_.node_trials;
    if (r.pool) pool = ctx.pool;
  }
  if (pool) ++stats_.pooled_node_runs;
  if (spun) spin_.ran_on_pool();

  std::vector<runtime::TensorView> views;
  views.reserve(out.size());
  bool all_views = !out.empty();
  for (auto& o : out) {
    if (!o.buffer) o.buffer = Buffer::allocate(0);
    const auto n = checked_num_elements(o.shape);
    if (!n || o.buffer->size() < static_cast<std::size_t>(*n) * element_size(o.dtype))
      throw std::logic_error("kernel " + node.op + " (node '" + node.name +
                             "') returned a buffer smaller than its shape " +
                             shape_to_string(o.shape));
    // An output over an input's storage keeps that input's data object, so the Engine counts the
    // buffer once.
    std::shared_ptr<runtime::BackendData> data;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (host[i].buffer == o.buffer && host[i].strings == o.strings) {
        data = inputs[i].data;
        break;
      }
    }
    if (!data) {
      all_views = false;
      data = std::make_shared<XnnData>(o.buffer, o.strings);
    }
    views.push_back({std::move(data), o.dtype, std::move(o.shape)});
  }
  if (path == Path::CpuKernel && all_views) path = Path::View;
  paths_[&node] = path;
  switch (path) {
    case Path::Xnnpack:
      ++stats_.native_runs;
      break;
    case Path::View:
      ++stats_.view_runs;
      break;
    default:
      ++stats_.cpu_kernel_runs;
      break;
  }
  return views;
}

runtime::BackendMemory XnnpackBackend::memory() const {
  runtime::BackendMemory m;
  m.bytes = cache_.weight_bytes();
  m.details = std::to_string(cache_.size()) + " cached XNNPACK operators, about " +
              std::to_string(m.bytes / 1024) + " KB of packed weights; " +
              std::to_string(runtimes_.size()) + " XNNPACK subgraph runtimes";
  return m;
}

std::unique_ptr<runtime::Backend> make_xnnpack_backend() {
  return std::make_unique<XnnpackBackend>();
}

runtime::BackendStats XnnpackBackend::stats() {
  const SubgraphStats& r = runtimes_.stats();
  runtime::BackendStats s;
  s.runtimes_created = r.created;
  s.runtimes_pooled = r.pooled;
  s.runtimes_single_thread = r.single;
  s.runtimes_refused = r.refused;
  s.partition_runs = r.runs;
  s.partition_runs_declined = r.declined;
  s.node_trials = stats_.node_trials;
  s.pooled_node_runs = stats_.pooled_node_runs;
  s.worker_parks = spin_.parks();
  return s;
}

void XnnpackBackend::reset_stats() {
  stats_ = {};
  runtimes_.reset_stats();
  spin_.reset_parks();
}

}  // namespace tfjsi::xnnpack
