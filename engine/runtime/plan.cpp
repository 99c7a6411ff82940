#include "runtime/plan.h"

#include <algorithm>
#include <climits>
#include <map>

#include "core/error.h"
#include "ops/fusion.h"
#include "ops/refused.h"
#include "runtime/executor_ops.h"

namespace tfjsi::runtime {

namespace {

// How many nodes past a declined one the plan shows Backend::unfused_form: a bias add, its
// activation and one more.
constexpr std::size_t kChainLookahead = 3;

// What shape inference knows of each data input of `node`.
std::vector<const graph::TensorInfo*> input_infos(const graph::Graph& graph,
                                                  const graph::Node& node) {
  std::vector<const graph::TensorInfo*> v;
  for (const auto& in : node.inputs) {
    const bool known = in.node >= 0 && in.node < static_cast<int>(graph.nodes.size()) &&
                       in.output >= 0 &&
                       in.output < static_cast<int>(graph.nodes[in.node].outputs.size());
    v.push_back(known ? &graph.nodes[in.node].outputs[in.output] : nullptr);
  }
  return v;
}

// Whether shape inference says a node reads or makes a complex64 tensor.
bool reads_or_makes_complex(const graph::Graph& graph, const graph::Node& node) {
  for (const graph::TensorInfo* in : input_infos(graph, node))
    if (in && in->dtype == DType::Complex64) return true;
  for (const graph::TensorInfo& out : node.outputs)
    if (out.dtype == DType::Complex64) return true;
  return false;
}

// Which nodes of a plan with TF1 control flow run once, in the root context (PlanNode::straight).
// In `order` (whose loops are cut at their back edges), a node's frame depth is its inputs'
// deepest, one more past an Enter and one less past an Exit; it may be dead when an input may
// be, or when it is a cond's Switch. A loop's own Switch (its predicate a LoopCond) sends the
// last value out through Exit once the loop ends, so it makes nothing dead outside the loop.
void mark_straight(const graph::Graph& graph, Plan& plan) {
  const std::size_t n = graph.nodes.size();
  std::vector<int> depth(n, 0);
  std::vector<char> may_be_dead(n, 0);
  for (int i : plan.order) {
    const graph::Node& node = graph.nodes[i];
    int d = 0;
    bool dead = false;
    auto from = [&](int src) {
      d = std::max(d, depth[src]);
      dead = dead || may_be_dead[src];
    };
    for (const auto& in : node.inputs) from(in.node);
    for (int c : node.control_inputs) from(c);
    if (node.op == "Enter") ++d;
    if (node.op == "Exit") d = std::max(0, d - 1);
    if (node.op == "Switch")
      dead = dead || node.inputs.size() < 2 || graph.nodes[node.inputs[1].node].op != "LoopCond";
    depth[i] = d;
    may_be_dead[i] = dead;
    plan.nodes[i].straight = d == 0 && !dead && !graph::is_tf1_control_flow(node.op);
  }
}

// The backend's partitions (Backend::partition), kept when they hold only its own plain nodes
// (no fusion, fallback or control edge) and nothing but weights stands between their nodes in
// `order`, with what each reads from outside and makes for outside.
void add_partitions(const graph::Graph& graph, Plan& plan, Backend& active) {
  std::vector<int> pos(graph.nodes.size(), -1);
  for (int k = 0; k < static_cast<int>(plan.order.size()); ++k) pos[plan.order[k]] = k;
  const auto* runner = dynamic_cast<const PartitionRunner*>(&active);
  if (!runner) return;
  for (auto& nodes : runner->partition(graph, plan)) {
    if (nodes.empty()) continue;
    bool ok = true;
    for (std::size_t k = 0; ok && k < nodes.size(); ++k) {
      const int i = nodes[k];
      ok = i >= 0 && i < static_cast<int>(graph.nodes.size()) && pos[i] >= 0 &&
           plan.nodes[i].backend == &active && !plan.nodes[i].fallback &&
           !plan.nodes[i].executor_op && plan.nodes[i].straight && plan.nodes[i].partition < 0 &&
           !plan.nodes[i].fused && plan.nodes[i].fused_into < 0 &&
           graph.nodes[i].control_inputs.empty() && (k == 0 || pos[i] > pos[nodes[k - 1]]);
    }
    std::vector<char> inside(graph.nodes.size(), 0);
    for (int i : nodes) inside[i] = ok ? 1 : 0;
    for (int k = ok ? pos[nodes.front()] : 0; ok && k < pos[nodes.back()]; ++k)
      ok = inside[plan.order[k]] || graph.nodes[plan.order[k]].op == "Const";
    if (!ok) continue;
    Partition p;
    p.nodes = nodes;
    for (int i : nodes)
      for (const auto& in : graph.nodes[i].inputs)
        if (!inside[in.node] && std::find(p.inputs.begin(), p.inputs.end(), in) == p.inputs.end())
          p.inputs.push_back(in);
    for (int i : nodes)
      for (int out = 0; out < static_cast<int>(plan.nodes[i].uses.size()); ++out) {
        bool outside = plan.nodes[i].last_use[out] == INT_MAX;
        for (int c : plan.nodes[i].consumers)
          for (const auto& in : graph.nodes[c].inputs)
            outside = outside || (!inside[c] && in.node == i && in.output == out);
        if (outside) p.outputs.push_back({i, out});
      }
    for (int i : nodes) plan.nodes[i].partition = static_cast<int>(plan.partitions.size());
    plan.partitions.push_back(std::move(p));
  }
}

}  // namespace

Plan make_plan(const graph::Graph& graph, Engine& engine, Backend& active, Precision precision,
               std::vector<graph::TensorRef> outputs) {
  const int n = static_cast<int>(graph.nodes.size());
  Plan plan;
  plan.graph = &graph;
  plan.backend = std::string(active.name());
  plan.precision = precision;
  plan.outputs = std::move(outputs);
  plan.nodes.resize(n);

  // What the requested outputs need, following data and control edges (a loop's Merge reaches its
  // body through the NextIteration edge).
  std::vector<int> todo;
  for (const auto& r : plan.outputs) {
    if (r.node < 0 || r.node >= n) throw std::logic_error("plan: output of an unknown node");
    todo.push_back(r.node);
  }
  while (!todo.empty()) {
    const int i = todo.back();
    todo.pop_back();
    if (plan.nodes[i].needed) continue;
    plan.nodes[i].needed = true;
    for (const auto& in : graph.nodes[i].inputs) todo.push_back(in.node);
    for (int c : graph.nodes[i].control_inputs) todo.push_back(c);
  }

  // Who runs each node. Fed nodes (a model's Placeholders, a function body's arguments) are the
  // executor's, whatever their op.
  std::vector<char> fed(n, 0);
  for (const auto& in : graph.inputs)
    if (in.ref.node >= 0 && in.ref.node < n) fed[in.ref.node] = 1;
  std::map<std::string, std::vector<std::string>> unsupported;  // op -> nodes
  Backend& cpu = engine.reference_backend();
  for (int i = 0; i < n; ++i) {
    PlanNode& p = plan.nodes[i];
    if (!p.needed) continue;
    const graph::Node& node = graph.nodes[i];
    plan.order.push_back(i);
    if (graph::is_tf1_control_flow(node.op)) plan.dynamic = true;
    if (const auto why = ops::refusal(node.op))
      throw ModelError("node '" + node.name + "' (" + node.op + ") is " + std::string(*why));
    if (fed[i] || is_executor_op(node.op)) {
      p.executor_op = true;
    } else if (const bool complex = &active != &cpu && reads_or_makes_complex(graph, node);
               !complex && active.supports_inputs(node, input_infos(graph, node))) {
      p.backend = &active;
    } else if (&active != &cpu && cpu.supports(node)) {
      // Only cpu's kernels take complex64 (real, imag) pairs: gl has no texture for them and
      // XNNPACK no operator.
      p.backend = &cpu;
      p.fallback = true;
      plan.fallbacks.push_back(
          {node.name, node.op,
           "op '" + node.op + "' (node '" + node.name + "') " +
               (complex ? "reads or makes complex64 tensors, which backend '" + plan.backend +
                              "' does not hold"
                        : "cannot be handled by backend '" + plan.backend + "'") +
               "; it runs on cpu"});
    } else {
      unsupported[node.op].push_back(node.name);
    }
  }
  if (!unsupported.empty()) {
    std::string msg = "no kernel on backend '" + plan.backend + "'";
    if (&active != &cpu) msg += " or cpu";
    msg += " for:";
    for (const auto& [op, nodes] : unsupported)
      msg += " " + op + " (" + std::to_string(nodes.size()) + " node" +
             (nodes.size() > 1 ? "s" : "") + ", e.g. '" + nodes.front() + "')";
    throw ModelError(msg);
  }

  // Consumers, uses and last uses.
  auto grow = [](PlanNode& p, std::size_t outputs) {
    if (p.uses.size() < outputs) {
      p.uses.resize(outputs, 0);
      p.last_use.resize(outputs, -1);
    }
  };
  for (int i = 0; i < n; ++i) grow(plan.nodes[i], graph.nodes[i].outputs.size());
  for (int pos = 0; pos < static_cast<int>(plan.order.size()); ++pos) {
    const int i = plan.order[pos];
    const graph::Node& node = graph.nodes[i];
    auto consume = [&](int from) {
      auto& c = plan.nodes[from].consumers;
      if (std::find(c.begin(), c.end(), i) == c.end()) c.push_back(i);
    };
    for (const auto& in : node.inputs) {
      PlanNode& src = plan.nodes[in.node];
      grow(src, static_cast<std::size_t>(in.output) + 1);
      ++src.uses[in.output];
      src.last_use[in.output] = std::max(src.last_use[in.output], pos);
      consume(in.node);
    }
    for (int c : node.control_inputs) consume(c);
  }
  for (const auto& r : plan.outputs) {
    PlanNode& src = plan.nodes[r.node];
    grow(src, static_cast<std::size_t>(r.output) + 1);
    ++src.uses[r.output];
    src.last_use[r.output] = INT_MAX;
  }

  // Chains the backend can run as one kernel (Backend::fuse): from each node, the one reader of
  // its only output while that reader is on the same backend and the backend can take it in, or
  // the four nodes of a hard swish of it (every one of them then forwards the chain's value). Not
  // in TF1 control flow, whose nodes run by frames and iterations rather than straight down
  // `order`.
  std::vector<int> order_pos(static_cast<std::size_t>(n), INT_MAX);
  for (int k = 0; k < static_cast<int>(plan.order.size()); ++k) order_pos[plan.order[k]] = k;
  for (int i : plan.order) {
    PlanNode& p = plan.nodes[i];
    if (plan.dynamic || !p.backend || p.fallback || p.executor_op || p.fused_into >= 0) continue;
    graph::Node kernel = graph.nodes[i];
    bool took = false;
    // Whether node c may run inside the producer's kernel: same backend, its own kernel, no
    // control edge.
    auto joinable = [&](int c) {
      const PlanNode& pc = plan.nodes[c];
      return pc.backend == p.backend && !pc.fallback && !pc.executor_op && pc.fused_into < 0 &&
             graph.nodes[c].control_inputs.empty();
    };
    // Whether node c makes one value read once, by a node (not a requested output).
    auto single_use = [&](int c) {
      const PlanNode& pc = plan.nodes[c];
      return graph.nodes[c].outputs.size() == 1 && pc.uses.size() == 1 && pc.uses[0] == 1 &&
             pc.consumers.size() == 1;
    };
    auto index_of = [&](const graph::Node& reader, int src) {
      for (int k = 0; k < static_cast<int>(reader.inputs.size()); ++k)
        if (reader.inputs[k].node == src) return k;
      return -1;
    };
    // The backend's fused form of `kernel` and `next`, when it can run it.
    auto offer = [&](const Backend::ChainLink& next) -> std::optional<graph::Node> {
      std::optional<graph::Node> f = p.backend->fuse(kernel, next.node, next.through, next.inputs);
      if (!f) return std::nullopt;
      // What the fused kernel reads beyond the producer's inputs is a weight or a value made
      // before the producer runs (a residual connection's), which the chain's reader keeps
      // alive until after the producer's kernel.
      for (std::size_t k = graph.nodes[i].inputs.size(); k < f->inputs.size(); ++k) {
        const int src = f->inputs[k].node;
        if (graph.nodes[src].op != "Const" && order_pos[src] >= order_pos[i]) return std::nullopt;
      }
      if (!p.backend->supports_inputs(*f, input_infos(graph, *f))) return std::nullopt;
      return f;
    };
    // The next node the chain may take in after `tail`: its one reader, or the four nodes of a
    // hard swish of it (offered to the backend as one activation, ops::match_hard_swish), with
    // the nodes it joins (node, through) and the chain's new tail.
    struct Step {
      Backend::ChainLink link;
      std::vector<std::pair<int, int>> joins;
      int tail = -1;
    };
    auto step_after = [&](int tail) -> std::optional<Step> {
      const PlanNode& t = plan.nodes[tail];
      if (graph.nodes[tail].outputs.size() != 1 || t.uses.size() != 1) return std::nullopt;
      if (t.uses[0] == 2 && t.consumers.size() == 2) {
        const auto h = ops::match_hard_swish(
            graph, tail, [&](int c) -> std::span<const int> { return plan.nodes[c].consumers; });
        if (!h || !single_use(h->mul) || !single_use(h->add) || !single_use(h->relu6))
          return std::nullopt;
        for (int c : {h->mul, h->add, h->relu6, h->out})
          if (!joinable(c)) return std::nullopt;
        Step s;
        s.link.node.name = graph.nodes[h->out].name;
        s.link.node.op = std::string(ops::kHardSwishOp);
        s.link.node.inputs = {graph::TensorRef{tail, 0}};
        s.link.node.attrs["scale"] = h->scale;
        s.link.node.attrs["shift"] = h->shift;
        s.joins = {{h->mul, index_of(graph.nodes[h->mul], tail)},
                   {h->add, index_of(graph.nodes[h->add], tail)},
                   {h->relu6, 0},
                   {h->out, index_of(graph.nodes[h->out], h->mul)}};
        s.tail = h->out;
        s.link.inputs = input_infos(graph, s.link.node);
        return s;
      }
      if (!single_use(tail)) return std::nullopt;
      const int c = t.consumers[0];
      if (!joinable(c)) return std::nullopt;
      Step s;
      s.link.node = graph.nodes[c];
      s.link.through = index_of(graph.nodes[c], tail);
      s.link.inputs = input_infos(graph, s.link.node);
      s.joins = {{c, s.link.through}};
      s.tail = c;
      return s;
    };
    // Where the backend declines a step: the producer's own form (Backend::unfused_form), shown
    // the declined step and the few after it.
    auto keep_apart = [&](Step declined) {
      std::vector<Backend::ChainLink> links;
      for (std::optional<Step> s = std::move(declined); s && links.size() < kChainLookahead;
           s = step_after(s->tail))
        links.push_back(std::move(s->link));
      if (auto apart = p.backend->unfused_form(kernel, links)) {
        kernel = std::move(*apart);
        took = true;
      }
    };
    for (int tail = i;;) {
      std::optional<Step> s = step_after(tail);
      if (!s) break;
      std::optional<graph::Node> f = offer(s->link);
      if (!f) {
        keep_apart(std::move(*s));
        break;
      }
      kernel = std::move(*f);
      for (const auto& [c, through] : s->joins) {
        plan.nodes[c].fused_into = i;
        plan.nodes[c].fused_through = through;
        ++plan.fusions;
      }
      took = true;
      tail = s->tail;
    }
    if (took) p.fused = std::move(kernel);
  }

  // With TF1 control flow, the partitions hold straight nodes only (the executor runs one once
  // every value it reads from outside is there).
  if (plan.dynamic) mark_straight(graph, plan);
  add_partitions(graph, plan, active);

  // Where each node's result lives, for segments and sync points. Executor ops that forward keep
  // their input's place; the others work on the host.
  std::vector<const Backend*> place(n, &cpu);
  for (int pos = 0; pos < static_cast<int>(plan.order.size()); ++pos) {
    const int i = plan.order[pos];
    const PlanNode& p = plan.nodes[i];
    const graph::Node& node = graph.nodes[i];
    if (p.executor_op) {
      if ((is_forwarding_op(node.op) || node.op == "Switch" || node.op == "Merge") &&
          !node.inputs.empty())
        place[i] = place[node.inputs[0].node];
      continue;
    }
    place[i] = p.backend;
    for (const auto& in : node.inputs)
      // Weights cross once, on the first run; everything else crosses every run.
      if (place[in.node] != p.backend && graph.nodes[in.node].op != "Const") ++plan.sync_points;
    const std::string name(p.backend->name());
    if (plan.segments.empty() || plan.segments.back().backend != name)
      plan.segments.push_back({name, pos, pos});
    else
      plan.segments.back().last = pos;
  }
  return plan;
}

}  // namespace tfjsi::runtime
