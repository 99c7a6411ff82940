// tfjsi env [--json] [--flag NAME=VALUE]...: backends (available or why not) and every flag.
// tfjsi env --ops [--json]: every op of TF.js's converter, with the backends that run it natively.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "args.h"
#include "backends/all_backends.h"
#include "commands.h"
#include "core/error.h"
#include "engine_setup.h"
#include "ops/converter_ops.h"
#include "runtime/engine.h"
#include "runtime/op_support.h"
#include "safe_output.h"

namespace tfjsi::cli {

namespace {

// What a backend's column says for one op: its own kernel, the cpu fallback, the executor's own
// op, or nothing.
std::string cell(const runtime::OpSupport& s, const std::string& backend, bool native) {
  if (s.executor) return "executor";
  if (native) return "yes";
  return s.runs && backend != "cpu" ? "cpu" : "-";
}

int print_ops(runtime::Engine& engine, bool json) {
  const auto rows = runtime::op_support(engine);
  const auto infos = engine.backends();
  std::vector<std::string> names;  // the table's columns: op_support's order, cpu first
  if (!rows.empty())
    for (const auto& [b, yes] : rows.front().native) names.push_back(b);
  std::map<std::string, int> native_count;
  int converter = 0, runs = 0, executor = 0;
  for (const auto& r : rows) {
    if (r.category == "not in the converter") continue;
    ++converter;
    runs += r.runs;
    executor += r.executor;
    for (const auto& [b, yes] : r.native) native_count[b] += yes;
  }
  if (json) {
    nlohmann::json j;
    j["converter"] = std::string(ops::converter_version());
    j["backends"] = nlohmann::json::array();
    for (const auto& b : infos)
      j["backends"].push_back({{"name", b.name},
                               {"available", b.availability.available},
                               {"native_ops", native_count[b.name]}});
    j["counts"] = {{"converter_ops", converter}, {"runs", runs}, {"executor", executor}};
    j["ops"] = nlohmann::json::array();
    for (const auto& r : rows) {
      nlohmann::json o = {
          {"op", r.op}, {"category", r.category}, {"executor", r.executor}, {"runs", r.runs}};
      for (const auto& [b, yes] : r.native) o[b] = yes;
      if (!r.refused.empty()) o["refused"] = r.refused;
      j["ops"].push_back(std::move(o));
    }
    std::cout << json_text(j) << '\n';
    return 0;
  }
  std::cout << "Ops of TF.js's converter " << ops::converter_version() << ": " << converter << "; "
            << runs << " run here (" << executor << " by the executor itself)\n";
  std::cout << "  yes: the backend's own kernel; cpu: through the cpu kernel; executor: the "
               "executor runs it on any backend; -: no kernel (refused: not run on purpose, "
               "and why)\n";
  // The op column fits the longest name (SimpleMLLoadModelFromPathWithHandle) plus a space.
  std::size_t op_width = 2;
  for (const auto& r : rows) op_width = std::max(op_width, r.op.size() + 1);
  const int opw = static_cast<int>(op_width);
  std::cout << "  " << std::left << std::setw(opw) << "op" << std::setw(22) << "category";
  for (const auto& n : names) std::cout << std::setw(9) << n;
  std::cout << '\n';
  for (const auto& r : rows) {
    std::cout << "  " << std::left << std::setw(opw) << r.op << std::setw(22) << r.category;
    for (const auto& [b, yes] : r.native) std::cout << std::setw(9) << cell(r, b, yes);
    if (!r.refused.empty()) std::cout << "refused: " << r.refused;
    std::cout << '\n';
  }
  std::cout << "Own kernels per backend (of the converter's ops):";
  for (const auto& n : names) {
    bool available = false;
    for (const auto& b : infos) available = available || (b.name == n && b.availability.available);
    std::cout << ' ' << n << ' ' << native_count[n] << (available ? "" : " (unavailable here)");
  }
  std::cout << '\n';
  return 0;
}

}  // namespace

int env_command(std::span<const std::string> argv) {
  static constexpr OptionSpec kOptions[] = {{"json"}, {"ops"}, {"flag", true, true}};
  const Args args = Args::parse(argv, kOptions);
  if (!args.positional().empty()) throw UsageError("env takes no MODEL");
  runtime::Engine engine;
  backends::add_all_backends(engine);
  apply_flags(engine, args);
  if (args.flag("ops")) return print_ops(engine, args.flag("json"));
  // Ask every backend whether it can start, so detected flags (gl.float32_capable) are filled.
  const auto backends = engine.backends();
  std::string active;
  try {
    active = std::string(engine.backend().name());
  } catch (const std::exception& e) {
    active = std::string("none: ") + e.what();
  }

  nlohmann::json j;
  j["backends"] = nlohmann::json::array();
  for (const auto& b : backends)
    j["backends"].push_back({{"name", b.name},
                             {"priority", b.priority},
                             {"available", b.availability.available},
                             {"reason", b.availability.reason}});
  j["active"] = active;
  j["threads"] = engine.threads();
  j["flags"] = nlohmann::json::array();
  for (const auto& f : engine.flags().list()) {
    nlohmann::json v;
    std::visit([&](const auto& x) { v = x; }, f.value);
    j["flags"].push_back(
        {{"name", f.name}, {"value", v}, {"read_only", f.read_only}, {"help", f.help}});
  }
  if (args.flag("json")) {
    std::cout << json_text(j) << '\n';
    return 0;
  }
  std::cout << "Backends (auto picks: " << active << ")\n";
  for (const auto& b : backends)
    std::cout << "  " << std::left << std::setw(9) << b.name
              << (b.availability.available ? "available" : "unavailable: " + b.availability.reason)
              << '\n';
  std::cout << "Flags\n";
  for (const auto& f : engine.flags().list())
    std::cout << "  " << std::left << std::setw(24) << f.name << std::setw(10)
              << runtime::flag_value_to_string(f.value) << " " << f.help << '\n';
  return 0;
}

}  // namespace tfjsi::cli
