#include "fuzz_targets.h"

namespace tfjsi::fuzz {

Target find_target(std::string_view name) {
  if (name == "model_json") return model_json;
  if (name == "bundle") return bundle;
  if (name == "graphdef") return graphdef;
  if (name == "keras") return keras;
  if (name == "npy") return npy;
  return nullptr;
}

}  // namespace tfjsi::fuzz
