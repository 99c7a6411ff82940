#include "runtime/profiler.h"

#include <algorithm>
#include <map>

#include "runtime/engine.h"

namespace tfjsi::runtime {

void Profiler::run_started() {
  if (runs_ == 0 && kernels_.empty()) start_ = engine_.live_bytes();
  peak_ = std::max(peak_, engine_.live_bytes());
}

void Profiler::after_kernel(KernelEvent& e) {
  KernelRecord r{e.node.name,
                 e.node.op,
                 std::string(e.backend),
                 e.ms,
                 0,
                 engine_.live_bytes(),
                 e.fused_into ? e.fused_into->name : ""};
  for (const auto& t : e.outputs)
    if (t.alive()) r.bytes_made += engine_.bytes(t);
  peak_ = std::max(peak_, r.live_bytes);
  kernels_.push_back(std::move(r));
}

void Profiler::run_finished() {
  ++runs_;
}

std::vector<OpTotal> Profiler::by_op() const {
  std::map<std::string, OpTotal> m;
  for (const auto& k : kernels_) {
    OpTotal& t = m[k.op];
    t.op = k.op;
    ++t.calls;
    if (!k.fused_into.empty()) ++t.fused;
    t.ms += k.ms;
  }
  std::vector<OpTotal> out;
  for (auto& [op, t] : m) out.push_back(t);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.ms > b.ms; });
  return out;
}

double Profiler::total_ms() const {
  double ms = 0;
  for (const auto& k : kernels_) ms += k.ms;
  return ms;
}

std::size_t Profiler::total_bytes_made() const {
  std::size_t n = 0;
  for (const auto& k : kernels_) n += k.bytes_made;
  return n;
}

void Profiler::reset() {
  kernels_.clear();
  runs_ = 0;
  start_ = peak_ = engine_.live_bytes();
}

}  // namespace tfjsi::runtime
