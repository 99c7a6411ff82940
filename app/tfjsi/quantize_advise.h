// The --advise half of `tfjsi quantize`, and what both halves share.
#pragma once

#include <cstdint>
#include <string>

#include "args.h"
#include "model/bundle.h"
#include "runtime/engine.h"

namespace tfjsi::cli {

// tfjsi quantize MODEL --advise [--tolerance T] [--candidates K] [--input ...] [--json]
int quantize_advise(const Args& args);

// The cpu engine quantize measures drift on (--threads applies).
std::unique_ptr<runtime::Engine> make_cpu_engine(const Args& args);

}  // namespace tfjsi::cli
