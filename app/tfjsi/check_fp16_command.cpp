// tfjsi check-fp16 MODEL [--input [NAME=]FILE.npy]... [--json]
//   [--threshold X] [--tolerance X] [--rounding nearest-even|toward-zero] [--overflow inf|clamp]
//   [--no-gl] [--max-fix-runs N] [--threads N] [--flag NAME=VALUE]...
#include <cstdlib>
#include <iostream>

#include "analysis/fp16_check.h"
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

constexpr OptionSpec kOptions[] = {{"input", true, true},
                                   {"json"},
                                   {"threshold", true},
                                   {"tolerance", true},
                                   {"rounding", true},
                                   {"overflow", true},
                                   {"no-gl"},
                                   {"max-fix-runs", true},
                                   {"threads", true},
                                   {"flag", true, true}};

}  // namespace

int check_fp16_command(std::span<const std::string> argv) {
  const Args args = Args::parse(argv, kOptions);
  if (args.positional().size() != 1) throw UsageError("check-fp16 takes one MODEL");
  analysis::Fp16CheckOptions opt;
  opt.node_threshold = args.positive_value("threshold", opt.node_threshold);
  opt.output_tolerance = args.positive_value("tolerance", opt.output_tolerance);
  opt.max_fix_runs = args.int_value("max-fix-runs", opt.max_fix_runs, 0, 1000);
  opt.use_gl = !args.flag("no-gl");
  if (auto r = args.value("rounding")) {
    if (*r == "nearest-even")
      opt.rule.rounding = analysis::HalfRounding::NearestEven;
    else if (*r == "toward-zero")
      opt.rule.rounding = analysis::HalfRounding::TowardZero;
    else
      throw UsageError("--rounding expects nearest-even or toward-zero, got '" + *r + "'");
  }
  if (auto o = args.value("overflow")) {
    if (*o == "inf")
      opt.rule.overflow = analysis::HalfOverflow::Inf;
    else if (*o == "clamp")
      opt.rule.overflow = analysis::HalfOverflow::Clamp;
    else
      throw UsageError("--overflow expects inf or clamp, got '" + *o + "'");
  }

  auto engine = make_engine(args);
  const LoadedModel m = load_model(args.positional()[0]);
  engine->open_model(m.bundle);  // backends key what they cache on disk by it
  const ModelInputs inputs = make_inputs(*m.graph, args.values("input"));
  const analysis::Fp16Report report = analysis::check_fp16(*engine, *m.graph, inputs.tensors, opt);
  if (args.flag("json")) {
    nlohmann::json j = analysis::to_json(report);
    j["model"] = m.bundle.model_json.string();
    std::cout << json_text(j) << '\n';
  } else {
    std::cout << "fp16 check of " << m.bundle.model_json.string() << '\n'
              << analysis::to_text(report);
  }
  // A model whose fp32 outputs are NaN or inf is a bad model (or input) for this command.
  if (report.fp32_nonfinite) {
    std::cerr << "tfjsi: error: " << terminal_safe(report.fp32_nonfinite->message()) << '\n';
    return 1;
  }
  return 0;
}

}  // namespace tfjsi::cli
