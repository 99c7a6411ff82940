// tfjsi quantize MODEL --dtype float16|uint16|uint8 [--keep-float PATTERN]... --out DIR
//   [--input [NAME=]FILE.npy]... [--threads N] [--json]
// tfjsi quantize MODEL --advise [--tolerance T] [--candidates K] [--input ...] [--json]
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "analysis/quantize_advice.h"
#include "analysis/quantize_bundle.h"
#include "analysis/quantize_to_folder.h"
#include "analysis/tensor_error.h"
#include "byte_size.h"
#include "commands.h"
#include "core/error.h"
#include "core/terminal_text.h"
#include "inputs.h"
#include "model_arg.h"
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
  analysis::check_keep_float(patterns, m.bundle, "--keep-float");
  const ModelInputs inputs = make_inputs(*m.graph, args.values("input"));  // before writing
  analysis::OutputFolder folder(out, m.bundle.dir, "--out");
  auto engine = make_cpu_engine(args);
  const analysis::WrittenQuantization w = analysis::quantize_to_folder(
      *engine, m.bundle, *m.graph, dtype, patterns, inputs.tensors, folder);
  for (const auto& name : w.not_quantizable)
    std::cerr << "tfjsi: warning: weight '" << terminal_safe(name) << "' holds a NaN or an "
              << "infinity, which " << *dtype_arg << " cannot represent: left float32\n";
  if (!w.drift)
    throw ModelError("the bundle is written in " + out.string() +
                     ", but running the model on cpu to measure its drift failed (give inputs "
                     "with --input?): " +
                     w.drift_error);
  const double drift = *w.drift;
  const std::uint64_t written = w.bytes;
  const std::size_t quantized = w.quantized, untouched = w.untouched;
  const nlohmann::json kept = w.kept_float;

  nlohmann::json j;
  j["model"] = m.bundle.model_json.string();
  j["out"] = out.string();
  j["dtype"] = std::string(model::to_string(dtype));
  j["bytes"] = written;
  j["float_bytes"] = w.float_bytes;
  j["drift"] = analysis::json_number(drift);
  j["inputs"] = inputs.generated.size() == m.graph->inputs.size() ? "deterministic" : "files";
  j["weights"] = {{"quantized", quantized},
                  {"kept_float", kept},
                  {"not_quantizable", w.not_quantizable},
                  {"untouched", untouched}};
  j["shards"] = w.shards;
  if (args.flag("json")) {
    std::cout << json_text(j) << '\n';
    return 0;
  }
  std::cout << "Quantized " << m.bundle.model_json.string() << " to " << *dtype_arg << " in "
            << out.string() << "/\n"
            << "  weights: " << quantized << " quantized, " << kept.size() << " kept float32, "
            << (w.not_quantizable.empty()
                    ? std::string()
                    : std::to_string(w.not_quantizable.size()) + " left float32 (NaN or inf), ")
            << untouched << " left as stored (not float32)\n"
            << "  shards:  " << human_bytes(written) << " in " << w.shards.size()
            << " file(s); float32 would be " << human_bytes(w.float_bytes) << " ("
            << std::setprecision(3)
            << (w.float_bytes ? double(written) / double(w.float_bytes) : 1.0) << "x)\n"
            << "  drift:   " << drift
            << " (cpu; max over float outputs of max|quantized - float| / max(1, max|float|))\n";
  return 0;
}

}  // namespace tfjsi::cli
