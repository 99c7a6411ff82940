#include "runtime/graph_runner.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <deque>
#include <set>
#include <tuple>

#include "core/error.h"
#include "core/memory_limit.h"
#include "ops/attr.h"
#include "runtime/debug_log.h"
#include "runtime/executor_ops.h"
#include "runtime/fp16_follow.h"
#include "runtime/frame_contexts.h"

namespace tfjsi::runtime {
namespace {

// Function bodies calling functions, deeper than this, are taken for recursion.
constexpr int kMaxFunctionDepth = 64;

[[noreturn]] void fail(const graph::Node& node, const std::string& what) {
  throw ModelError("node '" + node.name + "' (" + node.op + "): " + what);
}

// " (inputs [1,2], [3])": what a node that ran out of memory was given.
std::string input_shapes(std::span<const Value* const> in) {
  std::string s;
  for (const Value* v : in)
    if (v->is_tensor()) s += (s.empty() ? " (inputs " : ", ") + shape_to_string(v->tensor.shape());
  return s.empty() ? s : s + ")";
}

Tensor tensor_of(const std::optional<Value>& v) {
  return v && v->is_tensor() ? v->tensor : Tensor();
}

void dispose_value(std::optional<Value>& v) {
  if (v && v->is_tensor()) v->tensor.dispose();
  v.reset();
}

}  // namespace

namespace {

// One run of a plan: values by (node, context), contexts for TF1 frames and iterations.
class Run {
 public:
  Run(GraphRunner& r, const Plan& plan, std::vector<Value> feeds)
      : r_(r), e_(r.engine), g_(r.graph), plan_(plan), fed_(g_.nodes.size()), ctxs_(g_, plan) {
    max_iterations_ = e_.flags().get_int("loop_iteration_limit");
    for (std::size_t k = 0; k < feeds.size(); ++k)
      if (!feeds[k].is_tensor() || feeds[k].tensor.alive())  // else: runs its default input
        fed_[g_.inputs[k].ref.node] = std::move(feeds[k]);
    if (e_.flags().get_bool("debug")) debug_.emplace();
    const auto& obs = e_.observers();
    fuse_ = e_.flags().get_bool("fuse") && !e_.every_output_observed();
    // The debug log prints node times too.
    timed_ = debug_.has_value() ||
             std::any_of(obs.begin(), obs.end(), [](Observer* o) { return o->times_kernels(); });
  }

  ~Run() {
    for (auto& [key, slot] : slots_)
      for (auto& v : slot.outs) dispose_value(v);
    for (auto& v : fed_) dispose_value(v);
  }

  const RunStats& stats() const { return stats_; }

  std::vector<Value> execute() {
    if (plan_.dynamic) {
      execute_dynamic();
    } else {
      for (int i : plan_.order) {
        // A partition runs where its last node stands; declined, its nodes run one by one there.
        const int part = fuse_ ? plan_.nodes[i].partition : -1;
        if (part < 0)
          execute_node(i, 0);
        else if (plan_.partitions[part].nodes.back() == i && !run_partition(part))
          for (int n : plan_.partitions[part].nodes) execute_node(n, 0);
      }
    }
    std::vector<Value> out;
    for (const auto& ref : plan_.outputs) {
      std::optional<Value>* v = lookup(ref.node, ref.output, 0, nullptr);
      if (!v || !*v)
        throw ModelError("output '" + g_.nodes[ref.node].name + ":" + std::to_string(ref.output) +
                         "' was not computed (it lies on a branch or loop body that did not run)");
      Value copy = **v;
      if (copy.is_tensor()) copy.tensor = e_.clone(copy.tensor, g_.nodes[ref.node].name);
      out.push_back(std::move(copy));
    }
    return out;
  }

 private:
  struct Slot {
    std::vector<std::optional<Value>> outs;
    std::vector<int> remaining;  // consumers in the same context still to come
    bool live = false;  // produced something (or has no outputs): control edges from it fire
  };

  // The value of node:output as seen from context `ctx`: its own, else its enclosing frames'
  // (loop invariants and values from outside the loop). nullptr when the node has not run there;
  // a pointer to nullopt when that output is dead.
  std::optional<Value>* lookup(int node, int output, int ctx, int* found) {
    for (int c = ctx; c >= 0; c = ctxs_[c].parent) {
      auto it = slots_.find({node, c});
      if (it == slots_.end()) continue;
      if (found) *found = c;
      auto& outs = it->second.outs;
      if (output >= static_cast<int>(outs.size()))
        fail(g_.nodes[node], "has " + std::to_string(outs.size()) + " outputs, output " +
                                 std::to_string(output) + " was asked for");
      return &outs[output];
    }
    return nullptr;
  }

  bool live(const graph::TensorRef& ref, int ctx) {
    auto* v = lookup(ref.node, ref.output, ctx, nullptr);
    return v && v->has_value();
  }

  // A control input is satisfied once its node ran (in a visible context) and is not dead.
  bool done(int node, int ctx) {
    for (int c = ctx; c >= 0; c = ctxs_[c].parent) {
      auto it = slots_.find({node, c});
      if (it == slots_.end()) continue;
      return it->second.live;
    }
    return false;
  }

  bool ready(int node, int ctx) {
    const graph::Node& n = g_.nodes[node];
    // A partition's node is ready when the whole partition is: everything it reads from outside
    // is there (its nodes never run one by one to make each other's inputs).
    if (const int part = partition_of(node, ctx); part >= 0) {
      for (const auto& in : plan_.partitions[part].inputs)
        if (!live(in, 0)) return false;
      return true;
    }
    if (n.op == "Merge") {
      for (const auto& in : n.inputs)
        if (live(in, ctx)) return true;
      return false;
    }
    for (const auto& in : n.inputs)
      if (!live(in, ctx)) return false;
    for (int c : n.control_inputs)
      if (!done(c, ctx)) return false;
    return true;
  }

  void schedule(int node, int ctx) {
    const std::pair<int, int> key{node, ctx};
    if (added_.count(key) || !ready(node, ctx)) return;
    added_.insert(key);
    if (defer_)
      deferred_.push_back(key);
    else
      stack_.push_back(key);
    ctxs_.queue(ctx);
  }

  void schedule_consumers(int node, int ctx) {
    const auto& consumers = plan_.nodes[node].consumers;
    for (auto it = consumers.rbegin(); it != consumers.rend(); ++it) schedule(*it, ctx);
  }

  void execute_dynamic() {
    for (auto it = plan_.order.rbegin(); it != plan_.order.rend(); ++it) {
      const graph::Node& n = g_.nodes[*it];
      if (n.inputs.empty() && n.control_inputs.empty()) {
        stack_.push_back({*it, 0});
        added_.insert({*it, 0});
        ctxs_.queue(0);
      }
    }
    while (!stack_.empty() || !deferred_.empty()) {
      if (stack_.empty()) {
        stack_.push_back(deferred_.front());
        deferred_.pop_front();
      }
      const auto [node, ctx] = stack_.back();
      stack_.pop_back();
      ctxs_.dequeue(ctx);
      if (const int part = partition_of(node, ctx); part >= 0) {
        execute_partition(part);
        continue;
      }
      // Consumers become ready in the context the node's outputs went to. A new iteration's
      // work waits until nothing else can run, so that every loop variable finishes an
      // iteration (and it can be retired) before the next starts.
      const int next = execute_node(node, ctx);
      defer_ = g_.nodes[node].op == "NextIteration";
      schedule_consumers(node, next);
      defer_ = false;
      stats_.peak_contexts = std::max(stats_.peak_contexts, ctxs_.live_count());
      stats_.peak_slots = std::max(stats_.peak_slots, slots_.size());
      retire(ctx);
      if (next != ctx) retire(next);
    }
  }

  // The partition the executor runs node `i` in, in context `ctx`, or -1. Partitions hold
  // straight nodes only (PlanNode::straight), which run in the root context.
  int partition_of(int i, int ctx) const {
    return fuse_ && ctx == 0 ? plan_.nodes[i].partition : -1;
  }

  // A partition in a plan with TF1 control flow: run once, when the first of its nodes is taken
  // from the stack (they all become ready together); declined, its nodes run one by one.
  void execute_partition(int part) {
    const Partition& p = plan_.partitions[part];
    // Another of its nodes was on the stack too: the partition ran, and its nodes have slots.
    if (slots_.count({p.nodes.front(), 0})) return;
    for (int n : p.nodes) added_.insert({n, 0});
    if (!run_partition(part))
      for (int n : p.nodes) execute_node(n, 0);
    for (int n : p.nodes) schedule_consumers(n, 0);
  }

  // Drops the values of the iteration around `ctx` that nothing more can happen in (see
  // FrameContexts), with those of the frames nested in it.
  void retire(int ctx) {
    for (int c : ctxs_.finished(ctx)) {
      for (int node : ctxs_[c].stored) {
        auto it = slots_.find({node, c});
        if (it == slots_.end()) continue;
        for (auto& v : it->second.outs) dispose_value(v);
        slots_.erase(it);
      }
      for (int node : ctxs_[c].ran) added_.erase({node, c});
      for (auto it = invariants_.lower_bound({c, std::string()});
           it != invariants_.end() && it->first.first == c;)
        it = invariants_.erase(it);
      ctxs_.release(c);
    }
  }

  // A loop invariant (a constant Enter) is visible in every iteration of its frame, so its
  // consumers are due in each iteration that exists now and in each one made later.
  void invariant_ran(int enter, int parent, const std::string& frame) {
    invariants_[{parent, frame}].push_back(enter);
    for (int c = 1; c < ctxs_.size(); ++c)
      if (ctxs_[c].live && ctxs_[c].parent == parent && ctxs_[c].frame == frame)
        schedule_consumers(enter, c);
  }

  void iteration_started(int ctx) {
    auto it = invariants_.find({ctxs_[ctx].parent, ctxs_[ctx].frame});
    if (it == invariants_.end()) return;
    for (int enter : it->second) schedule_consumers(enter, ctx);
  }

  // Runs node `i` in context `ctx`; returns the context its consumers run in.
  int execute_node(int i, int ctx) {
    const graph::Node& node = g_.nodes[i];
    const PlanNode& pn = plan_.nodes[i];

    // Inputs, as seen from ctx. Merge takes its first live input.
    std::vector<const Value*> in;
    std::vector<int> in_ctx;
    int merge_index = -1;
    for (int k = 0; k < static_cast<int>(node.inputs.size()); ++k) {
      const auto& ref = node.inputs[k];
      int found = -1;
      std::optional<Value>* v = lookup(ref.node, ref.output, ctx, &found);
      if (!v || !*v) {
        if (node.op == "Merge") continue;
        fail(node, "input " + std::to_string(k) + " ('" + g_.nodes[ref.node].name + ":" +
                       std::to_string(ref.output) + "') has no value");
      }
      if (node.op == "Merge" && merge_index >= 0) continue;
      if (node.op == "Merge") merge_index = k;
      in.push_back(&**v);
      in_ctx.push_back(found);
    }

    // Where the outputs are stored, and where consumers run.
    int store = ctx, next = ctx, new_iteration = -1;
    bool invariant = false;
    if (node.op == "Enter") {
      const std::string frame = ops::attr<std::string>(node, "frame_name", node.name);
      next = ctxs_.intern(ctx, frame, 0);
      ctxs_.enter_ran(ctx, frame);
      invariant = ops::attr<bool>(node, "is_constant", false);
      if (!invariant) store = next;
    } else if (node.op == "Exit") {
      if (ctx == 0) fail(node, "Exit outside of any loop frame");
      store = next = ctxs_[ctx].parent;
    } else if (node.op == "NextIteration") {
      if (ctx == 0) fail(node, "NextIteration outside of any loop frame");
      const int parent = ctxs_[ctx].parent, iteration = ctxs_[ctx].iteration;
      const std::string frame = ctxs_[ctx].frame;
      if (iteration + 1 >= max_iterations_)
        fail(node, "loop '" + frame + "' ran " + std::to_string(max_iterations_) +
                       " iterations without ending (the limit; flag loop_iteration_limit)");
      const std::size_t known = ctxs_.live_count();
      store = next = ctxs_.intern(parent, frame, iteration + 1);
      ++ctxs_.at(next).arrived;
      if (ctxs_.live_count() > known) new_iteration = next;
    }

    std::vector<Tensor> in_tensors;
    for (const Value* v : in) in_tensors.push_back(v->is_tensor() ? v->tensor : Tensor());
    const bool observed =
        node.op != "Const" && node.op != "NoOp" && !fed_[i] && node.op != "Placeholder";
    std::vector<Tensor> out_tensors;
    KernelEvent event{e_, node, pn.backend ? pn.backend->name() : "executor", in_tensors,
                      out_tensors};
    if (observed)
      for (Observer* o : e_.observers()) o->before_kernel(event);

    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::optional<Value>> outs;
    // What a kernel could not allocate is reported with the node that asked for it.
    try {
      outs = compute(i, in, merge_index, event.backend);
    } catch (const TooLarge& e) {
      fail(node, e.what());
    } catch (const std::bad_alloc&) {
      fail(node, "out of memory" + input_shapes(in));
    }
    // A fused node queued nothing: its producer's kernel did the work (and was waited for).
    if (timed_ && observed && pn.backend && event.backend != "fused") pn.backend->finish();
    event.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (event.backend == "fused") event.fused_into = &g_.nodes[pn.fused_into];

    if (observed) {
      for (const auto& v : outs) out_tensors.push_back(tensor_of(v));
      for (Observer* o : e_.observers()) o->after_kernel(event);
      if (debug_) debug_->after_kernel(event);
      for (std::size_t k = 0; k < outs.size(); ++k)
        if (outs[k] && outs[k]->is_tensor()) outs[k]->tensor = out_tensors[k];
    }

    if (ctx != 0) ctxs_.at(ctx).ran.push_back(i);  // the root context never retires
    store_outputs(i, store, std::move(outs));
    // This node has read its inputs: the ones made in this same context lose a consumer.
    for (std::size_t k = 0, used = 0; k < node.inputs.size() && used < in.size(); ++k) {
      const auto& ref = node.inputs[k];
      if (node.op == "Merge" && static_cast<int>(k) != merge_index) continue;
      if (in_ctx[used++] != ctx) continue;
      Slot& src = slots_.at({ref.node, ctx});
      if (--src.remaining[ref.output] == 0) dispose_value(src.outs[ref.output]);
    }
    if (plan_.dynamic) {
      if (invariant) invariant_ran(i, ctx, ctxs_[next].frame);
      if (new_iteration >= 0) {
        defer_ = true;
        iteration_started(new_iteration);
        defer_ = false;
      }
    }
    return next;
  }

  // The slot of node i's outputs in context c, made if new. A context other than the root
  // remembers what it holds, to drop it when it retires (the root never does).
  Slot& slot_of(int i, int c) {
    auto [it, added] = slots_.try_emplace({i, c});
    if (added && c != 0) ctxs_.at(c).stored.push_back(i);
    return it->second;
  }

  // Stores node i's outputs in context `store`; drops what no one will read.
  void store_outputs(int i, int store, std::vector<std::optional<Value>> outs) {
    Slot& slot = slot_of(i, store);
    slot.outs = std::move(outs);
    slot.live = slot.outs.empty();
    for (const auto& v : slot.outs) slot.live = slot.live || v.has_value();
    slot.remaining = plan_.nodes[i].uses;
    slot.remaining.resize(std::max(slot.remaining.size(), slot.outs.size()), 0);
    slot.outs.resize(std::max(slot.outs.size(), slot.remaining.size()));
    for (std::size_t k = 0; k < slot.outs.size(); ++k)
      if (slot.remaining[k] == 0) dispose_value(slot.outs[k]);
  }

  // Runs a partition as one unit, false if declined. Observers hear of each node: the first with
  // the partition's time, the rest as run inside it ("fused"); inner values have no tensor.
  bool run_partition(int part) {
    const Partition& p = plan_.partitions[part];
    Backend& b = *plan_.nodes[p.nodes.front()].backend;
    std::vector<TensorView> views;
    for (const auto& ref : p.inputs) {
      std::optional<Value>* v = lookup(ref.node, ref.output, 0, nullptr);
      if (!v || !*v || !(*v)->is_tensor()) return false;
      views.push_back(e_.view_on((*v)->tensor, b));
    }
    auto& runner = dynamic_cast<PartitionRunner&>(b);
    const auto t0 = std::chrono::steady_clock::now();
    auto result = runner.run_partition(g_, p, views, RunContext{e_.pool(), e_.flags()});
    if (!result) return false;
    // The shapes of the values inside, for observers (asked once a partition, and only for them).
    const graph::Graph* shapes =
        e_.observers().empty() && !debug_ ? nullptr : &runner.partition_shapes(g_);
    const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - t0;
    // Outputs go straight into their slots, which the run disposes whatever happens next.
    for (std::size_t k = 0; k < p.outputs.size(); ++k) {
      const auto& [node, output] = p.outputs[k];
      auto& outs = slot_of(node, 0).outs;
      outs.resize(std::max(outs.size(), plan_.nodes[node].uses.size()));
      outs[output] = Value{e_.adopt(b, result->at(k), g_.nodes[node].name), {}, {}};
    }
    for (int i : p.nodes) {
      const graph::Node& node = g_.nodes[i];
      std::vector<Tensor> in_tensors, out_tensors;
      for (const auto& ref : node.inputs)  // all made: outside ones checked above, the rest here
        in_tensors.push_back(tensor_of(*lookup(ref.node, ref.output, 0, nullptr)));
      auto& outs = slot_of(i, 0).outs;
      for (const auto& v : outs) out_tensors.push_back(tensor_of(v));
      const bool first = i == p.nodes.front();
      KernelEvent event{e_, node, first ? b.name() : "fused", in_tensors, out_tensors};
      event.ms = first ? ms.count() : 0;
      if (!first) event.fused_into = &g_.nodes[p.nodes.front()];
      event.graph = shapes;
      event.index = i;
      for (Observer* o : e_.observers()) o->before_kernel(event), o->after_kernel(event);
      if (debug_) debug_->after_kernel(event);
      store_outputs(i, 0, std::move(outs));
      slot_of(i, 0).live = true;  // it ran: control edges from it fire (values inside have none)
      for (const auto& ref : node.inputs) {
        Slot& src = slots_.at({ref.node, 0});
        if (--src.remaining[ref.output] == 0) dispose_value(src.outs[ref.output]);
      }
    }
    return true;
  }

  // `ran_on` becomes "cpu" when a backend kernel failed and cpu ran the node instead.
  std::vector<std::optional<Value>> compute(int i, std::span<const Value* const> in,
                                            int merge_index, std::string_view& ran_on) {
    const graph::Node& node = g_.nodes[i];
    const PlanNode& pn = plan_.nodes[i];
    if (fed_[i]) {
      Value v = *fed_[i];
      if (v.is_tensor()) v.tensor = e_.clone(v.tensor, node.name);
      return {std::move(v)};
    }
    if (node.op == "Const") return {Value{e_.clone(r_.weights[i], node.name), {}, {}}};
    if (node.op == "Placeholder") fail(node, "is a Placeholder that was not fed");
    if (node.op == "PlaceholderWithDefault" || node.op == "Merge") {
      if (in.empty()) fail(node, "has no input");
      Value v = *in[0];
      if (v.is_tensor()) v.tensor = e_.clone(v.tensor, node.name);
      if (node.op == "PlaceholderWithDefault") return {std::move(v)};
      HostTensor index = HostTensor::zeros(DType::Int32, {});
      index.mutable_values<std::int32_t>()[0] = merge_index;
      return {std::move(v), Value{e_.make_tensor(index, node.name), {}, {}}};
    }
    if (is_functional_control_flow(node.op)) return call_function(node, in);
    if (pn.executor_op) return run_executor_op(e_, r_.resources, node, in);
    // A node that a kernel before it took in (PlanNode::fused): forward the chain's result.
    if (pn.fused_into >= 0 && fuses(pn.fused_into)) {
      ran_on = "fused";
      Value v = *in[static_cast<std::size_t>(pn.fused_through)];
      if (v.is_tensor()) v.tensor = e_.clone(v.tensor, node.name);
      return {std::move(v)};
    }
    const bool fused = pn.fused && fuses(i);
    const graph::Node& kernel = fused ? *pn.fused : node;
    // A fused kernel's inputs past the node's own are weights (a bias) or values made before it
    // (an addend) that a later node of the chain reads too: the plan made sure.
    std::vector<Value> extra;
    std::vector<const Value*> all_in;
    if (fused && kernel.inputs.size() > in.size()) {
      extra.reserve(kernel.inputs.size() - in.size());
      for (std::size_t k = in.size(); k < kernel.inputs.size(); ++k) {
        const graph::TensorRef& ref = kernel.inputs[k];
        if (g_.nodes[ref.node].op == "Const") {
          extra.push_back(Value{r_.weights[ref.node], {}, {}});
          continue;
        }
        std::optional<Value>* v = lookup(ref.node, ref.output, 0, nullptr);
        if (!v || !*v) fail(node, "the value its fused kernel adds is not there");
        extra.push_back(**v);
      }
      all_in.assign(in.begin(), in.end());
      for (const Value& v : extra) all_in.push_back(&v);
      in = all_in;
    }

    // A backend kernel. When it fails on a backend other than cpu for a reason of that backend
    // (BackendLimit, or a failure of the backend itself: a shader that does not compile, a
    // texture it cannot allocate), cpu runs the node (and does from now on) with a warning. A
    // ModelError says the node itself is wrong, which cpu would say too: it ends the run. A
    // backend that went away entirely (BackendUnavailable: a lost GL context) ends the run,
    // which Executor::run starts again.
    Backend& b = *pn.backend;
    Backend& cpu = e_.reference_backend();
    std::pair<std::string, int> key{std::string(b.name()), i};
    if (&b == &cpu || !r_.faulted.count(key)) {
      auto fall_back = [&](const std::exception& e) {
        if (&b == &cpu || !cpu.supports(kernel)) throw;
        std::string why = e.what();
        why = why.substr(0, why.find('\n'));
        e_.log("WARNING: op '" + node.op + "' (node '" + node.name + "') failed on backend '" +
               key.first + "': " + why + "; it runs on cpu");
        r_.faulted.insert(std::move(key));
      };
      try {
        return run_kernel(b, kernel, in);
      } catch (const BackendUnavailable&) {
        throw;
      } catch (const Cancelled&) {
        throw;
      } catch (const BackendLimit& e) {
        fall_back(e);
      } catch (const ModelError&) {
        throw;
      } catch (const std::exception& e) {
        fall_back(e);
      }
    }
    ran_on = cpu.name();
    return run_kernel(cpu, kernel, in);
  }

  // Whether the plan's fusion at `producer` is taken in this run: fusing is on, and the producer
  // computes (a fed producer's output is what was fed, not its kernel's).
  bool fuses(int producer) const { return fuse_ && !fed_[producer]; }

  std::vector<std::optional<Value>> run_kernel(Backend& b, const graph::Node& node,
                                               std::span<const Value* const> in) {
    std::vector<TensorView> views;
    views.reserve(in.size());
    for (std::size_t k = 0; k < in.size(); ++k) {
      if (!in[k]->is_tensor())
        fail(node, "input " + std::to_string(k) + " is a " + in[k]->kind() +
                       ", which a kernel cannot take");
      views.push_back(e_.view_on(in[k]->tensor, b));
    }
    std::vector<TensorView> result = b.run(node, views, RunContext{e_.pool(), e_.flags(), &e_});
    std::vector<std::optional<Value>> outs;
    outs.reserve(result.size());
    for (const auto& v : result) outs.push_back(Value{e_.adopt(b, v, node.name), {}, {}});
    return outs;
  }

  // TF2 While and If: the bodies are graphs of their own, run by their own runners.
  std::vector<std::optional<Value>> call_function(const graph::Node& node,
                                                  std::span<const Value* const> in) {
    auto clone_all = [&](std::span<const Value* const> vs) {
      std::vector<Value> out;
      for (const Value* v : vs) {
        Value c = *v;
        if (c.is_tensor()) c.tensor = e_.clone(c.tensor, node.name);
        out.push_back(std::move(c));
      }
      return out;
    };
    auto runner = [&](std::string_view key) -> GraphRunner& {
      return *r_.functions.at(ops::attr<graph::FuncAttr>(node, key).name);
    };
    auto all_outputs = [](GraphRunner& f) {
      std::vector<graph::TensorRef> refs;
      for (const auto& o : f.graph.outputs) refs.push_back(o.ref);
      return refs;
    };
    std::vector<std::optional<Value>> result;
    if (node.op == "If" || node.op == "StatelessIf") {
      if (in.empty()) fail(node, "has no condition input");
      const bool pred = truth_of(e_, node, *in[0], "the condition (input 0)");
      GraphRunner& f = runner(pred ? "then_branch" : "else_branch");
      for (auto& v : f.run(clone_all(in.subspan(1)), all_outputs(f)))
        result.emplace_back(std::move(v));
      return result;
    }
    GraphRunner& cond = runner("cond");
    GraphRunner& body = runner("body");
    std::vector<Value> vars = clone_all(in);
    try {
      for (int iteration = 0;; ++iteration) {
        if (iteration >= max_iterations_)
          fail(node, "ran " + std::to_string(max_iterations_) +
                         " iterations without ending (the limit; flag loop_iteration_limit)");
        std::vector<const Value*> ptrs;
        for (const auto& v : vars) ptrs.push_back(&v);
        std::vector<Value> c = cond.run(clone_all(ptrs), all_outputs(cond));
        if (c.empty()) fail(node, "cond function returns nothing");
        bool go = false;
        try {
          go = truth_of(e_, node, c[0], "the cond function's result");
        } catch (...) {
          for (auto& v : c) v.tensor.dispose();
          throw;
        }
        for (auto& v : c) v.tensor.dispose();
        if (!go) break;
        std::vector<Value> next = body.run(std::move(vars), all_outputs(body));
        vars = std::move(next);
        if (vars.size() != in.size())
          fail(node, "body returns " + std::to_string(vars.size()) + " values for " +
                         std::to_string(in.size()) + " loop variables");
      }
    } catch (...) {
      for (auto& v : vars) v.tensor.dispose();
      throw;
    }
    for (auto& v : vars) result.emplace_back(std::move(v));
    return result;
  }

  GraphRunner& r_;
  Engine& e_;
  const graph::Graph& g_;
  const Plan& plan_;
  std::vector<std::optional<Value>> fed_;  // by node index
  FrameContexts ctxs_;
  std::map<std::pair<int, int>, Slot> slots_;
  std::set<std::pair<int, int>> added_;
  std::vector<std::pair<int, int>> stack_;    // (node, context) ready to run
  std::deque<std::pair<int, int>> deferred_;  // ready, in an iteration that began since
  bool defer_ = false;                        // schedule() puts work in deferred_
  // Constant Enters that ran, by (parent context, frame).
  std::map<std::pair<int, std::string>, std::vector<int>> invariants_;
  std::optional<DebugLog> debug_;
  bool fuse_ = false;
  bool timed_ = false;  // an observer reads node times: wait for each node's work
  std::int64_t max_iterations_ = 0;
  RunStats stats_;
};

}  // namespace

namespace {

// With `prod` off, a float weight holding NaN is refused once, when the model's weights become
// resident, rather than left to turn every output NaN run after run (the same rule inputs follow;
// TF.js itself only notices in debug mode, per kernel output). Infinities are left alone: models
// use them on purpose (masks, clip bounds).
void check_no_nan(const graph::Node& node) {
  const HostTensor& v = *node.value;
  if (v.dtype != DType::Float32 || !v.buffer) return;
  const auto values = v.values<float>();
  for (std::size_t j = 0; j < values.size(); ++j)
    if (std::isnan(values[j]))
      fail(node, "weight holds NaN (element " + std::to_string(j) + " of " +
                     std::to_string(values.size()) + ", shape " + shape_to_string(v.shape) +
                     "); the model's weights are damaged (flag prod skips this check)");
}

}  // namespace

GraphRunner::GraphRunner(Engine& e, const graph::Graph& g, const Library& library,
                         std::vector<std::string> calls, Resources& res, const GraphRunner* donor)
    : engine(e), graph(g), resources(res) {
  const bool prod = e.flags().get_bool("prod");
  const auto depth = static_cast<int>(calls.size());
  if (depth > kMaxFunctionDepth)
    throw ModelError("functions nest deeper than " + std::to_string(kMaxFunctionDepth) +
                     " levels (a function that calls itself?)");
  weights.resize(g.nodes.size());
  borrowed.resize(g.nodes.size(), 0);
  // The donor's weight of the same name when it holds the same data (a copy of the graph shares
  // its Consts' buffers), so that the two forms of a model keep one copy of each weight.
  auto donated = [&](const graph::Node& node) -> const Tensor* {
    if (!donor) return nullptr;
    const int j = donor->graph.find(node.name);
    if (j < 0) return nullptr;
    const graph::Node& theirs = donor->graph.nodes[static_cast<std::size_t>(j)];
    const Tensor& w = donor->weights[static_cast<std::size_t>(j)];
    const bool same = theirs.op == "Const" && theirs.value && node.value &&
                      theirs.value->buffer == node.value->buffer &&
                      theirs.value->shape == node.value->shape &&
                      theirs.value->dtype == node.value->dtype && node.value->buffer;
    return same && w.alive() ? &w : nullptr;
  };
  try {
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      const graph::Node& node = g.nodes[i];
      if (const Tensor* w = node.op == "Const" ? donated(node) : nullptr) {
        weights[i] = *w;
        borrowed[i] = 1;
      } else if (node.op == "Const") {
        if (!node.value) fail(node, "has no value");
        if (!prod) check_no_nan(node);
        weights[i] = engine.make_tensor(*node.value, node.name);
        engine.keep(weights[i]);
      }
      for (const auto& [key, attr] : node.attrs) {
        const auto* f = std::get_if<graph::FuncAttr>(&attr);
        if (!f || functions.count(f->name)) continue;
        const std::shared_ptr<const graph::Graph>* body = nullptr;
        if (auto a = g.functions.find(f->name); a != g.functions.end())
          body = &a->second;
        else if (auto b = library.find(f->name); b != library.end())
          body = &b->second;
        if (!body || !*body)
          fail(node, "attribute '" + key + "' names function '" + f->name +
                         "', which the model's library does not define");
        if (std::find(calls.begin(), calls.end(), f->name) != calls.end()) {
          std::string chain;
          for (const auto& c : calls) chain += "'" + c + "' -> ";
          fail(node, "attribute '" + key + "' calls function '" + f->name +
                         "' from inside itself (" + chain + "'" + f->name +
                         "'): recursive functions cannot run");
        }
        std::vector<std::string> inner = calls;
        inner.push_back(f->name);
        const GraphRunner* their_body = nullptr;
        if (donor)
          if (auto d = donor->functions.find(f->name); d != donor->functions.end())
            their_body = d->second.get();
        functions.emplace(f->name, std::make_unique<GraphRunner>(engine, **body, library, inner,
                                                                 resources, their_body));
      }
    }
  } catch (...) {
    dispose_weights();
    throw;
  }
}

void GraphRunner::dispose_weights() {
  for (std::size_t i = 0; i < weights.size(); ++i)
    if (!borrowed[i]) weights[i].dispose();
}

GraphRunner::~GraphRunner() {
  dispose_weights();
}

const Plan& GraphRunner::plan(const std::vector<graph::TensorRef>& outputs) {
  Backend* chosen = &engine.backend();
  // A backend that became unavailable after it was chosen (a lost GL context) hands every node
  // to cpu.
  std::string gone;
  if (Backend* cpu = &engine.reference_backend(); chosen != cpu) {
    if (const Availability a = chosen->availability(); !a.available) {
      gone = "backend '" + std::string(chosen->name()) + "' is unavailable (" + a.reason +
             "); every node runs on cpu";
      chosen = cpu;
    }
  }
  Backend& active = *chosen;
  std::string key = std::string(active.name()) + "/" + std::string(to_string(engine.precision()));
  // fp16 plans fuse as far as where the rounding follows allows.
  if (engine.precision() == Precision::Fp16)
    key += "/" + std::string(to_string(fp16_follow(&engine.flags())));
  for (const auto& o : outputs)
    key += "/" + std::to_string(o.node) + ":" + std::to_string(o.output);
  auto it = plans_.find(key);
  if (it == plans_.end()) {
    it = plans_.emplace(key, make_plan(graph, engine, active, engine.precision(), outputs)).first;
    if (!gone.empty()) engine.log("WARNING: " + gone);
    for (const auto& f : it->second.fallbacks) engine.log("WARNING: " + f.message);
  }
  return it->second;
}

std::vector<Value> GraphRunner::run(std::vector<Value> feeds,
                                    const std::vector<graph::TensorRef>& outputs) {
  if (feeds.size() != graph.inputs.size()) {
    for (auto& v : feeds) v.tensor.dispose();
    throw ModelError("a function body takes " + std::to_string(graph.inputs.size()) +
                     " arguments, " + std::to_string(feeds.size()) + " were passed");
  }
  const Plan* p = nullptr;
  try {
    p = &plan(outputs);
  } catch (...) {
    for (auto& v : feeds) v.tensor.dispose();
    throw;
  }
  Run run(*this, *p, std::move(feeds));
  std::vector<Value> out = run.execute();
  last_stats = run.stats();
  return out;
}

}  // namespace tfjsi::runtime
