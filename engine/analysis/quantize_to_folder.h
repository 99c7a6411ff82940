// `tfjsi quantize --dtype` and the GUI's Quantize dialog end to end: the bundle quantized, written
// into an OutputFolder (all or nothing), read back by our loader, and its output drift against
// float32 measured on cpu.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/output_folder.h"
#include "graph/ir.h"
#include "model/bundle.h"
#include "runtime/engine.h"
#include "runtime/executor.h"

namespace tfjsi::analysis {

// Every keep-float pattern must name at least one weight of `bundle`: a typo would otherwise
// quantize what the user meant to keep. Throws UsageError naming the pattern (`label` names the
// option: "--keep-float") and a few weight names.
void check_keep_float(const std::vector<std::string>& patterns, const model::Bundle& bundle,
                      const std::string& label);

struct WrittenQuantization {
  model::Quantization dtype = model::Quantization::None;
  std::uint64_t bytes = 0;                   // shards written
  std::uint64_t float_bytes = 0;             // the same with every float32 weight float32
  std::size_t quantized = 0;                 // weights quantized
  std::size_t untouched = 0;                 // weights not float32, left as stored
  std::vector<std::string> kept_float;       // float32 weights a pattern kept
  std::vector<std::string> not_quantizable;  // float32 weights holding NaN or inf, kept float32
  std::vector<std::string> shards;           // as the written manifest names them
  // DESIGN.md's drift of the bundle as written against float32, on cpu; nullopt when running
  // the model failed (drift_error says why; the bundle is written all the same).
  std::optional<double> drift;
  std::string drift_error;
};

// Quantizes every float32 weight of `bundle` to `dtype` but those a `keep_float` glob matches
// (checked first), writes it into `folder` and commits it, then measures the drift on `engine`'s
// cpu backend (its backend and precision are put back after). Throws ModelError when the bundle
// cannot be quantized or written (the folder is then left uncommitted), Cancelled when `cancel`
// is set before the bundle is in place.
WrittenQuantization quantize_to_folder(runtime::Engine& engine, const model::Bundle& bundle,
                                       const graph::Graph& graph, model::Quantization dtype,
                                       const std::vector<std::string>& keep_float,
                                       const runtime::NamedTensors& inputs, OutputFolder& folder,
                                       const std::atomic<bool>* cancel = nullptr);

}  // namespace tfjsi::analysis
