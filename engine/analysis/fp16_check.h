// The fp16 check: does this model survive half-float storage (mobile WebGL's only texture format
// on many phones), which node first leaves half's range, what that does to the outputs, and the
// smallest set of nodes to keep in fp32 that brings the outputs back (checked by running it).
//
// Runs: fp32 on cpu (the reference), then fp16 storage on the cpu emulation (every stored tensor,
// weights and inputs rounded to half under a HalfRule, IEEE by default), on the emulation under
// the rule the gl driver was found to follow when that differs, and on gl with RGBA16F textures
// when gl is available; then the mixed plans of the fix search.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/fp16_gl_probe.h"
#include "analysis/fp16_rounding.h"
#include "analysis/tensor_error.h"
#include "analysis/tensor_stats.h"
#include "graph/ir.h"
#include "runtime/engine.h"
#include "runtime/executor.h"
#include "runtime/fp16_follow.h"

namespace tfjsi::analysis {

struct Fp16CheckOptions {
  HalfRule rule;  // the emulation's rule; IEEE (nearest even, inf) by default
  // A node is past the error threshold when its error relative to its own largest magnitude is
  // above this; flushing that changes a tensor by more than this is an underflow.
  double node_threshold = 1e-2;
  // Outputs match fp32 when max |fp16 - fp32| <= output_tolerance * max(1, max |fp32|).
  double output_tolerance = 1e-2;
  bool use_gl = true;  // run on gl fp16 (and probe it) when it is available
  // Where the emulation rounds; unset: as the engine's flag fp16_follow says (the gl run follows
  // that flag too, so both round in the same places).
  std::optional<runtime::Fp16Follow> follow;
  int max_fix_runs = 16;  // mixed-plan runs the fix search may make
};

struct Fp16NodeReport {
  int id = -1;
  std::string name, op;
  int runs = 0;  // times it ran (loops)
  bool float_outputs = false;
  TensorStats fp32;   // the reference
  TensorStats fp16;   // the emulation
  TensorError error;  // emulation against fp32
  std::optional<TensorStats> gl_fp16;
  std::optional<TensorError> gl_error;
  std::string gl_backend;  // where the node ran in the gl run ("gl", "cpu" for a fallback, ...)
};

struct Fp16OutputReport {
  std::string name;
  TensorError emulation, fixed;
  std::optional<TensorError> driver_emulation, gl;
};

struct PathStep {
  std::string node, op;
  double error = 0;  // relative, in the emulation
};

// The fp32 reference itself holds NaN or inf in an output (a weight or an input holding inf, a
// dequantization that overflowed): fp16 has nothing finite to be compared with.
struct Fp32Nonfinite {
  std::vector<std::string> outputs;  // the outputs holding it
  std::string value;                 // "NaN" (when any output holds NaN) or "inf"
  std::string node, op;  // the first node, in run order, whose values held it; empty if none did
  std::string input;     // a model input holding inf or NaN; empty if none does
  // One sentence naming the outputs, the node and the input.
  std::string message() const;
};

struct Fp16Report {
  runtime::Fp16Follow follow = runtime::Fp16Follow::Webgl;  // where the emulation rounded
  // Set: the fp32 reference is not finite, and that is the verdict (fp16_safe is false, the
  // fp16 passes did not run, nodes hold the fp32 statistics only).
  std::optional<Fp32Nonfinite> fp32_nonfinite;
  HalfRule rule;
  GlHalfProbe probe;
  std::string gl_run_error;  // the gl fp16 run failed (a kernel refused the model): why
  // The rule the gl driver's kernels follow, when probed; the overflow rule reported.
  std::optional<HalfRule> driver_rule;
  std::vector<Fp16NodeReport> nodes;  // in the order they first ran
  std::optional<std::string> first_overflow, first_underflow, first_error;
  std::optional<std::string> gl_first_error, driver_first_error;
  // From the first node that leaves half's range (else first_error) to the output it hurts most.
  std::vector<PathStep> error_path;
  std::vector<Fp16OutputReport> outputs;
  double max_output_error = 0;  // normalized, emulation
  std::optional<double> driver_max_output_error, gl_max_output_error;
  bool fp16_safe = false;  // no overflow and outputs within tolerance in the emulation
  std::vector<std::string> fp32_nodes;
  double fixed_max_error = 0;
  bool fixed = false;  // the fp32 set brings the outputs within tolerance
  int fix_runs = 0;
  double output_tolerance = 0, node_threshold = 0;
};

Fp16Report check_fp16(runtime::Engine& engine, const graph::Graph& graph,
                      const runtime::NamedTensors& inputs, const Fp16CheckOptions& options = {});

nlohmann::json to_json(const Fp16Report& r);
// A readable report: the verdict, the named nodes, the fix, then the worst nodes first.
std::string to_text(const Fp16Report& r, int worst_nodes = 15);

}  // namespace tfjsi::analysis
