// The contexts a run of a graph with TF1 loops executes nodes in: the root (id 0), each loop
// frame entered from a context, and each iteration of that frame. An iteration is retired as soon
// as nothing more can happen in it: every value that enters it has arrived (all of the frame's
// Enters ran, and for iteration k > 0 all of its NextIterations ran in iteration k - 1) and no
// node of it, or of a frame nested in it, is queued. Its id is then reused, so a loop of N
// iterations holds a few contexts, not N (issue #25: a million iterations held 2 GB).
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "graph/ir.h"
#include "runtime/plan.h"

namespace tfjsi::runtime {

class FrameContexts {
 public:
  struct Context {
    int parent = -1;
    std::string frame;
    int iteration = 0;
    bool live = false;
    int queued = 0;           // nodes queued to run here or in a context nested in this one
    int arrived = 0;          // NextIterations of the previous iteration whose outputs came here
    std::vector<int> ran;     // nodes that ran here
    std::vector<int> stored;  // nodes whose outputs are stored here
  };

  // Counts each frame's Enters and NextIterations among the nodes `plan` runs. A NextIteration
  // whose frame cannot be told (it feeds no Merge that an Enter also feeds) turns retiring off
  // for the whole run: correct, but memory grows with the iterations again.
  FrameContexts(const graph::Graph& graph, const Plan& plan);

  // The context of `iteration` of `frame` entered from `parent`, made if new.
  int intern(int parent, const std::string& frame, int iteration);
  const Context& operator[](int c) const { return ctxs_[static_cast<std::size_t>(c)]; }
  Context& at(int c) { return ctxs_[static_cast<std::size_t>(c)]; }
  // Ids run from 0 to size() - 1; some may not be live.
  int size() const { return static_cast<int>(ctxs_.size()); }
  std::size_t live_count() const { return ctxs_.size() - free_.size(); }

  // A node was queued to run in `c` / taken off the queue.
  void queue(int c) { add_queued(c, 1); }
  void dequeue(int c) { add_queued(c, -1); }
  // An Enter of `frame` ran in context `parent`.
  void enter_ran(int parent, const std::string& frame) { ++enters_ran_[{parent, frame}]; }

  // The outermost context from `c` up that is an iteration nothing more can happen in, with every
  // live context nested in it; empty if there is none. The caller drops their values, then
  // release()s each.
  std::vector<int> finished(int c) const;
  void release(int c);

 private:
  void add_queued(int c, int delta);
  bool done(int c) const;

  std::vector<Context> ctxs_;
  std::vector<int> free_;  // ids of released contexts, reused first
  std::map<std::tuple<int, std::string, int>, int> index_;
  std::map<std::pair<int, std::string>, int> enters_ran_;  // by (parent context, frame)
  std::map<std::string, int, std::less<>> enters_;         // Enter nodes, by frame
  std::map<std::string, int, std::less<>> nexts_;          // NextIteration nodes, by frame
  bool retiring_ = true;
};

}  // namespace tfjsi::runtime
