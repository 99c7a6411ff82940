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

std::unique_ptr<runtime::Engine> make_engine(const Args& args) {
  auto engine = std::make_unique<runtime::Engine>();
  backends::add_all_backends(*engine);
  apply_flags(*engine, args);
  if (args.value("threads")) engine->set_threads(args.int_value("threads", 0, 1, 256));
  const std::string precision = args.value("precision").value_or("fp32");
  if (precision != "fp32" && precision != "fp16")
    throw UsageError("--precision expects fp32 or fp16, got '" + precision + "'");
  const bool fp16 = precision == "fp16";
  engine->set_precision(fp16 ? runtime::Precision::Fp16 : runtime::Precision::Fp32);
  // The gl backend reads its texture format from this flag.
  if (engine->flags().has("gl.float32_enabled"))
    engine->flags().set_value("gl.float32_enabled", !fp16);
  engine->set_backend(args.value("backend").value_or("auto"));
  return engine;
}

}  // namespace tfjsi::cli
