#include "backends/xnnpack/subgraph_runtime.h"

#include <pthreadpool.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "backends/xnnpack/operator_cache.h"
#include "backends/xnnpack/pool_choice.h"
#include "backends/xnnpack/scratch_plan.h"
#include "backends/xnnpack/subgraph.h"
#include "backends/xnnpack/xnnpack_backend.h"
#include "graph/build.h"
#include "runtime/plan.h"

namespace tfjsi::xnnpack {

namespace {

std::optional<Shape> static_float(const graph::TensorInfo& t) {
  if (!t.dtype || *t.dtype != DType::Float32 || !t.shape.fully_known()) return std::nullopt;
  return Shape(t.shape.dims.begin(), t.shape.dims.end());
}

const graph::TensorInfo* info(const graph::Graph& graph, const graph::TensorRef& r) {
  if (r.node < 0 || r.node >= static_cast<int>(graph.nodes.size())) return nullptr;
  const auto& outs = graph.nodes[r.node].outputs;
  return r.output >= 0 && r.output < static_cast<int>(outs.size()) ? &outs[r.output] : nullptr;
}

// The node's inputs as a SubgraphDef sees them when checking: static shapes and Const values
// from the graph. False when a data input or the output is not a float32 of known shape.
bool check_node(const graph::Graph& graph, const graph::Graph& shapes, int i) {
  const graph::Node& node = graph.nodes[i];
  const auto& outs = shapes.nodes[i].outputs;
  if (outs.size() != 1 || !node.control_inputs.empty()) return false;
  const auto out = static_float(outs[0]);
  if (!out) return false;
  SubgraphDef d{node};
  d.out_shape = *out;
  for (const auto& in : node.inputs) {
    const graph::Node& src = graph.nodes[in.node];
    const graph::TensorInfo* t = info(shapes, in);
    const bool weight = src.op == "Const" && src.value;
    d.consts.push_back(weight ? &*src.value : nullptr);
    if (weight) {
      d.in_shapes.push_back(src.value->shape);
      continue;
    }
    const auto s = t ? static_float(*t) : std::nullopt;
    if (!s) return false;
    d.in_shapes.push_back(*s);
  }
  return define_subgraph_node(d);
}

bool is_weight(const graph::Graph& graph, const graph::TensorRef& r) {
  return graph.nodes[r.node].op == "Const";
}

}  // namespace

std::vector<std::vector<int>> partition_plan(const graph::Graph& graph, const graph::Graph& shapes,
                                             const runtime::Plan& plan,
                                             const runtime::Backend& self) {
  std::vector<std::vector<int>> parts;
  std::vector<int> run;
  bool work = false;  // the run holds a node that is not a view
  auto close = [&] {
    if (work) parts.push_back(run);
    run.clear();
    work = false;
  };
  for (int i : plan.order) {
    const graph::Node& node = graph.nodes[i];
    const runtime::PlanNode& p = plan.nodes[i];
    if (node.op == "Const") continue;  // weights: read where they are, they break no run
    const bool mine = p.backend == &self && p.straight && !p.fallback && !p.executor_op &&
                      !p.fused && p.fused_into < 0 && check_node(graph, shapes, i);
    if (!mine) {
      close();
      continue;
    }
    run.push_back(i);
    work = work || !is_view_op(node.op);
  }
  close();
  return parts;
}

SubgraphRuntimes::~SubgraphRuntimes() = default;

void SubgraphRuntimes::prune() {
  std::erase_if(entries_, [](const auto& kv) {
    if (kv.second.token.expired()) return true;
    for (std::size_t k = 0; k < kv.second.weights.size(); ++k)
      if (kv.second.weight_ptrs[k] && kv.second.weights[k].expired()) return true;
    return false;
  });
  std::erase_if(given_up_, [&](const bool* key) { return !entries_.count(key); });
}

void SubgraphRuntimes::build(Entry& e, const graph::Graph& graph, const graph::Graph& shapes,
                             const runtime::Partition& p, std::span<const HostTensor> host,
                             pthreadpool_t pool) {
  // External ids: the partition's non-weight inputs, its outputs, then the values inside it,
  // which live in the scratch all runtimes share (scratch_plan.h). Past kScratchIdsPerNode a
  // node, and where XNNPACK must see a value as internal to fuse a Relu into its producer, a
  // value lives in the runtime's own workspace.
  std::uint32_t external = 0;
  std::vector<std::uint32_t> input_ids(p.inputs.size(), XNN_INVALID_VALUE_ID);
  for (std::size_t k = 0; k < p.inputs.size(); ++k)
    if (!is_weight(graph, p.inputs[k])) input_ids[k] = external++;
  const std::uint32_t first_output = external;
  external += static_cast<std::uint32_t>(p.outputs.size());
  const std::uint32_t first_scratch = external;
  external += kScratchIdsPerNode * static_cast<std::uint32_t>(p.nodes.size());
  std::vector<ScratchValue> scratch;  // per id from first_scratch on
  int step = 0;                       // the node being defined, in the partition's order

  xnn_subgraph_t sg = nullptr;
  if (xnn_create_subgraph(external, 0, &sg) != xnn_status_success) return;
  std::unique_ptr<xnn_subgraph, decltype(&xnn_delete_subgraph)> owner(sg, xnn_delete_subgraph);
  auto define = [&](const Shape& shape, const void* data, std::uint32_t id, std::uint32_t flags) {
    std::vector<std::size_t> dims(shape.begin(), shape.end());
    if (dims.empty()) dims.push_back(1);  // scalars as [1], as the operator path passes them
    std::uint32_t out = XNN_INVALID_VALUE_ID;
    if (xnn_define_tensor_value(sg, xnn_datatype_fp32, dims.size(), dims.data(), data, id, flags,
                                &out) != xnn_status_success)
      throw std::runtime_error("define");
    return out;
  };
  auto inside = [&](const Shape& shape, bool own_workspace) {
    const auto id = first_scratch + static_cast<std::uint32_t>(scratch.size());
    if (own_workspace || id == external) return define(shape, nullptr, XNN_INVALID_VALUE_ID, 0);
    std::size_t bytes = sizeof(float);
    for (auto n : shape) bytes *= static_cast<std::size_t>(n);
    scratch.push_back({bytes, step, step});
    return define(shape, nullptr, id, XNN_VALUE_FLAG_EXTERNAL_OUTPUT);
  };
  // Whether node i's output is read by one node of the partition, a Relu or Relu6 (a clamp
  // XNNPACK fuses into its producer, but only into a value internal to the runtime).
  auto feeds_one_clamp = [&](int i) {
    int readers = 0, clamps = 0;
    for (int j : p.nodes)
      for (const auto& in : graph.nodes[j].inputs)
        if (in.node == i) {
          ++readers;
          clamps += graph.nodes[j].op == "Relu" || graph.nodes[j].op == "Relu6";
        }
    return readers == 1 && clamps == 1;
  };
  auto read_at = [&](std::uint32_t id, int at) {
    if (id >= first_scratch && id - first_scratch < scratch.size())
      scratch[id - first_scratch].last = std::max(scratch[id - first_scratch].last, at);
  };
  std::map<int, int> step_of;                        // node of the partition -> its step
  std::map<std::pair<int, int>, std::uint32_t> ids;  // graph value -> subgraph value
  // Data only the making of the runtimes reads (SubgraphDef::packed): gone when build returns.
  std::vector<std::vector<float>> packed;
  std::vector<std::uint32_t> outside_ids(p.inputs.size(), XNN_INVALID_VALUE_ID);
  double work = 0;
  try {
    for (std::size_t k = 0; k < p.outputs.size(); ++k)
      ids[{p.outputs[k].node, p.outputs[k].output}] =
          define(*static_float(*info(shapes, p.outputs[k])), nullptr,
                 first_output + static_cast<std::uint32_t>(k), XNN_VALUE_FLAG_EXTERNAL_OUTPUT);
    for (std::size_t k = 0; k < p.inputs.size(); ++k)
      if (input_ids[k] != XNN_INVALID_VALUE_ID)
        outside_ids[k] =
            define(host[k].shape, nullptr, input_ids[k], XNN_VALUE_FLAG_EXTERNAL_INPUT);
    for (int i : p.nodes) {
      const graph::Node& node = graph.nodes[i];
      SubgraphDef d{node};
      d.subgraph = sg;
      d.out_shape = *static_float(shapes.nodes[i].outputs[0]);
      std::vector<std::uint32_t> in_ids;
      int earliest = step;  // the first step node i's output may be written at
      for (const auto& in : node.inputs) {
        const auto it = std::find(p.inputs.begin(), p.inputs.end(), in);
        const std::size_t k = static_cast<std::size_t>(it - p.inputs.begin());
        const bool outside = it != p.inputs.end();
        const bool weight = outside && input_ids[k] == XNN_INVALID_VALUE_ID;
        d.consts.push_back(weight ? &host[k] : nullptr);
        d.in_shapes.push_back(outside ? host[k].shape : *static_float(*info(shapes, in)));
        // A weight is defined only when the op reads it as a tensor (d.input).
        in_ids.push_back(outside ? outside_ids[k] : ids.at({in.node, in.output}));
        if (outside) continue;
        read_at(in_ids.back(), step);
        // XNNPACK fuses across one node: a consumer folded into its producer (a clamp) writes
        // its output at the producer's step, a producer folded into its consumer (a pad) has
        // its inputs read at the consumer's step. Lifetimes stretch to cover both.
        earliest = std::min(earliest, step_of.at(in.node));
        for (const auto& r : graph.nodes[in.node].inputs)
          if (const auto v = ids.find({r.node, r.output}); v != ids.end()) read_at(v->second, step);
      }
      d.input = [&, in_ids](std::size_t k) mutable {
        if (in_ids[k] == XNN_INVALID_VALUE_ID) {
          // A weight read as a tensor (an Add's constant operand): static, padded for XNNPACK.
          const HostTensor& w = *d.consts[k];
          const float* src = w.values<float>().data();
          auto& kept = e.data.emplace_back(src, src + w.num_elements());
          kept.resize(kept.size() + XNN_EXTRA_BYTES / sizeof(float));
          in_ids[k] = define(w.shape, kept.data(), XNN_INVALID_VALUE_ID, 0);
        }
        return in_ids[k];
      };
      const auto out = ids.find({i, 0});
      d.output =
          out != ids.end() ? out->second : (ids[{i, 0}] = inside(d.out_shape, feeds_one_clamp(i)));
      d.temp = [&](const Shape& s) { return inside(s, false); };
      d.constant = [&](const Shape& s, std::vector<float> v) {
        v.resize(v.size() + XNN_EXTRA_BYTES / sizeof(float));
        return define(s, e.data.emplace_back(std::move(v)).data(), XNN_INVALID_VALUE_ID, 0);
      };
      d.packed = [&](const Shape& s, std::vector<float> v) {
        v.resize(v.size() + XNN_EXTRA_BYTES / sizeof(float));
        return define(s, packed.emplace_back(std::move(v)).data(), XNN_INVALID_VALUE_ID, 0);
      };
      if (!define_subgraph_node(d)) return;
      work += d.work;
      if (d.output >= first_scratch && d.output - first_scratch < scratch.size())
        scratch[d.output - first_scratch].first = earliest;
      step_of[i] = earliest;  // a chain of clamps folds into the first producer
      ++step;
    }
  } catch (const std::runtime_error&) {
    return;  // a value XNNPACK would not define: the partition runs node by node
  }
  // Little work stays on the calling thread, a lot goes to the pool, and between the two the
  // first run tries both (pool_choice.h). Workers spin between a runtime's operators and on
  // after its last: the backend sends them to sleep at the run's end, or after each piece when
  // the machine is busy (worker_spin.h).
  const std::size_t threads = pool ? pthreadpool_get_threads_count(pool) : 1;
  const PoolUse use =
      given_up_.count(p.token.get()) ? PoolUse::CallingThread : pool_use(work, threads);
  e.pool = nullptr;
  xnn_runtime_t rt = nullptr, pooled = nullptr;
  if (xnn_create_runtime_v2(sg, e.pool, 0, &rt) != xnn_status_success) return;
  e.runtime.reset(rt);
  e.input_ids = std::move(input_ids);
  e.first_scratch = first_scratch;
  const ScratchPlan plan = plan_scratch(scratch);
  e.scratch_offsets = plan.offsets;
  e.scratch_bytes = plan.bytes;
  if (use == PoolUse::Trial && xnn_create_runtime_v2(sg, pool, 0, &pooled) == xnn_status_success)
    e.pooled.reset(pooled);
  else
    ++(e.pool ? stats_.pooled : stats_.single);
}

xnn_status SubgraphRuntimes::invoke(xnn_runtime_t rt, std::span<const xnn_external_value> ext) {
  xnn_status s = xnn_setup_runtime(rt, ext.size(), ext.data());
  if (s == xnn_status_success) s = xnn_invoke_runtime(rt);
  return s;
}

std::optional<std::vector<runtime::TensorView>> SubgraphRuntimes::run(
    const graph::Graph& graph, const graph::Graph& shapes, const runtime::Partition& p,
    std::span<const runtime::TensorView> inputs, pthreadpool_t pool) {
  // Inputs other than planned: the operator path runs the nodes, and the report counts it.
  const auto decline = [this] {
    ++stats_.declined;
    return std::nullopt;
  };
  last_pooled_ = false;
  if (inputs.size() != p.inputs.size() || p.nodes.empty()) return decline();
  std::vector<HostTensor> host;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    auto* d = dynamic_cast<XnnData*>(inputs[k].data.get());
    if (!d) return decline();
    // Activations as planned: float32, of the shapes inference gave every value inside.
    const graph::TensorInfo* t = info(shapes, p.inputs[k]);
    if (!is_weight(graph, p.inputs[k]) &&
        (inputs[k].dtype != DType::Float32 || !t || !t->shape.fully_known() ||
         Shape(t->shape.dims.begin(), t->shape.dims.end()) != inputs[k].shape))
      return decline();
    HostTensor h = d->as_host(inputs[k]);
    // XNNPACK reads up to XNN_EXTRA_BYTES past an activation; a weight is packed, or copied with
    // that slack (build), so a weight in a memory-mapped shard is read where it is.
    if (!is_weight(graph, p.inputs[k])) h.buffer = d->padded();
    if (!h.buffer || h.buffer->size() < h.byte_size()) return decline();
    host.push_back(std::move(h));
  }
  // The runtime is made again for other input shapes, other weights (packed at creation) or
  // another pool size.
  const std::size_t threads = pool ? pthreadpool_get_threads_count(pool) : 1;
  Entry& e = entries_[p.token.get()];
  bool same = e.shapes.size() == host.size() && e.threads == threads && e.nodes == p.nodes &&
              e.outputs == p.outputs;
  for (std::size_t k = 0; same && k < host.size(); ++k)
    same = e.shapes[k] == host[k].shape &&
           (!is_weight(graph, p.inputs[k]) ||
            (e.weight_ptrs[k] == host[k].buffer->data() && !e.weights[k].expired()));
  if (!same || e.given != pool || e.remake) {
    e = Entry{};
    e.token = p.token;
    e.nodes = p.nodes;
    e.outputs = p.outputs;
    for (std::size_t k = 0; k < host.size(); ++k) {
      const bool w = is_weight(graph, p.inputs[k]);
      e.shapes.push_back(host[k].shape);
      e.weights.push_back(w ? host[k].buffer : nullptr);
      e.weight_ptrs.push_back(w ? host[k].buffer->data() : nullptr);
    }
    e.threads = threads;
    e.given = pool;
    build(e, graph, shapes, p, host, pool);
    ++(e.runtime ? stats_.created : stats_.refused);
  }
  if (!e.runtime) return std::nullopt;

  std::vector<xnn_external_value> ext;
  for (std::size_t k = 0; k < host.size(); ++k)
    if (e.input_ids[k] != XNN_INVALID_VALUE_ID)
      ext.push_back({e.input_ids[k], const_cast<std::byte*>(host[k].buffer->data())});
  std::vector<runtime::TensorView> out;
  std::uint32_t id = static_cast<std::uint32_t>(ext.size());
  for (const auto& ref : p.outputs) {
    const graph::TensorInfo* t = info(shapes, ref);
    Shape shape(t->shape.dims.begin(), t->shape.dims.end());
    // Every element is written by the runtime. Through HostTensor, which checks the size against
    // the machine first, as every other kernel output is.
    auto buffer = HostTensor::uninitialized(DType::Float32, shape).buffer;
    ext.push_back({id++, buffer->mutable_data()});
    out.push_back({std::make_shared<XnnData>(std::move(buffer), nullptr), DType::Float32, shape});
  }
  if (!e.scratch_offsets.empty()) {
    const std::size_t need = (e.scratch_bytes + XNN_EXTRA_BYTES) / sizeof(float) + 1;
    if (scratch_.size() < need) scratch_.assign(need, 0.f);
    auto* base = reinterpret_cast<std::byte*>(scratch_.data());
    for (std::size_t k = 0; k < e.scratch_offsets.size(); ++k)
      ext.push_back({e.first_scratch + static_cast<std::uint32_t>(k), base + e.scratch_offsets[k]});
  }
  const graph::Node& first = graph.nodes[p.nodes.front()];
  xnn_status s = xnn_status_success;
  bool give_up = false;
  last_pooled_ = e.pooled || e.pool;
  if (e.pooled) {
    // The first run of a partition with enough work: both ways, the faster kept.
    const TrialResult r = run_pool_trial(pool, [&](pthreadpool_t on) {
      if (s == xnn_status_success) s = invoke(on ? e.pooled.get() : e.runtime.get(), ext);
    });
    if (r.pool) {
      e.runtime = std::move(e.pooled);
      e.pool = pool;
      e.guard.calling_ms = r.calling_ms;
    }
    e.pooled.reset();
    ++stats_.trials;
    ++(r.pool ? stats_.pooled : stats_.single);
  } else if (e.pool) {
    const double t0 = now_ms();
    s = invoke(e.runtime.get(), ext);
    give_up = e.guard.give_up(now_ms() - t0);
  } else {
    s = invoke(e.runtime.get(), ext);
  }
  if (s != xnn_status_success)
    throw std::runtime_error("the XNNPACK runtime of the partition from node '" + first.name +
                             "' (" + std::to_string(p.nodes.size()) +
                             " nodes) failed: " + status_name(s));
  ++stats_.runs;
  if (give_up) {
    // The pool stopped paying (the other core got busy): the runtime is made again, on the
    // calling thread, in the next run.
    given_up_.insert(p.token.get());
    e.remake = true;
    ++stats_.given_up;
  }
  return out;
}

}  // namespace tfjsi::xnnpack
