#include "engine_setup.h"

#include "backends/all_backends.h"
#include "core/error.h"

namespace tfjsi::cli {

void apply_flags(runtime::Engine& engine, const Args& args) {
  for (const auto& f : args.values("flag")) {
    const auto eq = f.find('=');
    if (eq == std::string::npos) throw UsageError("--flag expects NAME=VALUE, got '" + f + "'");
    engine.flags().set(f.substr(0, eq), f.substr(eq + 1));
  }
}

runtime::Precision parse_precision(const std::string& text, std::string_view option) {
  if (text != "fp32" && text != "fp16")
    throw UsageError(std::string(option) + " expects fp32 or fp16, got '" + text + "'");
  return text == "fp16" ? runtime::Precision::Fp16 : runtime::Precision::Fp32;
}

std::unique_ptr<runtime::Engine> make_engine(const Args& args) {
  auto engine = std::make_unique<runtime::Engine>();
  backends::add_all_backends(*engine);
  const auto precision = args.value("precision");
  if (precision) engine->set_precision(parse_precision(*precision));
  // After --precision: a flag named on the command line (gl.float32_enabled) has the last word.
  apply_flags(*engine, args);
  if (args.value("threads")) engine->set_threads(args.int_value("threads", 0, 1, 256));
  engine->set_backend(args.value("backend").value_or("auto"));
  if (precision == "fp16" && engine->precision() != runtime::Precision::Fp16)
    engine->log("WARNING: --precision fp16 is not in effect: backend '" +
                std::string(engine->backend().name()) + "' stores float32 tensors");
  return engine;
}

}  // namespace tfjsi::cli
