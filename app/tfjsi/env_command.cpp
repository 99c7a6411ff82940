// tfjsi env [--json] [--flag NAME=VALUE]...: backends (available or why not) and every flag.
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "args.h"
#include "backends/all_backends.h"
#include "commands.h"
#include "core/error.h"
#include "engine_setup.h"
#include "runtime/engine.h"
#include "safe_output.h"

namespace tfjsi::cli {

int env_command(std::span<const std::string> argv) {
  static constexpr OptionSpec kOptions[] = {{"json"}, {"flag", true, true}};
  const Args args = Args::parse(argv, kOptions);
  if (!args.positional().empty()) throw UsageError("env takes no MODEL");
  runtime::Engine engine;
  backends::add_all_backends(engine);
  apply_flags(engine, args);
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
