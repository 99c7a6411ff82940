// tfjsi compare MODEL --backends cpu,xnnpack,gl [--input [NAME=]FILE.npy]... [--json]
//   [--tolerance X] [--precision fp32|fp16] [--reference BACKEND[:fp16]] [--no-isolate]
//   [--threads N] [--flag NAME=VALUE]...
#include <cstdlib>
#include <iostream>

#include "analysis/compare.h"
#include "args.h"
#include "commands.h"
#include "core/error.h"
#include "core/terminal_text.h"
#include "engine_setup.h"
#include "inputs.h"
#include "model_arg.h"
#include "safe_output.h"

namespace tfjsi::cli {
namespace {

constexpr OptionSpec kOptions[] = {{"backends", true},  {"input", true, true}, {"json"},
                                   {"tolerance", true}, {"precision", true},   {"no-isolate"},
                                   {"threads", true},   {"flag", true, true},  {"reference", true}};

}  // namespace

int compare_command(std::span<const std::string> argv) {
  const Args args = Args::parse(argv, kOptions);
  if (args.positional().size() != 1) throw UsageError("compare takes one MODEL");
  analysis::CompareOptions opt;
  opt.backends = args.list_value("backends", "cpu,xnnpack,gl");
  if (opt.backends.empty()) throw UsageError("--backends expects a list such as cpu,xnnpack,gl");
  opt.tolerance = args.positive_value("tolerance", opt.tolerance);
  opt.precision = parse_precision(args.value("precision").value_or("fp32"));
  opt.isolate = !args.flag("no-isolate");
  // What the others are measured against: cpu fp32 unless asked ("gl", "gl:fp16", "xnnpack").
  if (auto ref = args.value("reference")) {
    std::string name = *ref;
    if (const auto colon = name.find(':'); colon != std::string::npos) {
      const std::string p = name.substr(colon + 1);
      if (p != "fp32" && p != "fp16")
        throw UsageError("--reference expects BACKEND or BACKEND:fp16, got '" + *ref + "'");
      opt.reference_precision = p == "fp16" ? runtime::Precision::Fp16 : runtime::Precision::Fp32;
      name.resize(colon);
    }
    opt.reference = name;
  }

  auto engine = make_engine(args);
  for (const auto& b : opt.backends)
    if (!engine->find_backend(b)) throw UsageError("unknown backend '" + b + "' in --backends");
  if (!engine->find_backend(opt.reference))
    throw UsageError("unknown backend '" + opt.reference + "' in --reference");
  const LoadedModel m = load_model(args.positional()[0]);
  engine->open_model(m.bundle);  // backends key what they cache on disk by it
  const ModelInputs inputs = make_inputs(*m.graph, args.values("input"));
  const analysis::CompareReport report =
      analysis::compare_backends(*engine, *m.graph, inputs.tensors, opt);
  if (args.flag("json")) {
    nlohmann::json j = analysis::to_json(report);
    j["model"] = m.bundle.model_json.string();
    std::cout << json_text(j) << '\n';
  } else {
    std::cout << "compare of " << m.bundle.model_json.string() << '\n' << analysis::to_text(report);
  }
  for (const auto& b : report.backends)
    if (!b.available) {
      std::cerr << "tfjsi: backend not available: " << b.name << ": " << b.reason << '\n';
      return 3;
    }
  for (const auto& b : report.backends)
    if (!b.run_error.empty()) {
      std::cerr << "tfjsi: error: on " << b.name << ": " << terminal_safe(b.run_error) << '\n';
      return 1;
    }
  return 0;
}

}  // namespace tfjsi::cli
