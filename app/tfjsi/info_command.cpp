// tfjsi info MODEL [--json]
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "analysis/model_summary.h"
#include "analysis/node_cost.h"
#include "args.h"
#include "byte_size.h"
#include "commands.h"
#include "core/error.h"
#include "core/terminal_text.h"
#include "model_arg.h"
#include "safe_output.h"

namespace tfjsi::cli {
namespace {

constexpr OptionSpec kOptions[] = {{"json"}};

// A string of the summary, which may come from the model: escaped for the terminal.
std::string safe(const nlohmann::json& v) {
  return terminal_safe(v.get<std::string>());
}

std::string shape_text(const nlohmann::json& shape) {
  if (shape.is_null()) return "<unknown rank>";
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    const auto d = shape[i].get<std::int64_t>();
    // -1 is TF's unknown dim; any other negative is shown as it is, not hidden behind "?".
    s += d == -1 ? std::string("?") : std::to_string(d);
  }
  return s + "]";
}

void print_endpoints(std::ostream& o, const char* title, const nlohmann::json& list) {
  o << title << " (" << list.size() << ")\n";
  for (const auto& e : list) {
    o << "  " << std::left << std::setw(28) << safe(e["name"]) << ' ' << std::setw(8)
      << (e["dtype"].is_null() ? "?" : safe(e["dtype"])) << ' ' << shape_text(e["shape"]);
    if (e["node"] != e["name"]) o << "  (node " << safe(e["node"]) << ')';
    o << '\n';
  }
}

void print_cost(std::ostream& o, const nlohmann::json& c) {
  o << "\nCompute  " << analysis::format_flops(c["flops"].get<double>()) << " per run, "
    << human_bytes(c["bytes_read"].get<std::uint64_t>()) << " read, "
    << human_bytes(c["bytes_written"].get<std::uint64_t>()) << " written";
  if (const int open = c["unknown_nodes"].get<int>())
    o << " (" << open << " nodes with shapes known only at run time not counted)";
  o << '\n';
  for (const auto& in : c["inputs_assumed"])
    o << "  for input " << safe(in["name"]) << ' ' << shape_text(in["shape"])
      << " (unknown dims taken as 1, as run feeds them)\n";
  std::map<std::string, const nlohmann::json*> by_name;
  for (const auto& n : c["nodes"]) by_name[n["name"].get<std::string>()] = &n;
  const double total = std::max(1.0, c["flops"].get<double>());
  for (const auto& name : c["costliest"]) {
    const nlohmann::json& n = *by_name.at(name.get<std::string>());
    const double f = n["flops"].get<double>();
    o << "  " << std::setw(12) << std::right << analysis::format_flops(f) << std::setw(6)
      << std::fixed << std::setprecision(1) << 100.0 * f / total << "%  " << std::left
      << std::setw(22) << safe(n["op"]) << ' ' << safe(n["name"]) << '\n';
  }
}

void print_text(std::ostream& o, const nlohmann::json& j) {
  o << "Model    " << safe(j["file"]) << '\n';
  o << "Kind     " << safe(j["kind"]);
  if (const std::string format = safe(j["format"]); !format.empty() && j["format"] != j["kind"])
    o << " (format \"" << format << "\")";
  o << '\n';
  const auto& p = j["producer"];
  if (const std::string by = safe(p["generated_by"]); !by.empty()) o << "Source   " << by << '\n';
  if (const std::string by = safe(p["converted_by"]); !by.empty()) o << "Converter " << by << '\n';
  if (p.contains("keras_version"))
    o << "Keras    " << safe(p["keras_version"]) << " (" << safe(p["backend"]) << ")\n";
  o << '\n';
  print_endpoints(o, "Inputs", j["inputs"]);
  print_endpoints(o, "Outputs", j["outputs"]);

  o << "\nNodes    " << j["node_count"].get<std::size_t>();
  if (j["function_count"].get<std::size_t>())
    o << " (+ " << j["function_count"].get<std::size_t>() << " library functions)";
  o << "\nOps      " << j["op_histogram"].size() << " kinds\n";
  std::vector<std::pair<int, std::string>> ops;
  for (const auto& [op, n] : j["op_histogram"].items()) ops.emplace_back(n.get<int>(), op);
  std::sort(ops.begin(), ops.end(), [](auto& a, auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  for (const auto& [n, op] : ops)
    o << "  " << std::setw(6) << std::right << n << "  " << terminal_safe(op) << '\n';

  print_cost(o, j["cost"]);

  const auto& w = j["weights"];
  o << "\nWeights  " << w["count"].get<std::size_t>() << ", "
    << human_bytes(w["bytes_on_disk"].get<std::uint64_t>()) << " on disk, "
    << human_bytes(w["bytes_decoded"].get<std::uint64_t>()) << " decoded\n";
  for (const auto& [q, s] : w["by_quantization"].items())
    o << "  " << std::left << std::setw(8) << q << ' ' << std::right << std::setw(6)
      << s["count"].get<int>() << " weights  "
      << human_bytes(s["bytes_on_disk"].get<std::uint64_t>()) << " -> "
      << human_bytes(s["bytes_decoded"].get<std::uint64_t>()) << '\n';
  o << "Shards   " << j["shards"].size() << '\n';
  for (const auto& s : j["shards"])
    o << "  " << safe(s["path"]) << "  " << human_bytes(s["bytes"].get<std::uint64_t>()) << '\n';
  if (!j["metadata"].empty()) {
    o << "Metadata\n";
    for (const auto& [k, v] : j["metadata"].items()) {
      std::string text = v.dump();
      // Cut in place: GCC 12 warns (-Warray-bounds, a false positive) on substr(...) + "...".
      if (text.size() > 100) {
        text.resize(97);
        text += "...";
      }
      o << "  " << terminal_safe(k) << ": " << terminal_safe(text) << '\n';
    }
  }
  for (const auto& warning : j["warnings"]) o << "Warning: " << safe(warning) << '\n';
}

}  // namespace

int info_command(std::span<const std::string> argv) {
  const Args args = Args::parse(argv, kOptions);
  if (args.positional().size() != 1) throw UsageError("info takes one MODEL");
  const LoadedModel m = load_model(args.positional()[0]);
  nlohmann::json j = analysis::summarize_model(m.bundle, *m.graph);
  j["load_ms"] = m.load_ms;
  if (args.flag("json"))
    std::cout << json_text(j) << '\n';
  else
    print_text(std::cout, j);
  return 0;
}

}  // namespace tfjsi::cli
