#include "quantize_advise.h"

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "analysis/quantize_advice.h"
#include "byte_size.h"
#include "core/terminal_text.h"
#include "inputs.h"
#include "model_arg.h"
#include "safe_output.h"

namespace tfjsi::cli {
namespace {

namespace fs = std::filesystem;

// A word for a POSIX shell: single-quoted unless plainly safe.
std::string shell_word(const std::string& s) {
  const bool plain = !s.empty() && s.find_first_not_of(
                                       "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
                                       "QRSTUVWXYZ0123456789_-./=:,+@%") == std::string::npos;
  if (plain) return s;
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Where the recommended command writes: beside the model, named after it and the dtype.
fs::path suggested_out(const model::Bundle& bundle, const std::string& dtype) {
  const fs::path& f = bundle.model_json;
  if (f.filename() == "model.json") {
    const fs::path dir = f.parent_path().empty() ? fs::current_path() : f.parent_path();
    const fs::path abs = fs::absolute(dir).lexically_normal();
    const std::string name =
        abs.filename().empty() ? abs.parent_path().filename().string() : abs.filename().string();
    return abs.parent_path() / (name + "-" + dtype);
  }
  return f.parent_path() / (f.stem().string() + "-" + dtype);
}

std::vector<std::string> command_for(const std::string& model, const analysis::QuantizeOption& o,
                                     const fs::path& out) {
  std::vector<std::string> words = {"tfjsi", "quantize", model, "--dtype",
                                    std::string(model::to_string(o.dtype))};
  for (const auto& p : o.keep_float) {
    words.push_back("--keep-float");
    words.push_back(p);
  }
  words.push_back("--out");
  words.push_back(out.string());
  return words;
}

}  // namespace

int quantize_advise(const Args& args) {
  analysis::AdviceOptions opt;
  opt.tolerance = args.positive_value("tolerance", opt.tolerance);
  opt.candidates = args.int_value("candidates", opt.candidates, 0, 64);
  const bool json = args.flag("json");
  opt.progress = [](std::string_view line) {
    std::cerr << "quantize: " << terminal_safe(std::string(line)) << '\n';
  };
  const std::string model_arg = args.positional()[0];
  const LoadedModel m = load_model(model_arg);
  auto engine = make_cpu_engine(args);
  const ModelInputs inputs = make_inputs(*m.graph, args.values("input"));
  const analysis::QuantizeAdvice advice =
      analysis::advise_quantization(*engine, m.bundle, *m.graph, inputs.tensors, opt);

  std::vector<std::string> command;
  if (advice.recommended) {
    const auto& o = advice.options[*advice.recommended];
    command =
        command_for(model_arg, o, suggested_out(m.bundle, std::string(model::to_string(o.dtype))));
  }
  std::string command_line;
  for (const auto& w : command) command_line += (command_line.empty() ? "" : " ") + shell_word(w);

  if (json) {
    nlohmann::json j = analysis::to_json(advice);
    j["model"] = m.bundle.model_json.string();
    j["backend"] = "cpu";
    j["inputs"] = inputs.generated.size() == m.graph->inputs.size() ? "deterministic" : "files";
    j["command"] = command.empty() ? nlohmann::json() : nlohmann::json(command);
    j["command_line"] = command.empty() ? nlohmann::json() : nlohmann::json(command_line);
    std::cout << json_text(j) << '\n';
    return 0;
  }
  std::cout << "Quantization advice for " << m.bundle.model_json.string() << " (cpu, "
            << advice.runs << " quantized runs, tolerance " << advice.tolerance
            << "; float32 weights " << human_bytes(advice.float_bytes) << ")\n";
  // The last column, unpadded, names the group each row adds to the one above it.
  std::cout << "  " << std::left << std::setw(9) << "dtype" << std::setw(6) << "kept"
            << std::setw(12) << "bytes" << std::setw(12) << "drift"
            << "group kept float32 (added to the row above)\n";
  for (std::size_t i = 0; i < advice.options.size(); ++i) {
    const auto& o = advice.options[i];
    std::ostringstream drift;
    drift << std::setprecision(4) << o.drift;
    std::cout << (advice.recommended == i ? "* " : "  ") << std::setw(9)
              << model::to_string(o.dtype) << std::setw(6) << o.kept_groups.size() << std::setw(12)
              << human_bytes(o.bytes) << std::setw(12) << drift.str()
              << (o.kept_groups.empty() ? "-" : terminal_safe(o.kept_groups.back())) << '\n';
  }
  if (!advice.recommended) {
    std::cout << "No option is within the tolerance " << advice.tolerance
              << "; keep float32, or raise --tolerance or --candidates.\n";
    return 0;
  }
  std::cout << "Smallest bundle within tolerance (*), written by:\n  "
            << terminal_safe(command_line) << '\n';
  return 0;
}

}  // namespace tfjsi::cli
