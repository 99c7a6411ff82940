// The options every running command shares (--backend, --precision, --threads, --flag) and the
// Engine they configure.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "args.h"
#include "runtime/engine.h"

namespace tfjsi::cli {

// Options to declare in a command that runs models.
inline constexpr OptionSpec kEngineOptions[] = {
    {"backend", true}, {"precision", true}, {"threads", true}, {"flag", true, true}};

// An Engine with every backend registered, flags from `--flag NAME=VALUE`, threads and
// precision set, and the backend from `--backend` (default auto) made active. Throws UsageError
// for bad values and BackendUnavailable (exit 3) for a backend that cannot run here.
std::unique_ptr<runtime::Engine> make_engine(const Args& args);

// The value of --precision, or of `option` ("fp32" or "fp16"); UsageError naming the option for
// anything else.
runtime::Precision parse_precision(const std::string& text,
                                   std::string_view option = "--precision");

// Applies every `--flag NAME=VALUE` of `args`; UsageError for a malformed or unknown one.
void apply_flags(runtime::Engine& engine, const Args& args);

}  // namespace tfjsi::cli
