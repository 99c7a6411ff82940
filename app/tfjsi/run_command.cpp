// tfjsi run MODEL [--backend auto|cpu|xnnpack|gl] [--precision fp32|fp16]
//                 [--input NAME=FILE.npy]... [--out DIR] [--json]
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "analysis/nonfinite_origin.h"
#include "args.h"
#include "commands.h"
#include "core/error.h"
#include "core/terminal_text.h"
#include "engine_setup.h"
#include "inputs.h"
#include "io/npy.h"
#include "io/safe_write.h"
#include "model_arg.h"
#include "progress_line.h"
#include "run_report.h"
#include "safe_output.h"

namespace tfjsi::cli {
namespace {

std::vector<OptionSpec> options() {
  std::vector<OptionSpec> o(std::begin(kEngineOptions), std::end(kEngineOptions));
  o.insert(o.end(), {{"input", true, true}, {"out", true}, {"json"}});
  return o;
}

void write_outputs(const std::filesystem::path& dir, const graph::Graph& graph,
                   const std::vector<HostTensor>& outputs) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw ModelError(dir.string() + ": cannot create the output folder: " + ec.message());
  nlohmann::json list = nlohmann::json::array();
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    const std::string file = "output_" + std::to_string(k) + ".npy";
    io::write_npy(dir / file, outputs[k]);
    list.push_back({{"name", graph.outputs[k].name},
                    {"file", file},
                    {"shape", outputs[k].shape},
                    {"dtype", std::string(to_string(outputs[k].dtype))}});
  }
  io::write_file_replacing(dir / "outputs.json", list.dump(2) + '\n');
}

}  // namespace

int run_command(std::span<const std::string> argv) {
  const auto specs = options();
  const Args args = Args::parse(argv, specs);
  if (args.positional().size() != 1) throw UsageError("run takes one MODEL");
  auto engine = make_engine(args);
  const LoadedModel m = load_model(args.positional()[0]);
  engine->open_model(m.bundle);  // backends key what they cache on disk by it
  const ModelInputs inputs = make_inputs(*m.graph, args.values("input"));

  runtime::Executor executor(*engine, *m.graph);
  const ProgressLine progress(*engine, !args.flag("json"));
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<HostTensor> outputs = executor.run(inputs.tensors);
  const double run_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  if (auto out = args.value("out")) write_outputs(*out, *m.graph, outputs);

  nlohmann::json j;
  j["model"] = m.bundle.model_json.string();
  j["backend"] = std::string(engine->backend().name());
  j["precision"] = std::string(runtime::to_string(engine->precision()));
  j["threads"] = engine->threads();
  j["load_ms"] = m.load_ms;
  j["run_ms"] = run_ms;
  j["inputs"] = nlohmann::json::array();
  for (const auto& e : m.graph->inputs) {
    auto s = tensor_stats(inputs.tensors.at(e.name));
    s["name"] = e.name;
    s["source"] = std::find(inputs.generated.begin(), inputs.generated.end(), e.name) !=
                          inputs.generated.end()
                      ? "generator"
                      : "file";
    j["inputs"].push_back(s);
  }
  j["outputs"] = nlohmann::json::array();
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    auto s = tensor_stats(outputs[k]);
    s["name"] = m.graph->outputs[k].name;
    j["outputs"].push_back(s);
  }
  j["placement"] = placement(*executor.plan().graph, executor.plan());
  // An output that is not finite gets its origin: one more run, watching every node.
  bool nan = false, inf = false;
  for (const HostTensor& t : outputs) {
    nan = nan || analysis::holds_nonfinite(t, true);
    inf = inf || analysis::holds_nonfinite(t, false);
  }
  std::optional<analysis::NonfiniteOrigin> origin;
  if (nan || inf) origin = analysis::find_nonfinite_origin(*engine, *m.graph, inputs.tensors, nan);
  if (origin)
    j["nonfinite_origin"] = {{"value", origin->value},
                             {"node", origin->node},
                             {"op", origin->op},
                             {"weight", origin->weight},
                             {"input", origin->input}};

  if (args.flag("json")) {
    std::cout << json_text(j) << '\n';
    return 0;
  }
  std::cout << "Ran " << m.bundle.model_json.string() << " on " << j["backend"].get<std::string>()
            << " (" << j["precision"].get<std::string>() << ") in " << run_ms << " ms\n";
  for (const auto& f : j["placement"]["fallbacks"])
    std::cout << "  warning: " << terminal_safe(f["message"].get<std::string>()) << '\n';
  for (const auto& o : j["outputs"]) {
    std::cout << "  " << terminal_safe(o["name"].get<std::string>()) << "  "
              << o["dtype"].get<std::string>() << ' ' << o["shape"].dump();
    if (o.contains("min"))
      std::cout << "  min " << o["min"].get<double>() << "  max " << o["max"].get<double>()
                << "  mean " << o["mean"].get<double>();
    if (o.value("nan", 0) || o.value("inf", 0))
      std::cout << "  NaN " << o["nan"].get<std::size_t>() << "  inf "
                << o["inf"].get<std::size_t>();
    std::cout << '\n';
  }
  if (origin) std::cout << "  warning: " << terminal_safe(origin->message()) << '\n';
  if (auto out = args.value("out")) std::cout << "Outputs written to " << *out << '\n';
  return 0;
}

}  // namespace tfjsi::cli
