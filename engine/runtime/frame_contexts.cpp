#include "runtime/frame_contexts.h"
#include "ops/attr.h"

#include <set>
#include <tuple>

namespace tfjsi::runtime {
namespace {

std::string frame_of(const graph::Node& enter) {
  return ops::attr<std::string>(enter, "frame_name", enter.name);
}

}  // namespace

FrameContexts::FrameContexts(const graph::Graph& g, const Plan& plan) {
  const auto needed = [&](int i) {
    return i >= 0 && static_cast<std::size_t>(i) < plan.nodes.size() &&
           plan.nodes[static_cast<std::size_t>(i)].needed;
  };
  Context root;
  root.live = true;
  ctxs_.push_back(std::move(root));
  // A NextIteration belongs to the frame of the Enter beside it at a Merge: tf.while_loop builds
  // each loop variable as Merge(Enter, NextIteration).
  std::map<int, std::string> frame_of_next;
  for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
    const graph::Node& n = g.nodes[static_cast<std::size_t>(i)];
    if (!needed(i)) continue;
    if (n.op == "Enter") ++enters_[frame_of(n)];
    if (n.op != "Merge") continue;
    const graph::Node* enter = nullptr;
    for (const auto& in : n.inputs)
      if (g.nodes[in.node].op == "Enter") enter = &g.nodes[in.node];
    for (const auto& in : n.inputs)
      if (g.nodes[in.node].op == "NextIteration" && enter)
        frame_of_next.emplace(in.node, frame_of(*enter));
  }
  for (int i = 0; i < static_cast<int>(g.nodes.size()); ++i) {
    if (g.nodes[i].op != "NextIteration" || !needed(i)) continue;
    auto it = frame_of_next.find(i);
    if (it == frame_of_next.end())
      retiring_ = false;
    else
      ++nexts_[it->second];
  }
}

int FrameContexts::intern(int parent, const std::string& frame, int iteration) {
  auto key = std::make_tuple(parent, frame, iteration);
  if (auto it = index_.find(key); it != index_.end()) return it->second;
  int id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
  } else {
    id = size();
    ctxs_.emplace_back();
  }
  Context& c = at(id);
  c = Context{};
  c.parent = parent;
  c.frame = frame;
  c.iteration = iteration;
  c.live = true;
  index_.emplace(std::move(key), id);
  return id;
}

void FrameContexts::add_queued(int c, int delta) {
  for (; c >= 0; c = ctxs_[static_cast<std::size_t>(c)].parent)
    ctxs_[static_cast<std::size_t>(c)].queued += delta;
}

bool FrameContexts::done(int c) const {
  const Context& x = (*this)[c];
  if (!retiring_ || c == 0 || !x.live || x.queued != 0) return false;
  const auto want = [](const auto& counts, const std::string& f) {
    auto it = counts.find(f);
    return it == counts.end() ? 0 : it->second;
  };
  auto ran = enters_ran_.find({x.parent, x.frame});
  if ((ran == enters_ran_.end() ? 0 : ran->second) < want(enters_, x.frame)) return false;
  return x.iteration == 0 || x.arrived >= want(nexts_, x.frame);
}

std::vector<int> FrameContexts::finished(int c) const {
  int outer = -1;
  for (; c > 0; c = (*this)[c].parent)
    if (done(c)) outer = c;
  if (outer < 0) return {};
  std::vector<int> out{outer};
  for (int d = 1; d < size(); ++d) {
    if (d == outer || !(*this)[d].live) continue;
    int a = (*this)[d].parent;
    while (a > 0 && a != outer) a = (*this)[a].parent;
    if (a == outer) out.push_back(d);
  }
  return out;
}

void FrameContexts::release(int c) {
  Context& x = at(c);
  index_.erase(std::make_tuple(x.parent, x.frame, x.iteration));
  for (auto it = enters_ran_.lower_bound({c, std::string()});
       it != enters_ran_.end() && it->first.first == c;)
    it = enters_ran_.erase(it);
  x = Context{};
  free_.push_back(c);
}

}  // namespace tfjsi::runtime
