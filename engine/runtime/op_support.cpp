#include "runtime/op_support.h"

#include <algorithm>
#include <set>

#include "ops/converter_ops.h"
#include "ops/refused.h"
#include "runtime/engine.h"
#include "runtime/executor_ops.h"

namespace tfjsi::runtime {

std::vector<OpSupport> op_support(Engine& engine) {
  std::vector<std::pair<std::string, std::set<std::string, std::less<>>>> lists;
  // cpu (the reference) first: lowest priority first.
  auto infos = engine.backends();
  std::stable_sort(infos.begin(), infos.end(), [](const BackendInfo& a, const BackendInfo& b) {
    return a.priority < b.priority;
  });
  for (const BackendInfo& info : infos) {
    const Backend* b = engine.find_backend(info.name);
    if (!b) continue;
    const auto ops = b->native_ops();
    lists.emplace_back(info.name, std::set<std::string, std::less<>>(ops.begin(), ops.end()));
  }
  const auto* cpu = [&]() -> const std::set<std::string, std::less<>>* {
    for (const auto& [name, ops] : lists)
      if (name == engine.reference_backend().name()) return &ops;
    return nullptr;
  }();

  auto row = [&](std::string_view op, std::string_view category) {
    OpSupport s;
    s.op = std::string(op);
    s.category = std::string(category);
    s.executor = is_executor_op(op);
    for (const auto& [name, ops] : lists) s.native.emplace_back(name, ops.contains(op));
    s.runs = s.executor || (cpu && cpu->contains(op));
    if (const auto why = ops::refusal(op)) s.refused = std::string(*why);
    return s;
  };
  std::vector<OpSupport> rows;
  std::set<std::string_view> known;
  for (const ops::ConverterOp& c : ops::converter_ops()) {
    rows.push_back(row(c.op, c.category));
    known.insert(c.op);
  }
  std::set<std::string> extra;
  for (const auto& [name, ops] : lists)
    for (const auto& op : ops)
      if (!known.contains(op)) extra.insert(op);
  for (const auto& op : extra) rows.push_back(row(op, "not in the converter"));
  return rows;
}

}  // namespace tfjsi::runtime
