// tfjsi reduce MODEL --until fp16-overflow|nonfinite|diverge:A,B|error --out DIR
//   [--backend NAME] [--precision fp32|fp16] [--tolerance X] [--input [NAME=]FILE.npy]...
//   [--threads N] [--flag NAME=VALUE]... [--json]
#include <iostream>

#include "analysis/reduce_to_folder.h"
#include "args.h"
#include "backends/all_backends.h"
#include "commands.h"
#include "core/error.h"
#include "core/terminal_text.h"
#include "engine_setup.h"
#include "inputs.h"
#include "model_arg.h"
#include "safe_output.h"

namespace tfjsi::cli {
namespace {

namespace fs = std::filesystem;
using analysis::ReduceConditionKind;

constexpr OptionSpec kOptions[] = {
    {"until", true},       {"out", true},       {"json"},
    {"input", true, true}, {"tolerance", true}, {"backend", true},
    {"precision", true},   {"threads", true},   {"flag", true, true}};

analysis::ReduceCondition condition_from(const Args& args) {
  const auto until = args.value("until");
  if (!until) throw UsageError("reduce needs --until fp16-overflow|nonfinite|diverge:A,B|error");
  analysis::ReduceCondition c = analysis::parse_condition(*until);
  const auto backend = args.value("backend");
  switch (c.kind) {
    case ReduceConditionKind::Fp16Overflow:
      for (const char* o : {"backend", "precision"})
        if (args.flag(o))
          throw UsageError(std::string("--") + o +
                           " does not go with --until fp16-overflow (measured on cpu at fp32, "
                           "as check-fp16 measures it)");
      break;
    case ReduceConditionKind::Diverge:
      if (backend)
        throw UsageError("--backend does not go with --until diverge:A,B (A and B are the two)");
      break;
    default:
      c.backend = backend.value_or("cpu");
  }
  if (args.flag("tolerance")) {
    if (c.kind != ReduceConditionKind::Diverge)
      throw UsageError("--tolerance goes with --until diverge:A,B only");
    c.tolerance = args.positive_value("tolerance", c.tolerance);
  }
  if (const auto p = args.value("precision")) c.precision = parse_precision(*p);
  return c;
}

// The backends the condition runs on, checked before anything long starts (exit 3).
void check_backends(runtime::Engine& engine, const analysis::ReduceCondition& c) {
  if (c.kind == ReduceConditionKind::Fp16Overflow) return;
  if (c.kind == ReduceConditionKind::Diverge) engine.set_backend(c.reference);
  engine.set_backend(c.backend);
  engine.set_backend("cpu");
}

}  // namespace

int reduce_command(std::span<const std::string> argv) {
  const Args args = Args::parse(argv, kOptions);
  if (args.positional().size() != 1) throw UsageError("reduce takes one MODEL");
  const analysis::ReduceCondition condition = condition_from(args);
  const auto out_arg = args.value("out");
  if (!out_arg || out_arg->empty()) throw UsageError("reduce needs --out DIR");
  const fs::path out = *out_arg;
  const bool json = args.flag("json");

  // Not make_engine: --backend and --precision belong to the condition here.
  auto engine = std::make_unique<runtime::Engine>();
  backends::add_all_backends(*engine);
  apply_flags(*engine, args);
  if (args.value("threads")) engine->set_threads(args.int_value("threads", 0, 1, 256));
  check_backends(*engine, condition);

  const LoadedModel m = load_model(args.positional()[0]);
  engine->open_model(m.bundle);
  const ModelInputs inputs = make_inputs(*m.graph, args.values("input"));
  analysis::OutputFolder folder(out, m.bundle.dir, "--out");

  analysis::ReduceOptions opt;
  opt.condition = condition;
  opt.on_step = [](const analysis::ReduceStep& s) {
    std::cerr << "reduce: step " << s.step << " (" << s.phase << "): " << s.nodes << " nodes, "
              << (s.holds ? "holds" : "does not hold") << "; " << s.smallest << " nodes left\n";
  };
  const auto done =
      analysis::reduce_to_folder(*engine, m.bundle, *m.graph, inputs.tensors, opt, folder);
  if (!done) {
    std::cerr << "tfjsi: error: the condition " << condition.text()
              << " never holds on the whole model " << terminal_safe(m.bundle.model_json.string())
              << " (nothing to reduce)\n";
    return 1;
  }
  const analysis::Reduction* r = &done->reduction;
  std::cerr << "reduce: the whole model (" << m.graph->nodes.size()
            << " nodes): " << terminal_safe(r->whole.summary(condition)) << '\n';
  const auto* again = &done->confirmed;
  const double seconds = done->seconds;

  nlohmann::json j;
  j["model"] = m.bundle.model_json.string();
  j["out"] = out.string();
  j["condition"] = condition.text();
  j["precision"] = std::string(runtime::to_string(condition.precision));
  j["recorded_on"] = r->recorded_on;
  j["nodes_before"] = r->nodes_before;
  j["nodes_after"] = done->nodes_after;
  j["culprit"] = r->reduced.node;
  j["culprit_op"] = r->reduced.op;
  j["whole"] = r->whole.to_json(condition);
  j["reduced"] = again->to_json(condition);
  j["steps"] = r->steps;
  j["seconds"] = seconds;
  j["inputs"] = r->subgraph.inputs.size();
  j["bytes"] = done->bytes;
  j["files"] = done->files;
  if (json) {
    std::cout << json_text(j) << '\n';
    return 0;
  }
  std::cout << "Reduced " << m.bundle.model_json.string() << " until " << condition.text() << " to "
            << out.string() << "/\n"
            << "  nodes:   " << r->nodes_before << " -> " << done->nodes_after << " ("
            << r->subgraph.inputs.size() << " inputs fed with values recorded on " << r->recorded_on
            << "), " << r->steps << " steps, " << seconds << " s\n"
            << "  culprit: " << again->summary(condition) << '\n'
            << "  repro:   cd " << out.string()
            << " && npm install @tensorflow/tfjs@4.22.0 && node repro.js\n";
  return 0;
}

}  // namespace tfjsi::cli
