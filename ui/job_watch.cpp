#include "job_watch.h"

#include <algorithm>

namespace tfjsi::ui {

int kernel_nodes(const graph::Graph& g) {
  int n = 0;
  for (const auto& node : g.nodes)
    if (node.op != "Const" && node.op != "NoOp" && node.op != "Placeholder") ++n;
  return std::max(n, 1);
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void JobWatch::run_started() {
  ++pass_;
  done_ = 0;
  stage_ = stage_of(pass_);
  report(true);
}

void JobWatch::before_kernel(const runtime::KernelEvent&) {
  ++done_;
  report(false);
}

void JobWatch::step(int pass, const QString& stage, int done, int total) {
  pass_ = pass;
  stage_ = stage;
  done_ = done;
  nodes_ = total;
  report(done == 0);
}

void JobWatch::report(bool force) {
  if (!report_ || (!force && ms_since(last_) < 50)) return;
  last_ = std::chrono::steady_clock::now();
  report_(pass_, stage_, std::min(done_, nodes_), nodes_);
}

}  // namespace tfjsi::ui
