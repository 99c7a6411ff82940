#include "backends/xnnpack/subgraph_runtime.h"

#include <pthreadpool.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>

#include "backends/xnnpack/operator_cache.h"
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

// What a partition's nodes compute: op, name and scalar or list attributes of each. Entries are
// keyed by node address, which a later graph may reuse (an Executor made after another died):
// a runtime is only reused for the same computation, not for whatever node lives there now.
std::string partition_fingerprint(const graph::Graph& graph, const std::vector<int>& nodes) {
  std::string f;
  for (int i : nodes) {
    const graph::Node& n = graph.nodes[static_cast<std::size_t>(i)];
    f += n.op + '\x1f' + n.name;
    for (const auto& [key, value] : n.attrs) {
      f += '\x1e' + key + '=';
      std::visit(
          [&f](const auto& v) {
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<V, std::string>)
              f += v;
            else if constexpr (std::is_arithmetic_v<V>)
              f += std::to_string(v);
            else if constexpr (std::is_same_v<V, std::vector<std::int64_t>> ||
                               std::is_same_v<V, std::vector<float>>)
              for (auto x : v) f += std::to_string(x) + ',';
            else if constexpr (std::is_same_v<V, std::vector<std::string>>)
              for (const auto& x : v) f += x + ',';
          },
          value);
    }
    f += '\x1d';
  }
  return f;
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
    const bool mine = p.backend == &self && !p.fallback && !p.executor_op && !p.fused &&
                      p.fused_into < 0 && check_node(graph, shapes, i);
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
    for (std::size_t k = 0; k < kv.second.weights.size(); ++k)
      if (kv.second.weight_ptrs[k] && kv.second.weights[k].expired()) return true;
    return false;
  });
}

void SubgraphRuntimes::build(Entry& e, const graph::Graph& graph, const graph::Graph& shapes,
                             const runtime::Partition& p, std::span<const HostTensor> host,
                             pthreadpool_t pool) {
  // External ids: the partition's non-weight inputs, then its outputs.
  std::uint32_t external = 0;
  std::vector<std::uint32_t> input_ids(p.inputs.size(), XNN_INVALID_VALUE_ID);
  for (std::size_t k = 0; k < p.inputs.size(); ++k)
    if (!is_weight(graph, p.inputs[k])) input_ids[k] = external++;
  const std::uint32_t first_output = external;
  external += static_cast<std::uint32_t>(p.outputs.size());

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
  std::map<std::pair<int, int>, std::uint32_t> ids;  // graph value -> subgraph value
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
      for (const auto& in : node.inputs) {
        const auto it = std::find(p.inputs.begin(), p.inputs.end(), in);
        const std::size_t k = static_cast<std::size_t>(it - p.inputs.begin());
        const bool outside = it != p.inputs.end();
        const bool weight = outside && input_ids[k] == XNN_INVALID_VALUE_ID;
        d.consts.push_back(weight ? &host[k] : nullptr);
        d.in_shapes.push_back(outside ? host[k].shape : *static_float(*info(shapes, in)));
        // A weight is defined only when the op reads it as a tensor (d.input).
        in_ids.push_back(outside ? outside_ids[k] : ids.at({in.node, in.output}));
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
      d.output = out != ids.end()
                     ? out->second
                     : (ids[{i, 0}] = define(d.out_shape, nullptr, XNN_INVALID_VALUE_ID, 0));
      d.temp = [&](const Shape& s) { return define(s, nullptr, XNN_INVALID_VALUE_ID, 0); };
      d.constant = [&](const Shape& s, std::vector<float> v) {
        v.resize(v.size() + XNN_EXTRA_BYTES / sizeof(float));
        return define(s, e.data.emplace_back(std::move(v)).data(), XNN_INVALID_VALUE_ID, 0);
      };
      if (!define_subgraph_node(d)) return;
      work += d.work;
    }
  } catch (const std::runtime_error&) {
    return;  // a value XNNPACK would not define: the partition runs node by node
  }
  // Little work runs on the calling thread: a second thread must never make it slower. More is
  // tried both ways, run by run (trial()), with both runtimes made now.
  e.candidate =
      work >= kPoolWork && pool && pthreadpool_get_threads_count(pool) > 1 ? pool : nullptr;
  e.pool = nullptr;
  xnn_runtime_t rt = nullptr, pooled = nullptr;
  if (xnn_create_runtime_v2(sg, nullptr, XNN_FLAG_YIELD_WORKERS, &rt) != xnn_status_success) return;
  e.runtime.reset(rt);
  e.input_ids = std::move(input_ids);
  if (e.candidate &&
      xnn_create_runtime_v2(sg, e.candidate, XNN_FLAG_YIELD_WORKERS, &pooled) == xnn_status_success)
    e.other.reset(pooled);
  else
    ++stats_.single;
}

void SubgraphRuntimes::trial(Entry& e, double ms) {
  (e.pool ? e.pooled_ms : e.single_ms).push_back(ms);
  if (e.single_ms.size() >= kTrialRuns && e.pooled_ms.size() >= kTrialRuns) {
    // Means, not medians: what a pooled runtime costs on a busy machine is its slow runs. The
    // pool must win clearly, or the calling thread keeps the work.
    auto mean = [](const std::vector<double>& v) {
      double sum = 0;
      for (double x : v) sum += x;
      return sum / static_cast<double>(v.size());
    };
    const bool pool_wins = mean(e.pooled_ms) < 0.9 * mean(e.single_ms);
    if (pool_wins != (e.pool != nullptr)) std::swap(e.runtime, e.other);
    e.pool = pool_wins ? e.candidate : nullptr;
    e.other.reset();  // the loser and its packed weights
    ++(pool_wins ? stats_.pooled : stats_.single);
    return;
  }
  // Alternate, so both meet the same load.
  std::swap(e.runtime, e.other);
  e.pool = e.pool ? nullptr : e.candidate;
}

std::optional<std::vector<runtime::TensorView>> SubgraphRuntimes::run(
    const graph::Graph& graph, const graph::Graph& shapes, const runtime::Partition& p,
    std::span<const runtime::TensorView> inputs, pthreadpool_t pool) {
  // Inputs other than planned: the operator path runs the nodes, and the report counts it.
  const auto decline = [this] {
    ++stats_.declined;
    return std::nullopt;
  };
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
    h.buffer = d->padded();
    if (!h.buffer || h.buffer->size() < h.byte_size()) return decline();
    host.push_back(std::move(h));
  }
  // The runtime is made again for other input shapes, other weights (packed at creation) or
  // another pool size.
  const std::size_t threads = pool ? pthreadpool_get_threads_count(pool) : 1;
  Entry& e = entries_[&graph.nodes[p.nodes.front()]];
  std::string fingerprint = partition_fingerprint(graph, p.nodes);
  bool same = e.shapes.size() == host.size() && e.threads == threads && e.nodes == p.nodes &&
              e.outputs == p.outputs && e.fingerprint == fingerprint;
  for (std::size_t k = 0; same && k < host.size(); ++k)
    same = e.shapes[k] == host[k].shape &&
           (!is_weight(graph, p.inputs[k]) ||
            (e.weight_ptrs[k] == host[k].buffer->data() && !e.weights[k].expired()));
  if (!same || (e.candidate && e.candidate != pool)) {
    e = Entry{};
    e.fingerprint = std::move(fingerprint);
    e.nodes = p.nodes;
    e.outputs = p.outputs;
    for (std::size_t k = 0; k < host.size(); ++k) {
      const bool w = is_weight(graph, p.inputs[k]);
      e.shapes.push_back(host[k].shape);
      e.weights.push_back(w ? host[k].buffer : nullptr);
      e.weight_ptrs.push_back(w ? host[k].buffer->data() : nullptr);
    }
    e.threads = threads;
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
  const graph::Node& first = graph.nodes[p.nodes.front()];
  const auto t0 = std::chrono::steady_clock::now();
  xnn_status s = xnn_setup_runtime(e.runtime.get(), ext.size(), ext.data());
  if (s == xnn_status_success) s = xnn_invoke_runtime(e.runtime.get());
  if (s != xnn_status_success)
    throw std::runtime_error("the XNNPACK runtime of the partition from node '" + first.name +
                             "' (" + std::to_string(p.nodes.size()) +
                             " nodes) failed: " + status_name(s));
  ++stats_.runs;
  if (e.other)
    trial(e,
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  return out;
}

}  // namespace tfjsi::xnnpack
