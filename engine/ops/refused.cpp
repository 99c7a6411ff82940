#include "ops/refused.h"

namespace tfjsi::ops {

namespace {

struct Refused {
  std::string_view op, why;
};

// TF Decision Forests: the model is not in the graph but in a Yggdrasil Decision Forests model
// (assets) that @tensorflow/tfjs-tfdf loads into its own WASM inference runtime and registers
// these ops for; TF.js's converter maps them only for that package.
constexpr std::string_view kTfdf =
    "a TF Decision Forests op: TF.js runs it only through @tensorflow/tfjs-tfdf, which loads the "
    "forest's own files into a separate WASM inference runtime (Yggdrasil Decision Forests); "
    "tfjsi does not run decision forest models";

constexpr Refused kRefused[] = {
    {"SimpleMLCreateModelResource", kTfdf},
    {"SimpleMLInferenceOpWithHandle", kTfdf},
    {"SimpleMLLoadModelFromPathWithHandle", kTfdf},
};

}  // namespace

std::optional<std::string_view> refusal(std::string_view op) {
  for (const Refused& r : kRefused)
    if (r.op == op) return r.why;
  return std::nullopt;
}

}  // namespace tfjsi::ops
