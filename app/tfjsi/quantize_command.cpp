// tfjsi quantize MODEL --dtype float16|uint16|uint8 [--keep-float PATTERN]... --out DIR
//   [--input [NAME=]FILE.npy]... [--threads N] [--json]
// tfjsi quantize MODEL --advise [--tolerance T] [--candidates K] [--input ...] [--json]
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "analysis/quantize_advice.h"
#include "analysis/quantize_bundle.h"
#include "analysis/tensor_error.h"
#include "byte_size.h"
#include "commands.h"
#include "core/error.h"
#include "core/terminal_text.h"
#include "inputs.h"
#include "model_arg.h"
#include "out_dir.h"
#include "quantize_advise.h"
#include "safe_output.h"

namespace tfjsi::cli {
namespace {

namespace fs = std::filesystem;

constexpr OptionSpec kOptions[] = {
    {"dtype", true},  {"keep-float", true, true}, {"out", true},        {"json"},
    {"advise"},       {"tolerance", true},        {"candidates", true}, {"input", true, true},
    {"threads", true}};

model::Quantization parse_dtype(const std::string& s) {
  if (s == "float16") return model::Quantization::Float16;
  if (s == "uint16") return model::Quantization::Uint16;
  if (s == "uint8") return model::Quantization::Uint8;
  throw UsageError("--dtype expects float16, uint16 or uint8, got '" + s + "'");
}

// Every pattern must name at least one weight: a typo would otherwise quantize what the user
// meant to keep.
void check_patterns(const std::vector<std::string>& patterns, const model::Bundle& bundle) {
  for (const auto& p : patterns) {
    if (p.empty()) throw UsageError("--keep-float expects a glob such as 'conv2d_1/*', got ''");
    bool any = false;
    for (const auto& w : bundle.weights) any = any || analysis::glob_matches(p, w.name);
    if (any) continue;
    std::string some;
    for (std::size_t i = 0; i < bundle.weights.size() && i < 3; ++i)
      some += (i ? ", '" : "'") + bundle.weights[i].name + "'";
    throw UsageError("--keep-float '" + p + "' matches no weight of " + bundle.model_json.string() +
                     " (a glob on whole weight names, e.g. " +
                     (some.empty() ? std::string("none") : some) + "; see tfjsi info)");
  }
}

}  // namespace

std::unique_ptr<runtime::Engine> make_cpu_engine(const Args& args) {
  auto engine = std::make_unique<runtime::Engine>();
  if (args.value("threads")) engine->set_threads(args.int_value("threads", 0, 1, 256));
  engine->set_backend("cpu");
  return engine;
}

int quantize_command(std::span<const std::string> argv) {
  const Args args = Args::parse(argv, kOptions);
  if (args.positional().size() != 1) throw UsageError("quantize takes one MODEL");
  if (args.flag("advise")) {
    for (const char* o : {"dtype", "keep-float", "out"})
      if (args.flag(o))
        throw UsageError(std::string("--") + o +
                         " does not go with --advise (which writes nothing)");
    return quantize_advise(args);
  }
  for (const char* o : {"tolerance", "candidates"})
    if (args.flag(o)) throw UsageError(std::string("--") + o + " goes with --advise only");
  const auto dtype_arg = args.value("dtype");
  if (!dtype_arg) throw UsageError("quantize needs --dtype float16|uint16|uint8 (or --advise)");
  const model::Quantization dtype = parse_dtype(*dtype_arg);
  const auto out_arg = args.value("out");
  if (!out_arg || out_arg->empty()) throw UsageError("quantize needs --out DIR");
  const fs::path out = *out_arg;
  const std::vector<std::string> patterns = args.values("keep-float");

  const LoadedModel m = load_model(args.positional()[0]);
  check_patterns(patterns, m.bundle);
  const auto keep = [&](const model::Weight& w) {
    for (const auto& p : patterns)
      if (analysis::glob_matches(p, w.name)) return true;
    return false;
  };
  const ModelInputs inputs = make_inputs(*m.graph, args.values("input"));  // before writing
  const analysis::QuantizedBundle q = analysis::quantize_bundle(m.bundle, dtype, keep);
  for (const auto& name : q.not_quantizable)
    std::cerr << "tfjsi: warning: weight '" << terminal_safe(name) << "' holds a NaN or an "
              << "infinity, which " << *dtype_arg << " cannot represent: left float32\n";
  prepare_out_dir(out, m.bundle);
  const std::uint64_t written = analysis::write_quantized_bundle(m.bundle, q, out);

  // The drift is measured on the bundle as written, read back by our loader (which decodes as
  // TF.js does).
  const LoadedModel back = load_model(out.string());
  auto engine = make_cpu_engine(args);
  double drift = 0;
  try {
    drift = analysis::output_drift(runtime::Executor(*engine, *m.graph).run(inputs.tensors),
                                   runtime::Executor(*engine, *back.graph).run(inputs.tensors));
  } catch (const ModelError& e) {
    throw ModelError("the bundle is written in " + out.string() +
                     ", but running the model on cpu to measure its drift failed (give inputs "
                     "with --input?): " +
                     e.what());
  }

  std::size_t quantized = 0, untouched = 0;
  nlohmann::json kept = nlohmann::json::array();
  for (std::size_t i = 0; i < m.bundle.weights.size(); ++i) {
    if (q.weights[i])
      ++quantized;
    else if (m.bundle.weights[i].dtype != DType::Float32)
      ++untouched;
    else if (keep(m.bundle.weights[i]))
      kept.push_back(m.bundle.weights[i].name);
  }
  nlohmann::json j;
  j["model"] = m.bundle.model_json.string();
  j["out"] = out.string();
  j["dtype"] = std::string(model::to_string(dtype));
  j["bytes"] = written;
  j["float_bytes"] = q.float_bytes;
  j["drift"] = analysis::json_number(drift);
  j["inputs"] = inputs.generated.size() == m.graph->inputs.size() ? "deterministic" : "files";
  j["weights"] = {{"quantized", quantized},
                  {"kept_float", kept},
                  {"not_quantizable", q.not_quantizable},
                  {"untouched", untouched}};
  j["shards"] = nlohmann::json::array();
  for (const auto& s : back.bundle.shards) j["shards"].push_back(s.manifest_path);
  if (args.flag("json")) {
    std::cout << json_text(j) << '\n';
    return 0;
  }
  std::cout << "Quantized " << m.bundle.model_json.string() << " to " << *dtype_arg << " in "
            << out.string() << "/\n"
            << "  weights: " << quantized << " quantized, " << kept.size() << " kept float32, "
            << (q.not_quantizable.empty()
                    ? std::string()
                    : std::to_string(q.not_quantizable.size()) + " left float32 (NaN or inf), ")
            << untouched << " left as stored (not float32)\n"
            << "  shards:  " << human_bytes(written) << " in " << back.bundle.shards.size()
            << " file(s); float32 would be " << human_bytes(q.float_bytes) << " ("
            << std::setprecision(3)
            << (q.float_bytes ? double(written) / double(q.float_bytes) : 1.0) << "x)\n"
            << "  drift:   " << drift
            << " (cpu; max over float outputs of max|quantized - float| / max(1, max|float|))\n";
  return 0;
}

}  // namespace tfjsi::cli
